// Byte-class masks of 16 bytes, for the tokenizer's string and number scans and the canonical
// re-escape.
// Swift's SIMD types have no bitmask extraction on the baseline x86-64 target, but SSE2 (part of
// that baseline) has one: `pmovmskb`. These functions are `static inline`, so the Swift compiler
// inlines them.
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if !defined(__SSE2__)
/// The byte loop the masks below fall back to on targets without SSE2: bit i is set when
/// `is_marked` accepts byte i of the 16 at `p`.
static inline uint32_t pt_mask16_where(const uint8_t *p, int (*is_marked)(uint8_t)) {
  uint32_t mask = 0;
  for (int i = 0; i < 16; i++) {
    if (is_marked(p[i])) mask |= 1u << i;
  }
  return mask;
}
static inline int pt_is_quote(uint8_t byte) { return byte == '"'; }
static inline int pt_is_backslash(uint8_t byte) { return byte == '\\'; }
static inline int pt_is_control(uint8_t byte) { return byte < 0x20; }
static inline int pt_is_non_ascii(uint8_t byte) { return byte >= 0x80; }
static inline int pt_is_string_special(uint8_t byte) {
  return byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80;
}
static inline int pt_is_continuation(uint8_t byte) { return (byte & 0xC0) == 0x80; }
static inline int pt_is_u_or_slash(uint8_t byte) { return byte == 'u' || byte == '/'; }
static inline int pt_is_escaped(uint8_t byte) {
  return byte == '"' || byte == '\\' || byte < 0x20;
}
static inline int pt_is_non_digit(uint8_t byte) { return (uint8_t)(byte - '0') >= 10; }
static inline int pt_is_escape_letter(uint8_t byte) {
  return byte == '"' || byte == '\\' || byte == '/' || byte == 'b' || byte == 'f' ||
         byte == 'n' || byte == 'r' || byte == 't';
}
#endif

#if defined(__SSE2__)
/// All ones in the lanes of `bytes` that hold a control byte (0x00...0x1F). Unsigned: a byte is
/// at most 0x1F exactly when the minimum of it and 0x1F is itself.
static inline __m128i pt_control_lanes(__m128i bytes) {
  return _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes);
}

/// All ones in the lanes of `bytes` that hold a UTF-8 continuation byte (0x80...0xBF): as signed
/// bytes, exactly those below -64 (0xC0).
static inline __m128i pt_continuation_lanes(__m128i bytes) {
  return _mm_cmplt_epi8(bytes, _mm_set1_epi8((char)0xC0));
}

/// All ones in the lanes of `bytes` that hold a quote or a backslash.
static inline __m128i pt_quote_backslash_lanes(__m128i bytes) {
  return _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')),
                      _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
}

/// All ones in the lanes of `bytes` that hold a quote, a backslash, a control byte or a
/// non-ASCII byte: as signed bytes, control and non-ASCII bytes are exactly those below 0x20.
static inline __m128i pt_string_special_lanes(__m128i bytes) {
  return _mm_or_si128(pt_quote_backslash_lanes(bytes), _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20)));
}
#endif

/// Bit i is set when byte i of the 16 at `p` is a quote, a backslash, a control byte
/// (0x00...0x1F) or a non-ASCII byte (0x80...0xFF). The 16 bytes must be readable.
static inline uint32_t pt_string_specials16(const uint8_t *p) {
#if defined(__SSE2__)
  return (uint32_t)_mm_movemask_epi8(pt_string_special_lanes(_mm_loadu_si128((const __m128i *)p)));
#else
  return pt_mask16_where(p, pt_is_string_special);
#endif
}

/// The 32 bytes at `p`: bit i of the low word is set when byte i is a quote, bit i of the high
/// word when it is a quote, a backslash, a control byte or a non-ASCII byte (as
/// `pt_string_specials16`). The 32 bytes must be readable.
static inline uint64_t pt_quotes_specials32(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i first = _mm_loadu_si128((const __m128i *)p);
  __m128i second = _mm_loadu_si128((const __m128i *)(p + 16));
  __m128i quote = _mm_set1_epi8('"');
  uint64_t quotes = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(first, quote)) |
                    (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(second, quote)) << 16;
  uint64_t specials = (uint32_t)_mm_movemask_epi8(pt_string_special_lanes(first)) |
                      (uint32_t)_mm_movemask_epi8(pt_string_special_lanes(second)) << 16;
  return quotes | specials << 32;
#else
  uint64_t quotes = (uint64_t)pt_mask16_where(p, pt_is_quote) |
                    (uint64_t)pt_mask16_where(p + 16, pt_is_quote) << 16;
  uint64_t specials = (uint64_t)pt_string_specials16(p) | (uint64_t)pt_string_specials16(p + 16) << 16;
  return quotes | specials << 32;
