// swift-tools-version:6.1
import PackageDescription

/// Settings every target shares: Swift 6 language mode comes with the tools version;
/// `MemberImportVisibility` makes each file import what it uses.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

/// How a release build links the `storerelease` binary on Linux (and the hello world its start-up
/// is measured against, built the same way): the Swift runtime and Foundation linked in
/// (`-static-stdlib`), so that starting it loads no Swift library, and not libcurl, which
/// `CLazyCurl` loads at the first HTTP request instead; and at a fixed address (`-no-pie`), so
/// that the loader has no 86,000 addresses in Swift's metadata to relocate at every start.
///
/// The modules are compiled against the shared Foundation, whose link entries do not name the
/// archives the static one needs, so they are named here, each before those it uses. `-lcurl`,
/// which a build with `--static-swift-stdlib` adds, finds an empty archive (CLazyCurl/link).
/// Debug builds stay as they were; no test target depends on these two (see StoreReleaseCLITests).
let oneFileBinary: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-Xclang-linker", "-no-pie", "-L", Context.packageDirectory + "/Sources/CLazyCurl/link",
            "-lFoundationNetworking", "-l_CFURLSessionInterface", "-lFoundation", "-lCoreFoundation",
            "-lFoundationInternationalization", "-l_FoundationICU", "-lFoundationEssentials", "-l_FoundationCShims",
            "-l_FoundationCollections", "-lswiftSynchronization",
        ],
        .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "StoreRelease",
    platforms: [
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
    ],
    products: [
        // Versions, version codes, Play's in-app update constants and records, `Store`: links no
        // networking (a test checks the link of a program that uses only these two).
        .library(name: "StoreReleaseCore", targets: ["StoreReleaseCore"]),
        // The update-flow machines and `UpdateFlowSimulator`, over the core.
        .library(name: "StoreReleaseFlow", targets: ["StoreReleaseFlow"]),
        // What an app links, re-exported: the core, the flow, the store models, the policy and the
        // clients (the App Store lookup among them), nothing that needs `Process` or `openssl`
        // (a test checks the binary of a program that uses only this product).
        .library(name: "StoreReleaseApp", targets: ["StoreReleaseApp"]),
        // Everything, re-exported: the app's product and the release tooling (the sources, the
        // report, the watcher, the App Store Connect signer over `openssl`).
        .library(name: "StoreReleaseKit", targets: ["StoreReleaseKit"]),
        .executable(name: "storerelease", targets: ["storerelease"]),
        .executable(name: "storerelease-benchmarks", targets: ["StoreReleaseBenchmarks"]),
    ],
    dependencies: [],
    targets: [
        // The layers, each depending only on the ones above it (ARCHITECTURE.md draws the arrows).
        .target(name: "StoreReleaseCore", dependencies: ["CPrefetch"], swiftSettings: swiftSettings),
        .target(name: "StoreReleaseFlow", dependencies: ["StoreReleaseCore"], swiftSettings: swiftSettings),
        .target(name: "StoreReleaseModels", dependencies: ["StoreReleaseCore"], swiftSettings: swiftSettings),
        .target(
            name: "StoreReleasePolicy", dependencies: ["StoreReleaseCore", "StoreReleaseModels"],
            swiftSettings: swiftSettings),
        .target(
            name: "StoreReleaseClients", dependencies: ["StoreReleaseCore", "StoreReleaseModels"],
            swiftSettings: swiftSettings),
        .target(
            name: "StoreReleaseTooling",
            dependencies: ["StoreReleaseCore", "StoreReleaseModels", "StoreReleaseClients"],
            swiftSettings: swiftSettings),
        .target(
            name: "StoreReleaseApp",
            dependencies: [
                "StoreReleaseCore", "StoreReleaseFlow", "StoreReleaseModels", "StoreReleasePolicy",
                "StoreReleaseClients",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "StoreReleaseKit",
            dependencies: [
                "StoreReleaseCore", "StoreReleaseFlow", "StoreReleaseModels", "StoreReleasePolicy",
                "StoreReleaseClients",
                "StoreReleaseTooling",
            ],
            swiftSettings: swiftSettings),
        // One C inline function, a memory prefetch hint, which Swift cannot express (see its header).
        .target(name: "CPrefetch"),
        // libcurl's functions, each looking the real one up in libcurl.so.4 on its first call.
        .target(name: "CLazyCurl", exclude: ["link"]),
        .executableTarget(
            name: "storerelease",
            dependencies: ["StoreReleaseKit", "CLazyCurl"],
            swiftSettings: swiftSettings,
            linkerSettings: oneFileBinary
        ),
        // `print("hello, world")`, linked as `storerelease` is: the start-up benchmark's baseline.
        .executableTarget(
            name: "HelloProbe",
            path: "Tests/HelloProbe",
            swiftSettings: swiftSettings,
            linkerSettings: oneFileBinary
        ),
        .executableTarget(
            name: "StoreReleaseBenchmarks",
            dependencies: ["StoreReleaseKit"],
            swiftSettings: swiftSettings
        ),
        // Every Swift example in the guides under Docs/ lives here, is compiled by
        // `swift build`, and is run by the test suite (see DocExamplesTests).
        .executableTarget(
            name: "DocExamples",
            dependencies: ["StoreReleaseKit", "StoreReleaseApp"],
            path: "Docs/Examples",
            exclude: ["README.md", "versions.txt", "scripts", "payloads", "expected-output.txt"],
            swiftSettings: swiftSettings
        ),
        // A program that uses only the two core products; a test checks it links no networking.
        .executableTarget(
            name: "CoreProbe",
            dependencies: ["StoreReleaseCore", "StoreReleaseFlow"],
            path: "Tests/CoreProbe",
            swiftSettings: swiftSettings
        ),
        // A program that uses only the app's product; a test checks its binary holds no `Process`.
        .executableTarget(
            name: "AppProbe",
            dependencies: ["StoreReleaseApp"],
            path: "Tests/AppProbe",
            swiftSettings: swiftSettings
        ),
        // The loopback HTTP server the client and CLI tests run against.
        .target(
            name: "StoreReleaseTestSupport",
            path: "Tests/Support",
            exclude: [
                "lookup_server.py", "play_api.py", "play_reporting.py", "asc_api.py", "asc_analytics.py", "contract.py",
                "contract_walk.py", "timeline.py",
            ],
            swiftSettings: swiftSettings
        ),
        // One test target a layer, each depending on that layer and the ones it stands on (and the
        // loopback server), so a test imports only what it tests; a file that tests two layers is
        // with the higher one.
        .testTarget(
            name: "StoreReleaseCoreTests", dependencies: ["StoreReleaseCore", "StoreReleaseTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreReleaseFlowTests",
            dependencies: ["StoreReleaseCore", "StoreReleaseFlow", "StoreReleaseTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreReleaseModelsTests",
            dependencies: ["StoreReleaseCore", "StoreReleaseModels", "StoreReleaseTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreReleasePolicyTests",
            dependencies: ["StoreReleaseCore", "StoreReleaseModels", "StoreReleasePolicy", "StoreReleaseTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreReleaseClientsTests",
            dependencies: ["StoreReleaseCore", "StoreReleaseModels", "StoreReleaseClients", "StoreReleaseTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StoreReleaseToolingTests",
            dependencies: [
                "StoreReleaseCore", "StoreReleaseModels", "StoreReleaseClients", "StoreReleaseTooling",
                "StoreReleaseTestSupport",
            ],
            swiftSettings: swiftSettings),
        // Runs the built binaries, which `swift test` builds first (it builds every target). The two
        // linked as one file (`storerelease`, `HelloProbe`) are not dependencies: a test target
        // links its executable dependencies' code, with their linker settings, and a release test
        // bundle linked `-static-stdlib` finds no static XCTest or Testing (`swift test -c release`).
        .testTarget(
            name: "StoreReleaseCLITests",
            dependencies: [
                "DocExamples", "StoreReleaseBenchmarks", "CoreProbe", "AppProbe", "StoreReleaseTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
