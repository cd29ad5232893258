/// Why a line produced no push (SPEC 3.1, 3.2). Skipped lines write nothing to the stream.
public enum SkipReason: Int, CaseIterable, Sendable {
  case pushDisabled, customWithoutDesc, emptyText, commandMessage, ignoreNotification

  /// The name used in stats.
  public var name: String {
    switch self {
    case .pushDisabled: "push-disabled"
    case .customWithoutDesc: "custom-without-desc"
    case .emptyText: "empty-text"
    case .commandMessage: "command-message"
    case .ignoreNotification: "ignore-notification"
    }
  }
}

/// Why a line (or, for the last two, one vendor) was rejected (SPEC 2, 3, 5, 6.4).
public enum RejectReason: Int, CaseIterable, Sendable {
  case syntax, invalidUnicode, tooDeep, lineTooLong, notAMessage, overBudget, missingTimestamp

  /// The `reason` of reject records and the key in stats.
  public var name: String {
    switch self {
    case .syntax: "syntax"
    case .invalidUnicode: "invalid-unicode"
    case .tooDeep: "too-deep"
    case .lineTooLong: "line-too-long"
    case .notAMessage: "not-a-message"
    case .overBudget: "over-budget"
    case .missingTimestamp: "missing-timestamp"
    }
  }

  public init?(name: String) {
    guard let match = RejectReason.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  public init(_ fault: JSONFault) {
    switch fault {
    case .syntax: self = .syntax
    case .invalidUnicode: self = .invalidUnicode
    case .tooDeep: self = .tooDeep
    }
  }
}
