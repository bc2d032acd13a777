import CShims

#if canImport(Glibc)
    import Glibc
#endif

extension Posix {
    /// Blocks `signals` on the calling thread (pthread_sigmask SIG_BLOCK; threads it starts later inherit the mask).
    /// - Returns: those of `signals` that were not blocked before, for `unblockSignals` to let through again.
    public static func blockSignals(_ signals: [Int32]) throws(SystemError) -> [Int32] {
        var mask = signalSet(signals)
        var previous = sigset_t()
        let failure = pthread_sigmask(SIG_BLOCK, &mask, &previous)
        // pthread_sigmask returns the error instead of setting errno.
        guard failure == 0 else { throw SystemError("pthread_sigmask", errno: failure) }
        return signals.filter { sigismember(&previous, $0) == 0 }
    }

    /// Lets `signals` through on the calling thread (pthread_sigmask SIG_UNBLOCK): one of them pending is delivered
    /// at once, with its usual disposition.
    public static func unblockSignals(_ signals: [Int32]) {
        guard !signals.isEmpty else { return }
        var mask = signalSet(signals)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        return mask
    }

    /// A signalfd for `signals` (nonblocking, close-on-exec), which the caller has blocked.
    public static func signalDescriptor(_ signals: [Int32]) throws(SystemError) -> Int32 {
        let fd = signals.withUnsafeBufferPointer { touchd_signalfd_create($0.baseAddress, Int32($0.count)) }
        guard fd >= 0 else { throw SystemError("signalfd") }
        return fd
    }

    /// Takes one pending signal from a signalfd: its number, or nil when none is pending (or the read failed).
    public static func readSignal(_ fd: Int32) -> Int32? {
        let signal = touchd_signalfd_read(fd)
        return signal > 0 ? signal : nil
    }
}
