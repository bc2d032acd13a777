import Foundation
import TouchTestKit

/// The debug touchd the process-level tests run.
let touchdBinary = SharedRecordings.repositoryRoot + "/.build/debug/touchd"

/// Runs touchd to its end with `input` on its standard input (or the file `inputFile`, as a shell's `<` gives it,
/// or `inputHandle`, an open file shared with touchd as it stands); its status, standard output and standard error. Swift's crash backtracer is off: a test that provokes a trap
/// wants the status, not a minute of symbolication.
func runTouchd(
    _ arguments: [String], input: Data? = nil, inputFile: String? = nil, inputHandle: FileHandle? = nil,
    outputHandle: FileHandle? = nil
) throws -> (
    status: Int32, stdout: String, stderr: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: touchdBinary)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    let stdin = Pipe()
    if input != nil { process.standardInput = stdin }
    if let inputFile { process.standardInput = FileHandle(forReadingAtPath: inputFile) }
    if let inputHandle { process.standardInput = inputHandle }
    let out = Pipe()
    let err = Pipe()
    // Given a handle, standard output goes there and reads back empty here.
    process.standardOutput = outputHandle ?? out
    process.standardError = err
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
    }
    let stdout = outputHandle == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
