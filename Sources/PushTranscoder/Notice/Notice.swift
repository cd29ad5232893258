/// The vendor-neutral push content derived from one message (SPEC 3), before any vendor renders
/// it.
///
/// Every text field is a `StringSlice` into the line (or the directory, or a static literal), so
/// building a notice copies no text. A notice is valid only while the line it came from is being
/// processed. Number fields keep their input lexeme (SPEC 4: "numbers keep the lexeme they had in
/// the input").
package struct Notice {
  /// The chat service the line came from.
  package enum Dialect: Sendable { case tencent, easemob }

  /// `ext` can be a string (Tencent `Ext`, Easemob string `extern`) or any JSON value (Easemob
  /// `extern`; SPEC 9: apns `e` carries it as given, other vendors get its canonical JSON text).
  package enum Ext {
    /// A string ext, as a slice of the line.
    case string(StringSlice)
    /// The tape index of the value in the line's document.
    case json(Int)
  }

  /// `ApnsInfo.LiveActivity` (SPEC 4).
  package struct LiveActivity {
    /// `LaId`.
    package var id: StringSlice
    /// `Event`.
    package var event: StringSlice
    /// `ContentState`: the tape index of the value, written canonically.
    package var contentState: Int
    /// The `DismissalDate` lexeme.
    package var dismissalDate: UnsafeBufferPointer<UInt8>?
    /// `MsgTimeStamp`, else `MsgTime`; nil → apns refuses with `missing-timestamp`.
    package var timestamp: UnsafeBufferPointer<UInt8>?

    /// Creates the Live Activity fields of a notice.
    package init(
      id: StringSlice, event: StringSlice, contentState: Int,
      dismissalDate: UnsafeBufferPointer<UInt8>?, timestamp: UnsafeBufferPointer<UInt8>?
    ) {
      self.id = id
      self.event = event
      self.contentState = contentState
      self.dismissalDate = dismissalDate
      self.timestamp = timestamp
    }
  }

  /// Fields of `OfflinePushInfo.AndroidInfo` (or the Easemob `em_android_push_ext` keys mapped to
  /// them, SPEC 3.2). Strings that are empty are stored as nil.
  package struct Android {
    /// `AndroidInfo.Sound` (fcm and huawei `sound`).
    package var sound: StringSlice?
    /// `HuaWeiChannelID` / `huawei_channel_id`.
    package var huaweiChannelID: StringSlice?
    /// `HuaWeiCategory` / `huawei_category`.
    package var huaweiCategory: StringSlice?
    /// `HuaWeiImportance`.
    package var huaweiImportance: StringSlice?
    /// `HuaWeiImage`.
    package var huaweiImage: StringSlice?
    /// `HonorImportance` / `honor_importance`.
    package var honorImportance: StringSlice?
    /// `HonorImage`.
    package var honorImage: StringSlice?
    /// `GoogleImage` (fcm `image`).
    package var googleImage: StringSlice?
    /// `GooglePriority` (fcm `priority`, default `high`).
    package var googlePriority: StringSlice?
    /// `GoogleChannelID` / `fcm_channel_id`.
    package var googleChannelID: StringSlice?
    /// `XiaoMiChannelID` / `xiaomi_channel_id`.
    package var xiaomiChannelID: StringSlice?
    /// `OPPOChannelID` / `oppo_channel_id`.
    package var oppoChannelID: StringSlice?
    /// `OPPOCategory`.
    package var oppoCategory: StringSlice?
    /// `VIVOCategory` / `vivo_category`.
    package var vivoCategory: StringSlice?
    /// The `OPPONotifyLevel` lexeme.
    package var oppoNotifyLevel: UnsafeBufferPointer<UInt8>?
    /// The `VIVOClassification` lexeme.
    package var vivoClassification: UnsafeBufferPointer<UInt8>?
    /// The `VIVONotifyType` lexeme (vivo writes 4 when nil).
    package var vivoNotifyType: UnsafeBufferPointer<UInt8>?
    /// The `MeiZuNoticeMsgType` lexeme.
    package var meizuNoticeMsgType: UnsafeBufferPointer<UInt8>?
    /// Creates Android fields with every field absent.
    package init() {}
  }

  /// Fields of `OfflinePushInfo.HarmonyInfo` (Easemob: `em_harmony_push_ext.category`).
  package struct Harmony {
    /// `HarmonyInfo.Title`; harmony falls back to the notice's title.
    package var title: StringSlice?
    /// `HarmonyInfo.Category` / `category`; harmony writes `IM` when nil.
    package var category: StringSlice?
    /// `HarmonyInfo.Image`.
    package var image: StringSlice?
    /// `HarmonyInfo.Sound`.
    package var sound: StringSlice?
    /// The `HarmonyInfo.SoundDuration` lexeme.
    package var soundDuration: UnsafeBufferPointer<UInt8>?
    /// Creates Harmony fields with every field absent.
    package init() {}
  }

  /// APNs-only fields (`ApnsInfo`, or Easemob `em_apns_ext`).
  package struct APNs {
    /// `ApnsInfo.Title` (Easemob: unused, see `Notice.title`).
    package var title: StringSlice?
    /// `ApnsInfo.SubTitle` / `em_alert_subTitle`.
    package var subtitle: StringSlice?
    /// `ApnsInfo.Image`.
    package var image: StringSlice?
    /// `ApnsInfo.InterruptionLevel`.
    package var interruptionLevel: StringSlice?
    /// `em_push_category` (Tencent apns never writes category).
    package var category: StringSlice?
    /// `ApnsInfo.MutableContent == 1` / `em_push_mutable_content`.
    package var mutableContent = false
    /// `ApnsInfo.ContentAvailable == 1`.
    package var contentAvailable = false
    /// `ApnsInfo.IsVoipPush == 1`: a `voip` record with the 5120-byte budget.
    package var voip = false
    /// `ApnsInfo.LiveActivity`; when set it wins over `voip`.
    package var liveActivity: LiveActivity?
    /// Creates APNs fields with every field absent and every flag off.
    package init() {}
  }

  /// The dialect of the line the notice came from.
  package var dialect: Dialect

  // Identity and routing (SPEC 3.3).
  /// `MsgKey`, else `MsgId`, else `msg_id`; nil writes `"key":null`.
  package var key: StringSlice?
  /// C2C recipients in input order (duplicates kept). Empty for group messages.
  package var recipients: [StringSlice]
  /// Group ids; one set of records per group (Easemob REST to several groups). Empty for C2C.
  package var groups: [StringSlice]
  /// `From_Account` / `from`.
  package var sender: StringSlice?
  /// Easemob export `msg_id` only (the apns `m` field).
  package var easemobMessageID: StringSlice?

  // Content (SPEC 3.1, 3.2).
  /// `OfflinePushInfo.Title` / `em_push_title`.
  package var title: StringSlice?
  /// The push text used when the vendor payload has a title: the explicit `Desc` /
  /// `em_push_content`, or the concatenated element texts.
  package var body: [StringSlice]
  /// The push text used when the vendor payload has no title: `body` with the display prefix
  /// (`nick:`, `nick(gname):`, `(gname):`) or the Easemob banner text; equal to `body` when the
  /// body is explicit.
  package var untitledBody: [StringSlice]
  /// For vendors that require a title (SPEC 4): the sender's nickname (C2C) or the group's name
  /// (group) from the directory, else `--default-title` (or its locale default).
  package var fallbackTitle: StringSlice
  /// The banner text (`You have a new message` / `您有一条新消息`, by `--locale`): the body of
  /// the vendors that require one when the push text is empty or blank (SPEC 9 [4, 6.8]).
  package var banner: StringSlice = NoticeText.banner(.en)
  /// The fallback title of each group, parallel to `groups` (an Easemob REST send to several
  /// groups has one group name per group); empty for C2C. `fallbackTitle` is the first one's.
  package var fallbackTitles: [StringSlice] = []
  /// `OfflinePushInfo.Ext`, else the first custom element's `Ext`; Easemob `extern`.
  package var ext: Ext?
  /// `ApnsInfo.Sound`, else (no OfflinePushInfo) the first custom element's `Sound`; Easemob
  /// `em_push_sound`.
  package var sound: StringSlice?
  /// `BadgeSetNum` (Easemob `em_push_badge`) lexeme.
  package var badgeSet: UnsafeBufferPointer<UInt8>?
  /// `BadgeAddNum` lexeme.
  package var badgeAdd: UnsafeBufferPointer<UInt8>?
  /// The APNs-only fields.
  package var apns = APNs()
  /// The Android vendors' fields.
  package var android = Android()
  /// The Harmony fields.
  package var harmony = Harmony()

  // Record-level extras (SPEC 6.1).
  /// `em_force_notification == true` → `"force":true`.
  package var force = false
  /// `em_push_template` tape index → `"template":{...}`.
  package var template: Int?

  /// The line's bytes as read, without its terminator (hashed only when vivo needs it).
  package var line: UnsafeBufferPointer<UInt8>? = nil
  private var fixedLineHash: UInt64

  /// The 64-bit FNV-1a hash of the line's bytes as read (vivo `requestId` without a key).
  /// Computed on demand: hashing every line would cost more than parsing it.
  package var lineHash: UInt64 {
    get { line.map(FNV1a.hash) ?? fixedLineHash }
    set {
      fixedLineHash = newValue
      line = nil
    }
  }

  /// Creates a notice with the given texts and no key, recipients, groups or optional fields.
  package init(
    dialect: Dialect, body: [StringSlice], untitledBody: [StringSlice], fallbackTitle: StringSlice,
    lineHash: UInt64
  ) {
    self.dialect = dialect
    self.key = nil
    self.recipients = []
    self.groups = []
    self.body = body
    self.untitledBody = untitledBody
    self.fallbackTitle = fallbackTitle
    self.fixedLineHash = lineHash
  }

  /// Makes this notice equal to `Notice(dialect:body: [], untitledBody: [], fallbackTitle:
  /// lineHash: 0)`, but keeps the storage of its arrays: the pipeline reads line after line
  /// into one notice, and a fresh notice per line would cost four or five array allocations and frees
  /// per line. Fields are reset one by one (a whole new value would also destroy the old one);
  /// `NoticeRecycleTests` checks the result against a fresh notice, field by field, so a field
  /// added here without a reset fails it.
  package mutating func recycle(
    dialect: Dialect, fallbackTitle: StringSlice, banner: StringSlice = NoticeText.banner(.en)
  ) {
    self.dialect = dialect
    self.banner = banner
    key = nil
    // `untitledBody` usually shares `body`'s storage: drop it first so `body`'s is unique and
    // emptying it keeps the storage instead of allocating.
    untitledBody = []
    Self.empty(&recipients)
    Self.empty(&groups)
    sender = nil
    easemobMessageID = nil
    title = nil
    Self.empty(&body)
    self.fallbackTitle = fallbackTitle
    Self.empty(&fallbackTitles)
    ext = nil
    sound = nil
    badgeSet = nil
    badgeAdd = nil
    apns = APNs()
    android = Android()
    harmony = Harmony()
    force = false
    template = nil
    line = nil
    fixedLineHash = 0
  }

  /// Empties an array, keeping its storage unless it is large.
  @inline(__always)
  private static func empty(_ array: inout [StringSlice]) {
    guard array.count <= 64 else {
      // A message to thousands of recipients: free its storage rather than hold it for the
      // rest of the run.
      array = []
      return
    }
    // One element at a time: these hold a few slices, and `removeAll(keepingCapacity:)` is a
    // generic range replacement (far more work than removing one element).
    while !array.isEmpty { array.removeLast() }
  }
}

