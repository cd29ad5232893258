/// The limits of one vendor (SPEC 4 table, 9), as data: every budget, cap and per-record count
/// lives in `VendorLimits.table` and nowhere else.
public struct VendorLimits: Sendable {
  /// Whole-payload byte budget (canonical bytes), nil for the capped vendors.
  public var payloadBytes: Int?
  /// The budget of an APNs VoIP push (`ApnsInfo.IsVoipPush == 1`).
  public var voipPayloadBytes: Int?
  /// Title and body caps in Unicode scalars, nil for the budgeted vendors.
  public var titleScalars: Int?
  public var bodyScalars: Int?
  /// The limit on the field that carries ext, if the vendor has one.
  public var extField: FieldBudget?
  /// vivo `requestId`: at most this many UTF-8 bytes, suffix included.
  public var requestIDBytes: Int?
  /// Recipients per record; more recipients split into several records.
  public var recipientsPerRecord: Int

  public init(
    payloadBytes: Int? = nil, voipPayloadBytes: Int? = nil, titleScalars: Int? = nil,
    bodyScalars: Int? = nil, extField: FieldBudget? = nil, requestIDBytes: Int? = nil,
    recipientsPerRecord: Int
  ) {
    self.payloadBytes = payloadBytes
    self.voipPayloadBytes = voipPayloadBytes
    self.titleScalars = titleScalars
    self.bodyScalars = bodyScalars
    self.extField = extField
    self.requestIDBytes = requestIDBytes
    self.recipientsPerRecord = recipientsPerRecord
  }

  /// The limits of `id`.
  public static func of(_ id: VendorID) -> VendorLimits { table[id.rawValue] }

  /// Indexed by `VendorID.rawValue`, in canonical order (SPEC 4 table).
  static let table: [VendorLimits] = [
    // apns
    VendorLimits(payloadBytes: 4096, voipPayloadBytes: 5120, recipientsPerRecord: 1),
    // fcm
    VendorLimits(payloadBytes: 4000, recipientsPerRecord: 500),
    // huawei
    VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000),
    // honor
    VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000),
    // harmony
    VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000),
    // xiaomi
    VendorLimits(
      titleScalars: 49, bodyScalars: 127,
      extField: FieldBudget(field: "payload", unit: .extUTF8Bytes, limit: 4096),
      recipientsPerRecord: 100),
    // oppo
    VendorLimits(
      titleScalars: 50, bodyScalars: 50,
      extField: FieldBudget(field: "action_parameters", unit: .extScalars, limit: 4000),
      recipientsPerRecord: 1000),
    // vivo
    VendorLimits(
      titleScalars: 40, bodyScalars: 100,
      extField: FieldBudget(field: "clientCustomMap", unit: .keyAndExtScalars, limit: 1024),
      requestIDBytes: 64, recipientsPerRecord: 1000),
    // meizu
    VendorLimits(
      titleScalars: 32, bodyScalars: 100,
      extField: FieldBudget(field: "parameters", unit: .writtenObjectBytes, limit: 1000),
      recipientsPerRecord: 100),
  ]
}

/// Every push vendor, in canonical order (SPEC 9): the one place that maps ids to renderers.
public enum VendorRegistry {
  /// The renderer of `id`.
  public static func vendor(_ id: VendorID) -> any PushVendor { all[id.rawValue] }

  /// All vendors, indexed by `VendorID.rawValue`.
  public static let all: [any PushVendor] = VendorID.allCases.map { id -> any PushVendor in
    switch id {
    case .apns: APNs()
    case .fcm: FCM()
    case .huawei: Huawei()
    case .honor: Honor()
    case .harmony: Harmony()
    case .xiaomi: Xiaomi()
    case .oppo: OPPO()
    case .vivo: Vivo()
    case .meizu: Meizu()
    }
  }
}
