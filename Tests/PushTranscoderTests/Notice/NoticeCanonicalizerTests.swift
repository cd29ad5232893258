import Testing

@testable import PushTranscoder

/// `NoticeCanonicalizer` rewrites a line's escaped slices into per-line arenas, reused from the
/// next line on.
@Suite struct NoticeCanonicalizerTests {
  /// A line whose only escaped slices were array elements (recipients) rewrote them without a
  /// lookup, but the arenas were reset only when a single-valued field had been rewritten: the
  /// full arenas of every such line were kept, and memory grew with the input.
  @Test func arenasAreReusedWhenOnlyArrayElementsWereRewritten() {
    let escaped = Array(String(repeating: #"\u0041"#, count: 5000).utf8)  // 30 KB, "AAA…"
    var canonicalizer = NoticeCanonicalizer()
    escaped.withUnsafeBufferPointer { raw in
      let slice = StringSlice(pointer: raw.baseAddress!, count: raw.count, hasEscapes: true)
      for _ in 0..<20 {
        var notice = Notice(
          dialect: .tencent, body: [], untitledBody: [], fallbackTitle: StringSlice(""),
          lineHash: 0)
        notice.recipients = [slice, slice, slice, slice]
        canonicalizer.prepare(&notice)
        for recipient in notice.recipients {
          #expect(!recipient.hasEscapes)
          #expect(recipient.rawBytes.elementsEqual(repeatElement(UInt8(ascii: "A"), count: 5000)))
        }
      }
    }
    // One line's four 30 KB rewrites fill one 64 KiB arena and retire it at most twice.
    #expect(canonicalizer.retiredArenas <= 2)
  }

  /// A field's slice that another field repeats is rewritten once (the same rewrite).
  @Test func aSliceInTwoFieldsIsRewrittenOnce() {
    let escaped = Array(#"caf\u00e9"#.utf8)
    var canonicalizer = NoticeCanonicalizer()
    escaped.withUnsafeBufferPointer { raw in
      let slice = StringSlice(pointer: raw.baseAddress!, count: raw.count, hasEscapes: true)
      var notice = Notice(
        dialect: .tencent, body: [], untitledBody: [], fallbackTitle: StringSlice(""),
        lineHash: 0)
      notice.title = slice
      notice.apns.title = slice
      canonicalizer.prepare(&notice)
      #expect(notice.title!.isIdentical(to: notice.apns.title!))
      #expect(String(decoding: notice.title!.rawBytes, as: UTF8.self) == "café")
    }
  }
}
