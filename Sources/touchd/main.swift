import TouchdCLI

#if canImport(Glibc)
    import Glibc
#endif

exit(TouchdMain.run(Array(CommandLine.arguments.dropFirst())))
