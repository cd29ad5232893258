/// A read-only view of a run's or a transcoder's counts (SPEC 6.4, 6.8).
///
/// Every line is accounted for once: `lines == transcoded + skipped + rejected + blank`. The
/// full breakdown (cuts, dropped fields, refusals per vendor, the directory) is in `json`, the
/// stats JSON the command writes with `--stats`.
public struct TranscodeStats: Sendable, Equatable {
  private let counts: RunStats

  init(_ counts: RunStats) { self.counts = counts }

  /// Every line read.
  public var lines: Int { counts.lines }
  /// Empty and whitespace-only lines.
  public var blank: Int { counts.blank }
  /// Lines that produced at least one payload record.
  public var transcoded: Int { counts.transcoded }
  /// Lines with nothing to push (`push-disabled`, `empty-text`, …).
  public var skipped: Int { counts.skippedLines }
  /// Lines rejected as a whole, what `--max-rejects` counts (not single-vendor refusals).
  public var rejected: Int { counts.rejectedLines }

  /// Payload records written for `vendor`.
  public func records(for vendor: Vendor) -> Int { counts.records[vendor.id.rawValue] }

  /// Rejected lines by reason (`syntax`, `not-a-message`, …); reasons with none are left out.
  public var rejectedByReason: [String: Int] {
    var reasons: [String: Int] = [:]
    for reason in RejectReason.allCases where counts.rejected[reason.rawValue] > 0 {
      reasons[reason.name] = counts.rejected[reason.rawValue]
    }
    return reasons
  }

  /// Skipped lines by reason (`push-disabled`, `empty-text`, …); reasons with none are left
  /// out.
  public var skippedByReason: [String: Int] {
    var reasons: [String: Int] = [:]
    for reason in SkipReason.allCases where counts.skipped[reason.index] > 0 {
      reasons[reason.name] = counts.skipped[reason.index]
    }
    return reasons
  }

  /// The stats JSON of SPEC 6.8, as `--stats FILE` holds it (without the newline).
  public var json: String {
    var writer = JSONWriter()
    counts.writeJSON(into: &writer)
    return String(decoding: writer.buffer, as: UTF8.self)
  }
}
