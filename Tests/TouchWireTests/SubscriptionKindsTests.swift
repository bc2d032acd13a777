import Testing
import TouchWire

@Suite("Transport: a subscription's kinds")
struct SubscriptionKindsTests {
    /// Every subset of the six kinds, made from the bits of 0..<64 (independently of how a subscription keeps them).
    static let subsets: [Set<EventKind>] = (0..<64).map { bits in
        Set(EventKind.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
    }

    @Test("every set of kinds reads back as given, and admits exactly its kinds (the empty set all of them)")
    func everySubset() {
        #expect(EventKind.allCases.count == 6)
        for kinds in Self.subsets {
            let subscription = Subscription(kinds: kinds)
            #expect(subscription.kinds == kinds)
            for kind in EventKind.allCases {
                #expect(subscription.admits(kind) == (kinds.isEmpty || kinds.contains(kind)), "\(kinds) \(kind)")
            }
        }
    }

    @Test("kinds changed in place (as the subscribe request adds them) and equality follow the set")
    func changedInPlace() {
        var subscription = Subscription()
        subscription.kinds.insert(.gesture)
        subscription.kinds.insert(.touch)
        #expect(subscription == Subscription(kinds: [.touch, .gesture]))
        #expect(subscription != Subscription(kinds: [.touch]))
        #expect(!subscription.admits(.frame))
        subscription.kinds.remove(.gesture)
        subscription.kinds.remove(.touch)
        #expect(subscription == Subscription())
        #expect(subscription.admits(.frame))
    }
}
