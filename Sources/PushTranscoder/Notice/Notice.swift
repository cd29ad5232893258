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
  /// body is explicit or no name is known.
  package var untitledBody: [StringSlice] {
    get { untitledPieces ?? body }
    // The same pieces as `body` (both empty included) make the untitled body `body` itself.
    set { untitledPieces = Self.samePieces(newValue, body) ? nil : newValue }
  }
  /// `untitledBody` when it is not `body` itself; nil when it is. The readers leave it nil for
  /// the usual message, so the two never share one array's storage (which would cost a retain
  /// when set and a release when the next line empties `body`). Written only through
  /// `untitledBody`'s setter, by `recycle` and by the canonicalizer's rewrite of its slices.
  package internal(set) var untitledPieces: [StringSlice]? = nil
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
    self.fallbackTitle = fallbackTitle
    self.fixedLineHash = lineHash
    self.untitledBody = untitledBody
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
    // `untitledPieces` may share `body`'s storage (a notice made with the same array for
    // both): drop it first so that `body`'s is unique and emptying it keeps the storage.
    untitledPieces = nil
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

  /// True when `a` and `b` hold the same slices (the same bytes of the same line, in order).
  static func samePieces(_ a: [StringSlice], _ b: [StringSlice]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
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
    array.removeAllKeepingStorage()
  }
}
