import Testing

@testable import PushTranscoder

@Suite struct DirectoryTests {
  @Test func acceptedShapes() {
    let (dir, results) = directory([
      #"{"To_Account":"u1","ProfileItem":[{"Tag":"Tag_Profile_IM_Gender","Value":1},{"Tag":"Tag_Profile_IM_Nick","Value":"Alice"}]}"#,
      #"{"GroupId":"g1","Name":"Team","Type":"Public"}"#,
      #"{"username":"u2","nickname":"Bob","created":1}"#,
    ])
    #expect(results == [.user, .group, .user])
    #expect(dir.nickname(of: "u1") == "Alice")
    #expect(dir.nickname(of: "u2") == "Bob")
    #expect(dir.groupName(of: "g1") == "Team")
    #expect(dir.nickname(of: "g1") == nil)
    #expect(dir.groupName(of: "u1") == nil)
    #expect(dir.entryCount == 3)
    #expect(dir.userCount == 2)
    #expect(dir.groupCount == 1)
  }

  @Test func laterEntriesOverride() {
    let (dir, _) = directory([
      #"{"username":"u1","nickname":"Old"}"#,
      #"{"To_Account":"u1","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"New"}]}"#,
      #"{"GroupId":"g1","Name":"A"}"#, #"{"GroupId":"g1","Name":"B"}"#,
      #"{"username":"u2","nickname":"Kept"}"#, #"{"username":"u2","nickname":""}"#,
      #"{"username":"u3","nickname":"X"}"#, #"{"username":"u3"}"#,
    ])
    #expect(dir.nickname(of: "u1") == "New")
    #expect(dir.groupName(of: "g1") == "B")
    // A later entry without a name leaves the id without one.
    #expect(dir.nickname(of: "u2") == nil)
    #expect(dir.nickname(of: "u3") == nil)
    #expect(dir.entryCount == 8)
    #expect(dir.userCount == 3)
  }

  @Test func emptyNamesAreAbsent() {
    let (dir, results) = directory([
      #"{"username":"u1","nickname":""}"#, #"{"GroupId":"g1","Name":null}"#,
      #"{"To_Account":"u2","ProfileItem":[]}"#,
    ])
    #expect(results == [.user, .group, .user])
    #expect(dir.nickname(of: "u1") == nil)
    #expect(dir.groupName(of: "g1") == nil)
    #expect(dir.nickname(of: "u2") == nil)
  }

