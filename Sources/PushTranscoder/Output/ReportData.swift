/// The fixed buckets of the payload-size histogram (stats key `payload_bytes`).
///
/// Bucket `k` (0 ≤ k < 20) counts payloads of `256·k + 1 … 256·(k+1)` bytes as written (the
/// canonical bytes of the `payload` value, which the byte budgets measure); bucket 20 counts
/// payloads over 5120 bytes, the largest budget (APNs VoIP). Upper bounds are inclusive, as
/// the budgets are, so a payload of exactly 4096 bytes lands in the bucket that ends at 4096.
package enum PayloadSizes {
  /// Bytes per bucket: a power of two, so a payload is bucketed by a shift.
  package static let bucketShift = 8
  /// The inclusive upper bounds of the bounded buckets: 256, 512, …, 5120.
  package static let upperBounds: [Int] = (1...20).map { $0 << bucketShift }
  /// Bounded buckets plus the one past the last bound.
  package static let buckets = 21

  /// The bucket of a payload of `bytes` bytes (`bytes` ≥ 1; a payload is at least `{}`).
  @inline(__always)
  package static func bucket(_ bytes: Int) -> Int {
    // `&-` and the unsigned compare send 0 (never a payload) to the last bucket, not below 0.
    let index = UInt(bitPattern: bytes &- 1) >> UInt(bucketShift)
    return index < UInt(buckets - 1) ? Int(index) : buckets - 1
  }
}

/// One line that a reason applies to, for the report's examples.
package struct ReasonExample: Sendable, Equatable {
  /// The line's source, as given (`-` for stdin).
  package var source: SourceName
  /// The 1-based line number within `source`.
  package var line: Int
}

/// The first `limit` lines of each reject and skip reason, in input order.
///
/// A worker keeps the first `limit` of its chunk; the writer appends chunk after chunk in input
/// order (`RunStats.merge`), keeping the first `limit` of the run, so the examples are the same
/// for any `--threads` and `--chunk-bytes`.
package struct ReasonExamples: Sendable, Equatable {
  /// Examples kept per reason.
  package static let limit = 5
  /// Lines rejected as a whole, indexed by `RejectReason.rawValue`.
  package var rejected = [[ReasonExample]](repeating: [], count: RejectReason.allCases.count)
  /// Skipped lines, indexed by `SkipReason.index`.
  package var skipped = [[ReasonExample]](repeating: [], count: SkipReason.allCases.count)
  /// Refusals by one vendor, at `vendor.rawValue * RejectReason.allCases.count + reason`.
  package var vendorRejects = [[ReasonExample]](
    repeating: [], count: VendorID.allCases.count * RejectReason.allCases.count)

  /// No examples.
  package init() {}

  /// Notes a line rejected as a whole for `reason`.
  @inline(__always)
  package mutating func rejected(_ reason: RejectReason, _ source: SourceName, line: Int) {
    if rejected[reason.rawValue].count < Self.limit {
      rejected[reason.rawValue].append(ReasonExample(source: source, line: line))
    }
  }

  /// Notes a skipped line.
  @inline(__always)
  package mutating func skipped(_ reason: SkipReason, _ source: SourceName, line: Int) {
    if skipped[reason.index].count < Self.limit {
      skipped[reason.index].append(ReasonExample(source: source, line: line))
    }
  }

  /// Notes a refusal of one line by `vendor`.
  @inline(__always)
  package mutating func vendorRejected(
    _ vendor: VendorID, _ reason: RejectReason, _ source: SourceName, line: Int
  ) {
    let index = Self.vendorIndex(vendor, reason)
    if vendorRejects[index].count < Self.limit {
      vendorRejects[index].append(ReasonExample(source: source, line: line))
    }
  }

  /// The examples of refusals of `reason` by `vendor`.
  package func vendorRejects(_ vendor: VendorID, _ reason: RejectReason) -> [ReasonExample] {
    vendorRejects[Self.vendorIndex(vendor, reason)]
  }

  private static func vendorIndex(_ vendor: VendorID, _ reason: RejectReason) -> Int {
    vendor.rawValue * RejectReason.allCases.count + reason.rawValue
  }

  /// Appends the examples of the lines after these (the next chunk in input order), up to
  /// `limit` per reason.
  package mutating func append(_ later: ReasonExamples) {
    Self.append(later.rejected, to: &rejected)
    Self.append(later.skipped, to: &skipped)
    Self.append(later.vendorRejects, to: &vendorRejects)
  }

  private static func append(_ later: [[ReasonExample]], to lists: inout [[ReasonExample]]) {
    for index in lists.indices where lists[index].count < limit && !later[index].isEmpty {
      lists[index].append(contentsOf: later[index].prefix(limit - lists[index].count))
    }
  }
}
