import TouchCore
import TouchJSON

/// The scene flattened for hit testing.
///
/// UIKit's hit test is recursive: skip hidden, disabled or transparent views; if the point is outside a view
/// that clips, skip its subtree; try children topmost first; else the view itself. Flattened, that is one order
/// (`rank`): every node after all of its descendants, and a higher sibling's whole subtree before a lower one's.
/// The first node in that order that takes touches, contains the point, and whose clipping ancestors all contain
/// it, is exactly what the recursion returns. A uniform grid keeps, per cell, the nodes that could be hit there
/// in that order, so a hit test reads one short list instead of the whole scene; `linearHitTest` is the plain scan,
/// kept for tests and benchmarks.
public struct SceneIndex: Sendable {
    public struct Node: Sendable {
        /// The region without its children (they are nodes of their own).
        public var region: Region
        /// The id as events carry it, interned when the scene changed.
        public let internedID: InternedString
        public var parent: Int?
        public var children: [Int]
        public var depth: Int
        /// Frame in scene coordinates.
        public var frame: Rect
        /// Touchable area in scene coordinates.
        public var touchBounds: Rect
        /// Visible, enabled and opaque enough, and so is every ancestor.
        public var eligible: Bool
        /// Eligible and wants touches itself.
        public var takesTouches: Bool
        /// Ancestors whose touchable area clips this node.
        public var clippingAncestors: [Int]
        /// Position in the topmost-first order.
        public var rank: Int

        public var id: String { region.id }

        public func contains(_ point: Point) -> Bool { region.shape.contains(point, in: touchBounds) }
    }

    public private(set) var nodes: [Node] = []
    public private(set) var roots: [Int] = []
    /// Node indices in topmost-first order.
    public private(set) var order: [Int] = []
    public let width: Double
    public let height: Double
    private var indexByID: [String: Int] = [:]
    private var grid = Grid()

    /// Alpha at or below which a region is treated as invisible (UIKit: 0.01).
    public static let minimumAlpha = 0.01

    public init(scene: Scene) {
        width = scene.width
        height = scene.height
        for region in scene.regions { roots.append(add(region, parent: nil, depth: 0)) }
        for index in nodes.indices { indexByID[nodes[index].id] = index }
        computeOrder()
        rebuildGrid()
    }

    public func index(of id: String) -> Int? { indexByID[id] }

    /// Entries in the hit-test grid's cells (bounded by eight a node and one a cell).
    public var gridEntryCount: Int { grid.entries.count }

    public subscript(id: String) -> Node? { indexByID[id].map { nodes[$0] } }

    /// The region a finger going down at `point` belongs to, or nil.
    public func hitTest(_ point: Point) -> Int? {
        guard let cell = grid.cell(for: point) else { return linearHitTest(point) }
        // The cell's nodes and the nodes too wide for cells, merged in rank order: the first that accepts is the hit.
        let local = grid.nodes(in: cell)
        let wide = grid.wide
        var nextLocal = local.startIndex
        var nextWide = wide.startIndex
        while nextLocal < local.endIndex || nextWide < wide.endIndex {
            let candidate: Int
            if nextWide == wide.endIndex
                || (nextLocal < local.endIndex && nodes[local[nextLocal]].rank < nodes[wide[nextWide]].rank)
            {
                candidate = local[nextLocal]
                nextLocal += 1
            } else {
                candidate = wide[nextWide]
                nextWide += 1
            }
            if accepts(candidate, point) { return candidate }
        }
        return nil
    }

    /// The same answer by scanning every node; for tests and benchmarks.
    public func linearHitTest(_ point: Point) -> Int? {
        for index in order where accepts(index, point) { return index }
        return nil
    }

    /// Ancestors of a node, nearest first, the node itself included.
    public func chain(from index: Int) -> [Int] {
        var result = [index]
        var current = nodes[index].parent
        while let parent = current {
            result.append(parent)
            current = nodes[parent].parent
        }
        return result
    }

    /// Moves a region (and its subtree) so its frame's origin is `origin` in parent coordinates.
    public mutating func moveRegion(_ index: Int, toOrigin origin: Point) {
        let delta = origin - nodes[index].region.frame.origin
        guard delta != .zero else { return }
        nodes[index].region.frame = nodes[index].region.frame.offsetBy(delta)
        var stack = [index]
        while let current = stack.popLast() {
            nodes[current].frame = nodes[current].frame.offsetBy(delta)
            nodes[current].touchBounds = nodes[current].touchBounds.offsetBy(delta)
            stack.append(contentsOf: nodes[current].children)
        }
        rebuildGrid()
    }

