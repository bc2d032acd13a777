import TouchCore

/// What a virtual touchscreen (`EngineEffect.emit`) must look like to its reader, checked frame by frame by the
/// engine target: each frame ends in its only `SYN_REPORT`; slots stay within the device's; a tracking id starts a
/// finger only on a free slot and -1 ends one only on a live slot; `BTN_TOUCH` changes with the first finger and the
/// last; and the engine's count of forwarded fingers is what the frames leave down.
struct VirtualTouchscreenModel {
    let slotCount: Int
    var trackingIDs: [Int32]
    var slot = 0
    var touching = false

    init(description: DeviceDescription) {
        slotCount = description.slotCount
        trackingIDs = Array(repeating: -1, count: slotCount)
    }

    var liveFingers: Int { trackingIDs.filter { $0 >= 0 }.count }

    mutating func apply(_ frame: [InputEvent], device: String) {
        require(!frame.isEmpty, "\(device): an empty frame was emitted")
        for (index, event) in frame.enumerated() {
            let isReport = event.type == EventType.syn && event.code == SynCode.report
            require(isReport == (index == frame.count - 1), "\(device): SYN_REPORT not exactly at the frame's end")
            guard event.type == EventType.abs else {
                if event.type == EventType.key {
                    require(event.code == KeyCode.touch, "\(device): a key other than BTN_TOUCH")
                    require((event.value == 1) != touching, "\(device): BTN_TOUCH \(event.value) repeated")
                    touching = event.value == 1
                }
                continue
            }
            switch event.code {
            case AbsCode.mtSlot:
                require((0..<slotCount).contains(Int(event.value)), "\(device): slot \(event.value) out of range")
                require(Int(event.value) != slot, "\(device): a repeated ABS_MT_SLOT")
                slot = Int(event.value)
            case AbsCode.mtTrackingID:
                if event.value >= 0 {
                    require(trackingIDs[slot] < 0, "\(device): a new finger on live slot \(slot)")
                    require(event.value <= 65535, "\(device): tracking id \(event.value)")
                } else {
                    require(trackingIDs[slot] >= 0, "\(device): a lift on free slot \(slot)")
                }
                trackingIDs[slot] = event.value
            default:
                break
            }
        }
        require(touching == (liveFingers > 0), "\(device): BTN_TOUCH \(touching) with \(liveFingers) fingers down")
    }
}
