import CShims

/// What a registered descriptor is ready for.
public struct Readiness: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = Readiness(rawValue: 1)
    public static let writable = Readiness(rawValue: 2)
    /// The peer hung up or the descriptor failed.
    public static let hangup = Readiness(rawValue: 4)

    var epollEvents: UInt32 {
        // EPOLLRDHUP only with EPOLLIN: a peer that shut down its sending side stays level-triggered, and a
        // descriptor not being read (backpressure, input already ended) must not wake the loop for it.
        var events: UInt32 = 0
        if contains(.readable) { events |= touchd_epoll_in | touchd_epoll_rdhup }
        if contains(.writable) { events |= touchd_epoll_out }
        return events
    }

    init(epoll events: UInt32) {
        var set: Readiness = []
        if events & touchd_epoll_in != 0 { set.insert(.readable) }
        if events & touchd_epoll_out != 0 { set.insert(.writable) }
        if events & (touchd_epoll_hup | touchd_epoll_err | touchd_epoll_rdhup) != 0 { set.insert(.hangup) }
        self = set
    }
}

/// One thread, one epoll: descriptors with handlers. The loop only dispatches; handlers do the work and never
/// block. With nothing ready and no timer armed, `epoll_wait` sleeps: no polling.
public final class EventLoop {
    public typealias Handler = (Readiness) -> Void

    private struct Registration {
        let fd: Int32
        let token: UInt64
        let handler: Handler
    }

    private let epollFD: Int32
    /// Registrations by slot, found from a ready descriptor's token without hashing (the loop looks one up for
    /// every wake-up). A token is its registration's number (never reused) above its slot's index, so the token of
    /// a removed registration matches nothing, even once its slot is reused.
    private var slots: [Registration?] = []
    private var freeSlots: [Int] = []
    private var registrations: UInt64 = 0
    public private(set) var isRunning = false
    private var stopRequested = false
    /// Wake-ups that dispatched at least one handler: touchd-bench's idle row counts them (an idle daemon must not
    /// wake).
    public private(set) var wakeups = 0
    /// `epoll_wait`'s output, kept for the loop's life rather than allocated for every wake-up.
    private let readyCapacity = 64
    private let ready: UnsafeMutablePointer<touchd_epoll_event>
    private var isDispatching = false

    public init() throws(SystemError) {
        epollFD = try Posix.epollCreate()
        ready = .allocate(capacity: readyCapacity)
    }

    deinit {
        ready.deallocate()
        Posix.close(epollFD)
    }

    /// Watches `fd`; returns the token to modify or remove it with.
    @discardableResult
    public func register(_ fd: Int32, for interest: Readiness, handler: @escaping Handler) throws(SystemError) -> UInt64
    {
        let slot = freeSlots.last ?? slots.count
        registrations += 1
        let token = registrations << 32 | UInt64(slot)
        try Posix.epollAdd(epollFD, fd, events: interest.epollEvents, token: token)
        let registration = Registration(fd: fd, token: token, handler: handler)
        if slot == slots.count {
            slots.append(registration)
        } else {
            freeSlots.removeLast()
            slots[slot] = registration
        }
        return token
    }

    public func modify(_ token: UInt64, interest: Readiness) throws(SystemError) {
        guard let entry = registration(token) else { return }
        try Posix.epollModify(epollFD, entry.fd, events: interest.epollEvents, token: token)
    }

    /// Stops watching; the caller still owns (and closes) the descriptor. The descriptor leaves the epoll set before
    /// the handler is released: a handler may hold what owns (and closes) it.
    public func deregister(_ token: UInt64) {
        guard let entry = registration(token) else { return }
        Posix.epollRemove(epollFD, entry.fd, token: token)
        let slot = Self.slot(of: token)
        slots[slot] = nil
        freeSlots.append(slot)
        // `entry` holds the handler until here, after `slots` is written: a handler whose release frees a timer or
        // watch deregisters that one from within this call, which must not find `slots` still being written.
        withExtendedLifetime(entry) {}
    }

    private static func slot(of token: UInt64) -> Int { Int(truncatingIfNeeded: token & 0xffff_ffff) }

    /// The registration `token` names, if it is still registered.
    private func registration(_ token: UInt64) -> Registration? {
        let slot = Self.slot(of: token)
        guard slot < slots.count, let entry = slots[slot], entry.token == token else { return nil }
        return entry
    }

    /// Dispatches until `stop()` is called from a handler.
    public func run() throws(SystemError) {
        isRunning = true
        stopRequested = false
        defer { isRunning = false }
        while !stopRequested { try runOnce(timeoutMilliseconds: -1) }
    }

    public func stop() { stopRequested = true }

    /// Waits once (up to the timeout; -1 forever, 0 not at all) and dispatches what is ready.
    /// - Returns: how many descriptors were ready.
    @discardableResult
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        // A handler that runs the loop itself gets a buffer of its own: the outer batch is still being read.
        let nested = isDispatching
        let events = nested ? UnsafeMutablePointer<touchd_epoll_event>.allocate(capacity: readyCapacity) : ready
        isDispatching = true
        defer {
            isDispatching = nested
            if nested { events.deallocate() }
        }
        let count = try Posix.epollWait(
            epollFD, into: events, capacity: Int32(readyCapacity), timeoutMilliseconds: timeoutMilliseconds)
        if count > 0 { wakeups += 1 }
        for index in 0..<count {
            let event = events[index]
            // A handler earlier in this batch may have removed this one.
            guard let entry = registration(event.token) else { continue }
            entry.handler(Readiness(epoll: event.events))
        }
        return count
    }
}

/// A CLOCK_MONOTONIC timerfd registered in a loop: one deadline at a time, re-armed by its owner.
public final class LoopTimer {
    private let fd: Int32
    private var token: UInt64 = 0
    /// Weak: the loop holds this timer's handler, and a timer released before its loop leaves it (deregisters).
    private weak var loop: EventLoop?
    public private(set) var deadline: Int64?

    public init(loop: EventLoop, fired: @escaping () -> Void) throws(SystemError) {
        fd = try Posix.timerCreate()
        self.loop = loop
        let descriptor = fd
        token = try loop.register(fd, for: .readable) { [weak self] _ in
            Posix.timerDrain(descriptor)
            self?.deadline = nil
            fired()
        }
    }

    deinit {
        loop?.deregister(token)
        Posix.close(fd)
    }

    /// Arms for an absolute monotonic time in microseconds (past times fire at once); nil disarms.
    public func arm(at monotonicMicroseconds: Int64?) {
        guard monotonicMicroseconds != deadline else { return }
        deadline = monotonicMicroseconds
        Posix.timerArm(fd, atMicroseconds: monotonicMicroseconds.map { max($0, 1) } ?? 0)
    }
}
