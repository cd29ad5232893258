extension Notice {
  /// The notice as one record sees it: a group record's fallback title is that group's name
  /// (an Easemob REST send to several groups names each group).
  @inline(__always)
  func forRecord(part: Int) -> Notice {
    guard part - 1 < fallbackTitles.count else { return self }
    var copy = self
    copy.fallbackTitle = fallbackTitles[part - 1]
    return copy
  }

  /// True when the records of a send to several groups take different fallback titles (a
  /// directory names the groups): `forRecord` then changes the notice from record to record.
  /// Without names every group's title is the default title, the same slice.
  var groupsTitleTheirRecords: Bool {
    guard let first = fallbackTitles.first else { return false }
    return fallbackTitles.contains { !$0.isIdentical(to: first) }
  }

  /// How many records a vendor that carries `recipientsPerRecord` recipients in one record
  /// makes of this message: one per group, else the recipients in slices of that size.
  @inline(__always)
  func recordCount(recipientsPerRecord: Int) -> Int {
    let targets = groups.isEmpty ? recipients.count : groups.count
    let perRecord = groups.isEmpty ? recipientsPerRecord : 1
    // Most messages fit one record: no division (integer division is the loop's costliest
    // instruction).
    return targets <= perRecord ? 1 : (targets + perRecord - 1) / perRecord
  }

  /// The notice to render `parts` records from for a vendor that reads the line's hash: when
  /// a keyless message splits, a copy that holds the hash, taken once, so a split into many
  /// records stays linear in the line; nil when this notice serves as it is. Only then is the
  /// notice copied: the copy of a notice and of its arrays' references costs more than the
  /// records of a one-part message.
  @inline(__always)
  func hashedForParts(_ parts: Int, vendorHashesLines: Bool) -> Notice? {
    guard parts > 1 && vendorHashesLines && key == nil && line != nil else { return nil }
    var hashed = self
    hashed.lineHash = lineHash
    return hashed
  }
}

extension PushVendor {
  /// Renders the payload of record `part` of `parts` of `notice` (a group send's part has its
  /// own group), as the pipeline writes it and `explain` shows it.
  @inline(__always)
  func renderPart(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, _ effects: inout RenderEffects
  ) -> VendorRefusal? {
    notice.groups.count > 1
      ? renderPayload(
        notice.forRecord(part: part), context, part: part, parts: parts, into: &writer,
        effects: &effects)
      : renderPayload(notice, context, part: part, parts: parts, into: &writer, effects: &effects)
  }
}
