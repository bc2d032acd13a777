// swift-tools-version:6.0
// touchd: a Linux multi-touch input daemon.
//
// Dependencies point inward: the pure layers (TouchCore, TouchJSON, TouchFormats, TouchGestures, TouchScene,
// TouchWire, TouchEngine) depend on pure layers alone, import no C module (but for a few of libc's pure functions
// by name: memchr, atan2) and do no I/O; scripts/check-purity.sh, which CI runs, holds that list and checks it.
// TouchPosix, TouchDevice and TouchRecordingFiles touch the system, and the daemon (an adapter around TouchEngine)
// and the executables use them. docs/architecture.md has the picture.
import PackageDescription

// The per-event path crosses modules at every step (engine -> wire -> JSON writer -> byte buffer): release builds
// let the optimizer see across them, so small functions such as a template key's append inline (12 % of the
// pipeline's instructions; docs/performance.md).
let crossModule: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

// The per-event path also runs through classes (dispatcher, gesture arena, engine); in a release build each access to
// their stored properties costs a runtime exclusivity check, about 10 % of the pipeline's instructions
// (docs/performance.md). Release builds of these modules skip the check; debug builds, and so the test suite and
// its AddressSanitizer run, keep it.
let uncheckedExclusivity: [SwiftSetting] =
    crossModule + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

// `git describe` of the checkout, when the build passes it (debian/rules does): --version prints it beside the package
// version (Sources/TouchVersion). Only characters git describe writes are taken, so the C string needs no escaping.
let gitDescription = (Context.environment["TOUCHD_GIT_DESCRIBE"] ?? "").filter {
    $0.isASCII && ($0.isLetter || $0.isNumber || "._+-".contains($0))
}
let buildDescription: [CSetting] =
    gitDescription.isEmpty ? [] : [.define("TOUCHD_GIT_DESCRIBE", to: "\"\(gitDescription)\"")]

