#if canImport(Glibc)
    import Glibc
#endif

/// Why reading a device failed. Every case ends the device's stream: the daemon cancels its fingers and drops it.
public enum DeviceReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ENODEV: the device was unplugged (or its uinput creator went away).
    case gone(node: String)
    /// EIO: the driver failed.
    case inputOutput(node: String)
    /// A read that ended inside an event: the node does not give whole `input_event`s, so it is no evdev device.
    case partialEvent(node: String, bytes: Int)
    /// Any other errno, with the call that met it.
    case failed(call: String, errno: Int32, node: String)

    /// Sorts a failed call's errno into the cases above.
    public init(call: String, errno: Int32, node: String) {
        switch errno {
        case ENODEV: self = .gone(node: node)
        case EIO: self = .inputOutput(node: node)
        default: self = .failed(call: call, errno: errno, node: node)
        }
    }

    public var node: String {
        switch self {
        case .gone(let node), .inputOutput(let node), .partialEvent(let node, _), .failed(_, _, let node): node
        }
    }

    /// Why, without the node: for a removal's reason.
    public var reason: String {
        switch self {
        case .gone: "removed"
        case .inputOutput: "read failed: input/output error"
        case .partialEvent(_, let bytes): "read \(bytes) bytes, not whole input events"
        case .failed(let call, let errno, _): "\(call) failed: \(String(cString: strerror(errno)))"
        }
    }

    public var description: String { "\(node): \(reason)" }
}
