import TouchCore
import TouchFormats
import TouchScene
import TouchdCLI

/// FUZZ_TARGET=replay: a recording (any format, detected as `touchd replay` does) through the decoder and a
/// scene with tap, double-tap, long-press, drag, pinch, rotate and swipe recognizers, with the summary, as
/// `touchd replay --scene` runs it. Nothing may trap at any time the file holds, and:
/// every finger that goes down ends exactly once (up, or cancel at the end of the stream), nothing names a
/// finger that is not down, and the times of the dispatched touches never go back.
enum ReplayTarget {
    /// The demo scene (config/demo/scene.json): every recognizer kind, on a 1280x800 screen.
    static let scene: Scene = {
        let json = """
            {"version": 1, "size": [1280, 800], "regions": [
              {"id": "background", "frame": [0, 0, 1280, 800], "z": -1,
               "gestures": [{"type": "tap", "name": "three-finger-tap", "fingers": 3}, {"type": "swipe", "fingers": 2}]},
              {"id": "play", "frame": [130, 55, 140, 140], "shape": "circle", "gestures": ["tap"]},
              {"id": "favourite", "frame": [980, 60, 160, 150],
               "gestures": ["tap", {"type": "tap", "name": "double-tap", "taps": 2}]},
              {"id": "knob", "frame": [230, 445, 50, 50], "draggable": true, "gestures": ["drag", "long-press-drag"]},
              {"id": "photo", "frame": [760, 330, 400, 320], "gestures": ["pinch", "rotate"],
               "simultaneous": [["pinch", "rotate"]]},
              {"id": "menu", "frame": [200, 600, 250, 160], "gestures": [{"type": "long-press", "durationMs": 500}]}
            ]}
            """
        do {
            return try SceneLoader.parse(Array(json.utf8), file: "fuzz-scene")
        } catch {
            fatalError("the fuzz scene does not load: \(error)")
        }
    }()

    static func check(_ bytes: [UInt8]) {
        guard let format = FormatDetection.detect(bytes),
            var recording = try? RecordingParser.parse(bytes, format: format, file: "fuzz")
        else { return }
        if recording.descriptionSource == .inferred {
            recording.description = DescriptionInference.infer(from: recording.events, name: "fuzz")
        }
        var settings = ReplayDriver.Settings()
        settings.scene = scene
        settings.mapping.outputSize = (scene.width, scene.height)
        settings.collectDispatched = true
        settings.format = bytes.count & 1 == 1 ? .text : .ndjson  // the text table formats times too
        guard let summary = try? ReplayDriver(recording: recording, settings: settings).run(write: { _ in }) else {
            return
        }
        _ = summary.report(file: "fuzz", recording: recording)
        var live: Set<UInt32> = []
        var ended: Set<UInt32> = []
        var last = EventTime.min
        for case .touch(let touch) in summary.dispatched {
            precondition(touch.time >= last, "touch time went back: \(touch.time) after \(last)")
            last = touch.time
            let id = touch.finger.rawValue
            switch touch.phase {
            case .down:
                precondition(live.insert(id).inserted && !ended.contains(id), "finger \(id) went down twice")
            case .move:
                precondition(live.contains(id), "move for finger \(id), which is not down")
            case .up, .cancel:
                precondition(live.remove(id) != nil, "end for finger \(id), which is not down")
                ended.insert(id)
            }
        }
        precondition(live.isEmpty, "fingers \(live) never ended: the end of stream must cancel them")
        precondition(summary.endedAtEndOfStream <= summary.phaseCounts[.cancel] ?? 0, "uncounted end-of-stream cancels")
    }
}
