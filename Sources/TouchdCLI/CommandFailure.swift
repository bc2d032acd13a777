import TouchFormats
import TouchJSON
import TouchPosix

/// The exit status of a command that failed, by what failed (sysexits(3)); each command's `--help` lists its own.
enum CommandFailure {
    /// What a JSON file (a configuration, a scene) is to the command that read it.
    enum JSONFileRole {
        /// The daemon's configuration, and the scene it names: wrong or missing, it is EX_CONFIG, which the systemd
        /// unit does not restart on (`RestartPreventExitStatus=`): starting again cannot mend a file.
        case configuration
        /// A file an offline command was given to read, like a recording: EX_DATAERR when it is wrong.
        case input
    }

    static func status(of error: any Error, jsonFiles role: JSONFileRole) -> ExitStatus {
        switch error {
        case is ArgumentError: return .usage
        case is JSONFileError: return role == .configuration ? .configuration : .dataError
        case let failure as FileReader.Failure:
            if case .cannotRead = failure.reason { return .ioError }
            return .noInput
        case let recording as RecordingError: return recording.kind == .unreadable ? .noInput : .dataError
        case let file as FileError: return file.stage == .create ? .cannotCreate : .ioError
        case is SocketFile.PlacementError: return .cannotCreate
        case let record as RecordError: return record.status
        case is SystemError: return .osError
        default: return .failure
        }
    }
}