    /// Scrolls a scroll container's content to `offset` (already within bounds): its descendants move by the
    /// difference, the container itself stays.
    public mutating func scroll(_ index: Int, to offset: Point) {
        guard let old = nodes[index].region.scroll?.offset, old != offset else { return }
        nodes[index].region.scroll?.offset = offset
        let delta = old - offset
        var stack = nodes[index].children
        while let current = stack.popLast() {
            nodes[current].frame = nodes[current].frame.offsetBy(delta)
            nodes[current].touchBounds = nodes[current].touchBounds.offsetBy(delta)
            stack.append(contentsOf: nodes[current].children)
        }
        rebuildGrid()
    }

    /// The scene as it now stands (regions may have moved since it was loaded).
    public var scene: Scene {
        func rebuild(_ index: Int) -> Region {
            var region = nodes[index].region
            region.children = nodes[index].children.map(rebuild)
            return region
        }
        return Scene(width: width, height: height, regions: roots.map(rebuild))
    }

    private func accepts(_ index: Int, _ point: Point) -> Bool {
        let node = nodes[index]
        guard node.takesTouches, node.contains(point) else { return false }
        for ancestor in node.clippingAncestors where !nodes[ancestor].contains(point) { return false }
        return true
    }

    private mutating func add(_ region: Region, parent: Int?, depth: Int) -> Int {
        var stripped = region
        stripped.children = []
        let index = nodes.count
        nodes.append(
            Node(
                region: stripped, internedID: InternedString(region.id), parent: parent, children: [], depth: depth,
                frame: region.frame, touchBounds: region.frame, eligible: false, takesTouches: false,
                clippingAncestors: [], rank: 0))
        place(index)
        for child in region.children {
            let childIndex = add(child, parent: index, depth: depth + 1)
            nodes[index].children.append(childIndex)
        }
        return index
    }

    /// Works out a node's scene frame, touchable area, eligibility and clipping from its region and its parent's
    /// (already placed) node.
    private mutating func place(_ index: Int) {
        let region = nodes[index].region
        let parentNode = nodes[index].parent.map { nodes[$0] }
        // A scroll container shows its content shifted by its offset.
        let origin = parentNode.map { $0.frame.origin - ($0.region.scroll?.offset ?? .zero) } ?? .zero
        let frame = region.frame.offsetBy(origin)
        let visible = !region.hidden && region.enabled && region.alpha > Self.minimumAlpha
        let eligible = visible && (parentNode?.eligible ?? true)
        var clipping = parentNode?.clippingAncestors ?? []
        if let parent = nodes[index].parent, nodes[parent].region.clipsChildren { clipping.append(parent) }
        nodes[index].frame = frame
        nodes[index].touchBounds = region.touchableArea.bounds(for: frame)
        nodes[index].eligible = eligible
        nodes[index].takesTouches = eligible && region.wantsTouches
        nodes[index].clippingAncestors = clipping
    }

    /// Puts `region` in force for node `index` in place: its own fields change; its children (the same regions,
    /// as `region.children` must hold them) stay nodes of their own, placed again below it. Work in proportion to
    /// the node's subtree, and to the scene only for what hit testing orders (a changed `z`) and buckets.
    public mutating func replaceRegion(_ index: Int, with region: Region) {
        var stripped = region
        stripped.children = []
        let restacked = stripped.z != nodes[index].region.z
        var unmoved = nodes[index].region
        unmoved.z = stripped.z
        let onlyRestacked = restacked && unmoved == stripped
        nodes[index].region = stripped
        if onlyRestacked {
            // Nothing moved on the scene: the cells keep their nodes, and those of the subtree change places.
            restack(index)
            var moved: [(node: Int, bounds: Rect)] = []
            var stack = [index]
            while let current = stack.popLast() {
                if let bounds = gridBounds(current) { moved.append((current, bounds)) }
                stack.append(contentsOf: nodes[current].children)
            }
            grid.restack(moved, ranks: nodes.map(\.rank))
            return
        }
        var stack = [index]
        while let current = stack.popLast() {
            place(current)
            stack.append(contentsOf: nodes[current].children)
        }
        if restacked { restack(index) }
        rebuildGrid()
    }

