import TouchWire

/// How much of one client's requests one input of the engine handles. A turn of the daemon's loop is one input per
/// ready client, so the budget bounds how long one client's pipelined requests keep the loop from the devices:
/// 64 small requests, or fewer large lines (a unit per 4 KiB read: a 230 kB line costs a turn), or one request that works on the whole scene
/// (a scene put in force, an edit, the scene written out), whose cost grows with the scene.
struct RequestBudget {
    static let units = 64
    static let bytesPerUnit = 4 * 1024

    private(set) var left = Self.units

    var isSpent: Bool { left <= 0 }

    mutating func spendAll() { left = 0 }

    mutating func spend(on item: LineFramer.Item, wholeScene: Bool) {
        if wholeScene {
            left = 0
            return
        }
        switch item {
        case .line(let bytes): left -= 1 + bytes.count / Self.bytesPerUnit
        case .oversized: left -= 1
        }
    }
}
