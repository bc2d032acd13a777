import TouchCore

/// A table keyed by finger, for the few fingers a screen holds at once (ten at most on the panels we know): the
/// keys in one array searched from the front, the values in another, both in the order the fingers went down.
///
/// The dispatcher and every recognizer look a finger up on each event. A hashed dictionary paid SipHash and a
/// bucket probe for each look-up and each store; comparing a few integers costs less, and the order of `values` is
/// the fingers' order rather than the hash seed's.
public struct FingerTable<Value> {
    public private(set) var keys: [FingerKey] = []
    public private(set) var values: [Value] = []

    public init() {}

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Where `key`'s value is in `values`, or nil.
    public func position(of key: FingerKey) -> Int? {
        var position = 0
        while position < keys.count {
            if keys[position] == key { return position }
            position += 1
        }
        return nil
    }

    public func contains(_ key: FingerKey) -> Bool { position(of: key) != nil }

    /// The value at a position found with `position(of:)`, changed in place.
    public subscript(position position: Int) -> Value {
        get { values[position] }
        _modify { yield &values[position] }
    }

    /// Storing nil removes the finger; the others keep their order.
    public subscript(key: FingerKey) -> Value? {
        get { position(of: key).map { values[$0] } }
        set {
            let position = position(of: key)
            switch (position, newValue) {
            case (let position?, let value?): values[position] = value
            case (nil, let value?):
                keys.append(key)
                values.append(value)
            case (let position?, nil):
                keys.remove(at: position)
                values.remove(at: position)
            case (nil, nil): break
            }
        }
    }

    /// Forgets every finger, keeping the storage.
    public mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}

extension FingerTable: Equatable where Value: Equatable {}
extension FingerTable: Sendable where Value: Sendable {}
