import TouchCore

extension Engine {
    /// Gives a device a new calibration matrix (a reloaded configuration): the mapping changes from its next event
    /// on, and fingers already down go on under the new matrix. False when the device is gone or already uses it.
    @discardableResult
    public func setCalibration(_ matrix: CalibrationMatrix, of id: DeviceHandle) -> Bool {
        guard let device = devices[id.index], device.mappingSettings.calibration != matrix else { return false }
        var settings = device.mappingSettings
        settings.calibration = matrix
        let mapped = device.followsScene ? withSceneSize(settings) : settings
        guard let mapping = try? CoordinateMapping(device: device.description, settings: mapped) else { return false }
        device.mappingSettings = settings
        device.pipeline.mapping = mapping
        return true
    }

    /// A device's calibration matrix as its mapping uses it.
    public func calibration(of id: DeviceHandle) -> CalibrationMatrix? {
        devices[id.index]?.mappingSettings.calibration
    }

    private func withSceneSize(_ settings: CoordinateMapping.Settings) -> CoordinateMapping.Settings {
        var sized = settings
        sized.outputSize = (scene.width, scene.height)
        return sized
    }
}
