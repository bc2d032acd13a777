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
/// - `simultaneous`: gestures a region names together may both be recognized; all others are exclusive.
extension Dispatcher {
    /// Installs the arena's relation table, from the scene's regions. Runs on every new arena, so recognizers
    /// carried over from the previous scene are related to the new scene's.
    func linkRelations() {
        let nodes = index.nodes
        // Each spec copied once: the loops below read them in place.
        let specs = (0..<arena.count).map { arena.spec(of: $0) }
        var relations = GestureRelations(count: specs.count)
        var hasHighPriorityAncestor = false
        for (node, members) in recognizersByNode.enumerated() {
            for member in members {
                // A tap waits for the taps of more taps (same fingers) on the same region to fail.
                guard specs[member].kind == .tap else { continue }
                relations.mustFail[member] = members.filter {
                    specs[$0].kind == .tap && specs[$0].fingers == specs[member].fingers
                        && specs[$0].taps > specs[member].taps
                }
            }
            for member in members {
                for reference in specs[member].requireToFail {
                    if let blocker = self.recognizer(reference, from: nodes[node].id) {
                        relations.mustFail[member].append(blocker)
                    }
                }
            }
            for chain in nodes[node].region.sequenced {
                let steps = chain.compactMap { name in members.first { specs[$0].name == name } }
                for (first, second) in zip(steps, steps.dropFirst()) { relations.sequence(first, before: second) }
            }
            if nodes[node].region.gestures.contains(where: \.highPriority) { hasHighPriorityAncestor = true }
        }
        linkSimultaneous(&relations, specs: specs)
        if hasHighPriorityAncestor {
            for node in nodes.indices {
                for ancestor in index.chain(from: node).dropFirst() {
                    for member in recognizersByNode[ancestor] where specs[member].highPriority {
                        for waiter in recognizersByNode[node] { relations.mustFail[waiter].append(member) }
                    }
                }
            }
        }
        arena.install(relations)
    }

    /// Numbers every region's `simultaneous` groups, and gives each recognizer the groups of its region that name it
    /// and the groups of any region that name it.
    private func linkSimultaneous(_ relations: inout GestureRelations, specs: [GestureSpec]) {
        let nodes = index.nodes
        var naming: [String: [Int]] = [:]
        var groupsOfNode: [[(number: Int, names: [String])]] = Array(repeating: [], count: nodes.count)
        var count = 0
        for (node, entry) in nodes.enumerated() {
            for group in entry.region.simultaneous {
                for name in group { naming[name, default: []].append(count) }
                groupsOfNode[node].append((count, group))
                count += 1
            }
        }
        guard count > 0 else { return }
        for (node, members) in recognizersByNode.enumerated() {
            for member in members {
                let name = specs[member].name
                relations.namingGroups[member] = naming[name] ?? []
                relations.ownGroups[member] = groupsOfNode[node].filter { $0.names.contains(name) }.map(\.number)
            }
        }
    }

    /// The arena index of the recognizer a `requireToFail` reference names, seen from the region `id`.
    func recognizer(_ reference: String, from id: String) -> Int? {
        let (region, name) = SceneLoader.resolve(reference, from: id)
        guard let node = index.index(of: region) else { return nil }
        return recognizersByNode[node].first { arena.spec(of: $0).name == name }
    }

    /// The recognizers a finger captured by `node` feeds: `recognizers(for:)` of its chain, worked out at the first
    /// such finger and kept until the arena is replaced.
    func recognizers(forFingerOn node: Int) -> [Int] {
        if let known = recognizersOfTarget[node] { return known }
        let members = recognizers(for: index.chain(from: node))
        recognizersOfTarget[node] = members
        return members
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
                let spec = arena.spec(of: member)
                if !kinds.contains(spec.kind) || (depth > 0 && spec.highPriority) { result.append(member) }
            }
            kinds.formUnion(own)
        }
        let mustFail = arena.relations.mustFail
        guard result.contains(where: { !mustFail[$0].isEmpty }) else { return result }
        // Each wait followed once: a blocker is its own arena index, in the chain when its owner is, and a set keeps
        // what is taken already (searching the chain's recognizers and the result for each wait cost the cube of
        // a region's gestures at every down).
        let inChain = Set(chain)
        var taken = Set(result)
        var position = 0
        while position < result.count {
            for member in mustFail[result[position]] {
                guard inChain.contains(arena.owner(of: member)), taken.insert(member).inserted else { continue }
                result.append(member)
            }
            position += 1
        }
        return result
    }
}
