/// The version of touchd's NDJSON event schema (docs/protocol.md). Bumped on any incompatible change; fields
/// may be added within a version, so readers ignore keys they do not know.
public enum ProtocolVersion {
    public static let current = 1
}
