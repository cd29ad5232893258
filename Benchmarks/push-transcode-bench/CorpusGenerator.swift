/// A seeded generator of Tencent Cloud Chat message logs as NDJSON, for the benchmark (the
/// shapes of `../shared/bench/gen_corpus.py`, written independently).
///
/// Each line is one message as the REST API writes it (`sendmsg` / `send_group_msg` / history):
/// one-to-one or group, 1–4 `MsgBody` elements of mixed types (text most often, then custom,
/// face, image, sound, location, video, file), sometimes `CloudCustomData`, `OfflinePushInfo`
/// in about 40% of lines. Texts mix ASCII, CJK, other scripts, accented Latin, emoji (astral,
/// ZWJ sequences, flags) and characters JSON must escape; about 2% are long (1–6 KB). Each line
/// picks a `LineStyle` (raw UTF-8, `\u` escapes in lower or upper hex with surrogate pairs,
/// HTML-safe, mixed; `\/`; shuffled keys; whitespace; CRLF). Every line is valid strict JSON.
/// The same seed and size always give the same bytes.
struct CorpusGenerator {
  private var random: SeededRandom
  private var clock: Int
  private var users: [String] = []
  private var groups: [String] = []
  private var sequences: [String: Int] = [:]

  init(seed: UInt64) {
    random = SeededRandom(seed: seed)
    clock = 1_710_000_000 + Int(seed % 1_000_000)
    for _ in 0..<4000 { users.append(makeUser()) }
    for _ in 0..<300 { groups.append("@TGS#" + random.alphanumeric(10, upper: true)) }
    for _ in 0..<30 { groups.append("@TGS#_@TGS#c" + random.alphanumeric(9, upper: true)) }
  }

