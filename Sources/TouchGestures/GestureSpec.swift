import TouchCore
import TouchJSON

/// Defaults in line with UIKit and Android (shared/notes/prior-art.md).
public enum GestureDefaults {
    /// Movement that still counts as "not moved" (Android touch slop 8 dp, UIKit allowable movement 10 pt).
    public static let touchSlop = 10.0
    /// UIKit's long-press minimum duration (Android: 400 ms).
    public static let longPressDuration = EventTime.Duration.milliseconds(500)
    /// Android's double-tap timeout: the next tap must go down within this after the previous one lifted.
    public static let doubleTapInterval = EventTime.Duration.milliseconds(300)
    /// Android's double-tap slop: the next tap must land within this of the first.
    public static let doubleTapSlop = 100.0
    /// A tap held longer than this is not a tap (the long-press duration, as Android confirms a tap up to it).
    public static let tapMaximumHold = EventTime.Duration.milliseconds(500)
    /// lisgd's swipe distance is 125 px on a phone; 50 units suits panel-sized regions.
    public static let swipeMinimumDistance = 50.0
    /// lisgd: 800 ms; UIKit swipes are quicker. 500 ms.
    public static let swipeMaximumDuration = EventTime.Duration.milliseconds(500)
    /// lisgd's 15° leniency is strict for fingers on a wall panel; 30° each side of the axis.
    public static let swipeAngleTolerance = 30.0
    /// Rotation, in degrees, before a rotate gesture begins.
    public static let rotationThreshold = 5.0
    /// Window for velocity estimates.
    public static let velocityWindow = EventTime.Duration.milliseconds(100)
}

public enum GestureKind: String, Sendable, CaseIterable {
    case tap
    case longPress = "long-press"
    case drag
    case longPressDrag = "long-press-drag"
    case swipe
    case pinch
    case rotate
}

public enum SwipeDirection: String, Sendable, CaseIterable {
    case left, right, up, down
}

/// A gesture a region asks for, with its parameters. Unset parameters take `GestureDefaults`.
public struct GestureSpec: Equatable, Sendable {
    public var kind: GestureKind
    /// Unique within the region; what `simultaneous` groups and events name. Defaults to the kind. Interned only
    /// by the recognizer made for an installed scene (`Recognizer.nameID`): a scene that is refused (no permission,
    /// or invalid) must leave nothing in the never-shrinking intern table.
    public var name: String
    /// Tap: taps required (1, 2, 3 ...).
    public var taps = 1
    /// Fingers required (tap, long press, drag, swipe); pinch and rotate always use two.
    public var fingers = 1
    /// Long press: how long the fingers must stay.
    public var minimumDuration = GestureDefaults.longPressDuration
    /// Tap, long press: how far a finger may move before the gesture fails.
    public var allowableMovement = GestureDefaults.touchSlop
    /// Drag: distance before it begins; swipe: distance it must cover.
    public var minimumDistance = GestureDefaults.touchSlop
    /// Swipe: the longest it may take; tap: the longest a finger may stay down.
    public var maximumDuration = GestureDefaults.tapMaximumHold
    /// Tap: longest pause between taps.
    public var tapInterval = GestureDefaults.doubleTapInterval
    /// Tap: how far later taps may land from the first.
    public var tapSlop = GestureDefaults.doubleTapSlop
    /// Swipe: accepted directions.
    public var directions: Set<SwipeDirection> = Set(SwipeDirection.allCases)
    /// Gestures that must fail before this one may begin or end (UIKit's `require(toFail:)`): `"name"` on the
    /// same region or `"regionId/name"`. The dispatcher resolves them.
    public var requireToFail: [String] = []
    /// Considered before the gestures of the region's descendants, which wait for it to fail (SwiftUI's
    /// `highPriorityGesture`).
    public var highPriority = false
    /// Whether, and when, the gesture takes its fingers back from the compositor (Android's `pilferPointers`):
    /// the dispatcher and the engine act on it; the recognizer never reads it.
    public var takesFingers = FingerTaking.never

    public init(_ kind: GestureKind, name: String? = nil) {
        self.kind = kind
        self.name = name ?? kind.rawValue
        switch kind {
        case .swipe:
            minimumDistance = GestureDefaults.swipeMinimumDistance
            maximumDuration = GestureDefaults.swipeMaximumDuration
        case .pinch, .rotate:
            fingers = 2
        default:
            break
        }
    }
}

/// When a gesture takes the fingers it uses away from the compositor (the device's virtual touchscreen).
public enum FingerTaking: String, Sendable {
    case never
    /// When it is recognized: its `began`, or the `ended` of a gesture that reports no `began` (tap, swipe).
    case recognized
    /// As soon as it follows as many fingers as it needs, before it is recognized (a failure gives nothing back).
    case allDown = "all-down"
}

/// Recognizer states, as UIKit names them. Discrete gestures (tap, swipe) go from `possible` straight to `ended`.
public enum GestureState: String, Sendable {
    case possible, began, changed, ended, failed, cancelled

    // Switches, not `==` chains: asked several times for each recognizer on every event, the comparisons of the
    // String-backed cases stayed a call each.
    public var isFinished: Bool {
        switch self {
        case .ended, .failed, .cancelled: true
        case .possible, .began, .changed: false
        }
    }

    public var isActive: Bool {
        switch self {
        case .began, .changed: true
        case .possible, .ended, .failed, .cancelled: false
        }
    }
}

/// What a recognizer reports.
public enum GestureEventKind: String, Sendable {
    /// Long press: the fingers are down and might become a press (feedback before it completes).
    case pressing
    case began, changed, ended
    /// A gesture that had reported `pressing` (or began) and then did not complete.
    case failed
    case cancelled
}

/// One report of a recognizer; the dispatcher adds the region.
public struct GestureEvent: Equatable, Sendable {
    public var name: String {
        get { nameID.string }
        set { nameID = InternedString(newValue) }
    }
    /// The gesture's name as its spec interned it: copying a report retains nothing.
    public var nameID: InternedString
    public var kind: GestureKind
    public var event: GestureEventKind
    public var time: EventTime
    /// Centroid of the fingers, in scene coordinates.
    public var location: Point
    public var fingers: Int
    public var taps = 0
    /// Drag, long-press-drag: centroid movement since the gesture's start.
    public var translation = Point.zero
    /// Units per second over the last `GestureDefaults.velocityWindow`.
    public var velocity = Point.zero
    /// Pinch, rotate: distance between the two fingers relative to the start.
    public var scale = 1.0
    /// Pinch, rotate: angle of the line between the fingers relative to the start, degrees, clockwise positive.
    public var rotation = 0.0
    public var direction: SwipeDirection?

    public init(
        name: String, kind: GestureKind, event: GestureEventKind, time: EventTime, location: Point, fingers: Int
    ) {
        self.init(
            nameID: InternedString(name), kind: kind, event: event, time: time, location: location, fingers: fingers)
    }

    public init(
        nameID: InternedString, kind: GestureKind, event: GestureEventKind, time: EventTime, location: Point,
        fingers: Int
    ) {
        self.nameID = nameID
        self.kind = kind
        self.event = event
        self.time = time
        self.location = location
        self.fingers = fingers
    }
}

/// One finger's change as a recognizer sees it; `finger` is unique across devices.
public struct TouchSample: Equatable, Sendable {
    public var finger: FingerKey
    public var phase: TouchPhase
    public var location: Point
    public var time: EventTime

    public init(finger: FingerKey, phase: TouchPhase, location: Point, time: EventTime) {
        self.finger = finger
        self.phase = phase
        self.location = location
        self.time = time
    }
}
