extension Array {
    /// Empties a scratch buffer reused every turn (effects, dispatched events, queued lines), keeping its storage.
    /// `removeAll(keepingCapacity: true)` goes through the general `replaceSubrange`, about 70 instructions even for
    /// the one or few elements these buffers hold; removed one at a time from the end they cost less. Same result:
    /// each element destroyed, the storage kept.
    @inline(__always)
    mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}
