import Foundation
import Testing
import TouchVersion

/// The version is written once (Sources/TouchVersion); the files that must carry it too for their own tools (the
/// Debian changelog for dpkg, the Python package for pip) are checked against it here.
@Suite("Version, one source")
struct VersionSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    @Test("debian/changelog's newest entry is the package version (its upstream part, before any Debian revision)")
    func debianChangelog() throws {
        // The first line reads "touchd (VERSION) UNRELEASED; urgency=medium" (deb-changelog(5)).
        let first = try Self.read("debian/changelog").split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("touchd ("))
        let version = first.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        let upstream = version.split(separator: "-").first.map(String.init)
        #expect(upstream == TouchdVersion.package)
    }

    @Test("the Python client's pyproject.toml and __version__ carry the package version")
    func pythonClient() throws {
        let project = try Self.read("clients/python/pyproject.toml")
        #expect(project.contains("\nversion = \"\(TouchdVersion.package)\"\n"))
        let module = try Self.read("clients/python/src/touchd/__init__.py")
        #expect(module.contains("\n__version__ = \"\(TouchdVersion.package)\"\n"))
    }

    @Test("the version line names the program and the version; -V and --version ask for it, nothing else does")
    func versionLine() {
        #expect(TouchdVersion.versionLine(program: "touchctl").hasPrefix("touchctl \(TouchdVersion.package)"))
        #expect(TouchdVersion.isRequest("-V") && TouchdVersion.isRequest("--version"))
        #expect(
            !TouchdVersion.isRequest("-v") && !TouchdVersion.isRequest("version")
                && !TouchdVersion.isRequest("--verbose"))
    }
}
