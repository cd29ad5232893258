/// The message stage as the line processor sees it: `MessageReader` with the run's options,
/// feeding its counters into the chunk's stats.
struct MessageStage {
  let options: MessageOptions

  init(options: TranscodeOptions, directory: Directory) {
    self.options = MessageOptions(
      locale: options.locale == .zh ? .zh : .en,
      display: options.display == .banner ? .banner : .summary,
      defaultTitle: options.defaultTitle, directory: directory)
  }

  @inline(__always)
  func read(
    _ document: JSONDocument, original: UnsafeBufferPointer<UInt8>, stats: inout RunStats,
    into notice: inout Notice
  ) -> ReadResult {
    var counters = MessageStats()
    let outcome = MessageReader.read(
      document, line: original, options: options, stats: &counters, into: &notice)
    stats.unknownElements += counters.unknownElements
    stats.descExtOver3KB += counters.descExtOver3KB
    return outcome
  }
}
