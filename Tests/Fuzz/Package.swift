// swift-tools-version:6.0
// Fuzz targets for touchd, kept out of the main package: a -sanitize=fuzzer build breaks the normal one.
//   swift build -c release --toolset toolset.json -Xswiftc -sanitize=fuzzer,address
//   FUZZ_TARGET=evemu .build/release/touchd-fuzz -runs=1000000 corpus/evemu
// scripts/fuzz.sh builds and runs every target (briefly in CI).
import PackageDescription

let package = Package(
    name: "touchd-fuzz",
    dependencies: [.package(name: "touchd", path: "../..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "touchd-fuzz",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "TouchCore", package: "touchd"),
                .product(name: "TouchFormats", package: "touchd"),
                .product(name: "TouchRecordingFiles", package: "touchd"),
                .product(name: "TouchScene", package: "touchd"),
                .product(name: "TouchJSON", package: "touchd"),
                .product(name: "TouchWire", package: "touchd"),
                .product(name: "TouchEngine", package: "touchd"),
                .product(name: "TouchDaemon", package: "touchd"),
                .product(name: "TouchdCLI", package: "touchd"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
