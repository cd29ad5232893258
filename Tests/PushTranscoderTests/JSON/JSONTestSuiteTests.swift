import Foundation
import Testing

@testable import PushTranscoder

/// JSONTestSuite (nst/JSONTestSuite, `test_parsing/`): each file's whole content is one JSON
/// text given to the tokenizer. SPEC 2.2: every `y_` accepted, every `n_` rejected, every `i_`
/// decided; the `i_` decisions are tabled in `docs/JSON-CONFORMANCE.md`.
///
/// The suite lives outside the package (`../shared/conformance/`); where it is absent (a fresh
/// clone without the shared folder) these tests are skipped, not failed.
@Suite(
  "JSONTestSuite conformance",
  .enabled(
    if: JSONTestSuiteFiles.isAvailable,
    "JSONTestSuite not found at ../shared/conformance/JSONTestSuite/test_parsing; skipped")
)
struct JSONTestSuiteTests {
  @Test func everyYesCaseIsAccepted() throws {
    let names = JSONTestSuiteFiles.names("y_")
    #expect(names.count == 95)
    var accepted = 0
    for name in names {
      let error = tokenize(try JSONTestSuiteFiles.contents(name))
      #expect(error == nil, "\(name): \(String(describing: error))")
      if error == nil { accepted += 1 }
    }
    #expect(accepted == 95, "\(accepted)/\(names.count) y_ cases accepted")
  }

  @Test func everyNoCaseIsRejected() throws {
    let names = JSONTestSuiteFiles.names("n_")
    #expect(names.count == 188)
    var rejected = 0
    for name in names {
      let bytes = try JSONTestSuiteFiles.contents(name)
      let error = tokenize(bytes)
      #expect(error != nil, "\(name) was accepted")
      if let error {
        rejected += 1
        #expect(error.offset >= 0 && error.offset <= bytes.count, "\(name): offset \(error.offset)")
      }
    }
    #expect(rejected == 188, "\(rejected)/\(names.count) n_ cases rejected")
  }

  /// The 100,000-deep cases stop at depth 513 without recursion, so no stack overflow.
  @Test func hundredThousandOpeningArraysAreTooDeep() throws {
    let error = tokenize(try JSONTestSuiteFiles.contents("n_structure_100000_opening_arrays.json"))
    #expect(error?.fault == .tooDeep)
    #expect(error?.offset == 512)
    let objects = tokenize(try JSONTestSuiteFiles.contents("n_structure_open_array_object.json"))
    #expect(objects?.fault == .tooDeep)
  }

  @Test func everyImplementationDefinedCaseIsDecided() {
    let names = JSONTestSuiteFiles.names("i_")
    #expect(names.count == 35)
    #expect(Set(names) == Set(Self.decisions.map(\.name)), "a new i_ case needs a decision")
  }

  /// The decision for one `i_` case: nil = accepted, else the fault and its offset.
  struct Decision: Sendable, CustomTestStringConvertible {
    var name: String
    var verdict: (fault: JSONFault, offset: Int)?
    var testDescription: String { name }
  }

  static let decisions: [Decision] = [
    // Numbers are validated as lexemes and kept as bytes: no range limit, no rounding.
    Decision(name: "i_number_double_huge_neg_exp.json", verdict: nil),
    Decision(name: "i_number_huge_exp.json", verdict: nil),
    Decision(name: "i_number_neg_int_huge_exp.json", verdict: nil),
    Decision(name: "i_number_pos_double_huge_exp.json", verdict: nil),
    Decision(name: "i_number_real_neg_overflow.json", verdict: nil),
    Decision(name: "i_number_real_pos_overflow.json", verdict: nil),
    Decision(name: "i_number_real_underflow.json", verdict: nil),
    Decision(name: "i_number_too_big_neg_int.json", verdict: nil),
    Decision(name: "i_number_too_big_pos_int.json", verdict: nil),
    Decision(name: "i_number_very_big_negative_int.json", verdict: nil),
    // Unpaired surrogate escapes are invalid-unicode at the offset of their backslash.
    Decision(name: "i_object_key_lone_2nd_surrogate.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_1st_surrogate_but_2nd_missing.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_1st_valid_surrogate_2nd_invalid.json", verdict: (.invalidUnicode, 2)),
    Decision(
      name: "i_string_incomplete_surrogate_and_escape_valid.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_incomplete_surrogate_pair.json", verdict: (.invalidUnicode, 2)),
    Decision(
      name: "i_string_incomplete_surrogates_escape_valid.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_invalid_lonely_surrogate.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_invalid_surrogate.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_inverted_surrogates_U+1D11E.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_lone_second_surrogate.json", verdict: (.invalidUnicode, 2)),
    // Strict UTF-8 (Unicode Table 3-7): offset of the first byte of the first bad sequence.
    Decision(name: "i_string_UTF-8_invalid_sequence.json", verdict: (.invalidUnicode, 7)),
    Decision(name: "i_string_UTF8_surrogate_U+D800.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_invalid_utf-8.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_iso_latin_1.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_lone_utf8_continuation_byte.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_not_in_unicode_range.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_overlong_sequence_2_bytes.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_overlong_sequence_6_bytes.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_overlong_sequence_6_bytes_null.json", verdict: (.invalidUnicode, 2)),
    Decision(name: "i_string_truncated-utf-8.json", verdict: (.invalidUnicode, 2)),
    // Only UTF-8 input: UTF-16 fails UTF-8 validation (which wins over the syntax faults).
    Decision(name: "i_string_UTF-16LE_with_BOM.json", verdict: (.invalidUnicode, 0)),
    Decision(name: "i_string_utf16BE_no_BOM.json", verdict: (.invalidUnicode, 5)),
    Decision(name: "i_string_utf16LE_no_BOM.json", verdict: (.invalidUnicode, 4)),
    // 500 levels are within the 512-level limit.
    Decision(name: "i_structure_500_nested_arrays.json", verdict: nil),
    // The tokenizer rejects a BOM; framing strips one only at the start of a file (SPEC 2.1).
    Decision(name: "i_structure_UTF-8_BOM_empty_object.json", verdict: (.syntax, 0)),
  ]

  @Test(arguments: decisions)
  func implementationDefinedCase(_ decision: Decision) throws {
    let error = tokenize(try JSONTestSuiteFiles.contents(decision.name))
    if let verdict = decision.verdict {
      #expect(error?.fault == verdict.fault, "\(String(describing: error))")
      #expect(error?.offset == verdict.offset, "\(String(describing: error))")
    } else {
      #expect(error == nil, "\(String(describing: error))")
    }
  }

  /// Big numbers are kept as lexemes; the integer flag follows the lexeme, not the magnitude.
  @Test func bigIntegersKeepTheIntegerFlag() throws {
    for name in ["i_number_too_big_neg_int.json", "i_number_very_big_negative_int.json"] {
      let tokens = tape(try JSONTestSuiteFiles.contents(name))
      #expect(tokens.count == 2)
      #expect(tokens.last?.kind == .number)
      #expect(tokens.last.map { $0.flags & JSONToken.isInteger != 0 } == true)
    }
  }

  /// In replace mode (`--unicode replace`), lone surrogate escapes are accepted and counted.
  @Test func loneSurrogateCasesPassInReplaceMode() throws {
    var tokenizer = JSONTokenizer(replaceLoneSurrogates: true)
    let bytes = try JSONTestSuiteFiles.contents("i_string_incomplete_surrogates_escape_valid.json")
    let error = bytes.withUnsafeBufferPointer { tokenizer.parse($0) }
    #expect(error == nil)
    #expect(tokenizer.loneSurrogates == 2)
  }
}
