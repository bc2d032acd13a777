import TouchPosix

/// Writes a command's output to stdout and gives the command's exit status: 0, or EX_IOERR with the reason on
/// stderr when the output cannot be written (`touchd list-devices > /dev/full` must not say it succeeded).
func printOutput(_ text: String, command: String, logger: Logger) -> Int32 {
    do throws(SystemError) {
        try StandardStreams.output(text)
        return 0
    } catch {
        logger.error("\(command): standard output: \(error)")
        return ExitStatus.ioError.rawValue
    }
}