let package = Package(
    name: "touchd",
    products: [
        .executable(name: "touchd", targets: ["touchd"]),
        .executable(name: "touchctl", targets: ["touchctl"]),
        .executable(name: "touchd-actions", targets: ["touchd-actions"]),
        .library(name: "TouchClient", targets: ["TouchClient"]),
        // For the fuzz package (Tests/Fuzz), which builds these with -sanitize=fuzzer.
        .library(name: "TouchJSON", targets: ["TouchJSON"]),
        .library(name: "TouchWire", targets: ["TouchWire"]),
        .library(name: "TouchEngine", targets: ["TouchEngine"]),
        .library(name: "TouchDaemon", targets: ["TouchDaemon"]),
        .library(name: "TouchCore", targets: ["TouchCore"]),
        .library(name: "TouchFormats", targets: ["TouchFormats"]),
        .library(name: "TouchRecordingFiles", targets: ["TouchRecordingFiles"]),
        .library(name: "TouchScene", targets: ["TouchScene"]),
        .library(name: "TouchdCLI", targets: ["TouchdCLI"]),
    ],
    targets: [
        // System libraries, found with pkg-config (Debian: libevdev-dev, libudev-dev, libsystemd-dev).
        .systemLibrary(
            name: "CEvdev", path: "Sources/CEvdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(
            name: "CUdev", path: "Sources/CUdev", pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]),
        .systemLibrary(
            name: "CSystemd", path: "Sources/CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),

        // The version every program prints (one source: Sources/TouchVersion), with the build's git description.
        .target(name: "CTouchBuild", cSettings: buildDescription),
        .target(name: "TouchVersion", dependencies: ["CTouchBuild"]),

        // Pure layers.
        // libm: the pure core uses sqrt without Foundation, and nothing else would link it.
        .target(name: "TouchCore", swiftSettings: crossModule, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "TouchJSON", swiftSettings: crossModule),
        // Recordings' parsers, format detection and the evemu writer, over bytes in memory or a `RecordingSource`;
        // TouchRecordingFiles (below) reads the files.
        .target(name: "TouchFormats", dependencies: ["TouchCore"]),
        .target(
            name: "TouchGestures", dependencies: ["TouchCore", "TouchJSON"], swiftSettings: uncheckedExclusivity),
        .target(
            name: "TouchScene", dependencies: ["TouchCore", "TouchJSON", "TouchGestures"],
            swiftSettings: uncheckedExclusivity),
        // The wire: events, requests, replies, subscriptions and framing, shared by the server, the client library
        // and touchctl (docs/protocol.md).
        .target(
            name: "TouchWire", dependencies: ["TouchCore", "TouchJSON", "TouchGestures", "TouchScene"],
            swiftSettings: crossModule),
        // Everything between bytes in and bytes out, without a clock or a syscall: devices' pipelines, the scene and
        // its dispatcher, clients and their queues. `touchd run` and `touchd replay` both drive it.
        .target(
            name: "TouchEngine",
            dependencies: ["TouchCore", "TouchJSON", "TouchGestures", "TouchScene", "TouchWire"],
            swiftSettings: uncheckedExclusivity),

        // Calibration's arithmetic and text: the fit, target places, mis-tap checks and the rule edit,
        // shared by `touchd calibrate` and `touchctl calibrate`.
        .target(name: "TouchCalibration", dependencies: ["TouchCore", "TouchJSON"]),

        // System layer. CShims declares what Glibc's Swift module lacks (epoll, timerfd, signalfd, accept4, ...).
        .target(name: "CShims"),
        .target(name: "TouchPosix", dependencies: ["CShims", "CSystemd"]),
        .target(name: "TouchDevice", dependencies: ["TouchCore", "TouchPosix", "CEvdev", "CUdev", "CShims"]),
        // Recordings read from files, pipes and standard input: the whole-file loader with its sibling description
        // files, the streaming reader, and its passes on a second thread (read-ahead, split survey).
        .target(name: "TouchRecordingFiles", dependencies: ["TouchCore", "TouchFormats", "TouchPosix"]),
        .target(name: "TouchClient", dependencies: ["TouchJSON", "TouchWire", "TouchPosix"]),
        // touchctl view's pure part: the state built from the daemon's messages and its picture in character cells.
        .target(name: "TouchView", dependencies: ["TouchClient", "TouchCore", "TouchScene"]),
        .target(
            name: "TouchDaemon",
            dependencies: [
                // No C module: every system call goes through TouchPosix or TouchDevice.
                "TouchCore", "TouchFormats", "TouchRecordingFiles", "TouchJSON", "TouchScene", "TouchWire",
                "TouchEngine", "TouchDevice", "TouchPosix", "TouchVersion",
            ],
            swiftSettings: uncheckedExclusivity),

        // Command line.
        .target(
            name: "TouchdCLI",
            dependencies: [
                "TouchCore", "TouchFormats", "TouchRecordingFiles", "TouchGestures", "TouchScene", "TouchWire",
                "TouchEngine", "TouchDevice", "TouchDaemon", "TouchPosix", "TouchVersion", "TouchCalibration",
                "TouchClient",
            ],
            swiftSettings: uncheckedExclusivity),
        .executableTarget(name: "touchd", dependencies: ["TouchdCLI", "TouchPosix"]),
        .executableTarget(
            name: "touchctl",
            dependencies: [
                "TouchClient", "TouchJSON", "TouchPosix", "TouchScene", "TouchView", "TouchVersion", "TouchCalibration",
                "TouchCore",
            ]),
        // Gestures to commands in the user's session (docs/actions.md): the logic in a library, so the
        // file's validation, the matcher and the command pool are tested without a process.
        .target(
            name: "TouchActions",
            dependencies: ["TouchClient", "TouchJSON", "TouchGestures", "TouchScene", "TouchPosix", "CShims"]),
        .executableTarget(
            name: "touchd-actions", dependencies: ["TouchActions", "TouchClient", "TouchPosix", "TouchVersion"]),

        // Benchmarks (docs/performance.md): release builds, printed figures; CAllocCounter counts heap allocations.
        .target(name: "CAllocCounter"),
        .executableTarget(
            name: "touchd-bench",
            dependencies: [
                "CAllocCounter", "CShims", "TouchCore", "TouchFormats", "TouchRecordingFiles", "TouchScene",
                "TouchWire",
                "TouchEngine",
                "TouchJSON", "TouchClient",
                "TouchPosix", "TouchTestKit",
            ]),

        // Tests.
        .target(name: "TouchTestKit", dependencies: ["TouchCore", "TouchFormats", "TouchPosix"]),
        .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore", "TouchTestKit"]),
        .testTarget(
            name: "TouchFormatsTests",
            dependencies: ["TouchCore", "TouchFormats", "TouchRecordingFiles", "TouchTestKit"]),
        .testTarget(
            name: "TouchRecordingFilesTests",
            dependencies: ["TouchCore", "TouchFormats", "TouchRecordingFiles", "TouchTestKit"]),
        .testTarget(name: "TouchJSONTests", dependencies: ["TouchJSON"]),
        .testTarget(
            name: "TouchCalibrationTests",
            dependencies: ["TouchCalibration", "TouchCore", "TouchJSON", "TouchFormats", "TouchTestKit"]),
        .testTarget(name: "TouchVersionTests", dependencies: ["TouchVersion"]),
        .testTarget(
            name: "TouchSceneTests",
            dependencies: ["TouchCore", "TouchScene", "TouchGestures", "TouchFormats", "TouchTestKit"]),
        .testTarget(name: "TouchGesturesTests", dependencies: ["TouchCore", "TouchGestures"]),
        .testTarget(
            name: "TouchDeviceTests",
            dependencies: [
                "TouchCore", "TouchDevice", "TouchPosix", "CEvdev", "CShims", "TouchRecordingFiles", "TouchFormats",
                "TouchTestKit",
            ]),
        .testTarget(name: "TouchPosixTests", dependencies: ["TouchPosix"]),
        .testTarget(
            name: "TouchViewTests", dependencies: ["TouchView", "TouchClient", "TouchCore", "TouchJSON", "TouchScene"]),
        .testTarget(
            name: "TouchWireTests",
            dependencies: ["TouchWire", "TouchJSON", "TouchScene", "TouchGestures", "TouchCore"]),
        .testTarget(
            name: "TouchEngineTests",
            dependencies: [
                "TouchEngine", "TouchWire", "TouchJSON", "TouchScene", "TouchCore", "TouchFormats",
                "TouchRecordingFiles",
                "TouchTestKit",
            ]),
        .testTarget(
            name: "TouchDaemonTests",
            dependencies: [
                "TouchDaemon", "TouchEngine", "TouchWire", "TouchClient", "TouchJSON", "TouchPosix", "TouchTestKit",
                "TouchdCLI", "TouchFormats", "TouchRecordingFiles", "TouchDevice", "TouchCalibration",
            ]),
        .testTarget(
            name: "TouchActionsTests",
            dependencies: ["TouchActions", "TouchClient", "TouchJSON", "TouchGestures", "TouchPosix", "TouchTestKit"]),
        .testTarget(
            name: "TouchdCLITests",
            dependencies: [
                "TouchdCLI", "TouchCore", "TouchFormats", "TouchRecordingFiles", "TouchWire", "TouchTestKit",
                "TouchPosix",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
