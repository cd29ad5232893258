import Glibc

/// Resolves a notice's escaped texts once per line, before several vendors write them
/// (SPEC 4: every vendor writes strings in canonical form).
///
/// Without it, each of the nine vendors decodes and re-escapes the same `\uXXXX` body, title and
/// ext. A slice whose escapes are all canonical already (`\"`, `\n`: the usual ext) is only
/// marked `rawIsCanonical`. For the others the canonical form is written once into a per-line
/// arena; then:
/// - when it holds no backslash (the usual case: `\u6709` and `\/` become plain UTF-8), it *is*
///   the decoded text, so the slice is replaced by the arena copy with `hasEscapes == false` and
///   every later step (copy, scalar count, cut) takes the fast path;
/// - otherwise (canonical escapes such as `\"` or `\n` remain), the arena copy is still escaped
///   JSON content that decodes to the same text, so the slice is replaced by it, marked
///   `rawIsCanonical`: writers copy it as it is, readers decode it as they would the raw text.
///
/// Invariant: a canonical form is never longer than its raw text, and a slice is rewritten
/// only where the arena has room for its raw length; when it has not, a new arena takes over
/// and the full one is kept in `retired` until the next `prepare`. No arena moves while the
/// line is rendered, so the rewritten slices stay valid until then. (One walk over the notice:
/// a first walk to add up the escaped lengths would cost as much as the rewrites of a typical line.)
struct NoticeCanonicalizer: ~Copyable {
  private var arena = JSONWriter(capacity: Self.arenaBytes)
  /// Full arenas of the current line, kept alive for the slices that point into them.
  private var retired: [WriterBox] = []
  private static let arenaBytes = 1 << 16

  /// The full arenas kept for the current line (tests).
  var retiredArenas: Int { retired.count }
  /// The notices prepared since the canonicalizer was made (tests).
  private(set) var preparedNotices = 0
  /// The single-valued fields' slices rewritten for the current line, and their rewrites: one
  /// slice of the line can fill two fields (a title and the APNs title), and is rewritten once.
  /// A list searched in order: a notice has a fixed number of such fields (about thirty), so
  /// each lookup costs a bounded number of compares. The elements of arrays (recipients,
  /// groups, body pieces, fallback titles) are looked up in it (a body piece that is also the
  /// title gets the title's rewrite) but not added to it: a line can hold any number of them,
  /// and a hash table of them cost a probe far from the last one per element (a line of 65,000
  /// escaped elements spent a third of its time there). Two elements at the same place (the
  /// same array twice) are rewritten twice, to the same text.
  private var rewritten: [(start: UnsafePointer<UInt8>, count: Int, rewrite: StringSlice)] = []

  /// Rewrites the escaped slices of `notice` as described above.
  mutating func prepare(_ notice: inout Notice) {
    preparedNotices += 1
    // The last line's rewrites are no longer read: their arena space is reused.
    if arena.count > 0 || !retired.isEmpty {
      arena.removeAll()
      rewritten.removeAll(keepingCapacity: true)
      retired.removeAll()
    }
    notice.forEachSlice(
      { resolve($0) },
      element: { slice in
        guard slice.hasEscapes else { return slice }
        return earlierRewrite(of: slice) ?? rewriteOnce(slice)
      })
  }

  /// The rewrite of a single-valued field's slice at the same place as `slice`, if any.
  private func earlierRewrite(of slice: StringSlice) -> StringSlice? {
    for entry in rewritten where entry.start == slice.pointer && entry.count == slice.count {
      return entry.rewrite
    }
    return nil
  }

  private mutating func resolve(_ slice: StringSlice) -> StringSlice {
    guard slice.hasEscapes else { return slice }
    if let rewrite = earlierRewrite(of: slice) { return rewrite }
    let rewrite = rewriteOnce(slice)
    rewritten.append((slice.pointer, slice.count, rewrite))
    return rewrite
  }

