/// A nonblocking pipe that one thread writes to wake another's event loop.
public final class WakeupPipe: Sendable {
    public let readEnd: Int32
    private let writeEnd: Int32

    public init() throws(SystemError) {
        (readEnd, writeEnd) = try Posix.nonblockingPipe()
    }

    deinit {
        Posix.close(readEnd)
        Posix.close(writeEnd)
    }

    /// Makes the read end readable. A full pipe is already readable, so EAGAIN is not a failure.
    public func wake() {
        _ = withUnsafeBytes(of: UInt8(1)) { try? Posix.write(writeEnd, $0) }
    }

    /// Empties the pipe, so that the read end is readable again only after the next `wake`.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while case .bytes? = try? Posix.read(readEnd, into: &buffer, count: buffer.count) {}
    }
}
