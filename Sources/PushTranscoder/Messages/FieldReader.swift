/// A field of a message (or directory) line that is missing or has the wrong type: the line is
/// rejected as `not-a-message` (SPEC 2.3, 9).
struct MessageReject: Error {
  /// The JSON path of the offending field, e.g. `OfflinePushInfo.ApnsInfo.Sound` or
  /// `MsgBody[2].MsgType`; `$` for the line itself.
  var path: String
  /// Free text for people; starts with the path.
  var detail: String
}

/// Typed reads of the fields SPEC 9 lists, each checking the type when the field is present.
///
/// Rules (SPEC 9): `null` is the same as absent; a `str` field that is empty is absent; an
/// integer is a number whose lexeme is `-?(0|[1-9][0-9]*)`. A required field that is absent
/// (or null, or an empty string) is an error. Paths are built only when an error is thrown:
/// `prefix` is the path of the object the field belongs to (`""` at the top level).
struct FieldReader {
  let document: JSONDocument

  init(_ document: JSONDocument) { self.document = document }

  /// The tape index of member `key` of `object` when it is present and not null.
  @inline(__always)
  func present(_ object: Int, _ key: StaticString) -> Int? {
    guard let index = document.member(object, key), !document.isNull(index) else { return nil }
    return index
  }

  /// A member already found (by a one-pass scan of its object) when it is not null.
  @inline(__always)
  func present(value index: Int?) -> Int? {
    guard let index, !document.isNull(index) else { return nil }
    return index
  }

  /// An optional string at a member already found; empty counts as absent.
  func string(value: Int?, _ path: @autoclosure () -> String) throws -> StringSlice? {
    guard let index = present(value: value) else { return nil }
    guard document.kind(index) == .string else {
      throw wrongType(path(), index, expected: "a string")
    }
    let slice = document.string(index)
    return slice.isEmpty ? nil : slice
  }

  /// An optional integer at a member already found; returns its tape index.
  func integer(value: Int?, _ path: @autoclosure () -> String) throws -> Int? {
    guard let index = present(value: value) else { return nil }
    guard document.isInteger(index) else { throw wrongType(path(), index, expected: "an integer") }
    return index
  }

  /// An optional object at a member already found; returns its tape index.
  func object(value: Int?, _ path: @autoclosure () -> String) throws -> Int? {
    guard let index = present(value: value) else { return nil }
    guard document.kind(index) == .object else {
      throw wrongType(path(), index, expected: "an object")
    }
    return index
  }

  /// An optional boolean at a member already found.
  func bool(value: Int?, _ path: @autoclosure () -> String) throws -> Bool? {
    guard let index = present(value: value) else { return nil }
    switch document.kind(index) {
    case .true: return true
    case .false: return false
    default: throw wrongType(path(), index, expected: "a boolean")
    }
  }

  /// A required, non-empty string at a member already found.
  func requiredString(value: Int?, _ path: @autoclosure () -> String) throws -> StringSlice {
    guard let slice = try string(value: value, path()) else {
      throw missing(path(), value: value, "a non-empty string")
    }
    return slice
  }

  /// A required object at a member already found.
  func requiredObject(value: Int?, _ path: @autoclosure () -> String) throws -> Int {
    guard let index = try object(value: value, path()) else {
      throw missing(path(), value: value, "an object")
    }
    return index
  }

  /// A required array at a member already found.
  func requiredArray(value: Int?, _ path: @autoclosure () -> String) throws -> Int {
    guard let index = present(value: value) else {
      throw missing(path(), value: value, "an array")
    }
    guard document.kind(index) == .array else {
      throw wrongType(path(), index, expected: "an array")
    }
    return index
  }

  /// An optional string; empty counts as absent.
  func string(_ object: Int, _ key: StaticString, _ prefix: @autoclosure () -> String) throws
    -> StringSlice?
  {
    guard let index = present(object, key) else { return nil }
    guard document.kind(index) == .string else {
      throw wrongType(Self.join(prefix(), key), index, expected: "a string")
    }
    let slice = document.string(index)
    return slice.isEmpty ? nil : slice
  }

  /// A required, non-empty string.
  func requiredString(_ object: Int, _ key: StaticString, _ prefix: @autoclosure () -> String)
    throws -> StringSlice
  {
    guard let slice = try string(object, key, prefix()) else {
      throw missing(Self.join(prefix(), key), object, key, "a non-empty string")
    }
    return slice
  }

  /// An optional integer; returns its tape index (use `lexeme` / `isIntegerOne`).
  func integer(_ object: Int, _ key: StaticString, _ prefix: @autoclosure () -> String) throws
    -> Int?
  {
    guard let index = present(object, key) else { return nil }
    guard document.isInteger(index) else {
      throw wrongType(Self.join(prefix(), key), index, expected: "an integer")
    }
    return index
  }

  /// An optional object; returns its tape index.
  func object(_ object: Int, _ key: StaticString, _ prefix: @autoclosure () -> String) throws
    -> Int?
  {
    guard let index = present(object, key) else { return nil }
    guard document.kind(index) == .object else {
      throw wrongType(Self.join(prefix(), key), index, expected: "an object")
    }
    return index
  }

  /// A required object.
  func requiredObject(_ object: Int, _ key: StaticString, _ prefix: @autoclosure () -> String)
    throws -> Int
  {
    guard let index = try self.object(object, key, prefix()) else {
      throw missing(Self.join(prefix(), key), object, key, "an object")
    }
    return index
  }

  // MARK: Errors (slow path)

  static func join(_ prefix: String, _ key: StaticString) -> String {
    prefix.isEmpty ? "\(key)" : "\(prefix).\(key)"
  }

  func wrongType(_ path: String, _ index: Int, expected: String) -> MessageReject {
    MessageReject(
      path: path, detail: "\(path): expected \(expected), found \(Self.describe(document, index))")
  }

  private func missing(
    _ path: String, _ object: Int, _ key: StaticString, _ expected: String
  ) -> MessageReject {
    missing(path, value: document.member(object, key), expected)
  }

  /// `value`: the member's value index when the key is present (null or an empty string).
  private func missing(_ path: String, value: Int?, _ expected: String) -> MessageReject {
    let found: String
    if let index = value {
      found = document.kind(index) == .string ? "an empty string" : "null"
    } else {
      found = "nothing"
    }
    return MessageReject(
      path: path, detail: "\(path): required, expected \(expected), found \(found)")
  }

  static func describe(_ document: JSONDocument, _ index: Int) -> String {
    switch document.kind(index) {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number:
      let lexeme = String(decoding: document.lexeme(index), as: UTF8.self)
      return "the number \(lexeme)"
    case .true: return "true"
    case .false: return "false"
    case .null: return "null"
    }
  }
}
