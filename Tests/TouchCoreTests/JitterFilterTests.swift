import Testing
import TouchCore
import TouchTestKit

/// The jitter filter in the pipeline, on hand-written streams whose answers are worked out in the comments.
@Suite("Jitter filter")
struct JitterFilterTests {
    /// The test touchscreen (0...4095, 10 slots) with a fuzz of 16 on both MT axes: margins of 8 device units.
    static let fuzzy: DeviceDescription = {
        var device = TestDevices.touchscreen
        device.absInfo[AbsCode.mtPositionX]?.fuzz = 16
        device.absInfo[AbsCode.mtPositionY]?.fuzz = 16
        return device
    }()

    /// Runs events through a pipeline with the filter; positions stay device units (no output size, minimum 0).
    static func run(_ events: [InputEvent], device: DeviceDescription = fuzzy, filter: JitterFilter)
        -> (lines: [String], pipeline: TouchPipeline)
    {
        var pipeline = TouchPipeline(
            decoder: TouchDecoder(description: device), mapping: try! CoordinateMapping(device: device),
            filter: filter)
        var output: [PipelineOutput] = []
        for event in events { pipeline.process(event, into: &output) }
        let lines = output.map { item -> String in
            switch item {
            case .finger(let mapped):
                let raw = mapped.event.contact
                return "\(mapped.event.phase) \(mapped.event.finger) (\(mapped.position.x),\(mapped.position.y))"
                    + " raw (\(raw.x),\(raw.y))"
            case .frameEnd: return "frame"
            }
        }
        return (lines, pipeline)
    }

