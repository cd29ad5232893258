/// Input lines shaped to expose work that grows faster than the line: every stage
/// must cost time linear in a line's bytes, whatever its shape. The bench times each shape at
/// two sizes (`push-transcode-bench --hostile`) and the tests check what each shape produces,
/// so both use these generators.
///
/// `line(size)` repeats the shape's item (`size` keys, recipients, elements, escapes, marks...);
/// the bytes grow linearly with `size`. Directory shapes are whole `--directory` files (one
/// entry per line) rather than message lines.
package enum HostileShape: String, CaseIterable, Sendable {
  /// Easemob `ext.em_apns_ext.extern`: an object with `size` distinct keys.
  case externManyKeys = "extern: many keys"
  /// `extern` with `size` members over `size / 2` keys, each key twice (first position, last
  /// value; SPEC 9).
  case externRepeatedKeys = "extern: repeated keys"
  /// `extern` with `size` members whose keys are escaped (`"k\u0030"`), each key twice.
  case externEscapedKeys = "extern: escaped repeated keys"
  /// `extern` with `size / 200` members, each a chain nested 200 levels deep, with a repeated
  /// key at every level.
  case externDeep = "extern: deeply nested"
  /// Easemob `ext.em_push_template`: an object with `size` keys, each key twice.
  case templateManyKeys = "em_push_template: many keys"
  /// Tencent `ApnsInfo.LiveActivity.ContentState`: an object with `size` keys, each twice.
  case contentStateManyKeys = "ContentState: many keys"
  /// Tencent `To_Account`: `size` recipients, escaped (`"u\u005f1"`).
  case escapedRecipients = "To_Account: escaped"
  /// Tencent `To_Account`: the same recipient `size` times.
  case repeatedRecipients = "To_Account: repeated"
  /// Easemob REST `target`: `size` escaped user ids.
  case easemobTargets = "target: escaped users"
  /// Easemob REST `target` to `chatgroups`: `size` groups.
  case easemobGroups = "target: groups"
  /// Tencent `MsgBody`: `size` text elements.
  case manyElements = "MsgBody: many elements"
  /// Easemob export `payload.bodies`: `size` text bodies.
  case manyBodies = "bodies: many"
  /// A Tencent text of `size` escapes (`\u00e9`, `\n`, `\"`).
  case escapeRun = "text: escape run"
  /// A Tencent text of `size` escaped surrogate pairs (`\ud83d\ude00`).
  case surrogateRun = "text: surrogate pairs"
  /// A title and text of one base character followed by `size` combining marks (the caps of
  /// xiaomi, oppo, vivo, meizu and the byte budgets of the others).
  case combiningMarks = "text: combining marks"
  /// The same cluster with every mark escaped (`\u0301`).
  case escapedCombiningMarks = "text: escaped combining marks"
  /// An ignored member holding an array of `size` small arrays and objects.
  case wideIgnoredArray = "ignored member: wide array"
  /// An Easemob message whose `extern` is a string of `size` escapes (the ext every vendor
  /// other than apns writes, cut against field budgets).
  case escapedExtString = "extern: escaped string"
  /// Easemob REST to `size / 10` groups, with a body of `size` spaces and then `x`: every
  /// vendor that requires a body asks, in every group's record, whether it is blank.
  case groupsBlankBody = "target: groups, body starting blank"
  /// Tencent to `size / 20` recipients, for apns alone (one record each), with a body of
  /// `size / 2` escapes (`\u00e9`): cut to apns's budget in every record.
  case recipientsEscapedBody = "To_Account: recipients, escaped long body (apns)"
  /// A `--directory` file with `size` entries for one user.
  case directoryEntries = "directory: one user, many entries"
  /// A `--directory` line with `size` `ProfileItem` entries for one user.
  case directoryProfileItems = "directory: many ProfileItems"

  /// True for the shapes that are `--directory` files rather than message lines.
  package var isDirectory: Bool {
    self == .directoryEntries || self == .directoryProfileItems
  }

  /// The vendors the bench renders the shape to: all nine, but apns alone for a shape whose
  /// cost shows with one vendor (nine share the line's escapes resolved once).
  package var vendors: [VendorID] {
    self == .recipientsEscapedBody ? [.apns] : VendorID.allCases
  }

  /// The message line that goes with a directory shape (the user the directory names).
  package static let directoryMessage =
    #"{"From_Account":"u1","To_Account":"u2","MsgKey":"k","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#

  /// The line (or, for a directory shape, the file without its final newline) at `size`.
  package func line(_ size: Int) -> [UInt8] {
    Array(text(max(size, 2)).utf8)
  }

  private func text(_ size: Int) -> String {
    switch self {
    case .externManyKeys:
      return Self.easemob(extern: Self.object(size) { "\"k\($0)\":\($0)" })
    case .externRepeatedKeys:
      return Self.easemob(extern: Self.object(size) { "\"k\($0 % (size / 2))\":\($0)" })
    case .externEscapedKeys:
      return Self.easemob(extern: Self.object(size) { #""k\u0030\#($0 % (size / 2))":\#($0)"# })
    case .externDeep:
      let chain =
        String(repeating: #"{"a":0,"b":[1,"x"],"a":"#, count: 200) + "1"
        + String(repeating: "}", count: 200)
      return Self.easemob(extern: Self.object(max(1, size / 200)) { "\"d\($0)\":\(chain)" })
    case .templateManyKeys:
      let template = Self.object(size) { "\"t\($0 % (size / 2))\":\"v\($0)\"" }
      return
        #"{"msg_id":"m1","from":"a","to":"b","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":"hello"}],"ext":{"em_push_template":\#(template)}}}"#
    case .contentStateManyKeys:
      let state = Self.object(size) { "\"s\($0 % (size / 2))\":[\($0),{\"x\":\"\\u0041\"}]" }
      return
        #"{"From_Account":"a","To_Account":"b","MsgKey":"k1","MsgTimeStamp":1700000000,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}],"OfflinePushInfo":{"ApnsInfo":{"LiveActivity":{"LaId":"la","Event":"update","ContentState":\#(state)}}}}"#
    case .escapedRecipients:
      let list = Self.list(size) { #""u\u005f\#($0)""# }
      return Self.tencent(to: list, text: "\"hello\"")
    case .repeatedRecipients:
      return Self.tencent(to: Self.list(size) { _ in "\"u1\"" }, text: "\"hello\"")
    case .easemobTargets:
      let list = Self.list(size) { #""u\u005f\#($0)""# }
      return
        #"{"target_type":"users","target":\#(list),"from":"a","msg":{"type":"txt","msg":"hi"}}"#
    case .easemobGroups:
      let list = Self.list(size) { "\"g\($0)\"" }
      return
        #"{"target_type":"chatgroups","target":\#(list),"from":"a","msg":{"type":"txt","msg":"hi"}}"#
    case .manyElements:
      let body = Self.list(size) {
        #"{"MsgType":"TIMTextElem","MsgContent":{"Text":"t\#($0)\u00e9"}}"#
      }
      return #"{"From_Account":"a","To_Account":"b","MsgKey":"k1","MsgBody":\#(body)}"#
    case .manyBodies:
      let bodies = Self.list(size) { #"{"type":"txt","msg":"m\#($0)\u00e9"}"# }
      return
        #"{"msg_id":"m1","from":"a","to":"b","chat_type":"chat","payload":{"bodies":\#(bodies)}}"#
    case .escapeRun:
      let run = String(repeating: #"\u00e9\n\""#, count: size)
      return Self.tencent(to: "\"b\"", text: "\"x\(run)\"")
    case .surrogateRun:
      let run = String(repeating: #"\ud83d\ude00"#, count: size)
      return Self.tencent(to: "\"b\"", text: "\"\(run)\"", title: "\"\(run)\"")
    case .combiningMarks:
      let cluster = "a" + String(repeating: "\u{301}", count: size)
      return Self.tencent(to: "\"b\"", text: "\"\(cluster)\"", title: "\"\(cluster)\"")
    case .escapedCombiningMarks:
      let cluster = "a" + String(repeating: #"\u0301"#, count: size)
      return Self.tencent(to: "\"b\"", text: "\"\(cluster)\"", title: "\"\(cluster)\"")
    case .wideIgnoredArray:
      let wide = Self.list(size) { #"[\#($0),{"k":"\u0041","k":[]}]"# }
      return
        #"{"From_Account":"a","To_Account":"b","MsgKey":"k1","Ignored":\#(wide),"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}]}"#
    case .escapedExtString:
      let run = String(repeating: #"\u00e9\""#, count: size)
      return
        #"{"msg_id":"m1","from":"a","to":"b","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":"hello"}],"ext":{"em_apns_ext":{"extern":"\#(run)"}}}}"#
    case .groupsBlankBody:
      let list = Self.list(max(1, size / 10)) { "\"g\($0)\"" }
      let body = String(repeating: " ", count: size) + "x"
      return
        #"{"target_type":"chatgroups","target":\#(list),"from":"a","msg":{"type":"txt","msg":"\#(body)"}}"#
    case .recipientsEscapedBody:
      let list = Self.list(max(1, size / 20)) { "\"u\($0)\"" }
      let run = String(repeating: #"\u00e9"#, count: size / 2)
      return Self.tencent(to: list, text: "\"\(run)\"")
    case .directoryEntries:
      return (0..<size).map { #"{"username":"u1","nickname":"N\#($0)"}"# }.joined(
        separator: "\n")
    case .directoryProfileItems:
      let items = Self.list(size) {
        #"{"Tag":"Tag_Profile_IM_Nick","Value":"N\u0041\#($0)"}"#
      }
      return #"{"To_Account":"u1","ProfileItem":\#(items)}"#
    }
  }

  /// `{member(0),member(1),...}`.
  private static func object(_ count: Int, _ member: (Int) -> String) -> String {
    "{" + (0..<count).map(member).joined(separator: ",") + "}"
  }

  /// `[element(0),element(1),...]`.
  private static func list(_ count: Int, _ element: (Int) -> String) -> String {
    "[" + (0..<count).map(element).joined(separator: ",") + "]"
  }

  private static func easemob(extern: String) -> String {
    #"{"msg_id":"m1","from":"a","to":"b","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":"hello"}],"ext":{"em_apns_ext":{"extern":\#(extern)}}}}"#
  }

  private static func tencent(to: String, text: String, title: String? = nil) -> String {
    let push = title.map { #","OfflinePushInfo":{"Title":\#($0)}"# } ?? ""
    return
      #"{"From_Account":"a","To_Account":\#(to),"MsgKey":"k1","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":\#(text)}}]\#(push)}"#
  }
}
