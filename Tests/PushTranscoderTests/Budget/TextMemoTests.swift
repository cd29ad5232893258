import Testing

@testable import PushTranscoder

/// The per-line memo and the escape pre-pass change nothing but the work done.
@Suite struct TextMemoTests {
  /// A JSON value every record of a line carries (apns `e`, `content-state`) is put in canonical
  /// form once per line and copied into each record: re-written per record, a message to
  /// thousands of recipients with a value of thousands of duplicate keys cost records × value.
  @Test func aValueIsPutInCanonicalFormOncePerLine() {
    let line = Array(#"{"v":{"a":1, "a":2,"b":[1 ,"x\u0041"]},"w":[true]}"#.utf8)
    var tokenizer = JSONTokenizer()
    line.withUnsafeBufferPointer { buffer in
      #expect(tokenizer.parse(buffer) == nil)
      tokenizer.withDocument(buffer) { document in
        let memo = TextMemo()
        let value = document.root + 2
        var writer = JSONWriter()
        for _ in 0..<3 { memo.writeCanonicalValue(document, value, into: &writer) }
        let once = #"{"a":2,"b":[1,"xA"]}"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == once + once + once)
        #expect(memo.canonicalValuesWritten == 1)
        // Another value of the line, and the same after `reset` (a new line), are written anew.
        var other = JSONWriter()
        memo.writeCanonicalValue(document, Int(document.tokens[value].next) + 1, into: &other)
        #expect(String(decoding: other.bytes, as: UTF8.self) == "[true]")
        memo.reset()
        memo.writeCanonicalValue(document, value, into: &other)
        #expect(memo.canonicalValuesWritten == 3)
      }
    }
  }

  @Test func memoAnswersLikeTheTextItself() {
    let content = Array(#"ab\u00e9\u4e2d\ud83d\ude00 tail of the text 中文中文"#.utf8)
    content.withUnsafeBufferPointer { buffer in
      let slice = StringSlice(escapedContent: buffer)
      let texts: [PushText] = [.slice(slice), .pieces([slice, StringSlice("xyz")])]
      for text in texts {
        let memo = TextMemo()
        #expect(memo.scalarCount(text) == text.scalarCount)
        #expect(memo.scalarCount(text) == text.scalarCount)
        // Longer after shorter, shorter after longer, and past the end: at least the prefix
        // asked for (the memo shares its longest one), and never more than the text.
        let whole = text.decodedBytes()
        for limit in [3, 10, 2, 100, 5, 0] {
          let memoized = memo.decodedPrefix(text, scalars: limit)
          let exact = text.decodedPrefix(scalars: limit)
          #expect(memoized.starts(with: exact) && whole.starts(with: memoized), "limit \(limit)")
        }
        memo.reset()
        #expect(memo.decodedPrefix(text, scalars: 4) == text.decodedPrefix(scalars: 4))
      }
    }
  }

  /// A prefix decoded in place reports how many scalars it holds (the memo keeps that count
  /// instead of counting again): `limit`, or the whole text's count when it is shorter, for
  /// plain, escaped, mixed and decoded texts, at limits around the 8-byte word walk.
  @Test func decodedPrefixInPlaceCountsItsScalars() {
    let plain = Array("ascii 中文 😀 e\u{301} and more plain text to pass a word or two".utf8)
    let escaped = Array(#"ab\u00e9\u4e2d\ud83d\ude00 \"quoted\" tail 中文"#.utf8)
    plain.withUnsafeBufferPointer { plainBytes in
      escaped.withUnsafeBufferPointer { escapedBytes in
        let plainSlice = StringSlice(escapedContent: plainBytes)
        let escapedSlice = StringSlice(escapedContent: escapedBytes)
        let texts: [PushText] = [
          .slice(plainSlice), .slice(escapedSlice),
          .pieces([plainSlice, escapedSlice, plainSlice]), .decoded(plain),
        ]
        for text in texts {
          let total = text.scalarCount
          for limit in [0, 1, 3, 7, 8, 9, 15, 16, 17, 40, total - 1, total, total + 1, 1000] {
            var bytes: [UInt8] = Array("stale bytes of an earlier line".utf8)
            let scalars = text.decodePrefix(scalars: limit, into: &bytes)
            #expect(bytes == text.decodedPrefix(scalars: limit), "limit \(limit)")
            let counted = bytes.withUnsafeBufferPointer { ScalarCount.ofUTF8($0) }
            #expect(scalars == counted, "limit \(limit)")
            #expect(scalars == min(limit, total), "limit \(limit)")
          }
        }
        let plainScalars = String(decoding: plain, as: UTF8.self).unicodeScalars.count
        for limit in 0...(plainScalars + 2) {
          let prefix = TextCut.scalarPrefix(plainBytes, scalars: limit)
          #expect(prefix.end == TextCut.scalarPrefixEnd(plainBytes, scalars: limit))
          let counted = ScalarCount.ofUTF8(UnsafeBufferPointer(rebasing: plainBytes[..<prefix.end]))
          #expect(prefix.scalars == counted && counted == min(limit, plainScalars))
        }
      }
    }
  }

  /// `decodePrefix(scalars:into:)` writes over the array it is given and keeps its storage, for
  /// every kind of text: the memo relies on it to decode a later line's text without allocating.
  @Test func decodedPrefixInPlaceKeepsTheArraysStorage() {
    let plain = Array("plain text, 中文 and more".utf8)
    plain.withUnsafeBufferPointer { plainBytes in
      let slice = StringSlice(escapedContent: plainBytes)
      let texts: [PushText] = [.slice(slice), .pieces([slice, slice]), .decoded(plain)]
      for text in texts {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        let before = bytes.withUnsafeBufferPointer { $0.baseAddress }
        text.decodePrefix(scalars: 10, into: &bytes)
        let after = bytes.withUnsafeBufferPointer { $0.baseAddress }
        #expect(before == after, "\(text)")
        #expect(bytes == text.decodedPrefix(scalars: 10))
      }
    }
  }

  /// A borrowing cut of plain text is a slice of storage the memo owns (`CutBytes`), which holds
  /// the right bytes and moves only when a longer cut needs more room; asking for the same cut
  /// with and without borrowing, in either order, gives the same bytes; a text with escapes
  /// is never lent as a slice.
  @Test func borrowedCutsHoldTheCutAndMixWithOwnedOnes() {
    let plain = Array(String(repeating: "中文 plain text ", count: 60).utf8)
    let escaped = Array(String(repeating: #"tab\there "#, count: 60).utf8)
    for content in [plain, escaped] {
      content.withUnsafeBufferPointer { buffer in
        let text = PushText.slice(StringSlice(escapedContent: buffer))
        let memo = TextMemo()
        for cap in [20, 600, 40, 40, 127] {
          let exact = TextCut.capped(.decoded(text.decodedBytes()), scalars: cap)?.decodedBytes()
          memo.reset()
          let lent = TextCut.cappedForWriting(text, scalars: cap, memo: memo)
          if case .slice(let slice) = lent {
            #expect(!slice.hasEscapes && text.isPlain)
          } else {
            #expect(lent == nil || !text.isPlain, "a plain cut is lent as a slice")
          }
          #expect(lent?.decodedBytes() == exact, "cap \(cap)")
          #expect(TextCut.capped(text, scalars: cap, memo: memo)?.decodedBytes() == exact)
          #expect(TextCut.cappedForWriting(text, scalars: cap, memo: memo)?.decodedBytes() == exact)
          memo.reset()
          #expect(TextCut.capped(text, scalars: cap, memo: memo)?.decodedBytes() == exact)
          #expect(TextCut.cappedForWriting(text, scalars: cap, memo: memo)?.decodedBytes() == exact)
        }
      }
    }
  }

  /// The memo keeps its slots from line to line and writes a new line's prefixes and cuts over
  /// an earlier line's. A line reuses the buffer of the one before (same addresses, other
  /// bytes): every answer is the new text's, and a cut the caller kept from the earlier line
  /// keeps its bytes.
  @Test func slotsReusedByTheNextLineAnswerForItsTexts() {
    var buffer = [UInt8](repeating: 0, count: 1024)
    let lines = [
      String(repeating: "héllo wörld ", count: 20),
      String(repeating: "中文测试", count: 40),
      String(repeating: "ab", count: 150),
      // Fewer scalars than the first cap, more bytes: only a fresh count says it is not cut.
      String(repeating: "中", count: 20),
      "short",
    ]
    let memo = TextMemo()
    var kept: [(cut: [UInt8], expected: [UInt8])] = []
    for line in lines {
      memo.reset()
      let bytes = Array(line.utf8)
      buffer.replaceSubrange(0..<bytes.count, with: bytes)
      buffer.withUnsafeBufferPointer { whole in
        let text = PushText.slice(
          StringSlice(escapedContent: UnsafeBufferPointer(rebasing: whole[..<bytes.count])))
        let owned = PushText.decoded(bytes)
        for cap in [40, 127, 50, 100, 100, 40] {
          let memoized = TextCut.capped(text, scalars: cap, memo: memo)
          let exact = TextCut.capped(owned, scalars: cap)
          #expect(memoized?.decodedBytes() == exact?.decodedBytes(), "\(line.prefix(8)) cap \(cap)")
          if let memoized, let exact {
            kept.append((memoized.decodedBytes(), exact.decodedBytes()))
          }
        }
        #expect(memo.scalarCount(text) == owned.scalarCount)
        #expect(
          memo.decodedPrefix(text, scalars: 30).starts(with: owned.decodedPrefix(scalars: 30)))
      }
    }
    #expect(kept.count > 5)
    for (cut, expected) in kept { #expect(cut == expected) }
  }

  /// A cut for writing borrows the memo's storage when the text is plain (no escapes), and
  /// holds the same text as the owned cut; a text with escapes still gets an array.
  @Test func cutsForWritingBorrowOnlyPlainText() {
    let plain = Array(String(repeating: "plain text 中文 ", count: 20).utf8)
    let escaped = Array(String(repeating: #"say "hi" 中文 "#, count: 20).utf8)
    for (content, isPlain) in [(plain, true), (escaped, false)] {
      content.withUnsafeBufferPointer { buffer in
        let text = PushText.slice(
          StringSlice(pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: !isPlain))
        let memo = TextMemo()
        for cap in [127, 100, 100, 50] {
          let owned = TextCut.capped(text, scalars: cap)
          let borrowed = TextCut.cappedForWriting(text, scalars: cap, memo: memo)
          #expect(borrowed?.decodedBytes() == owned?.decodedBytes(), "cap \(cap)")
          var viaBorrowed = JSONWriter()
          var viaOwned = JSONWriter()
          borrowed?.write(into: &viaBorrowed)
          owned?.write(into: &viaOwned)
          #expect(viaBorrowed.bytes == viaOwned.bytes, "cap \(cap)")
          if case .slice = borrowed { #expect(isPlain) } else { #expect(!isPlain) }
        }
      }
    }
  }

  /// Escaped texts larger together than the canonicalizer's 64 KiB arena: each slice that does
  /// not fit starts a new arena, and the slices rewritten into the full ones stay valid while
  /// the line is rendered; a later small line reuses the canonicalizer.
  @Test func canonicalizerKeepsEarlierRewritesWhenItsArenaFills() {
    var canonicalizer = NoticeCanonicalizer()
    // 30,000 × `\u6709` is 180,000 bytes escaped, 90,000 decoded: one slice alone exceeds
    // the arena, and body, title and sender together fill several.
    let big = Array(String(repeating: #"\u6709"#, count: 30_000).utf8)
    let medium = Array(String(repeating: #"\u00e9x"#, count: 9_000).utf8)
    let small = Array(#"\u4f60\u597d"#.utf8)
    for round in 0..<3 {
      big.withUnsafeBufferPointer { bigBytes in
        medium.withUnsafeBufferPointer { mediumBytes in
          small.withUnsafeBufferPointer { smallBytes in
            let body = StringSlice(escapedContent: bigBytes)
            var notice = Notice(
              dialect: .tencent, body: [StringSlice(escapedContent: mediumBytes), body],
              untitledBody: [body], fallbackTitle: StringSlice("t"), lineHash: 0)
            notice.title = StringSlice(escapedContent: mediumBytes)
            notice.sender = StringSlice(escapedContent: round == 1 ? smallBytes : bigBytes)
            canonicalizer.prepare(&notice)
            let expectedBig = String(repeating: "有", count: 30_000)
            let expectedMedium = String(repeating: "éx", count: 9_000)
            #expect(notice.body.map { $0.decodedString() } == [expectedMedium, expectedBig])
            #expect(notice.body.allSatisfy { !$0.hasEscapes })
            #expect(notice.untitledBody.map { $0.decodedString() } == [expectedBig])
            #expect(notice.title?.decodedString() == expectedMedium)
            #expect(notice.sender?.decodedString() == (round == 1 ? "你好" : expectedBig))
          }
        }
      }
    }
  }

  @Test func canonicalizerResolvesEscapesOnce() {
    let body = Array(#"\u6709\u65B0\/消息"#.utf8)
    let ext = Array(#"{\"entity\":1}"#.utf8)
    let mixed = Array(#"a\u00e9\"b"#.utf8)
    body.withUnsafeBufferPointer { bodyBytes in
      ext.withUnsafeBufferPointer { extBytes in
        mixed.withUnsafeBufferPointer { mixedBytes in
          let bodySlice = StringSlice(escapedContent: bodyBytes)
          let extSlice = StringSlice(escapedContent: extBytes)
          let mixedSlice = StringSlice(escapedContent: mixedBytes)
          var notice = Notice(
            dialect: .tencent, body: [bodySlice], untitledBody: [bodySlice],
            fallbackTitle: StringSlice("t"), lineHash: 0)
          notice.ext = .string(extSlice)
          notice.title = mixedSlice
          var canonicalizer = NoticeCanonicalizer()
          canonicalizer.prepare(&notice)
          // `\u` and `\/` only: replaced by plain UTF-8.
          #expect(!notice.body[0].hasEscapes)
          #expect(notice.body[0].decodedString() == "有新/消息")
          #expect(notice.untitledBody[0].decodedString() == "有新/消息")
          // Only canonical escapes: kept, copied as they are by writers.
          guard case .string(let resolvedExt) = notice.ext else {
            Issue.record("ext changed kind")
            return
          }
          #expect(resolvedExt.hasEscapes && resolvedExt.rawIsCanonical)
          var writer = JSONWriter()
          writer.stringContent(resolvedExt)
          #expect(writer.bytes == ext)
          #expect(resolvedExt.decodedString() == #"{"entity":1}"#)
          // Mixed: the canonical form, still escaped, decoding to the same text.
          let title = notice.title!
          #expect(title.hasEscapes && title.rawIsCanonical)
          #expect(title.decodedString() == "aé\"b")
          var titleWriter = JSONWriter()
          titleWriter.stringContent(title)
          #expect(String(decoding: titleWriter.bytes, as: UTF8.self) == #"aé\"b"#)
        }
      }
    }
  }
}

extension StringSlice {
  /// A slice of escaped JSON string content held by `buffer` (test fixtures).
  init(escapedContent buffer: UnsafeBufferPointer<UInt8>) {
    self.init(pointer: buffer.baseAddress!, count: buffer.count, hasEscapes: true)
  }
}
