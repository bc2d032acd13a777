import TouchCore
import TouchJSON
import TouchScene

/// `touchd replay --scene S --html FILE`: one self-contained page that plays a replay over its scene.
///
/// The scene is drawn as `--svg` draws it (the same region group); the fingers, gestures and the player are data
/// and a small script inline: finger paths grow with time, each live finger is a filled circle in its region's
/// colour, a region holding a live finger is shaded darker, completed gestures are labelled where they ended, and a
/// slider and a play/pause button move through time. `#t=1.5` in the address shows the replay paused at 1.5 s.
/// Nothing is fetched from the network, and the same input gives the same bytes.
///
/// The page shows the scene at one CSS pixel per scene unit, from the page's top-left corner, so scene point
/// (x, y) is pixel (x, y) of a screenshot at device scale 1 (scripts/html-test.sh relies on it).
public enum HTMLRenderer {
    /// Shading of a touchable area: as in the SVG when idle, darker while a finger it captured is down.
    static let idleOpacity = "0.25"
    static let touchedOpacity = "0.6"
    /// Radius of a live finger's mark, in scene units.
    static let fingerRadius = 12

    /// - Parameter start: time 0 of the page: the recording's first event, as `--format text` counts.
    public static func render(scene: Scene, events: [DispatchEvent], start: EventTime) -> String {
        let picture = ReplayPicture(scene: scene, events: events)
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        html += "<title>touchd replay</title>\n<style>\n" + style + "</style>\n</head>\n<body>\n"
        html += SVGRenderer.open(scene) + " id=\"scene\">\n"
        html += SVGRenderer.background(scene) + SVGRenderer.regions(picture, tagged: true)
        html += "<g id=\"paths\" fill=\"none\" stroke-width=\"3\" stroke-linejoin=\"round\"></g>\n"
        html += "<g id=\"labels\"></g>\n<g id=\"marks\"></g>\n</svg>\n"
        html += controls
        html += "<script type=\"application/json\" id=\"replay\">"
        html += scriptSafe(data(picture, scene: scene, events: events, start: start))
        html += "</script>\n<script>\n" + player + "</script>\n</body>\n</html>\n"
        return html
    }

