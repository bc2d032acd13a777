import TouchCore
import TouchGestures

/// Where a region takes touches, relative to its frame.
public enum TouchableArea: Equatable, Sendable {
    /// The frame itself.
    case frame
    /// The frame moved in (positive) or out (negative) by edge amounts.
    case insets(EdgeInsets)
    /// Its own rectangle in region-local coordinates (0,0 is the frame's top-left corner), e.g. the centre
    /// half of a square of side s is `(s/4, s/4, s/2, s/2)`.
    case rect(Rect)

    /// The touchable rectangle in the region's parent coordinates, given its frame there.
    public func bounds(for frame: Rect) -> Rect {
        switch self {
        case .frame: frame
        case .insets(let insets): insets.apply(to: frame)
        case .rect(let local): local.offsetBy(frame.origin)
        }
    }
}

/// A scroll container's behaviour towards its descendants' fingers (UIScrollView, onInterceptTouchEvent).
public struct InterceptPolicy: Equatable, Sendable {
    /// Movement beyond which the container takes the finger from the child (output units).
    public var slop: Double = GestureDefaults.touchSlop
    /// Hold a descendant's down this long, so a quick scroll never reaches the child (UIKit's
    /// delaysContentTouches uses 150 ms). Zero: deliver at once, cancel on intercept.
    public var delay: EventTime.Duration = EventTime.Duration(microseconds: 0)

    public init(
        slop: Double = GestureDefaults.touchSlop, delay: EventTime.Duration = EventTime.Duration(microseconds: 0)
    ) {
        self.slop = slop
        self.delay = delay
    }
}

/// A scroll container's content (UIScrollView's contentSize and contentOffset): its children are laid out in
/// content coordinates and shown shifted by `-offset`.
public struct ScrollPolicy: Equatable, Sendable {
    public var contentWidth: Double
    public var contentHeight: Double
    /// How far the content is scrolled: 0...(content size - frame size) on each axis.
    public var offset: Point = .zero

    public init(contentWidth: Double, contentHeight: Double, offset: Point = .zero) {
        self.contentWidth = contentWidth
        self.contentHeight = contentHeight
        self.offset = offset
    }

    /// The offset kept within the content for a container of this frame size.
    public func clamped(_ offset: Point, frame: Rect) -> Point {
        Point(
            x: min(max(offset.x, 0), max(contentWidth - frame.width, 0)),
            y: min(max(offset.y, 0), max(contentHeight - frame.height, 0)))
    }
}

/// One node of the scene tree.
public struct Region: Equatable, Sendable {
    public var id: String
    /// In the parent's coordinates (the scene's for top-level regions).
    public var frame: Rect
    public var shape: Shape = .rect
    public var touchableArea: TouchableArea = .frame
    /// Higher is on top; equal z: the later sibling is on top.
    public var z: Double = 0
    public var hidden = false
    public var enabled = true
    public var alpha: Double = 1
    /// Never takes a touch itself; its children still can.
    public var passthrough = false
    /// Children are hit only inside this region's touchable area.
    public var clipsChildren = true
    /// Receives raw finger events (down/move/up/cancel). With `raw` false and no gestures the region does not
    /// want touches at all and the hit test skips it.
    public var raw = true
    /// Follows its drag: the frame moves by the capturing finger's translation.
    public var draggable = false
    /// Fingers that go down on it also go to the device's virtual touchscreen (a device with `forwardUnclaimed`),
    /// as fingers on no region do: the region watches, the application underneath still gets the touch.
    public var forward = false
    /// A scroll container: takes over its descendants' fingers once they drag beyond the slop.
    public var intercept: InterceptPolicy?
    /// A container that scrolls: the fingers it takes move its content offset, within the content size.
    public var scroll: ScrollPolicy?
    public var gestures: [GestureSpec] = []
    /// Groups of gesture names that may be recognised at the same time; all others are exclusive.
    public var simultaneous: [[String]] = []
    /// Chains of gesture names of this region, each listening only once the one before it is recognized (SwiftUI's
    /// `sequenced(before:)`).
    public var sequenced: [[String]] = []
    public var children: [Region] = []

    public init(id: String, frame: Rect) {
        self.id = id
        self.frame = frame
    }

    /// Whether the region can be the target of a touch at all (not counting visibility).
    public var wantsTouches: Bool { !passthrough && (raw || !gestures.isEmpty) }

    /// The touchable area in parent coordinates.
    public var touchableBounds: Rect { touchableArea.bounds(for: frame) }
}

/// A scene: an output size and a forest of regions.
public struct Scene: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var regions: [Region]

    public init(width: Double, height: Double, regions: [Region]) {
        self.width = width
        self.height = height
        self.regions = regions
    }

    /// Regions in the scene, children included.
    public var regionCount: Int {
        // By position: an element read by `reduce` or `for in` is a copy, which retained every field of every region.
        func count(_ regions: [Region]) -> Int {
            var total = regions.count
            for position in regions.indices where !regions[position].children.isEmpty {
                total += count(regions[position].children)
            }
            return total
        }
        return count(regions)
    }
}
