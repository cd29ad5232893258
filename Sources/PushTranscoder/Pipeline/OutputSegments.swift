/// Where a worker hands over the records of its chunk so far, before the chunk is done, once
/// they pass `TranscodeOptions.segmentBytes`.
///
/// Why: records are not bounded by their line. apns writes one record per recipient, so a line
/// of a few megabytes naming a million recipients makes gigabytes of records. Kept until the
/// chunk's last line is done, a chunk's records would take memory in proportion to what its
/// lines make (in batch mode, past 4 GiB, a crash). Handed over in segments, they take memory
/// in proportion to the segment size, whatever the line makes.
///
/// The writer takes a chunk's segments in order, then the chunk's last output (the one with its
/// stats), then the next chunk's; `deliver` returns once the writer has taken the segment, so a
/// worker holds at most one segment beyond the records it is writing. A worker waits only for
/// the writer, and the writer only for chunks before the worker's, which other workers hold:
/// the wait always ends. Segments are cut only where no record written before can be taken back
/// (see `LineRecords`), so the records are those of an undivided run.
package protocol OutputSegments: AnyObject, Sendable {
  /// Hands `segment` (`ChunkOutput.takeSegment()`) to the writer; returns once it is taken,
  /// or dropped because the run has stopped.
  func deliver(_ segment: consuming ChunkOutput)
}
