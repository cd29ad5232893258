/// The vendors, in canonical order (SPEC 9): output always follows this order.
///
/// Adding a vendor takes one case here and its line in the two `visit` switches below (the
/// compiler asks for both); everything else about a vendor lives in its own file
/// (`docs/ADDING-A-VENDOR.md`).
package enum VendorID: Int, CaseIterable, Sendable, Comparable {
  /// The nine vendors; `rawValue` indexes per-vendor stats.
  case apns, fcm, huawei, honor, harmony, xiaomi, oppo, vivo, meizu

  /// Calls `visitor` with the vendor type of this id: the one place that maps ids to vendor
  /// types. Inlined, it is a switch whose every case calls `visit` with a concrete type, so the
  /// visitor's code is specialised for each vendor (constant name and limits, direct calls).
  @inline(__always)
  package func visit<Visitor: VendorVisitor>(_ visitor: Visitor) -> Visitor.Result {
    switch self {
    case .apns: visitor.visit(APNs())
    case .fcm: visitor.visit(FCM())
    case .huawei: visitor.visit(Huawei())
    case .honor: visitor.visit(Honor())
    case .harmony: visitor.visit(Harmony())
    case .xiaomi: visitor.visit(Xiaomi())
    case .oppo: visitor.visit(OPPO())
    case .vivo: visitor.visit(Vivo())
    case .meizu: visitor.visit(Meizu())
    }
  }

  /// The CLI word and the `"vendor"` value of records.
  package var name: String { staticName.description }

  /// The name as a static string, written into every record without touching a `String`.
  package var staticName: StaticString {
    struct Name: VendorVisitor {
      func visit<Vendor: PushVendor>(_ vendor: Vendor) -> StaticString { Vendor.name }
    }
    return visit(Name())
  }

  /// The vendor's limits (SPEC 4 table).
  package var limits: VendorLimits {
    struct Limits: VendorVisitor {
      func visit<Vendor: PushVendor>(_ vendor: Vendor) -> VendorLimits { Vendor.limits }
    }
    return visit(Limits())
  }

  /// Recipients per record (SPEC 4 table).
  package var recipientsPerRecord: Int { limits.recipientsPerRecord }

  /// True when the vendor reads the line's hash (`PushVendor.hashesLines`).
  package var hashesLines: Bool {
    struct HashesLines: VendorVisitor {
      func visit<Vendor: PushVendor>(_ vendor: Vendor) -> Bool { Vendor.hashesLines }
    }
    return visit(HashesLines())
  }

  /// The vendor whose CLI word is `name`, or nil for an unknown id.
  package init?(name: String) {
    guard let match = VendorID.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// Canonical order.
  package static func < (lhs: VendorID, rhs: VendorID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension VendorID {
  /// Calls `visitor` with the vendor type of this id and a notice, to write the notice's
  /// records: the switch of `visit(_:)` for code that renders. The notice and the visit's state
  /// are parameters all the way to the vendor's code, so the notice travels by reference: a
  /// visitor that held it, or a closure given it, would copy it (some 850 bytes) at every call.
  @inline(__always)
  func visit<Visitor: VendorRecordVisitor>(
    _ visitor: Visitor, _ notice: Notice, _ state: inout Visitor.State
  ) {
    switch self {
    case .apns: visitor.visit(APNs(), notice, &state)
    case .fcm: visitor.visit(FCM(), notice, &state)
    case .huawei: visitor.visit(Huawei(), notice, &state)
    case .honor: visitor.visit(Honor(), notice, &state)
    case .harmony: visitor.visit(Harmony(), notice, &state)
    case .xiaomi: visitor.visit(Xiaomi(), notice, &state)
    case .oppo: visitor.visit(OPPO(), notice, &state)
    case .vivo: visitor.visit(Vivo(), notice, &state)
    case .meizu: visitor.visit(Meizu(), notice, &state)
    }
  }
}

/// Code that writes a notice's records with one vendor's concrete type
/// (`VendorID.visit(_:_:_:)`; the pipeline's `LineRecords`).
protocol VendorRecordVisitor {
  /// What the visits of one notice update: where the records go, what they tally.
  associatedtype State
  /// Writes `notice`'s records for `vendor`, whose type is the visited id's vendor type.
  func visit<Vendor: PushVendor>(_ vendor: Vendor, _ notice: Notice, _ state: inout State)
}

/// Code run with one vendor's concrete type (`VendorID.visit`): a generic `visit` is
/// specialised for each vendor, where a call through `any PushVendor` would not be.
package protocol VendorVisitor {
  /// What a visit returns.
  associatedtype Result
  /// Runs with `vendor`, whose type is the visited id's vendor type.
  func visit<Vendor: PushVendor>(_ vendor: Vendor) -> Result
}

extension VendorLimits {
  /// The limits of `id` (SPEC 4 table), read from its vendor type.
  @inline(__always)
  package static func of(_ id: VendorID) -> VendorLimits { id.limits }
}

/// Every push vendor, in canonical order (SPEC 9), as values for code that does not need the
/// concrete type (tests, listings).
package enum VendorRegistry {
  /// The renderer of `id`.
  package static func vendor(_ id: VendorID) -> any PushVendor { all[id.rawValue] }

  /// All vendors, indexed by `VendorID.rawValue`.
  package static let all: [any PushVendor] = VendorID.allCases.map { $0.visit(Erased()) }

  /// A visitor that returns the vendor it visits, boxed.
  private struct Erased: VendorVisitor {
    func visit<Vendor: PushVendor>(_ vendor: Vendor) -> any PushVendor { vendor }
  }
}