#endif
}

#if defined(__SSE2__)
/// The backslashes of `bytes` in bits 0-15 and its letters `u` and `/` in bits 16-31.
static inline uint32_t pt_backslashes_u_slash_lanes(__m128i bytes) {
  uint32_t backslashes =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
  uint32_t letters = (uint32_t)_mm_movemask_epi8(_mm_or_si128(
      _mm_cmpeq_epi8(bytes, _mm_set1_epi8('u')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('/'))));
  return backslashes | letters << 16;
}
#endif

/// For the 16 bytes at `p`, the backslashes in bits 0-15 and the letters `u` and `/` in bits
/// 16-31: the escapes that are not their own canonical form are a backslash before `u` or `/`
/// (`\u`, `\/`). The 16 bytes must be readable.
static inline uint32_t pt_backslashes_u_slash16(const uint8_t *p) {
#if defined(__SSE2__)
  return pt_backslashes_u_slash_lanes(_mm_loadu_si128((const __m128i *)p));
#else
  return pt_mask16_where(p, pt_is_backslash) | pt_mask16_where(p, pt_is_u_or_slash) << 16;
#endif
}

/// `pt_backslashes_u_slash16` of the 16 bytes at `src`, which are also copied to `dst` (the two
/// must not overlap): a canonical re-escape copies the two-byte escapes that are already
/// canonical (`\"`, `\n`...) with the text around them, and stops at the `\u` and `\/` it
/// rewrites.
static inline uint32_t pt_copy16_backslashes_u_slash(const uint8_t *src, uint8_t *dst) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)src);
  _mm_storeu_si128((__m128i *)dst, bytes);
  return pt_backslashes_u_slash_lanes(bytes);
#else
  for (int i = 0; i < 16; i++) dst[i] = src[i];
  return pt_backslashes_u_slash16(src);
#endif
}

/// Copies the 16 bytes at `src` to `dst` (which must not overlap) and returns, for bytes 0-15,
/// the backslashes in bits 0-15 and the UTF-8 continuation bytes (0x80...0xBF) in bits 16-31:
/// a decoder copies the bytes before the first backslash and counts their scalars (the bytes
/// that are not continuations).
static inline uint32_t pt_copy16_backslashes_continuations(const uint8_t *src, uint8_t *dst) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)src);
  _mm_storeu_si128((__m128i *)dst, bytes);
  uint32_t backslashes =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
  uint32_t continuations = (uint32_t)_mm_movemask_epi8(pt_continuation_lanes(bytes));
  return backslashes | continuations << 16;
#else
  for (int i = 0; i < 16; i++) dst[i] = src[i];
  return pt_mask16_where(src, pt_is_backslash) | pt_mask16_where(src, pt_is_continuation) << 16;
#endif
}

/// Bit i is set when byte i of the 16 at `p` needs an escape in a JSON string: a quote, a
/// backslash or a control byte (0x00...0x1F). The 16 bytes must be readable.
static inline uint32_t pt_escaped16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  return (uint32_t)_mm_movemask_epi8(
      _mm_or_si128(pt_quote_backslash_lanes(bytes), pt_control_lanes(bytes)));
#else
  return pt_mask16_where(p, pt_is_escaped);
#endif
}

/// `pt_escaped16` of the 16 bytes at `src`, which are also copied to `dst` (the two must not
/// overlap): escaping text copies each block and stops at the first byte that needs an escape.
static inline uint32_t pt_copy16_escaped(const uint8_t *src, uint8_t *dst) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)src);
  _mm_storeu_si128((__m128i *)dst, bytes);
  return (uint32_t)_mm_movemask_epi8(
      _mm_or_si128(pt_quote_backslash_lanes(bytes), pt_control_lanes(bytes)));
#else
  for (int i = 0; i < 16; i++) dst[i] = src[i];
  return pt_escaped16(src);
#endif
}

#if defined(__SSE2__)
/// All ones in the lanes of `bytes` that hold an ASCII digit ('0'...'9'). Subtracting 0xB0
/// ('0' + 0x80, modulo 256) maps the digits to 0x80...0x89: as signed bytes -128...-119, exactly
/// the results below -118 (every other byte value lands at -118 or above).
static inline __m128i pt_digit_lanes(__m128i bytes) {
  return _mm_cmplt_epi8(_mm_sub_epi8(bytes, _mm_set1_epi8((char)0xB0)),
                        _mm_set1_epi8((char)0x8A));
}
#endif

/// Bit i is set when byte i of the 16 at `p` is not an ASCII digit ('0'...'9'). The 16 bytes
/// must be readable.
static inline uint32_t pt_nondigits16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i digits = pt_digit_lanes(_mm_loadu_si128((const __m128i *)p));
  return (uint32_t)(~_mm_movemask_epi8(digits)) & 0xFFFFu;
