import Foundation
import TouchClient
import TouchPosix

/// touchctl's exit statuses, from sysexits.h (listed in `touchctl --help`).
enum ExitStatus {
    static let success: Int32 = 0
    /// Bad arguments.
    static let usage: Int32 = 64
    /// The JSON given is not JSON, or touchd refused the request's data (invalid-scene, not-found, bad-request …).
    static let dataError: Int32 = 65
    /// `scene set FILE`: the file cannot be read.
    static let noInput: Int32 = 66
    /// No daemon: the socket is missing or refuses, or touchd went away (closed the connection, said goodbye).
    static let unavailable: Int32 = 69
    /// The terminal or the event loop failed (view).
    static let osError: Int32 = 71
    /// Reading or writing the connection failed otherwise.
    static let ioError: Int32 = 74
    /// touchd did not answer within --timeout, or has too many clients: try again.
    static let temporaryFailure: Int32 = 75
    /// touchd sent a line touchctl cannot read, or an answer it does not know.
    static let protocolError: Int32 = 76
    /// Not allowed: the socket's permissions, or touchd's permission-denied (a scene change without the scene
    /// permission, a peer not in clients.subscribeGroups).
    static let noPermission: Int32 = 77

    static func of(_ error: ClientError) -> Int32 {
        switch error {
        case .connection(let system): of(system)
        case .refused("permission-denied", _): noPermission
        case .refused("too-many-clients", _): temporaryFailure
        case .refused: unavailable
        case .protocolError: protocolError
        case .closed: unavailable
        case .noReply: temporaryFailure
        case .invalidJSON: dataError
        }
    }

    static func of(_ error: SystemError) -> Int32 {
        switch error.errno {
        case EACCES, EPERM: noPermission
        case ENOENT, ECONNREFUSED, EAGAIN, ECONNRESET, EPIPE, ENOTCONN, ENOTSOCK: unavailable
        default: error.call == "connect" ? unavailable : ioError
        }
    }

    /// The status for an error reply's code (docs/protocol.md, "Error codes").
    static func ofReply(code: String?) -> Int32 {
        switch code {
        case "permission-denied": noPermission
        case "invalid-scene", "not-found", "bad-request", "bad-json", "line-too-long": dataError
        default: protocolError
        }
    }

    static let help = """
        exit status (sysexits):
          0   done (monitor: --count events printed, or the view quit)
          64  usage: unknown command or option, a missing argument; view without a terminal
          65  data: the JSON given is not JSON; touchd refused it (invalid-scene, not-found, bad-request)
          66  scene set FILE: FILE cannot be read
          69  unavailable: no daemon at the socket, or it went away (monitor and view say why on stderr)
          71  the terminal or the event loop failed
          74  reading or writing the socket failed
          75  try again: no answer within --timeout, or touchd has too many clients
          76  touchd sent what touchctl cannot read
          77  permission denied: by the socket's mode, or by touchd (scene changes need the scene permission)
          128+N  view ended by signal N
        """
}
