/// A batch whose content outgrew `BatchSink`'s piece size before it was complete: its file is
/// open, and its content goes out piece by piece, so a batch of any size (`--batch-records` in
/// the millions, one file per vendor) holds one piece in memory, not the whole batch.
///
/// The file has the format of a batch written in one call, written as a stream: plain; one LZ4
/// frame of 64 KiB linked blocks without a content checksum; or a multi-member gzip file of
/// 1 MiB of content per member (`GzipMemberStream`, as `-o - --compress gzip`; `gzip -t`,
/// `zcat` and Python's `gzip` read it as one). The compressed bytes can differ from what one
/// call would write; the content, and so the manifest's `bytes` and `crc32`, cannot.
final class SpilledBatch: @unchecked Sendable {
  // Safe because its pieces are written by one job at a time, in order (the vendor's serial
  // queue in `BatchSink`); the writer thread only creates it and hands it over.

  /// The file the content goes to (under a name that is not final), with its folder and name;
  /// set by the first piece's job, nil while it is not (or could not be) created.
  var target: (file: BufferedFile, folder: DirectoryHandle, name: String)? = nil
  private var compressor: OutputCompressor?
  private var compressed: [UInt8] = []
  /// The CRC-32 of the content written so far.
  private(set) var crc = CRC32()
  /// Content bytes written so far.
  private(set) var bytes = 0
  /// File bytes written so far.
  private(set) var fileBytes = 0

  /// A batch compressed with `compression` at `level` (ignored for `.none`).
  init(compression: OutputCompression, level: Int) throws {
    compressor = try OutputCompressor(compression, level: level, lz4ContentChecksum: false)
  }

  /// Appends the next piece of content to `file`.
  func write(_ piece: UnsafeBufferPointer<UInt8>, to file: BufferedFile) throws {
    crc.update(UnsafeRawBufferPointer(piece))
    bytes += piece.count
    guard compressor != nil else {
      try file.write(piece)
      fileBytes += piece.count
      return
    }
    compressed.removeAll(keepingCapacity: true)
    try compressor?.append(piece, to: &compressed)
    try file.write(compressed)
    fileBytes += compressed.count
  }

  /// Ends the compressed stream in `file` (the LZ4 end mark, the last gzip member).
  func finish(to file: BufferedFile) throws {
    guard compressor != nil else { return }
    compressed.removeAll(keepingCapacity: true)
    try compressor?.finish(to: &compressed)
    try file.write(compressed)
    fileBytes += compressed.count
  }
}
