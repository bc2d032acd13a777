#if canImport(Glibc)
    import Glibc
#endif

/// Hands elements from one producer thread to one consumer thread, in order, holding at most `capacity` of them:
/// a producer that gets ahead waits, so memory stays bounded however long the stream. The producer says when it is
/// done (`finish`); the consumer may stop it early (`cancel`). A pthread mutex and two condition variables.
///
/// A producer that waited for room is woken once half the elements are taken, not at the first: each wake-up is a
/// system call and, on another processor, an interrupt, and a producer woken for every element would pay both for
/// every element.
public final class BoundedHandoff<Element: Sendable>: @unchecked Sendable {
    private let capacity: Int
    /// Guarded by `mutex`.
    private var queue: [Element?]
    private var head = 0
    private var count = 0
    private var finished = false
    private var cancelled = false
    private var waitsForRoom = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let notEmpty: UnsafeMutablePointer<pthread_cond_t>
    private let notFull: UnsafeMutablePointer<pthread_cond_t>

    /// How many times `put` found no room and waited: with the wake-up at half, at most one for every
    /// `capacity / 2` elements taken (more would mean the producer is woken too often).
    public var producerWaits: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return waitsForRoom
    }

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        queue = Array(repeating: nil, count: self.capacity)
        mutex = .allocate(capacity: 1)
        notEmpty = .allocate(capacity: 1)
        notFull = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(notEmpty, nil)
        pthread_cond_init(notFull, nil)
    }

    deinit {
        pthread_cond_destroy(notFull)
        pthread_cond_destroy(notEmpty)
        pthread_mutex_destroy(mutex)
        notFull.deallocate()
        notEmpty.deallocate()
        mutex.deallocate()
    }

    /// Producer: adds `element` after the others, waiting while `capacity` are held.
    /// - Returns: false when the consumer has cancelled (the element is dropped): the producer should stop.
    @discardableResult
    public func put(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if count == capacity && !cancelled { waitsForRoom += 1 }
        while count == capacity && !cancelled { pthread_cond_wait(notFull, mutex) }
        guard !cancelled else { return false }
        queue[(head + count) % capacity] = element
        count += 1
        // A consumer that waits has nothing to do until this element: it is woken for every one it waits for.
        // Signalling with no waiter is a test of the condition's waiter count, no system call.
        pthread_cond_signal(notEmpty)
        return true
    }

    /// Producer: nothing more will come; the consumer gets what is held, then nil.
    public func finish() {
        pthread_mutex_lock(mutex)
        finished = true
        pthread_cond_signal(notEmpty)
        pthread_mutex_unlock(mutex)
    }

    /// Consumer: the next element, waiting for one; nil once the producer has finished and all are taken, or
    /// after `cancel`.
    public func take() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0 && !finished && !cancelled { pthread_cond_wait(notEmpty, mutex) }
        guard count > 0 else { return nil }
        let element = queue[head]
        queue[head] = nil
        head = (head + 1) % capacity
        count -= 1
        if count == capacity / 2 { pthread_cond_signal(notFull) }
        return element
    }

    /// Consumer: takes no more; a waiting or later `put` returns false, and what is held is dropped.
    public func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        for index in queue.indices { queue[index] = nil }
        count = 0
        pthread_cond_signal(notFull)
        pthread_mutex_unlock(mutex)
    }
}
