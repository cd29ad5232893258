/// Append-only storage for text that must outlive every line of a run: directory ids and names,
/// the `--default-title`.
///
/// Invariant: bytes are copied into fixed blocks that are never moved, resized or reused while
/// the arena lives, so a pointer returned by `copy` stays valid (and its bytes unchanged) until
/// the arena is released. Blocks are freed only in `deinit`.
///
/// ```
///   blocks: [ block 0: used ........ | block 1: used .... free ]  <- cursor, remaining
/// ```
final class TextArena: @unchecked Sendable {
  // Safe because the arena is written only while the run is being set up (directory loading,
  // option parsing, one thread) and only read afterwards; appends never touch copied bytes.

  private static let blockSize = 64 * 1024

  private var blocks: [UnsafeMutablePointer<UInt8>] = []
  private var cursor: UnsafeMutablePointer<UInt8>? = nil
  private var remaining = 0

  init() {}

  deinit {
    // Safe because each block was allocated by `copy`, is freed once, and no owner is left.
    for block in blocks { block.deallocate() }
  }

  /// Copies `bytes` into the arena and returns the stable address of the copy.
  func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<UInt8> {
    let count = bytes.count
    if count > remaining || cursor == nil {
      let size = max(Self.blockSize, count)
      let block = UnsafeMutablePointer<UInt8>.allocate(capacity: max(size, 1))
      blocks.append(block)
      if count >= Self.blockSize {
        // A large text gets a block of its own; the current block keeps its free space.
        // Safe because the block holds max(blockSize, count) bytes, and count > 0 gives `bytes`
        // a base address.
        if count > 0 { block.initialize(from: bytes.baseAddress!, count: count) }
        return UnsafePointer(block)
      }
      cursor = block
      remaining = size
    }
    // Safe because count <= remaining, so cursor ..< cursor + count lies in the current block.
    let destination = cursor!
    if count > 0 { destination.initialize(from: bytes.baseAddress!, count: count) }
    cursor = destination + count
    remaining -= count
    return UnsafePointer(destination)
  }

  /// Copies a string slice's content (escapes kept as they are) and returns a slice of the copy.
  func copy(_ slice: StringSlice) -> StringSlice {
    StringSlice(pointer: copy(slice.rawBytes), count: slice.count, hasEscapes: slice.hasEscapes)
  }

  /// Stores `text` as canonical JSON string content and returns a slice of it.
  func slice(of text: String) -> StringSlice {
    var utf8 = Array(text.utf8)
    var writer = JSONWriter(capacity: utf8.count + 8)
    utf8.withUnsafeBufferPointer { writer.escapedContent($0) }
    let hasEscapes = writer.bytes != utf8
    utf8 = writer.bytes
    return utf8.withUnsafeBufferPointer {
      StringSlice(pointer: copy($0), count: $0.count, hasEscapes: hasEscapes)
    }
  }
}