    @Test("margins: half of each axis's fuzz; none declared: range / 250, released on motion; an override for both")
    func margins() {
        #expect(FuzzHysteresis(device: Self.fuzzy) == FuzzHysteresis(marginX: 8, marginY: 8, release: .edge))
        // 0...4095 without fuzz: mtdev's default fuzz, 4095 / 250 = 16.38 (not rounded down), whole, on motion.
        #expect(
            FuzzHysteresis(device: TestDevices.touchscreen)
                == FuzzHysteresis(marginX: 16.38, marginY: 16.38, release: .kernelPositionOnMotion))
        // A fuzz on one axis only: libinput's y margin is 0, so it does not filter; nor does touchd on motion.
        var uneven = TestDevices.touchscreen
        uneven.absInfo[AbsCode.mtPositionX]?.fuzz = 75
        uneven.absInfo[AbsCode.mtPositionY] = AbsInfo(minimum: 0, maximum: 7200)  // 7200 / 250 = 28.8
        #expect(
            FuzzHysteresis(device: uneven)
                == FuzzHysteresis(marginX: 75, marginY: 28.8, release: .kernelPositionOnMotion))
        #expect(FuzzHysteresis(device: uneven, fuzz: 4) == FuzzHysteresis(marginX: 2, marginY: 2, release: .edge))
        // A fuzz of 1: libinput's margins are 1 / 2 = 0 in integers, so no hysteresis there either.
        #expect(
            FuzzHysteresis(device: TestDevices.touchscreen, fuzz: 1)
                == FuzzHysteresis(marginX: 1, marginY: 1, release: .kernelPositionOnMotion))
        // Single touch: libinput's fallback_flush_st_motion has no hysteresis, whatever the fuzz.
        var single = TestDevices.touchscreen
        for code in [AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID] {
            single.absInfo[code] = nil
        }
        single.absInfo[AbsCode.x]?.fuzz = 16
        single.absInfo[AbsCode.y]?.fuzz = 16
        #expect(single.touchProtocol == .singleTouch)
        #expect(
            FuzzHysteresis(device: single) == FuzzHysteresis(marginX: 16, marginY: 16, release: .kernelPositionOnMotion)
        )
        // A range below 250 units gives no default fuzz, and the hysteresis is off, as libinput with fuzz 0.
        var tiny = TestDevices.touchscreen
        tiny.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 200)
        #expect(!FuzzHysteresis(device: tiny).isActive)
    }

    /// No fuzz declared, margins 16.38. From the down at 1000: +10 (inside: held), +30 (a step of 20 from the last
    /// sample, beyond the margin: motion, so the kernel's position), +40 (inside the ellipse around 1030: held),
    /// +60 (a step of 20 again: the kernel's), +70 and +80 (steps of 10: creep, so the edge: 1080 - 16.38).
    @Test("no fuzz declared: a step beyond the margin is reported where the kernel put it, noise and creep are held")
    func releaseOnMotion() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 500).report()
        for x in [1010, 1030, 1040, 1060, 1070, 1080] as [Int32] { script.abs(AbsCode.mtPositionX, x).report() }
        script.trackingID(-1).report()
        let (lines, pipeline) = Self.run(script.events, device: TestDevices.touchscreen, filter: .standard)
        #expect(
            lines == [
                "down 1 (1000.0,500.0) raw (1000,500)", "frame",
                "move 1 (1030.0,500.0) raw (1030,500)", "frame",
                "move 1 (1060.0,500.0) raw (1060,500)", "frame",
                "move 1 (\(1080 - 16.38),500.0) raw (1080,500)", "frame",
                "up 1 (\(1080 - 16.38),500.0) raw (1080,500)", "frame",
            ])
        #expect(pipeline.diagnostics.movesSuppressedByFilter == 3)
    }

    /// N-Trig's axes (0...9600 fuzz 75, 0...7200 fuzz 78), protocol A. mtdev's default fuzz is 9600 / 250 = 38.
    /// x from the down at 1000: 1010 is within 19 (half of 38): 1000; 1030 within 38: (3·1000 + 1030) / 4 = 1007
    /// (integer, as mtdev); 1070 within 76 of 1007: (1007 + 1070) / 2 = 1038; 1140 is 102 from 1038: whole.
    /// Then libinput's hysteresis, 37.5 around the down: 1000 and 1007 are held, 1038 goes to the edge (1000.5),
    /// 1140 to 1140 − 37.5.
    @Test("protocol A: mtdev's defuzz before libinput's hysteresis, in integers as mtdev")
    func protocolADefuzz() {
        var device = TestDevices.touchscreen
        device.absInfo[AbsCode.mtSlot] = nil
        device.absInfo[AbsCode.mtTrackingID] = nil
        device.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 9600, fuzz: 75)
        device.absInfo[AbsCode.mtPositionY] = AbsInfo(minimum: 0, maximum: 7200, fuzz: 78)
        #expect(device.touchProtocol == .contactReports)
        #expect(MtdevDefuzz(device: device) == MtdevDefuzz(fuzzX: 38, fuzzY: 28))
        let script = EventScript()
        for x in [1000, 1010, 1030, 1070, 1140] as [Int32] {
            script.abs(AbsCode.mtPositionX, x).abs(AbsCode.mtPositionY, 0).contactReport().report()
        }
        let (lines, pipeline) = Self.run(script.events, device: device, filter: .standard)
        #expect(
            lines == [
                "down 1 (1000.0,0.0) raw (1000,0)", "frame",
                "move 1 (1000.5,0.0) raw (1070,0)", "frame",
                "move 1 (1102.5,0.0) raw (1140,0)", "frame",
            ])
        #expect(pipeline.diagnostics.movesSuppressedByFilter == 2)
        #expect(pipeline.filter.defuzz != nil && !pipeline.filter.isOff)
    }

    /// Protocol A, no fuzz: the defuzz alone (38). From 1000, 1060 is 60 away (under 76): (1000 + 1060) / 2 = 1030.
    /// The next frames repeat 1060 while the touch major grows: the position stays 1030 (only another axis
    /// changed: suppressed as moves that go nowhere), and the lift, which mtdev never filters, is where the move
    /// went (the defuzz run again at the lift would land it at 1037, where no move went).
    @Test("protocol A: a frame that changes only the touch major, and the lift, do not move the finger")
    func protocolALift() {
        var device = TestDevices.touchscreen
        device.absInfo[AbsCode.mtSlot] = nil
        device.absInfo[AbsCode.mtTrackingID] = nil
        device.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 9600)
        device.absInfo[AbsCode.mtPositionY] = AbsInfo(minimum: 0, maximum: 7200)
        device.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255)
        let script = EventScript()
        for (x, major) in [(1000, 10), (1060, 10), (1060, 11), (1060, 12)] as [(Int32, Int32)] {
            script.abs(AbsCode.mtPositionX, x).abs(AbsCode.mtPositionY, 0).abs(AbsCode.mtTouchMajor, major)
            script.contactReport().report()
        }
        script.contactReport().report()  // no contact: the lift
        let (lines, _) = Self.run(script.events, device: device, filter: .standard)
        let positions = lines.filter { $0 != "frame" }.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(positions == ["down 1 (1000.0,0.0)", "move 1 (1030.0,0.0)", "up 1 (1030.0,0.0)"])
    }

    @Test("mtdev's defuzz, one axis: the kernel's input_defuzz_abs_event, and no overflow at Int32's ends")
    func defuzzArithmetic() {
        #expect(MtdevDefuzz.defuzz(1010, previous: 1000, fuzz: 38) == 1000)
        #expect(MtdevDefuzz.defuzz(982, previous: 1000, fuzz: 38) == 1000)
        #expect(MtdevDefuzz.defuzz(981, previous: 1000, fuzz: 38) == (3000 + 981) / 4)  // the bounds are strict
        #expect(MtdevDefuzz.defuzz(1019, previous: 1000, fuzz: 38) == (3000 + 1019) / 4)
        #expect(MtdevDefuzz.defuzz(-1030, previous: -1000, fuzz: 38) == -1007)  // truncated toward zero, as C
        #expect(MtdevDefuzz.defuzz(1075, previous: 1000, fuzz: 38) == 1037)
        #expect(MtdevDefuzz.defuzz(1076, previous: 1000, fuzz: 38) == 1076)
        #expect(MtdevDefuzz.defuzz(.max, previous: .min, fuzz: .max) == .max)
        #expect(MtdevDefuzz.defuzz(.min, previous: .max, fuzz: .max) == .min)
        #expect(MtdevDefuzz.defuzz(-2_147_483_000, previous: 2_147_483_000, fuzz: .max) == 0)  // the half, in 64 bits
        #expect(MtdevDefuzz.defuzz(5, previous: 0, fuzz: 0) == 5)
    }

    /// Jitter within the margin's ellipse around the down: (6,-5) is (6/8)² + (5/8)² = 0.95 ≤ 1; (8,0) is on it.
    @Test("a still finger jittering within half the fuzz: one down, no moves, the up where the down was")
    func stillFinger() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 1000).report()
        for (x, y) in [(1006, 995), (994, 1005), (1008, 1000), (1000, 992), (995, 1006)] as [(Int32, Int32)] {
            script.position(x: x, y: y).report()
        }
        script.trackingID(-1).report()
        let (lines, pipeline) = Self.run(script.events, filter: .standard)
        #expect(
            lines == [
                "down 1 (1000.0,1000.0) raw (1000,1000)", "frame",
                "up 1 (1000.0,1000.0) raw (995,1006)", "frame",
            ])
        #expect(pipeline.diagnostics.movesSuppressedByFilter == 5)
        #expect(pipeline.filter.trackedFingers == 0)
    }

    /// x grows 20 a frame. The first move is 20 from the down: 20/8 = 2.5 times the margin, so the position goes
    /// to 1020 - 20/2.5 = 1012; from then on each raw x is 28 past the position and the position stays 8 behind.
    @Test("a steady drag passes every move, 8 device units (the margin) behind the kernel")
    func steadyDrag() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 500).report()
        for step in 1...4 { script.abs(AbsCode.mtPositionX, 1000 + 20 * Int32(step)).report() }
        script.trackingID(-1).report()
        let (lines, pipeline) = Self.run(script.events, filter: .standard)
        #expect(
            lines == [
                "down 1 (1000.0,500.0) raw (1000,500)", "frame",
                "move 1 (1012.0,500.0) raw (1020,500)", "frame",
                "move 1 (1032.0,500.0) raw (1040,500)", "frame",
                "move 1 (1052.0,500.0) raw (1060,500)", "frame",
                "move 1 (1072.0,500.0) raw (1080,500)", "frame",
                "up 1 (1072.0,500.0) raw (1080,500)", "frame",
            ])
        #expect(pipeline.diagnostics.movesSuppressedByFilter == 0)
    }

    /// Diagonal: from (1000,1000) to (1012,1009): (12/8)² + (9/8)² = 3.5156, its root 1.875; the position goes to
    /// (1012 - 12/1.875, 1009 - 9/1.875) = (1005.6, 1004.2), on the ellipse's edge.
    @Test("a diagonal move leaves the position on the ellipse, as libinput's evdev_hysteresis")
    func diagonal() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 1000).report()
        script.position(x: 1012, y: 1009).report()
        let (lines, _) = Self.run(script.events, filter: .standard)
        #expect(lines.count == 4)
        let parts = lines[2].split(separator: " ")
        #expect(parts[0] == "move")
        let numbers = parts[2].dropFirst().dropLast().split(separator: ",").compactMap { Double($0) }
        #expect(abs(numbers[0] - 1005.6) < 1e-9 && abs(numbers[1] - 1004.2) < 1e-9)
    }

    @Test("a frame whose only change was absorbed has no frame line; another finger's move in it still passes")
    func framesWithoutFingers() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 1000)
        script.slot(1).trackingID(2).position(x: 3000, y: 3000).report()
        script.slot(0).position(x: 1003, y: 1000).report()  // absorbed: the whole frame goes
        script.position(x: 1001, y: 1000).slot(1).position(x: 3100, y: 3000).report()  // finger 2 passes
        let (lines, pipeline) = Self.run(script.events, filter: .standard)
        #expect(
            lines == [
                "down 1 (1000.0,1000.0) raw (1000,1000)", "down 2 (3000.0,3000.0) raw (3000,3000)", "frame",
                "move 2 (3092.0,3000.0) raw (3100,3000)", "frame",
            ])
        #expect(pipeline.diagnostics.movesSuppressedByFilter == 2)
    }

    @Test("off passes every kernel position, and equals a pipeline made without a filter")
    func off() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 1000).report()
        script.position(x: 1003, y: 1001).report()
        script.trackingID(-1).report()
        let (lines, pipeline) = Self.run(script.events, filter: .off)
        #expect(
            lines == [
                "down 1 (1000.0,1000.0) raw (1000,1000)", "frame",
                "move 1 (1003.0,1001.0) raw (1003,1001)", "frame",
                "up 1 (1003.0,1001.0) raw (1003,1001)", "frame",
            ])
        #expect(pipeline.filter.isOff && pipeline.diagnostics.movesSuppressedByFilter == 0)
    }

    /// minCutoff 1 Hz, beta 0, frames 10 ms apart: α = 1 / (1 + τ/Tₑ) with τ = 1/(2π·1 Hz) = 0.159155 s, so
    /// α = 0.0628319 / 1.0628319 = 0.0591174. A step of 1000 gives 59.1174, the next frame
    /// 1000 - 1000·(1 - α)² = 114.7399.
    @Test("1€ with beta 0: a step is smoothed by the hand-computed alpha")
    func oneEuroStep() {
        #expect(abs(OneEuroAxis.alpha(cutoff: 1, interval: 0.01) - 0.0591174) < 1e-7)
        let lines = oneEuroStepLines(beta: 0)
        #expect(lines[2].hasPrefix("move 1 (59.117"))
        #expect(lines[4].hasPrefix("move 1 (114.739"))
    }

    /// beta 0.001: the step's speed is 1000 / 0.01 s = 100000 units/s, smoothed with α(1 Hz) to 5911.74; the
    /// cutoff is 1 + 0.001·5911.74 = 6.91174 Hz, α = 1 / (1 + 1/(2π·6.91174·0.01)) = 0.302785: 302.785. Next frame:
    /// speed 0, smoothed 5911.74·(1 - 0.0591174) = 5562.25, cutoff 6.56225 Hz, α = 0.291962:
    /// 302.785 + 0.291962·697.215 = 506.333.
    @Test("1€ with beta: the cutoff rises with the smoothed speed, as computed by hand")
    func oneEuroSpeed() {
        let lines = oneEuroStepLines(beta: 0.001)
        #expect(lines[2].hasPrefix("move 1 (302.78"))
        #expect(lines[4].hasPrefix("move 1 (506.33"))
    }

    private func oneEuroStepLines(beta: Double) -> [String] {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 0, y: 100).report()
        script.abs(AbsCode.mtPositionX, 1000).report()
        script.abs(AbsCode.mtPressure, 10).report()  // x stays 1000: the filter still converges
        let filter = JitterFilter.oneEuro(OneEuroParameters(minCutoff: 1, beta: beta, derivativeCutoff: 1))
        return Self.run(script.events, filter: filter).lines
    }

    @Test("1€: two samples at one time keep the position; the next interval carries the change")
    func oneEuroSameTime() {
        let script = EventScript(frameInterval: .zero)
        script.slot(0).trackingID(1).position(x: 0, y: 100).report()
        script.abs(AbsCode.mtPositionX, 1000).report()
        let (lines, pipeline) = Self.run(script.events, filter: .oneEuro(.standard))
        #expect(lines == ["down 1 (0.0,100.0) raw (0,100)", "frame"])
        #expect(pipeline.diagnostics.movesSuppressedByFilter == 1)
    }

    @Test("cancels (a palm) pass and forget the finger; a new finger starts where its kernel position is")
    func cancelsPass() {
        let script = EventScript()
        script.slot(0).trackingID(1).position(x: 1000, y: 1000).report()
        script.tool(ToolType.palm).report()
        script.trackingID(-1).report()
        script.trackingID(2).tool(ToolType.finger).position(x: 1004, y: 1000).report()
        let (lines, pipeline) = Self.run(script.events, filter: .standard)
        #expect(
            lines == [
                "down 1 (1000.0,1000.0) raw (1000,1000)", "frame",
                "cancel 1 (1000.0,1000.0) raw (1000,1000)", "frame",
                "down 2 (1004.0,1000.0) raw (1004,1000)", "frame",
            ])
        #expect(pipeline.filter.trackedFingers == 1)
    }

    /// What 90-libinput-fuzz-override.rules leaves on a touchscreen: kernel fuzz 0, the declared fuzz in
    /// LIBINPUT_FUZZ_35/36 (hex codes of ABS_MT_POSITION_X/Y) and LIBINPUT_FUZZ_00/01 (ABS_X/Y).
    @Test("the fuzz libinput's udev rule moved out of the kernel is put back; bad or needless properties are ignored")
    func udevFuzz() {
        let properties = [
            "LIBINPUT_FUZZ_35": "75", "LIBINPUT_FUZZ_36": "78", "LIBINPUT_FUZZ_00": "x", "LIBINPUT_FUZZ_01": "-4",
            "LIBINPUT_FUZZ_2f": "9",
        ]
        let restored = TestDevices.touchscreen.restoringFuzz(fromUdev: properties)
        #expect(restored.absInfo[AbsCode.mtPositionX]?.fuzz == 75)
        #expect(restored.absInfo[AbsCode.mtPositionY]?.fuzz == 78)
        #expect(restored.absInfo[AbsCode.x]?.fuzz == 0 && restored.absInfo[AbsCode.y]?.fuzz == 0)
        #expect(restored.absInfo[AbsCode.mtSlot]?.fuzz == 9)  // any axis: harmless, only x and y are filtered
        #expect(FuzzHysteresis(device: restored) == FuzzHysteresis(marginX: 37.5, marginY: 39))
        // A kernel fuzz that is still set wins: the rule did not run, and the kernel's is the device's.
        #expect(Self.fuzzy.restoringFuzz(fromUdev: properties).absInfo[AbsCode.mtPositionX]?.fuzz == 16)
    }

    @Test("filter names and parameters: what is accepted, and each refusal says why")
    func parsing() throws {
        #expect(try JitterFilter.make(name: "off", parameters: []) == .off)
        #expect(try JitterFilter.make(name: "fuzz", parameters: [("fuzz", 12)]) == .fuzz(override: 12))
        let params = try JitterFilter.parseParameters("minCutoff=0.5, beta=0.01")
        #expect(
            try JitterFilter.make(name: "one-euro", parameters: params)
                == .oneEuro(OneEuroParameters(minCutoff: 0.5, beta: 0.01, derivativeCutoff: 5)))
        #expect(throws: JitterFilter.ParseError.unknownFilter("kalman")) {
            try JitterFilter.make(name: "kalman", parameters: [])
        }
        #expect(
            throws: JitterFilter.ParseError.unknownParameter(filter: "fuzz", parameter: "beta", allowed: ["fuzz"])
        ) { try JitterFilter.make(name: "fuzz", parameters: [("beta", 1)]) }
        #expect(throws: JitterFilter.ParseError.malformedParameter("beta")) {
            try JitterFilter.parseParameters("beta")
        }
        #expect(throws: JitterFilter.ParseError.malformedParameter("beta=inf")) {
            try JitterFilter.parseParameters("beta=inf")
        }
        for bad in [("minCutoff", 0.0), ("dCutoff", -1), ("beta", -0.1)] {
            #expect(throws: JitterFilter.ParseError.self) { try JitterFilter.make(name: "one-euro", parameters: [bad]) }
        }
        #expect(throws: JitterFilter.ParseError.self) {
            try JitterFilter.make(name: "fuzz", parameters: [("fuzz", 2.5)])
        }
        #expect(throws: JitterFilter.ParseError.self) {
            try JitterFilter.make(name: "fuzz", parameters: [("fuzz", 1e12)])
        }
    }
}