    /// Orders a node's siblings again after its `z` changed: their subtrees are contiguous blocks of `order`, so
    /// only the span they cover is rewritten, in the order `computeOrder` gives them.
    private mutating func restack(_ index: Int) {
        let siblings = nodes[index].parent.map { nodes[$0].children } ?? roots
        let stacked = siblings.sorted { nodes[$0].rank < nodes[$1].rank }
        var subtreeSize = 0
        var stack = [stacked[0]]
        while let current = stack.popLast() {
            subtreeSize += 1
            stack.append(contentsOf: nodes[current].children)
        }
        let spanStart = nodes[stacked[0]].rank - subtreeSize + 1
        var blocks: [Int: Range<Int>] = [:]
        var blockStart = spanStart
        for sibling in stacked {
            blocks[sibling] = blockStart..<(nodes[sibling].rank + 1)
            blockStart = nodes[sibling].rank + 1
        }
        // Higher z on top; equal z: the later sibling on top (as `computeOrder`).
        let keys = siblings.enumerated().map { (z: nodes[$0.element].region.z, position: $0.offset, node: $0.element) }
        let restacked = keys.sorted { a, b in a.z != b.z ? a.z > b.z : a.position > b.position }
        var span: [Int] = []
        span.reserveCapacity(blockStart - spanStart)
        for key in restacked { span += order[blocks[key.node]!] }
        order.replaceSubrange(spanStart..<blockStart, with: span)
        for rank in spanStart..<blockStart { nodes[order[rank]].rank = rank }
    }

    private mutating func computeOrder() {
        order.removeAll()
        func topmostFirst(_ siblings: [Int]) -> [Int] {
            // Higher z on top; equal z: the later sibling on top.
            siblings.enumerated().sorted { a, b in
                let za = nodes[a.element].region.z
                let zb = nodes[b.element].region.z
                return za != zb ? za > zb : a.offset > b.offset
            }.map(\.element)
        }
        func visit(_ siblings: [Int]) {
            for index in topmostFirst(siblings) {
                visit(nodes[index].children)
                order.append(index)
            }
        }
        visit(roots)
        for (rank, index) in order.enumerated() { nodes[index].rank = rank }
    }

    private mutating func rebuildGrid() {
        grid = Grid(width: width, height: height, count: nodes.count)
        var placed: [(node: Int, bounds: Rect)] = []
        for index in order { if let bounds = gridBounds(index) { placed.append((index, bounds)) } }
        grid.fill(placed)
    }

    /// Where a node can be hit: its touchable area within its clipping ancestors'; nil when it takes no touches or
    /// is clipped away.
    private func gridBounds(_ index: Int) -> Rect? {
        guard nodes[index].takesTouches else { return nil }
        var bounds = nodes[index].touchBounds
        for ancestor in nodes[index].clippingAncestors {
            guard let clipped = bounds.intersection(nodes[ancestor].touchBounds) else { return nil }
            bounds = clipped
        }
        return bounds
    }

    /// Uniform buckets over the scene, about one per region up to 128×128.
    struct Grid: Sendable {
        var columns = 1
        var rows = 1
        var cellWidth = 1.0
        var cellHeight = 1.0
        /// Each cell's nodes, in rank order, one cell after another: cell c's are `entries[starts[c]..<starts[c + 1]]`
        /// (two arrays for the whole grid, not an array a cell: a scene of 10,000 regions has 10,000 cells, and the
        /// grid is built again at every scene change and every drag-to-move step).
        var starts: [Int] = [0, 0]
        var entries: [Int] = []
        /// Nodes in no cell, tried in every hit test (`fill`).
        var wide: [Int] = []

        init() {}

        init(width: Double, height: Double, count: Int) {
            let side = max(1, min(128, Int(Double(max(count, 1)).squareRoot().rounded(.up))))
            columns = side
            rows = side
            cellWidth = max(width, 1) / Double(columns)
            cellHeight = max(height, 1) / Double(rows)
            starts = Array(repeating: 0, count: columns * rows + 1)
        }

        func nodes(in cell: Int) -> ArraySlice<Int> { entries[starts[cell]..<starts[cell + 1]] }

