extension SkipReason {
  /// The position of the reason in stats arrays.
  package var index: Int {
    switch self {
    case .pushDisabled: 0
    case .customWithoutDesc: 1
    case .emptyText: 2
    case .commandMessage: 3
    case .ignoreNotification: 4
    }
  }

  /// The name used in stats.
  package var name: String { rawValue }
}

/// Why a line (or, for the last two, one vendor) was rejected (SPEC 2, 3, 5, 6.4).
package enum RejectReason: Int, CaseIterable, Sendable {
  /// The reasons, in the order stats list them (`rawValue` indexes the stats arrays).
  case syntax, invalidUnicode, tooDeep, lineTooLong, notAMessage, overBudget, missingTimestamp

  /// The `reason` of reject records and the key in stats.
  package var name: String {
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

  /// The reason whose `name` is `name`, or nil when there is none.
  package init?(name: String) {
    guard let match = RejectReason.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// The reject reason of a vendor's refusal: the one place a refusal gets its SPEC name.
  package init(_ reason: VendorRefusal.Reason) {
    switch reason {
    case .overBudget: self = .overBudget
    case .missingTimestamp: self = .missingTimestamp
    }
  }

  /// The reject reason of a JSON fault of the line.
  package init(_ fault: JSONFault) {
    switch fault {
    case .syntax: self = .syntax
    case .invalidUnicode: self = .invalidUnicode
    case .tooDeep: self = .tooDeep
    }
  }

  /// The reject reason of a line the line gate turned away.
  package init(_ fault: LineFault.Kind) {
    switch fault {
    case .tooLong: self = .lineTooLong
    case .json(let fault): self.init(fault)
    }
  }
}
