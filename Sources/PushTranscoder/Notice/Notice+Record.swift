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
}
