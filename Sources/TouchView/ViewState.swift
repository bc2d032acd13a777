import TouchClient
import TouchCore
import TouchScene

/// What `touchctl view` shows, as a value: the scene, the fingers that are down now and the region holding each,
/// and the last gestures. Updated by the daemon's decoded messages (`apply`); drawn by `ViewRenderer`.
public struct ViewState: Sendable {
    /// A finger as the daemon names it: its device and its id there.
    public struct FingerKey: Hashable, Comparable, Sendable {
        public var device: String
        public var finger: Int

        public init(device: String, finger: Int) {
            self.device = device
            self.finger = finger
        }

        public static func < (lhs: FingerKey, rhs: FingerKey) -> Bool {
            (lhs.device, lhs.finger) < (rhs.device, rhs.finger)
        }
    }

    public struct Finger: Equatable, Sendable {
        public var location: Point
        /// The region that captured it at its down; nil when it hit none.
        public var region: String?
    }

    /// One line of the gesture list: a gesture's latest state.
    public struct GestureLine: Equatable, Sendable {
        public var region: String
        public var name: String
        public var state: String
    }

    public private(set) var scene: ViewScene?
    public private(set) var fingers: [FingerKey: Finger] = [:]
    /// Oldest first; at most `gestureCapacity`.
    public private(set) var gestures: [GestureLine] = []
    public let gestureCapacity: Int
    /// Counts changes, so a drawer can tell whether anything happened since it last drew.
    public private(set) var version = 0
    /// Set when the daemon is gone or said goodbye: why the view ends.
    public private(set) var ended: String?

    public init(gestureCapacity: Int = 8) {
        self.gestureCapacity = max(1, gestureCapacity)
    }

    /// Regions holding at least one live finger.
    public var touchedRegions: Set<String> { Set(fingers.values.compactMap(\.region)) }

    public mutating func setScene(_ scene: Scene) {
        self.scene = ViewScene(scene)
        version += 1
    }

    /// - Returns: false when the view had already ended (the first reason stays).
    @discardableResult
    public mutating func end(_ reason: String) -> Bool {
        guard ended == nil else { return false }
        ended = reason
        version += 1
        return true
    }

    /// Applies one message from the daemon.
    /// - Returns: whether the picture may have changed.
    @discardableResult
    public mutating func apply(_ message: Message) -> Bool {
        switch message {
        case .touch(let touch):
            let key = FingerKey(device: touch.device, finger: touch.finger)
            switch touch.phase {
            case "up", "cancel":
                guard fingers.removeValue(forKey: key) != nil else { return false }
            default:
                fingers[key] = Finger(location: Point(x: touch.x, y: touch.y), region: touch.region)
            }
        case .gesture(let gesture):
            note(GestureLine(region: gesture.region, name: gesture.name, state: gesture.state))
        case .regionMoved(let region, let frame):
            guard frame.count == 4,
                scene?.move(
                    region: region, to: Rect(x: frame[0], y: frame[1], width: frame[2], height: frame[3])) == true
            else { return false }
        case .deviceRemoved(let device):
            // The daemon cancels a vanished device's fingers first; this only guards against a missed cancel.
            let before = fingers.count
            fingers = fingers.filter { $0.key.device != device }
            guard fingers.count != before else { return false }
        case .goodbye(let code, let text):
            return end("touchd says goodbye: \(code): \(text)")
        default:
            return false
        }
        version += 1
        return true
    }

    /// A gesture still in progress updates its own line, even when other gestures took lines since (two fingers
    /// dragging in two regions keep two lines, not one for each `changed`); a new one, or one that had ended,
    /// takes a new line.
    private mutating func note(_ line: GestureLine) {
        if let own = gestures.lastIndex(where: { $0.region == line.region && $0.name == line.name }),
            ["pressing", "began", "changed"].contains(gestures[own].state)
        {
            gestures[own] = line
        } else {
            gestures.append(line)
            if gestures.count > gestureCapacity { gestures.removeFirst(gestures.count - gestureCapacity) }
        }
    }
}
