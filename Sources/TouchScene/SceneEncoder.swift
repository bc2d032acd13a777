import TouchCore
import TouchGestures
import TouchJSON

/// Writes a scene back as JSON in the format `SceneLoader` reads (fields at their defaults are left out), so a
/// scene read, edited and written reads back the same.
public enum SceneEncoder {
    public static func encode(_ scene: Scene) -> [UInt8] {
        var writer = JSONWriter()
        encode(scene, into: &writer)
        return writer.bytes
    }

    public static func encode(_ scene: Scene, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("version", SceneLoader.supportedVersion)
        writer.beginArray("size")
        writer.element(exactly: scene.width)
        writer.element(exactly: scene.height)
        writer.endArray()
        writer.beginArray("regions")
        for region in scene.regions { encode(region, into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    public static func encode(_ region: Region, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", region.id)
        rect("frame", region.frame, into: &writer)
        switch region.shape {
        case .rect: break
        case .ellipse: writer.field("shape", "ellipse")
        case .roundedRect(let radius):
            writer.key("shape")
            writer.beginObject()
            writer.field("type", "rounded-rect")
            writer.field("radius", exactly: radius)
            writer.endObject()
        case .polygon(let points):
            writer.key("shape")
            writer.beginObject()
            writer.field("type", "polygon")
            writer.beginArray("points")
            for point in points {
                writer.beginArray()
                writer.element(exactly: point.x)
                writer.element(exactly: point.y)
                writer.endArray()
            }
            writer.endArray()
            writer.endObject()
        }
        switch region.touchableArea {
        case .frame: break
        case .insets(let insets):
            writer.key("touchable")
            writer.beginObject()
            writer.key("insets")
            writer.beginObject()
            writer.field("top", exactly: insets.top)
            writer.field("left", exactly: insets.left)
            writer.field("bottom", exactly: insets.bottom)
            writer.field("right", exactly: insets.right)
            writer.endObject()
            writer.endObject()
        case .rect(let local):
            writer.key("touchable")
            writer.beginObject()
            rect("rect", local, into: &writer)
            writer.endObject()
        }
        if region.z != 0 { writer.field("z", exactly: region.z) }
        if region.hidden { writer.field("hidden", true) }
        if !region.enabled { writer.field("enabled", false) }
        if region.alpha != 1 { writer.field("alpha", exactly: region.alpha) }
        if region.passthrough { writer.field("passthrough", true) }
        if !region.clipsChildren { writer.field("clipsChildren", false) }
        if !region.raw { writer.field("raw", false) }
        if region.draggable { writer.field("draggable", true) }
        if region.forward { writer.field("forward", true) }
        if let intercept = region.intercept {
            writer.key("intercept")
            writer.beginObject()
            writer.field("slop", exactly: intercept.slop)
            writer.field("delayMs", intercept.delay.microseconds / 1000)
            writer.endObject()
        }
        if let scroll = region.scroll {
            writer.key("scroll")
            writer.beginObject()
            writer.beginArray("contentSize")
            writer.element(exactly: scroll.contentWidth)
            writer.element(exactly: scroll.contentHeight)
            writer.endArray()
            writer.beginArray("offset")
            writer.element(exactly: scroll.offset.x)
            writer.element(exactly: scroll.offset.y)
            writer.endArray()
            writer.endObject()
        }
        if !region.gestures.isEmpty {
            writer.beginArray("gestures")
            for gesture in region.gestures { encode(gesture, into: &writer) }
            writer.endArray()
        }
        if !region.simultaneous.isEmpty {
            writer.beginArray("simultaneous")
            for group in region.simultaneous {
                writer.beginArray()
                for name in group { writer.element(name) }
                writer.endArray()
            }
            writer.endArray()
        }
        if !region.sequenced.isEmpty {
            writer.beginArray("sequenced")
            for chain in region.sequenced {
                writer.beginArray()
                for name in chain { writer.element(name) }
                writer.endArray()
            }
            writer.endArray()
        }
        if !region.children.isEmpty {
            writer.beginArray("children")
            for child in region.children { encode(child, into: &writer) }
            writer.endArray()
        }
        writer.endObject()
    }

    static func encode(_ spec: GestureSpec, into writer: inout JSONWriter) {
        let plain = GestureSpec(spec.kind)
        writer.beginObject()
        writer.field("type", spec.kind.rawValue)
        if spec.name != spec.kind.rawValue { writer.field("name", spec.name) }
        if spec.taps != plain.taps { writer.field("taps", spec.taps) }
        if spec.fingers != plain.fingers { writer.field("fingers", spec.fingers) }
        if spec.kind == .longPress || spec.kind == .longPressDrag {
            if spec.minimumDuration != plain.minimumDuration {
                writer.field("durationMs", spec.minimumDuration.microseconds / 1000)
            }
        } else if spec.maximumDuration != plain.maximumDuration {
            writer.field("durationMs", spec.maximumDuration.microseconds / 1000)
        }
        if spec.allowableMovement != plain.allowableMovement {
            writer.field("allowableMovement", exactly: spec.allowableMovement)
        }
        if spec.minimumDistance != plain.minimumDistance {
            writer.field("minimumDistance", exactly: spec.minimumDistance)
        }
        if spec.tapInterval != plain.tapInterval { writer.field("tapIntervalMs", spec.tapInterval.microseconds / 1000) }
        if spec.directions != plain.directions {
            writer.beginArray("directions")
            for direction in SwipeDirection.allCases where spec.directions.contains(direction) {
                writer.element(direction.rawValue)
            }
            writer.endArray()
        }
        if !spec.requireToFail.isEmpty {
            writer.beginArray("requireToFail")
            for reference in spec.requireToFail { writer.element(reference) }
            writer.endArray()
        }
        if spec.highPriority { writer.field("priority", "high") }
        if spec.takesFingers != .never { writer.field("takeFingers", spec.takesFingers.rawValue) }
        writer.endObject()
    }

    private static func rect(_ key: StaticString, _ rect: Rect, into writer: inout JSONWriter) {
        writer.beginArray(key)
        for value in [rect.x, rect.y, rect.width, rect.height] { writer.element(exactly: value) }
        writer.endArray()
    }
}
