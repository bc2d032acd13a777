import CTouchBuild

/// touchd's version, the one place it is written: every program's `--version`, the protocol's hello and
/// `touchd list-devices` print it. debian/changelog's newest entry and clients/python's package carry the same
/// number (TouchVersionTests checks both, and debian/rules refuses to build a package whose version differs).
public enum TouchdVersion {
    public static let package = "0.1.0"

    /// `git describe --always --dirty` of the checkout the binaries were built from, when the build passed it
    /// (debian/rules does, through TOUCHD_GIT_DESCRIBE; Package.swift hands it to CTouchBuild); nil otherwise.
    public static let gitDescription: String? = {
        let text = String(cString: touchd_git_description())
        return text.isEmpty ? nil : text
    }()

    /// The version as people read it: "0.1.0", or "0.1.0 (git 85717fa)" when the build knew its commit.
    public static var description: String {
        gitDescription.map { "\(package) (git \($0))" } ?? package
    }

    /// What `PROGRAM --version` prints: "touchctl 0.1.0 (git 85717fa)".
    public static func versionLine(program: String) -> String { "\(program) \(description)" }

    /// The arguments that ask for the version, in every program.
    public static func isRequest(_ argument: String) -> Bool { argument == "--version" || argument == "-V" }

    /// The line each program's --help gives the option.
    public static let helpLine = "  -V, --version        print the version and exit"
}
