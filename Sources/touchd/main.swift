import TouchPosix
import TouchdCLI

Posix.exit(TouchdMain.run(Array(CommandLine.arguments.dropFirst())))