        func cell(for point: Point) -> Int? {
            // Compare as doubles before converting: a huge coordinate must not reach Int(_:) (found by fuzzing).
            let column = (point.x / cellWidth).rounded(.down)
            let row = (point.y / cellHeight).rounded(.down)
            guard column.isFinite, row.isFinite, column >= 0, row >= 0, column < Double(columns), row < Double(rows)
            else {
                return nil
            }
            return Int(row) * columns + Int(column)
        }

        /// `value / size`, clamped to 0...last as a double first, so any finite or infinite input is safe.
        private func clampedCell(_ value: Double, _ size: Double, last: Int) -> Int {
            let position = (value / size).rounded(.down)
            guard position.isFinite else { return position > 0 ? last : 0 }
            return Int(min(max(position, 0), Double(last)))
        }

        /// Puts each node in every cell its bounds touch; `placed` comes in rank order, so each cell's list is sorted.
        /// The grid holds at most `entryLimit(nodes:)` entries: past that, the nodes that span the most cells go to
        /// `wide` instead (also in rank order), which every hit test reads. Ten thousand overlapping full-screen
        /// regions would otherwise put every region in every cell.
        mutating func fill(_ placed: [(node: Int, bounds: Rect)]) {
            var spans = placed.map { cellSpan($0.bounds) }
            let sizes = spans.map { span in span.map { $0.rows.count * $0.columns.count } ?? 0 }
            var total = sizes.reduce(0, +)
            let limit = Self.entryLimit(nodes: placed.count, cells: starts.count - 1)
            if total > limit {
                // The widest out first, a size at a time, by counting: sizes are at most the number of cells.
                var entriesOfSize = Array(repeating: 0, count: (sizes.max() ?? 0) + 1)
                for size in sizes { entriesOfSize[size] += size }
                var widest = entriesOfSize.count
                while total > limit && widest > 1 {
                    widest -= 1
                    total -= entriesOfSize[widest]
                }
                for item in sizes.indices where sizes[item] >= widest {
                    wide.append(placed[item].node)
                    spans[item] = nil
                }
            }
            for span in spans {
                guard let span else { continue }
                for row in span.rows { for column in span.columns { starts[row * columns + column + 1] += 1 } }
            }
            for cell in 0..<(starts.count - 1) { starts[cell + 1] += starts[cell] }
            entries = Array(repeating: 0, count: starts[starts.count - 1])
            var next = starts
            for (item, span) in zip(placed, spans) {
                guard let span else { continue }
                for row in span.rows {
                    for column in span.columns {
                        entries[next[row * columns + column]] = item.node
                        next[row * columns + column] += 1
                    }
                }
            }
        }

        /// After a restacking that moved no node on the scene: the cells of the moved nodes (and `wide`) are put in
        /// rank order again; in every other cell, the relative order of nodes did not change.
        mutating func restack(_ moved: [(node: Int, bounds: Rect)], ranks: [Int]) {
            var cells: Set<Int> = []
            var movedWide = false
            for item in moved {
                if wide.contains(item.node) {
                    movedWide = true
                    continue
                }
                guard let span = cellSpan(item.bounds) else { continue }
                for row in span.rows { for column in span.columns { cells.insert(row * columns + column) } }
            }
            for cell in cells { entries[starts[cell]..<starts[cell + 1]].sort { ranks[$0] < ranks[$1] } }
            if movedWide { wide.sort { ranks[$0] < ranks[$1] } }
        }

        /// Eight entries a node, beside one a cell: a scene of small regions stays wholly in cells.
        static func entryLimit(nodes: Int, cells: Int) -> Int { 8 * nodes + cells }

        /// The cells a node's bounds touch; nil for bounds with no area in the scene.
        private func cellSpan(_ bounds: Rect) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
            let firstColumn = clampedCell(bounds.minX, cellWidth, last: columns - 1)
            let lastColumn = clampedCell(bounds.maxX, cellWidth, last: columns - 1)
            let firstRow = clampedCell(bounds.minY, cellHeight, last: rows - 1)
            let lastRow = clampedCell(bounds.maxY, cellHeight, last: rows - 1)
            // An inset larger than the region leaves no area: nothing to index.
            guard bounds.width >= 0, bounds.height >= 0, bounds.maxX >= 0, bounds.maxY >= 0,
                bounds.minX < cellWidth * Double(columns),
                bounds.minY < cellHeight * Double(rows)
            else { return nil }
            return (firstRow...lastRow, firstColumn...lastColumn)
        }
    }
}
