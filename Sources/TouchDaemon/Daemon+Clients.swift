import TouchCore
import TouchEngine
import TouchPosix
import TouchWire

/// The listening socket: one touchd made (`SocketFile`, removed at exit only if still its own) or one systemd
/// passed (touchd.socket, not touchd's to remove).
final class Listener {
    let descriptor: Int32
    let file: SocketFile?
    var token: UInt64 = 0
    var paused = false
    var socketActivated: Bool { file == nil }

    init(descriptor: Int32, file: SocketFile?) {
        self.descriptor = descriptor
        self.file = file
    }

    func close() { Posix.close(descriptor) }

    func removeSocketIfStillOurs() -> SocketFile.Removal? { file?.removeIfStillOurs() }
}

/// A client's socket and its registration in the loop: all the daemon holds of a client; the rest is the engine's.
struct Connection {
    let fd: Int32
    var token: UInt64 = 0

    func watch(_ interest: Interest, in loop: EventLoop) {
        var readiness: Readiness = []
        if interest.contains(.readable) { readiness.insert(.readable) }
        if interest.contains(.writable) { readiness.insert(.writable) }
        try? loop.modify(token, interest: readiness)
    }

    /// Writes what the socket takes of a last message (a goodbye), without waiting, then closes.
    func close(after finalBytes: [UInt8]) {
        if !finalBytes.isEmpty { finalBytes.withUnsafeBytes { _ = try? Posix.send(fd, $0) } }
        Posix.close(fd)
    }
}

extension Daemon {
    func openListener() throws {
        if let passed = Systemd.passedListeningSocket() {
            listener = Listener(descriptor: passed, file: nil)
        } else {
            var group: UInt32?
            if let name = config.socket.group {
                guard let id = Groups.id(of: name) else {
                    throw config.origin.error("socket.group", "no group '\(name)' on this system")
                }
                group = id
            }
            let file = try SocketFile.create(path: socketPath, mode: config.socket.mode, group: group)
            listener = Listener(descriptor: file.descriptor, file: file)
        }
        guard let listener else { return }
        listener.token = try loop.register(listener.descriptor, for: .readable) { [unowned self] _ in
            acceptClients()
        }
    }

    func acceptClients() {
        guard let listener else { return }
        while true {
            do {
                switch try Posix.accept(listener.descriptor, path: socketPath) {
                case .connection(let fd): admit(fd)
                case .nonePending: return
                case .exhausted(let error):
                    pauseAccepting(error)
                    return
                }
            } catch {
                logger.warning("\(error)")
                return
            }
        }
    }

    /// Out of descriptors (or memory): the pending connection stays in the backlog and the listener would be
    /// readable again at once, so it leaves the loop for 100 ms instead of spinning; logged once per pause.
    func pauseAccepting(_ error: SystemError) {
        guard let listener, !listener.paused else { return }
        listener.paused = true
        try? loop.modify(listener.token, interest: [])
        logger.warning("\(error); not accepting clients for 100 ms")
        acceptResume?.arm(at: MonotonicClock.nowMicroseconds() + 100_000)
    }

    func resumeAccepting() {
        guard let listener else { return }
        listener.paused = false
        try? loop.modify(listener.token, interest: .readable)
    }

    func admit(_ fd: Int32) {
        guard let peer = Posix.peer(ofSocket: fd) else {
            Posix.close(fd)
            return
        }
        let credentials = PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid, groups: peer.groups)
        switch engine.connect(credentials, at: now) {
        case .refused(let goodbye):
            Connection(fd: fd).close(after: goodbye)
        case .admitted(let id):
            var connection = Connection(fd: fd)
            do {
                connection.token = try loop.register(fd, for: .readable) { [unowned self] readiness in
                    clientReady(id, readiness)
                }
            } catch {
                logger.warning("client \(id): \(error)")
                engine.connectionLost(id, reason: "\(error)", at: now)
                Posix.close(fd)
                return
            }
            connections[id] = connection
        }
        pump()
    }

    /// Reads what the client sent (up to 1 MiB a turn, so one chatty client cannot starve the loop, and only
    /// while the engine takes input), or notes that it hung up, then flushes it.
    func clientReady(_ id: ClientID, _ readiness: Readiness) {
        guard let connection = connections[id] else { return }
        let time = now
        if engine.wantsInput(from: id) && (readiness.contains(.readable) || readiness.contains(.hangup)) {
            var total = 0
            reading: while total < 1 << 20 && engine.wantsInput(from: id) {
                do {
                    switch try Posix.read(connection.fd, into: &readBuffer, count: readBuffer.count) {
                    case .bytes(let count):
                        engine.receive(readBuffer[0..<count], from: id, at: time)
                        total += count
                    case .wouldBlock:
                        break reading
                    case .endOfFile:
                        engine.inputEnded(from: id, at: time)
                        break reading
                    }
                } catch {
                    engine.inputEnded(from: id, at: time)
                    break reading
                }
            }
        } else if readiness.contains(.hangup) {
            // Not being read (its requests wait, or its input ended) and gone altogether.
            engine.connectionLost(id, reason: "closed the connection", at: time)
        }
        flush(id, at: time)
        pump()
    }

    /// Hands the engine's bytes for the client to the socket: one write for everything queued.
    func flush(_ id: ClientID, at time: EventTime) {
        guard let connection = connections[id] else { return }
        engine.flush(id, at: time) { raw in
            do {
                switch try Posix.send(connection.fd, raw) {
                case .bytes(let count): return .wrote(count)
                case .wouldBlock, .endOfFile: return .wrote(0)
                }
            } catch {
                return .failed
            }
        }
    }
}