    /// The replay as JSON: times in microseconds from `start`, positions in scene units (two decimals).
    static func data(_ picture: ReplayPicture, scene: Scene, events: [DispatchEvent], start: EventTime) -> String {
        func offset(_ time: EventTime) -> Int64 { (time - start).microseconds }
        var last: Int64 = 0
        for event in events {
            switch event {
            case .touch(let touch): last = max(last, offset(touch.time))
            case .gesture(_, let gesture): last = max(last, offset(gesture.time))
            case .regionMoved(_, _, let time), .regionScrolled(_, _, let time), .frame(_, let time):
                last = max(last, offset(time))
            }
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("width", scene.width)
        writer.field("height", scene.height)
        writer.field("duration_us", last)
        writer.field("idle", idleOpacity)
        writer.field("touched", touchedOpacity)
        writer.field("radius", fingerRadius)
        writer.beginArray("fingers")
        for path in picture.paths {
            writer.beginObject()
            writer.field("finger", path.key)
            if let region = path.region { writer.field("region", region) } else { writer.nullField("region") }
            // The shapes to shade, by their `data-area`: the region's number, which every id has, whatever it holds.
            if let area = path.region.flatMap(picture.index.index(of:)) {
                writer.field("area", area)
            } else {
                writer.nullField("area")
            }
            writer.field("colour", picture.colour(of: path.region))
            writer.field("end", path.end.map { $0 == .up ? "up" : "cancel" } ?? "")
            writer.beginArray("t")
            for point in path.points { writer.element(offset(point.time)) }
            writer.endArray()
            writer.beginArray("x")
            for point in path.points { writer.element(point.location.x) }
            writer.endArray()
            writer.beginArray("y")
            for point in path.points { writer.element(point.location.y) }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.beginArray("gestures")
        for label in picture.labels {
            writer.beginObject()
            writer.field("t", offset(label.time))
            writer.field("region", label.region)
            writer.field("text", label.text)
            writer.field("colour", picture.colours[label.region] ?? "#000000")
            writer.field("x", label.location.x)
            writer.field("y", label.location.y)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// JSON inside a `<script>` element ends at the first `</`, whatever the JSON says: a region id
    /// `</script><script>…` would run. `<` only occurs inside JSON strings, where `\u003c` means the same.
    static func scriptSafe(_ json: String) -> String {
        var safe = ""
        safe.reserveCapacity(json.utf8.count)
        for character in json { if character == "<" { safe += "\\u003c" } else { safe.append(character) } }
        return safe
    }

    static let style = """
        body { margin: 0; font: 14px sans-serif; background: #ffffff; }
        #scene { display: block; }
        #controls { display: flex; gap: 10px; align-items: center; padding: 8px; }
        #timeline { flex: 1; }
        #clock { font-variant-numeric: tabular-nums; min-width: 11em; }
        #recent { padding: 0 8px 8px; color: #333333; white-space: pre; }

        """

    static let controls = """
        <div id="controls"><button id="play" type="button">play</button>\
        <input id="timeline" type="range" min="0" max="0" step="1000" value="0">\
        <span id="clock"></span></div>
        <div id="recent"></div>

        """

    /// The player. `render(t)` draws the state at t microseconds from scratch, so any time can be shown directly.
    static let player = """
        "use strict";
        const data = JSON.parse(document.getElementById("replay").textContent);
        const ns = "http://www.w3.org/2000/svg";
        const paths = document.getElementById("paths");
        const marks = document.getElementById("marks");
        const labels = document.getElementById("labels");
        const timeline = document.getElementById("timeline");
        const button = document.getElementById("play");
        const clock = document.getElementById("clock");
        const recent = document.getElementById("recent");
        // The touchable shapes by their region's number (data-area), never by id: an id is any JSON string, and one
        // named "constructor" or "__proto__", or holding a character the page writes differently, would miss.
        const areas = [];
        for (const shape of document.querySelectorAll(".touchable[data-area]")) {
          const area = Number(shape.dataset.area);
          (areas[area] = areas[area] || []).push(shape);
        }
        const fingers = data.fingers.map(f => {
          const line = document.createElementNS(ns, "polyline");
          line.setAttribute("stroke", f.colour);
          paths.appendChild(line);
          const mark = document.createElementNS(ns, "circle");
          mark.setAttribute("r", data.radius);
          mark.setAttribute("fill", f.colour);
          marks.appendChild(mark);
          return Object.assign({ line, mark }, f);
        });
        const texts = data.gestures.map(g => {
          const text = document.createElementNS(ns, "text");
          text.setAttribute("x", g.x + 8);
          text.setAttribute("y", g.y - 8);
          text.setAttribute("fill", g.colour);
          text.setAttribute("font-weight", "bold");
          text.textContent = g.text;
          labels.appendChild(text);
          return text;
        });
        timeline.max = data.duration_us;
        // How many of the sorted times are at or before t.
        function count(times, t) {
          let low = 0, high = times.length;
          while (low < high) { const mid = (low + high) >> 1; if (times[mid] <= t) low = mid + 1; else high = mid; }
          return low;
        }
        let now = 0, playing = false, last = null;
        function render(t) {
          now = Math.max(0, Math.min(t, data.duration_us));
          const touched = new Set();
          for (const f of fingers) {
            const n = count(f.t, now);
            let points = "";
            for (let i = 0; i < n; i++) points += f.x[i] + "," + f.y[i] + " ";
            f.line.setAttribute("points", points);
            f.line.setAttribute("stroke-opacity", n === f.t.length && f.end ? "0.45" : "1");
            const live = n > 0 && (n < f.t.length || !f.end);
            f.mark.setAttribute("visibility", live ? "visible" : "hidden");
            if (live) {
              f.mark.setAttribute("cx", f.x[n - 1]);
              f.mark.setAttribute("cy", f.y[n - 1]);
              if (f.area !== null) touched.add(f.area);
            }
          }
          areas.forEach((shapes, area) => {
            for (const shape of shapes) {
              if (shape.getAttribute("fill-opacity") !== "0.06") {
                shape.setAttribute("fill-opacity", touched.has(area) ? data.touched : data.idle);
              }
            }
          });
          const done = [];
          data.gestures.forEach((g, i) => {
            texts[i].setAttribute("visibility", g.t <= now ? "visible" : "hidden");
            if (g.t <= now) done.push((g.t / 1e6).toFixed(3) + " s  " + g.region + "  " + g.text);
          });
          recent.textContent = done.slice(-5).join("\\n");
          timeline.value = now;
          clock.textContent = (now / 1e6).toFixed(3) + " s / " + (data.duration_us / 1e6).toFixed(3) + " s";
        }
        function frame(stamp) {
          if (!playing) return;
          if (last !== null) render(now + (stamp - last) * 1000);
          last = stamp;
          if (now >= data.duration_us) { setPlaying(false); return; }
          requestAnimationFrame(frame);
        }
        function setPlaying(on) {
          playing = on;
          button.textContent = on ? "pause" : "play";
          last = null;
          if (on) {
            if (now >= data.duration_us) render(0);
            requestAnimationFrame(frame);
          }
        }
        button.addEventListener("click", () => setPlaying(!playing));
        timeline.addEventListener("input", () => { setPlaying(false); render(Number(timeline.value)); });
        // #t=1.5: paused at 1.5 s.
        function fromAddress() {
          const match = /t=([0-9.]+)/.exec(location.hash);
          if (!match) return false;
          setPlaying(false);
          render(Math.round(Number(match[1]) * 1e6));
          return true;
        }
        window.addEventListener("hashchange", fromAddress);
        if (!fromAddress()) { render(0); setPlaying(true); }

        """
}
