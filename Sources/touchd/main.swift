#if canImport(Glibc)
    import Glibc
#endif
import TouchdCLI

exit(TouchdMain.run(Array(CommandLine.arguments.dropFirst())))