#else
  return pt_mask16_where(p, pt_is_non_digit);
#endif
}

/// The four byte classes a string scan stops at, for the 16 bytes at `p`: bits 0-15 mark the
/// quotes, bits 16-31 the backslashes, bits 32-47 the control bytes (0x00...0x1F) and bits 48-63
/// the non-ASCII bytes (0x80...0xFF), bit i of each group for byte i. The 16 bytes must be
/// readable.
static inline uint64_t pt_string_classes16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  uint64_t quotes = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')));
  uint64_t backslashes = (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
  uint64_t control = (uint16_t)_mm_movemask_epi8(pt_control_lanes(bytes));
  uint64_t high = (uint16_t)_mm_movemask_epi8(bytes);
  return quotes | backslashes << 16 | control << 32 | high << 48;
#else
  return (uint64_t)pt_mask16_where(p, pt_is_quote) |
         (uint64_t)pt_mask16_where(p, pt_is_backslash) << 16 |
         (uint64_t)pt_mask16_where(p, pt_is_control) << 32 |
         (uint64_t)pt_mask16_where(p, pt_is_non_ascii) << 48;
#endif
}

/// Bit i is set when byte i of the 16 at `p` is a letter that may follow a backslash in a
/// two-byte escape: `"`, `\`, `/`, `b`, `f`, `n`, `r` or `t` (`u` is not among them: its escape
/// is six or twelve bytes long). The 16 bytes must be readable.
static inline uint32_t pt_escape_letters16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  __m128i letters = _mm_or_si128(
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))),
                   _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('/')),
                                _mm_cmpeq_epi8(bytes, _mm_set1_epi8('b')))),
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('f')),
                                _mm_cmpeq_epi8(bytes, _mm_set1_epi8('n'))),
                   _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('r')),
                                _mm_cmpeq_epi8(bytes, _mm_set1_epi8('t')))));
  return (uint32_t)_mm_movemask_epi8(letters);
#else
  return pt_mask16_where(p, pt_is_escape_letter);
#endif
}

/// UTF-8 faults of the 16 bytes at `p`, which must start at a character boundary (ASCII, or
/// the lead byte of a sequence). Bits 0-15: bit i is set when byte i breaks Unicode's Table 3-7
/// (well-formed byte sequences) given the bytes before it in the block: a continuation byte
/// where none is due, another byte where one is due (so a sequence cut short by an ASCII byte
/// shows at that byte), a byte no sequence holds (C0, C1, F5...FF), or a second byte out of the
/// range its lead allows (after E0, ED, F0, F4). Bits 16-31: the lead bytes whose sequence runs
/// past byte 15, whose continuation bytes the block cannot check. The 16 bytes must be readable.
static inline uint32_t pt_utf8_faults16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  __m128i continuation = pt_continuation_lanes(bytes);
  // Unsigned "at least": the maximum of the byte and the bound is the byte itself.
  __m128i lead2 = _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8((char)0xC0)), bytes);
  __m128i lead3 = _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8((char)0xE0)), bytes);
  __m128i lead4 = _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8((char)0xF0)), bytes);
  // Byte i must be a continuation when byte i-1 leads a sequence of two or more bytes, byte i-2
  // one of three or more, or byte i-3 one of four (shifting left by k bytes moves byte i-k to
  // lane i; the block starts at a boundary, so nothing is due from before it).
  __m128i due = _mm_or_si128(_mm_or_si128(_mm_slli_si128(lead2, 1), _mm_slli_si128(lead3, 2)),
                             _mm_slli_si128(lead4, 3));
  __m128i faults = _mm_xor_si128(due, continuation);
  // Never in UTF-8: C0 and C1 (overlong leads) and F5...FF.
  faults = _mm_or_si128(faults, _mm_cmpeq_epi8(_mm_and_si128(bytes, _mm_set1_epi8((char)0xFE)),
                                               _mm_set1_epi8((char)0xC0)));
  faults = _mm_or_si128(
      faults, _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8((char)0xF5)), bytes));
  // The second byte's range: A0...BF after E0 (else overlong), 80...9F after ED (else a
  // surrogate), 90...BF after F0 (else overlong), 80...8F after F4 (else above U+10FFFF).
  // Checked only when one of those leads (or any lead of four bytes) has its second byte in the
  // block: CJK text (leads E3...E9) never has them, emoji (F0) often.
  __m128i e0 = _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xE0));
  __m128i ed = _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xED));
  if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(e0, ed), lead4)) & 0x7FFF) {
    __m128i atLeastA0 = _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8((char)0xA0)), bytes);
    __m128i atLeast90 = _mm_cmpeq_epi8(_mm_max_epu8(bytes, _mm_set1_epi8((char)0x90)), bytes);
    __m128i f0 = _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xF0));
    __m128i f4 = _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xF4));
    // Each lead's mask shifted one byte on, to the lane of its second byte.
    faults = _mm_or_si128(faults, _mm_andnot_si128(atLeastA0, _mm_slli_si128(e0, 1)));
    faults = _mm_or_si128(faults, _mm_and_si128(atLeastA0, _mm_slli_si128(ed, 1)));
    faults = _mm_or_si128(faults, _mm_andnot_si128(atLeast90, _mm_slli_si128(f0, 1)));
    faults = _mm_or_si128(faults, _mm_and_si128(atLeast90, _mm_slli_si128(f4, 1)));
  }
  // Open at the end: a lead of two or more bytes at byte 15, of three or more at 14, of four at 13.
  uint32_t open = ((uint32_t)_mm_movemask_epi8(lead2) & 0x8000u) |
                  ((uint32_t)_mm_movemask_epi8(lead3) & 0x4000u) |
                  ((uint32_t)_mm_movemask_epi8(lead4) & 0x2000u);
  return (uint32_t)_mm_movemask_epi8(faults) | open << 16;
