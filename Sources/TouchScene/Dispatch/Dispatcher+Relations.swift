import TouchCore
import TouchGestures

/// Relations between gestures, as UIKit and SwiftUI have them (docs/scene.md, "Relations"):
///
/// - `requireToFail` (UIKit `require(toFail:)`): the gesture neither begins nor ends while one it names may still
///   succeed on the same fingers; it goes ahead when they fail and fails when one succeeds.
/// - `"priority": "high"` (SwiftUI `highPriorityGesture`): every gesture of the region's descendants requires it
///   to fail, and it hears its descendants' fingers even where a descendant asks for the same kind.
/// - `sequenced` (SwiftUI `sequenced(before:)`): each gesture of a chain hears nothing until the one before it is
///   recognized.
extension Dispatcher {
    /// Links every recognizer of the arena to the ones it waits for and follows. Runs on every new arena, so
    /// recognizers carried over from the previous scene are linked to the new scene's.
    func linkRelations() {
        let nodes = index.nodes
        var hasHighPriorityAncestor = false
        for (node, members) in recognizersByNode.enumerated() {
            let made = members.map { arena.recognizers[$0] }
            for recognizer in made {
                recognizer.after = nil
                recognizer.next = nil
                // A tap waits for the taps of more taps (same fingers) on the same region to fail.
                recognizer.mustFail =
                    recognizer.spec.kind != .tap
                    ? []
                    : made.filter {
                        $0.spec.kind == .tap && $0.spec.fingers == recognizer.spec.fingers
                            && $0.spec.taps > recognizer.spec.taps
                    }
            }
            for recognizer in made {
                for reference in recognizer.spec.requireToFail {
                    if let blocker = self.recognizer(reference, from: nodes[node].id) {
                        recognizer.mustFail.append(blocker)
                    }
                }
            }
            for chain in nodes[node].region.sequenced {
                let steps = chain.compactMap { name in made.first { $0.spec.name == name } }
                for (first, second) in zip(steps, steps.dropFirst()) {
                    first.next = second
                    second.after = first
                }
            }
            if nodes[node].region.gestures.contains(where: \.highPriority) { hasHighPriorityAncestor = true }
        }
        guard hasHighPriorityAncestor else { return }
        for node in nodes.indices {
            for ancestor in index.chain(from: node).dropFirst() {
                for member in recognizersByNode[ancestor] where arena.recognizers[member].spec.highPriority {
                    for waiter in recognizersByNode[node] {
                        arena.recognizers[waiter].mustFail.append(arena.recognizers[member])
                    }
                }
            }
        }
    }

    /// The recognizer a `requireToFail` reference names, seen from the region `id`.
    func recognizer(_ reference: String, from id: String) -> Recognizer? {
        let (region, name) = SceneLoader.resolve(reference, from: id)
        guard let node = index.index(of: region) else { return nil }
        return recognizersByNode[node].lazy.map { self.arena.recognizers[$0] }.first { $0.spec.name == name }
    }

    /// For each gesture kind, the recognizers of the nearest region in the chain that asks for it; then the
    /// ancestors' high-priority gestures and the gestures in the chain that these must wait for, so a relation
    /// is never waiting on a recognizer that cannot hear the finger.
    func recognizers(for chain: [Int]) -> [Int] {
        var kinds: Set<GestureKind> = []
        var result: [Int] = []
        for (depth, node) in chain.enumerated() {
            let own = Set(index.nodes[node].region.gestures.map(\.kind))
            for member in recognizersByNode[node] {
                let spec = arena.recognizers[member].spec
                if !kinds.contains(spec.kind) || (depth > 0 && spec.highPriority) { result.append(member) }
            }
            kinds.formUnion(own)
        }
        guard result.contains(where: { !arena.recognizers[$0].mustFail.isEmpty }) else { return result }
        // Each wait followed once: a blocker is its own arena index, in the chain when its owner is, and a set keeps
        // what is taken already (searching the chain's recognizers and the result for each wait cost the cube of
        // a region's gestures at every down).
        let inChain = Set(chain)
        var taken = Set(result)
        var position = 0
        while position < result.count {
            for blocker in arena.recognizers[result[position]].mustFail {
                let member = blocker.member
                guard inChain.contains(arena.owner(of: member)), taken.insert(member).inserted else { continue }
                result.append(member)
            }
            position += 1
        }
        return result
    }
}