/// The 64-bit FNV-1a hash (SPEC 9, vivo `requestId`).
package enum FNV1a {
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// The hash of `bytes`.
  package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash = offsetBasis
    for byte in bytes {
      hash ^= UInt64(byte)
      // Safe because FNV-1a is defined modulo 2^64: the wrapping multiply is the definition.
      hash = hash &* prime
    }
    return hash
  }

  /// Steps four hashes over `steps` bytes of their own lines. A function of its own so that the
  /// loop keeps its four pointers, four hashes and counter in registers (inlined into
  /// `hashes`, the lane bookkeeping around it pushed them onto the stack).
  @inline(never)
  static func fourLanes(
    _ p0: UnsafePointer<UInt8>, _ p1: UnsafePointer<UInt8>, _ p2: UnsafePointer<UInt8>,
    _ p3: UnsafePointer<UInt8>, steps: Int, _ state: (UInt64, UInt64, UInt64, UInt64)
  ) -> (UInt64, UInt64, UInt64, UInt64) {
    var (a, b, c, d) = state
    var offset = 0
    // Safe because the caller guarantees `steps` readable bytes at each pointer, `offset < steps`
    // cannot wrap, and FNV-1a's multiplies are defined modulo 2^64.
    while offset < steps {
      a = (a ^ UInt64(p0[offset])) &* prime
      b = (b ^ UInt64(p1[offset])) &* prime
      c = (c ^ UInt64(p2[offset])) &* prime
      d = (d ^ UInt64(p3[offset])) &* prime
      offset &+= 1
    }
    return (a, b, c, d)
  }

  /// The hashes of many lines at once: `hashes[i] = hash(lines[i])`.
  ///
  /// FNV-1a is one dependent multiply per byte, so a single line runs at the multiplier's
  /// latency (about 4 cycles a byte). Four lines hashed side by side are four independent
  /// chains the core overlaps: the loop steps four lanes a byte each for as long as the
  /// shortest lane lasts, then refills the lanes that ended with the next lines.
  package static func hashes(
    _ lines: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>,
    into hashes: UnsafeMutablePointer<UInt64>
  ) {
    let lanes = 4
    var next = 0
    // Per lane: the line index (-1 when idle), the cursor, the bytes left and the hash.
    var line = InlineArray<4, Int>(repeating: -1)
    var cursor = InlineArray<4, UnsafePointer<UInt8>?>(repeating: nil)
    var left = InlineArray<4, Int>(repeating: 0)
    var state = InlineArray<4, UInt64>(repeating: offsetBasis)
    while true {
      var active = 0
      for lane in 0..<lanes {
        while line[lane] < 0 || left[lane] == 0 {
          if line[lane] >= 0 {
            // Safe because `line[lane] < lines.count` and the caller gives room for that many.
            hashes[line[lane]] = state[lane]
            line[lane] = -1
          }
          guard next < lines.count else { break }
          line[lane] = next
          // Safe because the guard above keeps `next` below `lines.count`.
          cursor[lane] = lines[next].baseAddress
          left[lane] = lines[next].count
          state[lane] = offsetBasis
          next += 1
        }
        if line[lane] >= 0 { active += 1 }
      }
      guard active > 0 else { return }
      if active < lanes {
        // The last lines: finish them one by one.
        for lane in 0..<lanes where line[lane] >= 0 {
          var hash = state[lane]
          // Safe because `left[lane]` bytes remain at `cursor[lane]` of line `line[lane]`, whose
          // hash slot the caller provides; the multiply is FNV-1a's, modulo 2^64.
          for byte in UnsafeBufferPointer(start: cursor[lane], count: left[lane]) {
            hash = (hash ^ UInt64(byte)) &* prime
          }
          hashes[line[lane]] = hash
          line[lane] = -1
        }
        return
      }
      let steps = min(min(left[0], left[1]), min(left[2], left[3]))
      // Safe because each lane has at least `steps` bytes left at its cursor.
      (state[0], state[1], state[2], state[3]) = fourLanes(
        cursor[0]!, cursor[1]!, cursor[2]!, cursor[3]!, steps: steps,
        (state[0], state[1], state[2], state[3]))
      // Safe because `steps` is the smallest `left`, so no cursor passes the end of its line.
      for lane in 0..<lanes {
        cursor[lane] = cursor[lane]! + steps
        left[lane] -= steps
      }
    }
  }
}
