import TouchCore
import TouchGestures

/// Scroll containers (`scroll`): the first finger the container holds — one that went down on it, or one it took
/// from a descendant past the slop — moves its content offset by the finger's translation from where it went
/// down, within the content size; the descendants' frames follow for hit tests and events, and clients hear
/// `region-scrolled`.
extension Dispatcher {
    struct ScrollDrive {
        var key: FingerKey
        var startOffset: Point
        var origin: Point
    }

    /// Makes `key` the finger that scrolls `container`, unless another finger scrolls it already.
    func claimScroll(of container: Int, by key: FingerKey, from origin: Point) {
        guard let scroll = index.nodes[container].region.scroll, scrollDrivers[container] == nil else { return }
        scrollDrivers[container] = ScrollDrive(key: key, startOffset: scroll.offset, origin: origin)
    }

    @inline(never) func followScroll(_ state: FingerState, _ mapped: MappedFingerEvent, key: FingerKey) {
        guard mapped.event.phase == .move, let target = state.target,
            let drive = scrollDrivers[target], drive.key == key, let scroll = index.nodes[target].region.scroll
        else { return }
        // Content moves with the finger: dragging up shows what is below, a larger offset.
        let wanted = drive.startOffset - (mapped.position - drive.origin)
        let offset = scroll.clamped(wanted, frame: index.nodes[target].region.frame)
        guard offset != scroll.offset else { return }
        index.scroll(target, to: offset)
        out.append(.regionScrolled(region: index.nodes[target].internedID, offset: offset, time: mapped.event.time))
    }

    func releaseScroll(of container: Int, by key: FingerKey) {
        if scrollDrivers[container]?.key == key { scrollDrivers[container] = nil }
    }
}
