import Testing

@testable import PushTranscoder

/// The records of a message to many recipients or groups get their payloads from the first
/// record's (`PayloadTemplate`): copied for Tencent apns and for the other vendors' records of
/// a send to several groups, copied with `t` or `g` written anew for Easemob apns. Each must
/// be the payload the same message to that one recipient or group gets, rendered on its own:
/// targets of growing, shrinking and escaped lengths, and bodies around the budget, where a
/// longer `t` makes the body cut.
@Suite struct PayloadTemplateTests {
  /// The recipients, as JSON string contents: lengths up and down, one escaped (`é` three times
  /// as `\u00e9`: 18 bytes in the line, 6 in the payload).
  static let recipients = [
    "a", "bbbbbb", "cc", #"\u00e9\u00e9\u00e9"#, "dddddddddddddddddddd", "e", "ffffffffff",
  ]

  /// The payloads (the text after `"payload":`, without the record's closing brace) of the
  /// records `line` makes for `vendor`.
  static func payloads(_ line: String, _ vendor: VendorID = .apns) -> [String] {
    var payloads: [String] = []
    SplitMessageWorkTests.process(line, vendors: [vendor]) { records, _ in
      payloads = records.map { record in
        guard let start = record.range(of: #""payload":"#)?.upperBound else { return record }
        return String(record[start...].dropLast())
      }
    }
    return payloads
  }

  static func easemobGroups(_ groups: [String], body: String) -> String {
    let target = groups.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"target_type":"chatgroups","target":[\#(target)],"#
      + #""msg":{"type":"txt","msg":"\#(body)"},"from":"u","ext":{"em_apns_ext":{"extern":"x"}}}"#
  }

  static func easemob(_ targets: [String], body: String) -> String {
    let target = targets.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"target_type":"users","target":[\#(target)],"msg":{"type":"txt","msg":"\#(body)"},"#
      + #""from":"u","ext":{"em_apns_ext":{"extern":"x"}}}"#
  }

  static func tencent(_ targets: [String], body: String) -> String {
    let to = targets.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"From_Account":"u","To_Account":[\#(to)],"MsgKey":"k","MsgBody":"#
      + #"[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\#(body)"}}]}"#
  }

  /// Bodies from short to over the budget, through the lengths where `t`'s length decides
  /// whether the body is cut.
  static var bodies: [String] {
    let lengths = [3990, 4000, 4010, 4020, 4030, 4040, 5000]
    return ["hello"] + lengths.map { String(repeating: "x", count: $0) }
  }

  @Test(arguments: ["easemob", "tencent"])
  func everyRecordIsItsRecipientsOwnPayload(_ dialect: String) {
    let line = dialect == "easemob" ? Self.easemob : Self.tencent
    for body in Self.bodies {
      let together = Self.payloads(line(Self.recipients, body))
      let alone = Self.recipients.map { Self.payloads(line([$0], body)) }
      #expect(together.count == Self.recipients.count, "body of \(body.utf8.count) bytes")
      #expect(alone.allSatisfy { $0.count == 1 })
      for (index, payloads) in alone.enumerated() where index < together.count {
        #expect(
          together[index] == payloads.first,
          "\(dialect), body of \(body.utf8.count) bytes, recipient \(index + 1)")
      }
    }
  }

  /// A send to several groups, no directory: every group's records share the default title, so
  /// every vendor's records are made from the first (apns with its own `g`). vivo's are not:
  /// its `requestId` numbers a split message's records (`-1`, `-2`, ...), so its records are
  /// not the message to one group alone.
  @Test(arguments: VendorID.allCases.filter { $0 != .vivo })
  func everyGroupsRecordIsItsGroupsOwnPayload(_ vendor: VendorID) {
    for body in ["hello", String(repeating: "x", count: 4030)] {
      let together = Self.payloads(Self.easemobGroups(Self.recipients, body: body), vendor)
      let alone = Self.recipients.map {
        Self.payloads(Self.easemobGroups([$0], body: body), vendor)
      }
      #expect(together.count == Self.recipients.count, "\(vendor.name)")
      for (index, payloads) in alone.enumerated() where index < together.count {
        #expect(
          together[index] == payloads.first,
          "\(vendor.name), body of \(body.utf8.count) bytes, group \(index + 1)")
      }
    }
  }
}
