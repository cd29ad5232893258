/// What the vendors made of one line, added to the stats once the line is rendered: one
/// uniqueness check of each stats array per line, not one per vendor.
struct LineOutcome {
  /// Records written per vendor (VendorID has nine cases; the subscripts check it).
  var records = InlineArray<9, Int>(repeating: 0)
  var titleCuts: UInt16 = 0
  var bodyCuts: UInt16 = 0
  /// Per vendor, the `DroppedField` bits of the fields it left out (SPEC 9 [4, 6.8]).
  var dropped = InlineArray<9, UInt16>(repeating: 0)
  var anyDropped = false
  var produced = false
  /// The reason of the first vendor that refused the message, if any did.
  var firstRefusal: RejectReason? = nil

  /// `vendor` wrote `count` records, with these cuts.
  @inline(__always)
  mutating func wrote(_ count: Int, for vendor: VendorID, _ effects: RenderEffects) {
    records[vendor.rawValue] = count
    produced = true
    if effects.titleCut { titleCuts |= 1 << vendor.rawValue }
    if effects.bodyCut { bodyCuts |= 1 << vendor.rawValue }
    if effects.dropped != 0 {
      dropped[vendor.rawValue] = effects.dropped
      anyDropped = true
    }
  }

  /// Adds the line to `stats` (SPEC 6.4): its records and cuts per vendor, and the line itself
  /// as transcoded, or as rejected once under the first refusal when every vendor refused.
  func count(into stats: inout RunStats, vendors: [VendorID]) {
    if produced {
      stats.records.withUnsafeMutableBufferPointer { counts in
        if vendors.count == counts.count {
          // Every vendor: a plain loop over the counts.
          for index in counts.indices { counts[index] += records[index] }
        } else {
          for id in vendors { counts[id.rawValue] += records[id.rawValue] }
        }
      }
      stats.transcoded += 1
    } else if let firstRefusal {
      stats.rejected[firstRefusal.rawValue] += 1
    }
    if titleCuts | bodyCuts != 0 {
      Self.addOne(titleCuts, into: &stats.cutTitles)
      Self.addOne(bodyCuts, into: &stats.cutBodies)
    }
    if anyDropped {
      for vendor in 0..<9 where dropped[vendor] != 0 {
        Self.addOne(dropped[vendor], into: &stats.droppedFields[vendor])
      }
    }
  }

  /// Adds one to `counts[vendor]` for every vendor whose bit is set in `vendors`.
  private static func addOne(_ vendors: UInt16, into counts: inout [Int]) {
    guard vendors != 0 else { return }
    counts.withUnsafeMutableBufferPointer { counts in
      var bits = vendors
      while bits != 0 {
        counts[bits.trailingZeroBitCount] += 1
        bits &= bits - 1
      }
    }
  }
}
