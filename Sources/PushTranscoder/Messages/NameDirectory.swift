import Glibc

/// Display names for the display prefix and the fallback titles (SPEC 2.4): user nicknames and
/// group names, loaded from `--directory` files before the run.
///
/// Invariant: every id and name is copied into the directory's `TextArena` and never moved, so
/// the `StringSlice`s a lookup returns (and that notices hold) stay valid for as long as the
/// directory lives, whatever line is being processed. Names are kept as JSON string content with
/// their has-escapes flag, exactly as they appeared in the directory line; ids are keyed by their
/// decoded bytes, so `"u\u0031"` and `"u1"` are the same user.
///
/// Later lines override earlier ones for the same id, including a later line without a name,
/// which leaves the id without one (SPEC 9: later entries override earlier ones; empty names are
/// absent). Users and groups are separate namespaces.
package struct NameDirectory: @unchecked Sendable {
  // Safe because a directory is mutated only while it is loaded, on one thread, before the run;
  // afterwards it is only read (lookups never mutate), and its arena is append-only.

  /// What one directory line contributed (SPEC 2.4).
  package enum LineResult: Equatable, Sendable {
    /// A user entry (Tencent profile export or Easemob user).
    case user
    /// A group entry (Tencent group info).
    case group
    /// Not a directory entry: report it like a bad input line (reason `not-a-message`), with
    /// the JSON path of the offending field (`$` for the line itself).
    case reject(path: String, detail: String)
  }

  private var arena = TextArena()
  private var users = NameTable()
  private var groups = NameTable()

  /// The number of lines accepted as entries (users and groups, overrides included).
  package private(set) var entryCount = 0

  /// An empty directory: no users, no groups.
  package init() {}

  /// The number of distinct user ids.
  package var userCount: Int { users.count }
  /// The number of distinct group ids.
  package var groupCount: Int { groups.count }
  /// The longest probe a lookup of a known user id makes (`NameTable.longestProbe`).
  var longestUserProbe: Int { users.longestProbe }

  /// Reads one directory line (already parsed and valid JSON).
  ///
  /// Accepted shapes: Tencent profile export `{"To_Account","ProfileItem":[{"Tag","Value"}]}`
  /// (the nickname is the `Value` of the last `Tag_Profile_IM_Nick` item), Tencent group info
  /// `{"GroupId","Name"?}`, Easemob user `{"username","nickname"?}`. Detected in that order by
  /// `ProfileItem`, `GroupId`, `username`. Other keys are ignored.
  package mutating func ingest(_ document: JSONDocument) -> LineResult {
    do {
      let result = try read(document)
      entryCount += 1
      return result
    } catch let reject as MessageReject {
      return .reject(path: reject.path, detail: reject.detail)
    } catch {
      return .reject(path: "$", detail: "\(error)")
    }
  }

  private mutating func read(_ document: JSONDocument) throws -> LineResult {
    let fields = FieldReader(document)
    let root = document.root
    guard document.kind(root) == .object else {
      throw MessageReject(path: "$", detail: "a directory line must be a JSON object")
    }
    if let items = fields.present(root, "ProfileItem") {
      let id = try fields.requiredString(root, "To_Account", "")
      guard document.kind(items) == .array else {
        throw fields.wrongType("ProfileItem", items, expected: "an array of objects")
      }
      var nickname: StringSlice? = nil
      var position = 0
      // Safe because `items` and each `item` are indexes of this tape, and a token's `next` is
      // at most the tape's count.
      var item = items + 1
      let end = Int(document.tokens[items].next)
      while item < end {
        let prefix = "ProfileItem[\(position)]"
        guard document.kind(item) == .object else {
          throw fields.wrongType(prefix, item, expected: "an object")
        }
        let tag = try fields.requiredString(item, "Tag", prefix)
        if tag.equals("Tag_Profile_IM_Nick") {
          nickname = try fields.string(item, "Value", prefix)
        }
        position += 1
        item = Int(document.tokens[item].next)
      }
      users.set(id, nickname, arena)
      return .user
    }
    if fields.present(root, "GroupId") != nil {
      let id = try fields.requiredString(root, "GroupId", "")
      let name = try fields.string(root, "Name", "")
      groups.set(id, name, arena)
      return .group
    }
    if fields.present(root, "username") != nil {
      let id = try fields.requiredString(root, "username", "")
      let name = try fields.string(root, "nickname", "")
      users.set(id, name, arena)
      return .user
    }
    throw MessageReject(
      path: "$",
      detail: "not a directory entry: no ProfileItem (Tencent profile), GroupId (Tencent group) "
        + "or username (Easemob user)")
  }

  /// The nickname of user `id` (the id as it appears in a message line), if the directory has
  /// a non-empty one. The slice points into the directory.
  package func nickname(of id: StringSlice) -> StringSlice? {
    users.isEmpty ? nil : users.lookup(id)
  }

  /// The name of group `id`, if the directory has a non-empty one.
  package func groupName(of id: StringSlice) -> StringSlice? {
    groups.isEmpty ? nil : groups.lookup(id)
  }

  /// Lookup by a Swift string (tests, tools).
  package func nickname(of id: String) -> String? {
    var bytes = Array(id.utf8)
    return bytes.withUnsafeMutableBufferPointer { users.lookup(UnsafeBufferPointer($0)) }?
      .decodedString()
  }

  /// Lookup by a Swift string (tests, tools).
  package func groupName(of id: String) -> String? {
    var bytes = Array(id.utf8)
    return bytes.withUnsafeMutableBufferPointer { groups.lookup(UnsafeBufferPointer($0)) }?
      .decodedString()
  }
}

