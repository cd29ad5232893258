// swift-tools-version:6.2
import PackageDescription

/// The executable's runtime is linked statically on Linux (see below), except when the build
/// sets PUSH_TRANSCODE_SHARED_RUNTIME: ThreadSanitizer's runtime cannot sit beside a static
/// Swift runtime (every run stops in its allocator), so `make tsan` links the shared one.
let staticRuntime: [LinkerSetting] =
  Context.environment["PUSH_TRANSCODE_SHARED_RUNTIME"] == nil
  ? [
    .unsafeFlags(
      [
        "-static-stdlib", "-Xlinker", "-l_FoundationCShims", "-Xlinker",
        "-l_FoundationCollections",
      ], .when(platforms: [.linux]))
  ] : []

let package = Package(
  name: "push-transcode",
  products: [
    .library(name: "PushTranscoder", targets: ["PushTranscoder"]),
    .executable(name: "push-transcode", targets: ["push-transcode"]),
    .executable(name: "push-transcode-bench", targets: ["push-transcode-bench"]),
    .executable(name: "push-transcode-fuzz", targets: ["push-transcode-fuzz"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // `FileDescriptor`, `FilePath`, `Errno`, `Stat` for the output file layer.
    .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
  ],
  targets: [
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
    // libdeflate: whole gzip batch files in one call each, and the manifest's CRC-32.
    .systemLibrary(
      name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
    // glibc's <malloc.h> (`mallopt`), which the Glibc module leaves out.
    .systemLibrary(name: "CMalloc"),
    // SSE2 byte-class masks (`pmovmskb`) for the tokenizer's string scans.
    .systemLibrary(name: "CByteScan"),
    .target(
      name: "PushTranscoder",
      dependencies: [
        "CZlib", "CLZ4", "CDeflate", "CByteScan",
        .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .executableTarget(
      name: "push-transcode",
      dependencies: [
        "PushTranscoder", "CMalloc",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      // The Swift runtime and FoundationEssentials linked into the executable on Linux (what
      // `swift build --static-swift-stdlib` does, made the default): no symbol binding for a
      // dozen runtime libraries at start-up, no PLT on retain/release (docs/DECISIONS.md).
      linkerSettings: staticRuntime
    ),
    .executableTarget(
      name: "push-transcode-bench",
      dependencies: ["PushTranscoder", "CMalloc"],
      path: "Benchmarks/push-transcode-bench"
    ),
    .executableTarget(
      name: "push-transcode-fuzz",
      dependencies: ["PushTranscoder"]
    ),
    // The README's library example, built with the package and run by `LibraryExampleTests`.
    .executableTarget(
      name: "transcode-one-line",
      dependencies: ["PushTranscoder"],
      path: "Examples/transcode-one-line"
    ),
    .testTarget(
      name: "PushTranscoderTests",
      dependencies: [
        "PushTranscoder", .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .testTarget(name: "CLITests", dependencies: ["PushTranscoder"]),
  ]
)
