/// Where a streaming pass's bytes come from, a piece at a time, and again from the start for the next pass. The
/// formats do no I/O: TouchRecordingFiles' `RecordingInput` reads a file, a pipe or bytes held in memory.
public protocol RecordingSource: AnyObject {
    /// How messages name the source: a path, or `stdin`.
    var name: String { get }
    /// Fills the front of `buffer` with the next bytes. - Returns: how many; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int
    /// Back to the first byte, for the next pass.
    func rewind()
}
