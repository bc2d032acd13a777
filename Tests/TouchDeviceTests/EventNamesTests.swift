import Testing
import TouchCore
import TouchDevice

@Suite("Event names against libevdev")
struct EventNamesTests {
    /// libevdev's tables are generated from the same kernel header by other people's tooling: every code it
    /// names must get the same name from touchd (libevdev prefers some aliases; those are checked both ways).
    @Test("touchd's code names agree with libevdev's for every type and code")
    func agreeWithLibevdev() {
        var compared = 0
        var mismatches: [String] = []
        // EV_FF codes live in <linux/input.h>, not the codes header touchd's table is generated from.
        for type in UInt16(0)...EventType.max where type != EventType.ff {
            guard let maximum = EventCodeLimits.maximumCode(forType: type) else { continue }
            #expect(EventNames.typeName(type) == LibraryEventNames.typeName(type))
            for code in 0...maximum {
                guard let theirs = LibraryEventNames.codeName(type: type, code: code) else { continue }
                compared += 1
                let ours = EventNames.codeName(type: type, code: code)
                // Either the same name, or ours is an alias that resolves to the same code.
                if ours != theirs, EventNames.code(named: theirs).map({ $0 == (type, code) }) != true {
                    mismatches.append("\(type)/\(code): touchd \(ours ?? "nil"), libevdev \(theirs)")
                }
            }
        }
        #expect(compared > 500)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("property names agree")
    func properties() {
        for property in UInt16(0)...6 {
            #expect(EventNames.propertyName(property) == LibraryEventNames.propertyName(property))
        }
    }

    @Test("libudev links and gives a context")
    func udev() {
        #expect(UdevProbe.contextAvailable())
    }
}
