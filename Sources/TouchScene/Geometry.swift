import TouchCore

/// Amounts by which a touchable area differs from a frame: positive shrinks (inset), negative grows (outset).
public struct EdgeInsets: Equatable, Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static func all(_ amount: Double) -> EdgeInsets {
        EdgeInsets(top: amount, left: amount, bottom: amount, right: amount)
    }

    public func apply(to rect: Rect) -> Rect {
        Rect(x: rect.x + left, y: rect.y + top, width: rect.width - left - right, height: rect.height - top - bottom)
    }
}

/// The shape of a touchable area, inside its bounding rectangle.
public enum Shape: Equatable, Hashable, Sendable {
    case rect
    /// Corners rounded with this radius (clamped to half the shorter side).
    case roundedRect(radius: Double)
    /// The ellipse (a circle when the rectangle is square) inscribed in the rectangle.
    case ellipse
    /// A polygon with points relative to the rectangle's top-left corner; even-odd rule.
    case polygon([Point])

    /// Whether `point` (in the same coordinates as `bounds`) is inside the shape placed in `bounds`.
    public func contains(_ point: Point, in bounds: Rect) -> Bool {
        guard bounds.contains(point) else { return false }
        switch self {
        case .rect:
            return true
        case .roundedRect(let radius):
            let r = max(0, min(radius, bounds.width / 2, bounds.height / 2))
            guard r > 0 else { return true }
            // Distance to the nearest corner-circle centre, where the point is in a corner square.
            let cx = min(max(point.x, bounds.minX + r), bounds.maxX - r)
            let cy = min(max(point.y, bounds.minY + r), bounds.maxY - r)
            let dx = point.x - cx
            let dy = point.y - cy
            return dx * dx + dy * dy <= r * r
        case .ellipse:
            let rx = bounds.width / 2
            let ry = bounds.height / 2
            guard rx > 0 && ry > 0 else { return false }
            let dx = (point.x - bounds.center.x) / rx
            let dy = (point.y - bounds.center.y) / ry
            return dx * dx + dy * dy <= 1
        case .polygon(let points):
            let local = point - bounds.origin
            var inside = false
            var previous = points.count - 1
            for current in points.indices {
                let a = points[current]
                let b = points[previous]
                if (a.y > local.y) != (b.y > local.y) {
                    let crossing = (b.x - a.x) * (local.y - a.y) / (b.y - a.y) + a.x
                    if local.x < crossing { inside.toggle() }
                }
                previous = current
            }
            return inside
        }
    }
}
