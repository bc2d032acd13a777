import Testing
import TouchCore
import TouchEngine
import TouchTestKit
import TouchWire

/// When touchd stops it cancels every live finger, sends `{"type":"goodbye","code":"shutdown",…}` and closes
/// (docs/protocol.md, last paragraph). The goodbye travels in the close's final bytes, behind whatever the
/// client had not been sent yet.
@Suite("Engine: shutdown")
struct ShutdownTests {
    @Test("live fingers end with cancel, then every client is closed with a shutdown goodbye as its last line")
    func shutdown() throws {
        let harness = EngineHarness()
        let device = try harness.addDevice()
        let subscriber = try harness.client()
        try harness.subscribe(subscriber, #""events":["touch"]"#)
        let quiet = try harness.client(Fixtures.root)
        _ = harness[quiet].take()
        let stuck = try harness.client(capacity: 0)  // never read even its hello
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 800, y: 1000)
        script.slot(1).trackingID(2).position(x: 40, y: 40).report()
        harness.feed(script, from: device)
        _ = harness[subscriber].take()
        harness.setClock(Fixtures.seconds(5))
        let writes = harness[subscriber].writes.count
        harness.shutdown()

        #expect(Set(harness.closed) == [subscriber, quiet, stuck])
        #expect(harness.engine.clientCount == 0)
        let goodbye = #"{"type":"goodbye","code":"shutdown","message":"touchd is stopping"}"#
        let final = harness[subscriber].finalLines
        #expect(final.types == ["cancel", "cancel", "goodbye"])
        #expect(final.ofType("cancel").map { $0.number("finger") } == [1, 2])
        #expect(final.ofType("cancel").allSatisfy { $0.number("time_us") == 5_000_000 })
        #expect(final.last?.text == goodbye)
        #expect(harness[quiet].finalLines.map(\.text) == [goodbye])
        #expect(harness[stuck].finalLines.types == ["hello", "goodbye"])
        // The cancels went in the final bytes, not in a flush of their own.
        #expect(harness[subscriber].writes.count == writes)
        #expect(harness[subscriber].lines.types == ["hello", "reply", "down", "down", "cancel", "cancel", "goodbye"])
    }

    @Test("after shutdown the engine takes no more requests and no subscriber is left")
    func nothingAfterShutdown() throws {
        let harness = EngineHarness()
        let client = try harness.client()
        try harness.subscribe(client)
        harness.shutdown()
        #expect(harness.engine.subscriberCount == 0)
        #expect(!harness.engine.wantsInput(from: client))
        harness.engine.receive(ArraySlice(#"{"op":"ping"}"#.utf8 + [10]), from: client, at: harness.now)
        #expect(!harness.engine.hasEffects)
    }
}