  private mutating func rewriteOnce(_ slice: StringSlice) -> StringSlice {
    if slice.rawIsCanonical || JSONEscapes.hasOnlyCanonicalEscapes(slice.rawBytes) {
      // Already canonical (an ext's `\"` escapes): marked as such, not copied.
      var canonical = slice
      canonical.rawIsCanonical = true
      return canonical
    }
    if arena.capacity - arena.count < slice.count {
      // A full arena stays alive (earlier slices point into it); a new one takes the rest.
      var full = JSONWriter(capacity: max(Self.arenaBytes, slice.count))
      swap(&full, &arena)
      retired.append(WriterBox(full))
    }
    let start = arena.count
    JSONEscapes.appendCanonical(slice.rawBytes, to: &arena)
    let written = arena.count - start
    // Safe because the arena had room for the slice's raw length, which its canonical form
    // never exceeds (no growth), so `start ..< start + written` stays where it is until the
    // next `prepare`.
    let copy = UnsafePointer(arena.buffer.baseAddress! + start)
    if memchr(copy, Int32(ASCII.backslash), written) == nil {
      return StringSlice(pointer: copy, count: written, hasEscapes: false)
    }
    // Canonical escapes remain: still escaped JSON content that decodes to the same text, and
    // already in the form writers want.
    var canonical = StringSlice(pointer: copy, count: written, hasEscapes: true)
    canonical.rawIsCanonical = true
    return canonical
  }
}

extension Notice {
  /// Replaces every single-valued text slice of the notice by `transform(slice)`, and every
  /// element of its arrays by `element(slice)` (arrays only when one of their slices has
  /// escapes, so the common notice copies nothing).
  mutating func forEachSlice(
    _ transform: (StringSlice) -> StringSlice, element: (StringSlice) -> StringSlice
  ) {
    func map(_ slice: inout StringSlice?) {
      if let value = slice, value.hasEscapes { slice = transform(value) }
    }
    func map(_ slice: inout StringSlice) {
      if slice.hasEscapes { slice = transform(slice) }
    }
    func map(_ slices: inout [StringSlice]) {
      guard slices.contains(where: \.hasEscapes) else { return }
      for index in slices.indices where slices[index].hasEscapes {
        // Written back only when it changed: a write to an array that shares its storage
        // (`untitledBody` and `body`) copies it.
        let new = element(slices[index])
        if !new.isIdentical(to: slices[index]) { slices[index] = new }
      }
    }
    map(&key)
    map(&recipients)
    map(&groups)
    map(&sender)
    map(&easemobMessageID)
    map(&title)
    // An untitled body that is `body` itself (nil `untitledPieces`, as every write of
    // `untitledBody` with the same pieces leaves it) is rewritten once, with `body`, in place:
    // the per-line memo still sees one text.
    map(&body)
    if untitledPieces != nil { map(&untitledPieces!) }
    map(&fallbackTitle)
    map(&fallbackTitles)
    if case .string(var slice) = ext, slice.hasEscapes {
      map(&slice)
      ext = .string(slice)
    }
    map(&sound)
    map(&apns.title)
    map(&apns.subtitle)
    map(&apns.image)
    map(&apns.interruptionLevel)
    map(&apns.category)
    if var live = apns.liveActivity {
      map(&live.id)
      map(&live.event)
      apns.liveActivity = live
    }
    map(&android.sound)
    map(&android.huaweiChannelID)
    map(&android.huaweiCategory)
    map(&android.huaweiImportance)
    map(&android.huaweiImage)
    map(&android.honorImportance)
    map(&android.honorImage)
    map(&android.googleImage)
    map(&android.googlePriority)
    map(&android.googleChannelID)
    map(&android.xiaomiChannelID)
    map(&android.oppoChannelID)
    map(&android.oppoCategory)
    map(&android.vivoCategory)
    map(&harmony.title)
    map(&harmony.category)
    map(&harmony.image)
    map(&harmony.sound)
  }
}
