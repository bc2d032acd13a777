import TouchCore
import TouchGestures
import TouchJSON
import TouchScene

/// How a slow client's queue may coalesce a line (docs/protocol.md, "Slow clients"): the encoder tells it for each
/// event line it writes, and the engine's queue keeps it beside the line's bytes (`OutboundQueue.Kind`).
public enum LineCoalescing: Equatable, Sendable {
    /// Never dropped (downs, ups, gesture ends, device and scene notices).
    case essential
    /// The answer to one of the client's requests: never dropped, and not counted towards the limit.
    case reply
    /// A move of one finger: only the newest matters.
    case move(finger: FingerKey)
    /// A `changed` report of one gesture in one region.
    case gestureChange(GestureChangeKey)

    /// Which gesture a `changed` line is of: its region and the gesture's name, both interned.
    public struct GestureChangeKey: Hashable, Sendable {
        public var region: InternedString
        public var gesture: InternedString

        public init(region: InternedString, gesture: InternedString) {
            self.region = region
            self.gesture = gesture
        }
    }

    /// A reply: not counted towards the queue's limit. A test of the case alone (`!= .reply` compared the payload's
    /// bytes too).
    @inline(__always)
    public var isReply: Bool {
        if case .reply = self { return true }
        return false
    }

    /// A finger's moves coalesce (only the newest matters); its other events are essential.
    @inline(__always)
    public static func of(_ touch: DispatchedTouch) -> Self {
        touch.phase == .move ? .move(finger: touch.key) : .essential
    }

    /// A gesture's `changed` reports coalesce by region and gesture; its other reports are essential.
    @inline(__always)
    public static func of(_ gesture: GestureEvent, region: InternedString) -> Self {
        gesture.event == .changed
            ? .gestureChange(GestureChangeKey(region: region, gesture: gesture.nameID)) : .essential
    }
}