  /// Generates lines until about `bytes` bytes (newlines included) have been written.
  mutating func generate(bytes target: Int) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(target + 8192)
    while output.count < target {
      appendLine(to: &output)
      output.append(0x0A)
    }
    return output
  }

  mutating func appendLine(to output: inout [UInt8]) {
    let style = LineStyle(&random)
    var emitter = JSONEmitter(style: style, random: SeededRandom(seed: random.next()))
    emitter.whitespace()
    emitter.emit(message())
    emitter.whitespace()
    if style.crlf { emitter.output.append(0x0D) }
    output.append(contentsOf: emitter.output)
  }

  // MARK: Text material (own lists; the kinds of text chat apps carry)

  private static let words =
    ("hey yo okay fine thanks cheers yes nope perhaps soon later noon evening standup sync ping "
    + "when free where are you we they it this that should could will can got saw sending sent "
    + "pic clip doc link pls confirm invoice parcel arrived price deal voucher squad sprint "
    + "release rollback staging prod hotfix ticket lunch brunch tea beer holiday train gate "
    + "boarding ready finished nearly hold on apologies brilliant neat lovely thrilled cake "
    + "welcome back desk remote away now again tonight tomorrow").split(separator: " ").map(
      String.init)
  private static let chinese = [
    "早", "在不在", "好嘞", "收到了", "没事", "多谢", "麻烦你了", "嘿嘿", "回头聊", "我快到了",
    "晚上一起去吃火锅吧", "评审会推迟到四点", "合同已经发你邮箱", "附件请查收", "能不能再优惠点",
    "包裹已经签收", "物流显示明天送达", "周六去爬山吗", "中秋快乐", "万事如意", "我在路上，晚点回",
    "辛苦确认下", "搞定了", "地铁好挤", "回头再说", "上午好", "早点休息", "通知：周四全员大会",
    "请按时到场", "新版本下周发布", "预发环境部署完成", "分支已合并", "这里有个疑问", "赞成",
  ]
  private static let otherScripts = [
    "おはようございます", "よろしくお願いします", "반갑습니다", "고마워요", "Добрый вечер",
    "До встречи", "شكرا جزيلا", "नमस्ते दोस्त", "Καλημέρα", "תודה רבה", "Cảm ơn bạn", "ขอบคุณมาก",
  ]
  private static let accented = [
    "déjà vu", "piñata", "Genève", "Málaga", "pâte à choux", "Curaçao", "fiancée", "Ærø",
    "über", "Łódź", "Tromsø", "Škoda", "Bogotá",
  ]
  private static let emoji = [
    "\u{1F604}", "\u{1F605}", "\u{1F606}", "\u{1F609}", "\u{1F60B}", "\u{1F917}", "\u{1F929}",
    "\u{1F973}", "\u{1F644}", "\u{1F631}", "\u{1F44C}", "\u{1F64C}", "\u{1F4AA}", "\u{1F38A}",
    "\u{1F31F}", "\u{1F355}", "\u{1F697}", "\u{1F4E6}", "\u{1F4DE}", "\u{2764}\u{FE0F}",
    "\u{2614}", "\u{26A1}", "\u{2714}\u{FE0F}", "\u{1F469}\u{200D}\u{1F4BB}",
    "\u{1F9D1}\u{1F3FB}\u{200D}\u{1F373}", "\u{1F44B}\u{1F3FF}", "\u{1F1EF}\u{1F1F5}",
    "\u{1F1E9}\u{1F1EA}", "\u{1F3F4}\u{200D}\u{2620}\u{FE0F}",
  ]
  /// Snippets that JSON must escape, or that escaping producers rewrite (`/`, `<`, `&`).
  private static let special = [
    "say \"cheese\"", "\\", "D:\\work\\notes.txt", "first\nsecond", "\t", "\n", "x/y/z",
    "<b>bold</b>", "R&D", "a < b > c", "50% off", "don't", "\r\n", "\u{2029}", "\u{0008}",
    "\u{000C}", "\u{001B}[0m",
  ]
  private static let links = [
    "https://example.net/", "https://static.example.net/media/2025/", "https://go.example.org/s?k=",
    "http://h5.example.cn/promo/",
  ]
  private static let pushTitles = [
    "New message", "新消息", "Project chat", "快递提醒", "Notice", "Bob", "李娜", "Helpdesk",
    "\u{1F4E2} News", "家人群",
  ]
  private static let sounds = ["default", "ping.aiff", "bell.mp3", "soft.caf", "alert.wav"]

  // MARK: Pieces

  private mutating func makeUser() -> String {
    let roll = random.unit()
    if roll < 0.5 { return "uid_" + random.alphanumeric(9) }
    if roll < 0.8 { return String(random.int(100_000_000_000_000_000...999_999_999_999_999_999)) }
    if roll < 0.98 {
      return random.pick(["amy", "ben", "chloe", "dan", "eve"]) + "_"
        + String(random.int(0...99_999))
    }
    return "admin"
  }

  private mutating func sentence() -> String {
    let count = random.int(2...16)
    var text = (0..<count).map { _ in random.pick(Self.words) }.joined(separator: " ")
    text = text.prefix(1).uppercased() + text.dropFirst()
    return text + random.pick([".", "!", "?", "", "…", " ;)"])
  }

  private mutating func chineseSentence() -> String {
    (0..<random.int(1...4)).map { _ in random.pick(Self.chinese) }.joined(separator: "，")
      + random.pick(["。", "！", "？", "", "~"])
  }

  private mutating func fragment() -> String {
    let roll = random.unit()
    if roll < 0.42 { return sentence() }
    if roll < 0.72 { return chineseSentence() }
    if roll < 0.84 { return (0..<random.int(1...3)).map { _ in random.pick(Self.emoji) }.joined() }
    if roll < 0.88 { return random.pick(Self.otherScripts) }
    if roll < 0.92 { return random.pick(Self.accented) }
    if roll < 0.96 { return random.pick(Self.links) + random.alphanumeric(random.int(4...20)) }
    return random.pick(Self.special)
  }

  /// A chat text: mostly one fragment, some several, about 2% long (1–6 KB of UTF-8).
  private mutating func text() -> String {
    let roll = random.unit()
    if roll < 0.02 {
      let target = random.int(1000...6000)
      var text = ""
      while text.utf8.count < target {
        text += fragment() + (random.chance(0.07) ? "\n" : " ")
      }
      return text
    }
    if roll < 0.8 { return fragment() }
    let separator = random.pick([" ", "", "\n"])
    return (0..<random.int(2...5)).map { _ in fragment() }.joined(separator: separator)
  }

  private mutating func fileURL(_ kind: String, _ suffix: String) -> String {
    "https://chat-cos-\(random.int(1_300_000_000...1_309_999_999)).cos.example.net/\(kind)/"
      + random.alphanumeric(14) + "/" + random.hex(32) + "." + suffix
  }

  private mutating func uuid(_ size: Int) -> String { "\(size)_" + random.hex(32).uppercased() }

  // MARK: Elements

  private mutating func textElement() -> GeneratedValue { .object([("Text", .string(text()))]) }

  private mutating func customElement() -> GeneratedValue {
    let order = "PO" + String(random.int(10_000_000_000...99_999_999_999))
    let data =
      #"{"businessID":"\#(random.pick(["order", "card", "call", "vote"]))","version":"#
      + "\(random.int(1...3)),\"orderId\":\"\(order)\",\"amount\":\(random.int(100...999_999) / 100)}"
    var content: [(String, GeneratedValue)] = [("Data", .string(data))]
    if random.chance(0.85) {
      content.append(
        (
          "Desc",
          .string(random.pick(["[Order] " + order, "新订单提醒", "[Card]", "语音通话邀请", sentence()]))
        ))
    }
    if random.chance(0.5) { content.append(("Ext", .string("https://example.net/po/" + order))) }
    if random.chance(0.3) { content.append(("Sound", .string(random.pick(Self.sounds)))) }
    return .object(content)
  }

  private mutating func faceElement() -> GeneratedValue {
    .object([
      ("Index", .integer(random.int(0...150))),
      (
        "Data",
        .string(random.pick(["[wink]", "[sob]", "[grin]", "[cool]", "gf01", "gf07", "emo"]))
      ),
    ])
  }

  private mutating func locationElement() -> GeneratedValue {
    .object([
      (
        "Desc",
        .string(random.pick(["Xili Lake", "北京市海淀区中关村", "Musée d'Orsay", "大阪城 Osaka Castle"]))
      ),
      ("Latitude", .decimal(scaled: random.int(-55_000_000...65_000_000), digits: 6)),
      ("Longitude", .decimal(scaled: random.int(-175_000_000...175_000_000), digits: 6)),
    ])
  }

  private mutating func imageElement() -> GeneratedValue {
    let size = random.int(15_000...5_000_000)
    let (width, height) = random.pick([
      (1080, 2340), (3024, 4032), (1280, 720), (828, 1792), (640, 640),
    ])
    let format = random.pick([1, 1, 1, 2, 3, 255])
    let suffix = format == 2 ? "gif" : format == 3 ? "png" : format == 255 ? "webp" : "jpg"
    let key = random.hex(32)
    var infos: [GeneratedValue] = []
    for (type, divisor) in [(1, 1), (2, 2), (3, 10)] {
      infos.append(
        .object([
          ("Type", .integer(type)), ("Size", .integer(size / (divisor * divisor))),
          ("Width", .integer(width / divisor)), ("Height", .integer(height / divisor)),
          (
            "URL",
            .string("https://chat-img.example.net/\(key)_\(type).\(suffix)?w=\(width / divisor)")
          ),
        ]))
    }
    return .object([
      ("UUID", .string(uuid(size))), ("ImageFormat", .integer(format)),
      ("ImageInfoArray", .array(infos)),
    ])
  }

  private mutating func soundElement() -> GeneratedValue {
    let size = random.int(2_000...300_000)
    return .object([
      ("Url", .string(fileURL("voice", "m4a"))), ("UUID", .string(uuid(size))),
      ("Size", .integer(size)),
      ("Second", .integer(random.int(1...59))), ("Download_Flag", .integer(2)),
    ])
  }

  private mutating func fileElement() -> GeneratedValue {
    let size = random.int(500...150_000_000)
    let name =
      random.pick(["minutes", "报价单", "Roadmap 2025", "IMG_0042", "crème", "需求文档 v3"])
      + random.pick([".pdf", ".pptx", ".csv", ".7z", ".heic"])
    return .object([
      ("Url", .string(fileURL("file", "dat"))), ("UUID", .string(uuid(size))),
      ("FileSize", .integer(size)),
      ("FileName", .string(name)), ("Download_Flag", .integer(2)),
    ])
  }

  private mutating func videoElement() -> GeneratedValue {
    let size = random.int(150_000...80_000_000)
    let thumb = random.int(4_000...250_000)
    return .object([
      ("VideoUrl", .string(fileURL("video", "mp4"))), ("VideoUUID", .string(uuid(size))),
      ("VideoSize", .integer(size)), ("VideoSecond", .integer(random.int(1...240))),
      ("VideoFormat", .string("mp4")), ("VideoDownloadFlag", .integer(2)),
      ("ThumbUrl", .string(fileURL("snap", "jpg"))), ("ThumbUUID", .string(uuid(thumb))),
      ("ThumbSize", .integer(thumb)), ("ThumbWidth", .integer(720)),
      ("ThumbHeight", .integer(1280)),
      ("ThumbFormat", .string("JPG")), ("ThumbDownloadFlag", .integer(2)),
    ])
  }

  private mutating func messageBody() -> GeneratedValue {
    let types = [
      "TIMTextElem", "TIMCustomElem", "TIMFaceElem", "TIMImageElem", "TIMSoundElem",
      "TIMLocationElem", "TIMVideoFileElem", "TIMFileElem",
    ]
    let count = random.weighted([74, 16, 7, 3]) + 1
    var hasCustom = false
    var elements: [GeneratedValue] = []
    for _ in 0..<count {
      var kind = random.weighted([61, 11, 8, 9, 4, 3, 2, 2])
      if kind == 1 && hasCustom { kind = 0 }  // at most one custom element
      hasCustom = hasCustom || kind == 1
      let content: GeneratedValue
      switch kind {
      case 0: content = textElement()
      case 1: content = customElement()
      case 2: content = faceElement()
      case 3: content = imageElement()
      case 4: content = soundElement()
      case 5: content = locationElement()
      case 6: content = videoElement()
      default: content = fileElement()
      }
      elements.append(.object([("MsgType", .string(types[kind])), ("MsgContent", content)]))
    }
    return .array(elements)
  }

  private mutating func offlinePushInfo() -> GeneratedValue {
    var info: [(String, GeneratedValue)] = [("PushFlag", .integer(random.chance(0.1) ? 1 : 0))]
    if random.chance(0.6) { info.append(("Title", .string(random.pick(Self.pushTitles)))) }
    if random.chance(0.55) {
      info.append(
        (
          "Desc",
          .string(
            random.pick([
              "You have a new message", "你有一条新消息", "[Photo]", "[Audio]", sentence(),
              chineseSentence(),
            ]))
        ))
    }
    if random.chance(0.7) {
      info.append(
        (
          "Ext",
          .string(
            #"{"entity":{"k":"v","type":\#(random.int(1...9)),"conv":"\#(random.alphanumeric(12))"}}"#
          )
        ))
    }
    if random.chance(0.6) {
      info.append(
        (
          "AndroidInfo",
          .object([
            ("Sound", .string(random.pick(["vibrate", "chime", ""]))),
            ("HuaWeiChannelID", .string("hw_channel_\(random.int(1...3))")),
            ("XiaoMiChannelID", .string("mi_channel")), ("OPPOChannelID", .string("oppo_channel")),
            ("GoogleChannelID", .string("fcm_channel")),
            ("VIVOClassification", .integer(random.int(0...1))),
            ("HuaWeiImportance", .string(random.pick(["NORMAL", "LOW"]))),
            ("ExtAsHuaweiIntentParam", .integer(random.int(0...1))),
          ])
        ))
    }
    if random.chance(0.7) {
      var apns: [(String, GeneratedValue)] = [
        ("Sound", .string(random.pick(Self.sounds))), ("BadgeMode", .integer(random.int(0...1))),
      ]
      if random.chance(0.5) { apns.append(("Title", .string(random.pick(Self.pushTitles)))) }
      if random.chance(0.3) {
        apns.append(("SubTitle", .string(random.pick(["via the team", "订单", "Group"]))))
      }
      if random.chance(0.2) {
        apns.append(
          ("Image", .string("https://img.example.net/p/" + random.alphanumeric(10) + ".png")))
      }
      apns.append(("MutableContent", .integer(random.int(0...1))))
      info.append(("ApnsInfo", .object(apns)))
    }
    return .object(info)
  }

  private mutating func cloudCustomData() -> String {
    let typing = random.int(0...1)
    let reply = random.alphanumeric(16)
    let note = random.pick(["", "web", "转发自群聊", sentence()])
    return #"{"messageFeature":{"needTyping":\#(typing),"version":1},"replyId":"\#(reply)","#
      + #""note":"\#(note)"}"#
  }

  private mutating func message() -> GeneratedValue {
    clock += random.int(0...3)
    let sender = random.pick(users)
    var fields: [(String, GeneratedValue)] = []
    let conversation: String
    if random.chance(0.65) {
      let receiver = random.pick(users)
      conversation = sender + "|" + receiver
      fields += [
        ("SyncOtherMachine", .integer(random.int(1...2))), ("From_Account", .string(sender)),
        ("To_Account", .string(receiver)),
      ]
    } else {
      conversation = random.pick(groups)
      fields += [
        ("GroupId", .string(conversation)), ("From_Account", .string(sender)),
        ("MsgPriority", .string(random.pick(["High", "Normal", "Low", "Lowest"]))),
      ]
    }
    let sequence = (sequences[conversation] ?? random.int(1...80_000)) + 1
    sequences[conversation] = sequence
    fields += [
      ("MsgSeq", .integer(sequence)), ("MsgRandom", .integer(Int(random.next() >> 32))),
      ("MsgTimeStamp", .integer(clock)),
    ]
    if random.chance(0.05) {
      fields.append(("MsgLifeTime", .integer(random.pick([0, 120, 604_800]))))
    }
    fields.append(("MsgBody", messageBody()))
    if random.chance(0.3) { fields.append(("CloudCustomData", .string(cloudCustomData()))) }
    if random.chance(0.4) { fields.append(("OfflinePushInfo", offlinePushInfo())) }
    if random.chance(0.03) {
      fields.append(
        (
          "SendMsgControl",
          .array([.string("NoUnread"), .string("NoLastMsg")].prefix(random.int(1...2)).map { $0 })
        ))
    }
    if random.chance(0.05) { fields.append(("IsNeedReadReceipt", .integer(1))) }
    return .object(fields)
  }
}
