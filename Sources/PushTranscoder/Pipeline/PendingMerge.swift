// TEMPORARY: stand-ins for the message stage and vendor registry until their branches merge.
public enum VendorRegistry {
  public static func vendor(_ id: VendorID) -> any PushVendor { StubVendor() }
}
struct StubVendor: PushVendor {
  var id: VendorID { .apns }
  var recipientsPerRecord: Int { 1 }
  func writeRecordExtras(_ notice: Notice, into writer: inout JSONWriter) {}
  func renderPayload(_ notice: Notice, _ context: RenderContext, part: Int, parts: Int, into writer: inout JSONWriter, effects: inout RenderEffects) -> VendorRefusal? { nil }
}