extension NameTable {
  /// `name` copied into `arena` in canonical form, marked so: a name goes into every record of
  /// its sender's or group's messages, and with escapes that are not canonical (`\u00e9`) it was
  /// put in canonical form again for each message, messages × name.
  static func canonicalCopy(_ name: StringSlice, _ arena: TextArena) -> StringSlice {
    guard name.hasEscapes else { return arena.copy(name) }
    var canonical: [UInt8] = []
    // Safe to rewrite: the name is string content the tokenizer validated.
    JSONEscapes.appendCanonical(name.rawBytes, to: &canonical)
    let hasEscapes = canonical.contains(ASCII.backslash)
    var copy = canonical.withUnsafeBufferPointer {
      StringSlice(pointer: arena.copy($0), count: $0.count, hasEscapes: hasEscapes)
    }
    copy.rawIsCanonical = hasEscapes
    return copy
  }
}

/// An open-addressing hash table from decoded id bytes to an optional name, both stored in a
/// `TextArena`. Lookups hash the id's bytes in place, so a message line's id (without escapes)
/// is looked up without allocating.
///
/// Ids are hashed with the standard library's `Hasher`, seeded per process: ids chosen to
/// collide (user names are chosen by users) cannot pile into one probe chain, so loading and
/// lookups stay linear. The table's layout, not the output, depends on the seed.
struct NameTable {
  private struct Slot {
    var hash = 0
    var key: UnsafePointer<UInt8>? = nil
    var keyCount = 0
    var name: StringSlice? = nil
  }

  private var slots: [Slot] = []
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  /// Sets (or overrides) the entry for `id`.
  mutating func set(_ id: StringSlice, _ name: StringSlice?, _ arena: TextArena) {
    let decoded = id.decodedBytes()
    let stored = name.map { Self.canonicalCopy($0, arena) }
    decoded.withUnsafeBufferPointer { key in
      if (count + 1) * 4 > slots.count * 3 { grow() }
      let hash = Self.hash(key)
      let index = probe(hash, key)
      if slots[index].key == nil {
        slots[index] = Slot(hash: hash, key: arena.copy(key), keyCount: key.count, name: stored)
        count += 1
      } else {
        slots[index].name = stored
      }
    }
  }

  func lookup(_ id: StringSlice) -> StringSlice? {
    if !id.hasEscapes { return lookup(id.rawBytes) }
    return id.decodedBytes().withUnsafeBufferPointer { lookup($0) }
  }

  func lookup(_ key: UnsafeBufferPointer<UInt8>) -> StringSlice? {
    guard !slots.isEmpty else { return nil }
    let slot = slots[probe(Self.hash(key), key)]
    return slot.key == nil ? nil : slot.name
  }

  /// The longest distance from an entry's home slot to its slot: the longest probe any lookup
  /// of a stored id makes (tests check that ids chosen to collide keep it short).
  var longestProbe: Int {
    let mask = slots.count - 1
    var longest = 0
    for (index, slot) in slots.enumerated() where slot.key != nil {
      longest = max(longest, (index - (slot.hash & mask)) & mask)
    }
    return longest
  }

  /// The seeded hash of an id's bytes.
  private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    // Safe because `key` stays valid for the call, and the hasher reads only its bytes.
    hasher.combine(bytes: UnsafeRawBufferPointer(key))
    return hasher.finalize()
  }

  /// The slot holding `key`, or the empty slot where it belongs.
  private func probe(_ hash: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int {
    let mask = slots.count - 1
    var index = hash & mask
    while let stored = slots[index].key {
      // Safe because `key.count > 0` gives `key` a base address, and `stored` holds `keyCount`
      // (= key.count) bytes in the arena, which never moves them.
      if slots[index].hash == hash && slots[index].keyCount == key.count
        && (key.count == 0 || memcmp(stored, key.baseAddress!, key.count) == 0)
      {
        return index
      }
      index = (index + 1) & mask
    }
    return index
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(), count: max(16, old.count * 2))
    for slot in old {
      guard let key = slot.key else { continue }
      // Safe because a stored key points at `keyCount` bytes the arena keeps for its lifetime.
      let index = probe(slot.hash, UnsafeBufferPointer(start: key, count: slot.keyCount))
      slots[index] = slot
    }
  }
}
