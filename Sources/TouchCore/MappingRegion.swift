/// A rectangle of the output (the scene) in its units where a device's touches land (`mapTo`, an output's place in
/// the layout): a `Rect` in the role, named for it where a configuration or `--map-to` gives one.
public typealias MappingRegion = Rect

extension Rect {
    /// Four numbers `[x, y, width, height]` with a positive width and height, as in a configuration or
    /// `--map-to x,y,w,h`; nil otherwise.
    public init?(_ numbers: [Double]) {
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[2] > 0, numbers[3] > 0 else { return nil }
        self.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// `x,y,width,height`, whole numbers without a fraction: the form `--map-to` takes, for the messages that say
    /// where a device's touches land.
    public var commaSeparated: String {
        [x, y, width, height].map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : String($0) }
            .joined(separator: ",")
    }
}
