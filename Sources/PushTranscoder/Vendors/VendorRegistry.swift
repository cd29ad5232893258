/// The limits of one vendor (SPEC 4 table, 9), as data: every budget, cap and per-record count
/// lives in `VendorLimits.of` and nowhere else.
package struct VendorLimits: Sendable {
  /// Whole-payload byte budget (canonical bytes), nil for the capped vendors.
  package var payloadBytes: Int?
  /// The budget of an APNs VoIP push (`ApnsInfo.IsVoipPush == 1`).
  package var voipPayloadBytes: Int?
  /// Title and body caps in Unicode scalars, nil for the budgeted vendors.
  package var titleScalars: Int?
  /// The body cap in Unicode scalars, nil for the budgeted vendors.
  package var bodyScalars: Int?
  /// The limit on the field that carries ext, if the vendor has one.
  package var extField: FieldBudget?
  /// vivo `requestId`: at most this many UTF-8 bytes, suffix included.
  package var requestIDBytes: Int?
  /// Recipients per record; more recipients split into several records.
  package var recipientsPerRecord: Int

  /// Limits with only the given budgets and caps.
  package init(
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

  /// The limits of `id` (SPEC 4 table), in canonical order. A switch rather than a global
  /// table: a renderer asking for its own limits gets constants, with no lazy-global check
  /// (`swift_once`) and no copy per record.
  @inline(__always)
  package static func of(_ id: VendorID) -> VendorLimits {
    switch id {
    case .apns:
      VendorLimits(payloadBytes: 4096, voipPayloadBytes: 5120, recipientsPerRecord: 1)
    case .fcm:
      VendorLimits(payloadBytes: 4000, recipientsPerRecord: 500)
    case .huawei:
      VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000)
    case .honor:
      VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000)
    case .harmony:
      VendorLimits(payloadBytes: 4096, recipientsPerRecord: 1000)
    case .xiaomi:
      VendorLimits(
        titleScalars: 49, bodyScalars: 127,
        extField: FieldBudget(field: "payload", unit: .extUTF8Bytes, limit: 4096),
        recipientsPerRecord: 100)
    case .oppo:
      VendorLimits(
        titleScalars: 50, bodyScalars: 50,
        extField: FieldBudget(
          field: "action_parameters", unit: .writtenObjectScalars, limit: 4000),
        recipientsPerRecord: 1000)
    case .vivo:
      VendorLimits(
        titleScalars: 40, bodyScalars: 100,
        extField: FieldBudget(field: "clientCustomMap", unit: .keyAndExtScalars, limit: 1024),
        requestIDBytes: 64, recipientsPerRecord: 1000)
    case .meizu:
      // Meizu documents no limit on `parameters` (SPEC 4).
      VendorLimits(titleScalars: 32, bodyScalars: 100, recipientsPerRecord: 100)
    }
  }
}

/// Every push vendor, in canonical order (SPEC 9): the one place that maps ids to renderers.
package enum VendorRegistry {
  /// The renderer of `id`.
  package static func vendor(_ id: VendorID) -> any PushVendor { all[id.rawValue] }

  /// All vendors, indexed by `VendorID.rawValue`.
  package static let all: [any PushVendor] = VendorID.allCases.map { id -> any PushVendor in
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

extension VendorID {
  /// Recipients per record (SPEC 4 table).
  var recipientsPerRecord: Int { VendorLimits.of(self).recipientsPerRecord }

  /// `VendorRegistry.vendor(self).writeRecordExtras`, dispatched by a switch: the per-record
  /// loop calls each renderer directly, without opening an existential box per call.
  func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter) {
    func write(_ vendor: some PushVendor) { vendor.writeRecordExtras(notice, into: &writer) }
    switch self {
    case .apns: write(APNs())
    case .fcm: write(FCM())
    case .huawei: write(Huawei())
    case .honor: write(Honor())
    case .harmony: write(Harmony())
    case .xiaomi: write(Xiaomi())
    case .oppo: write(OPPO())
    case .vivo: write(Vivo())
    case .meizu: write(Meizu())
    }
  }

  /// `VendorRegistry.vendor(self).hasRecordExtras`, dispatched by a switch.
  func hasRecordExtras(_ notice: Notice) -> Bool {
    switch self {
    case .apns: APNs().hasRecordExtras(notice)
    case .fcm: FCM().hasRecordExtras(notice)
    case .huawei: Huawei().hasRecordExtras(notice)
    case .honor: Honor().hasRecordExtras(notice)
    case .harmony: Harmony().hasRecordExtras(notice)
    case .xiaomi: Xiaomi().hasRecordExtras(notice)
    case .oppo: OPPO().hasRecordExtras(notice)
    case .vivo: Vivo().hasRecordExtras(notice)
    case .meizu: Meizu().hasRecordExtras(notice)
    }
  }

  /// `VendorRegistry.vendor(self).renderPayload`, dispatched by a switch (see
  /// `writeRecordExtras`).
  func renderPayload(
    _ notice: Notice, _ context: RenderContext, part: Int, parts: Int,
    into writer: inout JSONWriter, effects: inout RenderEffects
  ) -> VendorRefusal? {
    // Generic over the concrete renderer, so each case is specialized and called directly.
    func render(_ vendor: some PushVendor) -> VendorRefusal? {
      vendor.renderPayload(
        notice, context, part: part, parts: parts, into: &writer, effects: &effects)
    }
    switch self {
    case .apns: return render(APNs())
    case .fcm: return render(FCM())
    case .huawei: return render(Huawei())
    case .honor: return render(Honor())
    case .harmony: return render(Harmony())
    case .xiaomi: return render(Xiaomi())
    case .oppo: return render(OPPO())
    case .vivo: return render(Vivo())
    case .meizu: return render(Meizu())
    }
  }
}