  @Test func idsMatchByDecodedBytesAndNamesKeepEscapes() throws {
    let (dir, _) = directory([#"{"username":"u\u0031","nickname":"A\"l\u00e9"}"#])
    #expect(dir.nickname(of: "u1") == "A\"lé")
    // Through a message: the name slice keeps its escapes and outlives the directory line.
    let opts = MessageOptions(directory: dir)
    let n = try #require(
      read(
        #"{"From_Account":"u1","To_Account":"x","MsgBody":[{"MsgType":"TIMFaceElem"}]}"#,
        options: opts
      ).notice)
    #expect(n.untitledBody == "A\"lé:[Face]")
    #expect(n.fallbackTitle == "A\"lé")
    let escapedSender =
      #"{"From_Account":"\u0075\u0031","To_Account":"x","MsgBody":[{"MsgType":"TIMFaceElem"}]}"#
    #expect(read(escapedSender, options: opts).notice?.untitledBody == "A\"lé:[Face]")
  }

  /// Names are stored in canonical form, marked so: a name goes into every record of its
  /// sender's messages, and one with escapes that are not canonical (`\u00e9`, `\/`) was put in
  /// canonical form again for each message (1M escaped marks × 2,000 messages: 9.7 s).
  @Test func namesAreStoredInCanonicalForm() {
    let (dir, _) = directory([
      #"{"username":"u1","nickname":"A\"l\u00e9 \/ \ud83d\ude00"}"#,
      #"{"GroupId":"g1","Name":"T\u00E9am"}"#, #"{"username":"u2","nickname":"plain"}"#,
    ])
    let nickname = dir.nickname(of: StringSlice("u1"))
    #expect(nickname?.isCanonical == true)
    #expect(nickname.map { Array($0.rawBytes) } == Array(#"A\"lé / 😀"#.utf8))
    #expect(nickname?.decodedBytes() == Array("A\"lé / 😀".utf8))
    let group = dir.groupName(of: StringSlice("g1"))
    #expect(group?.hasEscapes == false && group.map { Array($0.rawBytes) } == Array("Téam".utf8))
    #expect(dir.nickname(of: StringSlice("u2"))?.hasEscapes == false)
  }

  @Test func manyEntriesSurviveGrowth() {
    var lines: [String] = []
    for i in 0..<5000 { lines.append(#"{"username":"user\#(i)","nickname":"Name \#(i)"}"#) }
    let (dir, _) = directory(lines)
    #expect(dir.userCount == 5000)
    #expect(dir.nickname(of: "user0") == "Name 0")
    #expect(dir.nickname(of: "user4999") == "Name 4999")
    #expect(dir.nickname(of: "user5000") == nil)
  }

  @Test(arguments: [
    ("[]", "$"), ("{}", "$"), (#"{"Name":"x"}"#, "$"),
    (#"{"ProfileItem":[]}"#, "To_Account"),
    (#"{"To_Account":"","ProfileItem":[]}"#, "To_Account"),
    (#"{"To_Account":1,"ProfileItem":[]}"#, "To_Account"),
    (#"{"To_Account":"u","ProfileItem":{}}"#, "ProfileItem"),
    (#"{"To_Account":"u","ProfileItem":[1]}"#, "ProfileItem[0]"),
    (#"{"To_Account":"u","ProfileItem":[{"Value":"x"}]}"#, "ProfileItem[0].Tag"),
    (
      #"{"To_Account":"u","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":3}]}"#,
      "ProfileItem[0].Value"
    ),
    (#"{"GroupId":"","Name":"x"}"#, "GroupId"),
    (#"{"GroupId":"g","Name":1}"#, "Name"),
    (#"{"username":5}"#, "username"),
    (#"{"username":"u","nickname":[]}"#, "nickname"),
  ])
  func rejects(line: String, path: String) {
    let (dir, results) = directory([line])
    guard case .reject(let rejectPath, let detail) = results.first else {
      Issue.record("accepted \(line)")
      return
    }
    #expect(rejectPath == path)
    #expect(!detail.isEmpty)
    #expect(dir.entryCount == 0)
  }

  @Test func directoryIsSendable() {
    let (dir, _) = directory([#"{"username":"u1","nickname":"A"}"#])
    let check: @Sendable () -> String? = { dir.nickname(of: "u1") }
    #expect(check() == "A")
  }

  /// User ids whose FNV-1a hashes agree in their low 32 bits (blocks of 6 bytes found by a
  /// birthday search, chained) all took one home slot of the unseeded table: each insert walked
  /// the whole cluster, and loading a directory of them was quadratic (112,000 ids: 18 s). With
  /// a seeded hash their probes stay short.
  @Test func idsChosenToCollideDoNotShareAProbeChain() {
    let prime: UInt64 = 0x100_0000_01b3
    func step(_ state: UInt64, _ bytes: [UInt8]) -> UInt64 {
      bytes.reduce(state) { ($0 ^ UInt64($1)) &* prime }
    }
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    var random: UInt64 = 1
    func block() -> [UInt8] {
      (0..<6).map { _ in
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return alphabet[Int(random >> 33) % alphabet.count]
      }
    }
    var state: UInt64 = 0xcbf2_9ce4_8422_2325
    var pairs: [([UInt8], [UInt8])] = []
    for _ in 0..<12 {
      var seen: [UInt64: [UInt8]] = [:]
      while true {
        let candidate = block()
        let low = step(state, candidate) & 0xFFFF_FFFF
        if let other = seen[low], other != candidate {
          pairs.append((other, candidate))
          state = step(state, other)
          break
        }
        seen[low] = candidate
      }
    }
    let ids = (0..<(1 << pairs.count)).map { number in
      String(
        decoding: pairs.enumerated().flatMap { bit, pair in
          number >> bit & 1 == 0 ? pair.0 : pair.1
        }, as: UTF8.self)
    }
    // They do collide in FNV-1a's low bits, the table's index.
    let lows = Set(
      ids.map { id in id.utf8.withContiguousStorageIfAvailable(FNV1a.hash)! & 0xFFFF_FFFF })
    #expect(lows.count == 1)
    let (dir, results) = directory(ids.map { #"{"username":"\#($0)","nickname":"n"}"# })
    #expect(results.allSatisfy { $0 == .user })
    #expect(dir.userCount == ids.count)
    #expect(dir.nickname(of: ids[ids.count - 1]) == "n")
    // One cluster of 4096 entries before; a few slots with a seeded hash.
    #expect(dir.longestUserProbe < 256, "longest probe \(dir.longestUserProbe)")
  }
}
