// Byte-class masks of 16 bytes, for the tokenizer's string and number scans and the canonical
// re-escape.
// Swift's SIMD types have no bitmask extraction on the baseline x86-64 target, but SSE2 (part of
// that baseline) has one: `pmovmskb`. These functions are `static inline`, so the Swift compiler
// inlines them.
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Bit i is set when byte i of the 16 at `p` is a quote, a backslash, a control byte
/// (0x00...0x1F) or a non-ASCII byte (0x80...0xFF). The 16 bytes must be readable.
static inline uint32_t pt_string_specials16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  __m128i quotes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'));
  __m128i backslashes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'));
  // As signed bytes, control and non-ASCII bytes are exactly those below 0x20.
  __m128i low = _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20));
  return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), low));
#else
  uint32_t mask = 0;
  for (int i = 0; i < 16; i++) {
    uint8_t byte = p[i];
    if (byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80) mask |= 1u << i;
  }
  return mask;
#endif
}

/// Copies the 16 bytes at `src` to `dst` and returns the mask of the backslashes among them (bit
/// i for byte i). Both must hold 16 bytes, and they must not overlap.
static inline uint32_t pt_copy16_backslashes(const uint8_t *src, uint8_t *dst) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)src);
  _mm_storeu_si128((__m128i *)dst, bytes);
  return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')));
#else
  uint32_t mask = 0;
  for (int i = 0; i < 16; i++) {
    dst[i] = src[i];
    if (src[i] == '\\') mask |= 1u << i;
  }
  return mask;
#endif
}

/// Bit i is set when byte i of the 16 at `p` is not an ASCII digit ('0'...'9'). The 16 bytes
/// must be readable.
static inline uint32_t pt_nondigits16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  // Subtracting 0xB0 ('0' + 0x80, modulo 256) maps the digits to 0x80...0x89: as signed bytes
  // -128...-119, exactly the results below -118 (every other byte value lands at -118 or above).
  __m128i shifted = _mm_sub_epi8(bytes, _mm_set1_epi8((char)0xB0));
  __m128i digits = _mm_cmplt_epi8(shifted, _mm_set1_epi8((char)0x8A));
  return (uint32_t)(~_mm_movemask_epi8(digits)) & 0xFFFFu;
#else
  uint32_t mask = 0;
  for (int i = 0; i < 16; i++) {
    if ((uint8_t)(p[i] - '0') >= 10) mask |= 1u << i;
  }
  return mask;
#endif
}
