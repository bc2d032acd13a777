import TouchCore
import TouchGestures
import TouchJSON

/// Names the device a finger came from: a small number for keys, a name for output.
public struct DeviceTag: Hashable, Sendable {
    public var index: UInt16
    public var name: String { id.string }
    /// The name interned, as events carry it.
    public var id: InternedString

    public init(index: UInt16, name: String) {
        self.index = index
        self.id = InternedString(name)
    }
}

/// One finger event delivered to a region (or to nobody: `region` nil).
public struct DispatchedTouch: Equatable, Sendable {
    public var phase: TouchPhase
    /// Ids interned when the scene or the device changed: copying an event retains nothing.
    public var regionID: InternedString?
    public var deviceID: InternedString
    public var region: String? { regionID?.string }
    public var device: String { deviceID.string }
    /// The finger as the whole pipeline knows it (device index and finger id): what coalescing keys moves by.
    public var key: FingerKey
    public var finger: FingerID
    public var slot: Int32
    public var time: EventTime
    /// Scene coordinates.
    public var location: Point
    /// Relative to the region's frame (its top-left corner) as it is now; scene coordinates when unassigned.
    public var local: Point
    /// Where the finger was at its previous event (its down location for the down itself).
    public var previous: Point
    /// Movement since the finger went down.
    public var translation: Point
    public var sinceDown: EventTime.Duration
    /// Consecutive quick taps on this region, this touch included (as UITouch.tapCount).
    public var tapCount: Int
    /// The device's report, in device units.
    public var contact: ContactState
}

/// What the dispatcher hands on, in order.
public enum DispatchEvent: Equatable, Sendable {
    case touch(DispatchedTouch)
    case gesture(region: InternedString, GestureEvent)
    /// A draggable region followed its finger.
    case regionMoved(region: InternedString, frame: Rect, time: EventTime)
    /// A scroll container's content offset changed; its descendants moved by the difference.
    case regionScrolled(region: InternedString, offset: Point, time: EventTime)
    /// End of one device frame.
    case frame(device: InternedString, time: EventTime)
}