#else
  uint32_t faults = 0;
  uint32_t open = 0;
  for (int i = 0; i < 16; i++) {
    uint8_t byte = p[i];
    int due = (i >= 1 && p[i - 1] >= 0xC0) || (i >= 2 && p[i - 2] >= 0xE0) ||
              (i >= 3 && p[i - 3] >= 0xF0);
    int isContinuation = byte >= 0x80 && byte < 0xC0;
    if (due != isContinuation) faults |= 1u << i;
    if (byte == 0xC0 || byte == 0xC1 || byte >= 0xF5) faults |= 1u << i;
    if (i >= 1) {
      uint8_t previous = p[i - 1];
      if ((previous == 0xE0 && byte < 0xA0) || (previous == 0xED && byte >= 0xA0) ||
          (previous == 0xF0 && byte < 0x90) || (previous == 0xF4 && byte >= 0x90))
        faults |= 1u << i;
    }
    if ((i == 15 && byte >= 0xC0) || (i == 14 && byte >= 0xE0) || (i == 13 && byte >= 0xF0))
      open |= 1u << i;
  }
  return faults | open << 16;
#endif
}

/// Bit i is set when byte i of the 16 at `p` is non-ASCII (0x80...0xFF). The 16 bytes must be
/// readable.
static inline uint32_t pt_non_ascii16(const uint8_t *p) {
#if defined(__SSE2__)
  return (uint32_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)p));
#else
  return pt_mask16_where(p, pt_is_non_ascii);
#endif
}

/// Whether the 16 bytes at `p` begin with two `\u` escapes of code units outside the surrogates
/// (`\uXXXX\uXXXX`, hex digits in either case, neither unit in D800...DFFF): text escaped as
/// ASCII-only JSON writes it. Bytes 12-15 are read but not checked. The 16 bytes must be
/// readable.
static inline int pt_two_unicode_escapes16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  uint32_t backslashes =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
  uint32_t us = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('u')));
  // Letters: with bit 5 set (upper case to lower), subtracting 0xE1 maps 'a'...'f' to
  // 0x80...0x85, as signed bytes the only results below -122 (the digit test's trick).
  __m128i digits = pt_digit_lanes(bytes);
  __m128i lower = _mm_or_si128(bytes, _mm_set1_epi8(0x20));
  __m128i letters = _mm_cmplt_epi8(_mm_sub_epi8(lower, _mm_set1_epi8((char)0xE1)),
                                   _mm_set1_epi8((char)0x86));
  uint32_t hex = (uint32_t)_mm_movemask_epi8(_mm_or_si128(digits, letters));
  // Backslashes at 0 and 6, `u` at 1 and 7, hex digits at 2-5 and 8-11.
  if ((backslashes & 0x041u) != 0x041u || (us & 0x082u) != 0x082u || (hex & 0xF3Cu) != 0xF3Cu)
    return 0;
#else
  static const char shape[] = "\\uHHHH\\uHHHH";
  for (int i = 0; i < 12; i++) {
    uint8_t byte = p[i];
    if (shape[i] == 'H') {
      uint8_t lower = byte | 0x20;
      if (!((byte >= '0' && byte <= '9') || (lower >= 'a' && lower <= 'f'))) return 0;
    } else if (byte != (uint8_t)shape[i]) {
      return 0;
    }
  }
#endif
  // A surrogate unit's first digit is d or D and its second 8 or above (digits and lower-case
  // letters both compare above '8' from '8' on).
  if ((p[2] | 0x20) == 'd' && (p[3] | 0x20) >= '8') return 0;
  if ((p[8] | 0x20) == 'd' && (p[9] | 0x20) >= '8') return 0;
  return 1;
}
