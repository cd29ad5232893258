/// A push vendor the transcoder writes payloads for, named by its command-line id (`apns`,
/// `fcm`, `huawei`, `honor`, `harmony`, `xiaomi`, `oppo`, `vivo`, `meizu`).
///
/// A value names a vendor of the registry, so a program lists the vendors with `all` and
/// never needs an edit when one is added; the order of `all` is the canonical order records
/// of one line follow (SPEC 9).
public struct Vendor: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The registry's id behind the public name.
  let id: VendorID

  init(_ id: VendorID) { self.id = id }

  /// The vendor whose id is `name` (as `--vendors` takes it), or nil for an unknown id.
  public init?(name: String) {
    guard let id = VendorID(name: name) else { return nil }
    self.id = id
  }

  /// Every vendor, in canonical order: the default selection.
  public static var all: [Vendor] { VendorID.allCases.map(Vendor.init) }

  /// The id, as records spell it in `"vendor"`.
  public var name: String { id.name }

  /// The id: `description` is `name`, so `"\(vendor)"` prints what records say.
  public var description: String { id.name }

  /// Canonical order: the order of `all` and of one line's records.
  public static func < (lhs: Vendor, rhs: Vendor) -> Bool { lhs.id < rhs.id }
}
