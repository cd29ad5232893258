/// Version and build id for job logs (`--version`).
package enum BuildInfo {
  /// The release version printed by `--version`.
  package static let version = "0.1.0"

  /// `push-transcode 0.1.0 (build 1a2b3c4d5e6f7a8b)`: the build id is the FNV-1a hash of the
  /// running executable, so two binaries print the same id exactly when they are the same bytes.
  package static var versionLine: String {
    "push-transcode \(version) (build \(buildID))"
  }

  /// 16 lower-case hex digits of the FNV-1a hash of `/proc/self/exe`, or `unknown`.
  package static var buildID: String {
    guard let bytes = FileSystem.contents(of: "/proc/self/exe") else { return "unknown" }
    let hash = bytes.withUnsafeBufferPointer { FNV1a.hash($0) }
    return String(hash, radix: 16).leftPadded(to: 16)
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
