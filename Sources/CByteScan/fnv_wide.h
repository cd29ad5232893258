// FNV-1a over many lines at once with AVX-512 (the vivo line hash, SPEC 9 [4]), behind a run-time
// check: `FNV1a.hashes` in Swift calls it where the CPU and the OS support AVX-512F, BW and DQ
// (and BMI2).
//
// FNV-1a is one dependent multiply per byte, so one line is bound by the multiplier's latency.
// Here 32 lines are hashed side by side, eight in each of four 512-bit registers of states, 64
// bytes of each line per round: a group's eight 64-byte blocks are loaded and transposed (8 x 8
// quadwords), so that each step takes byte k of quadword j of the eight lines with one byte
// shuffle, then xors and multiplies the eight states at once (`vpmullq`). The four groups' steps
// are interleaved, so their multiplies overlap.
//
// A line's last block (fewer than 64 bytes) is copied once into a zero-filled block of the
// lane's own (a masked load, `vmovdqu8` with a byte mask, reads nothing past the line and
// cannot fault there; masked loads in every round would take as long as the rest of a round).
// The steps then run over its zeros as over any other byte: a zero byte leaves the state times
// the FNV prime, and the prime is odd, so when the line ends its state is multiplied by the
// prime's inverse once for each of those steps. A lane thus finishes its line whole and takes
// the next. The kernel stops once fewer than a quarter of the lanes have a line (at the end of
// the lines, where lanes would otherwise idle) and lists the lines it did not finish with how far it
// got in each (a multiple of 64 bytes; 0, with the FNV-1a basis, for a line it did not reach):
// the caller hashes the rest of those.
//
// SwiftPM does not see this header as a dependency of the Swift files that use it: after an edit,
// touch `Sources/PushTranscoder/Support/FNV1a.swift` so that they are compiled again.
#ifndef PT_FNV_WIDE_H
#define PT_FNV_WIDE_H

#include <stdint.h>

/// One line, laid out as Swift's `UnsafeBufferPointer<UInt8>` (start, count).
typedef struct {
  const uint8_t *start;
  intptr_t count;
} pt_line;

#if defined(__x86_64__) && defined(__clang__)
#include <cpuid.h>
#include <immintrin.h>

/// True when the CPU has AVX-512F, BW and DQ and BMI2, and the OS saves the 512-bit state.
static inline int pt_fnv1a_wide_available(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;  // OSXSAVE
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  // XMM, YMM, the opmask registers and both halves of the ZMM state.
  if ((lo & 0xE6) != 0xE6) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  // AVX-512F (16), AVX-512DQ (17), AVX-512BW (30), BMI2 (8).
  return (b & (1u << 16)) && (b & (1u << 17)) && (b & (1u << 30)) && (b & (1u << 8));
}

/// See the comment at the top: `states[i]` is line i's hash, or for the lines the kernel did not
/// finish (the returned number of them) its state after `consumed[k]` bytes, `k` the position
/// of `i` in `unfinished`. `lines` holds `count` lines; `states`, `unfinished` and `consumed`
/// have room for `count` values each. Only the lines' bytes are read.
__attribute__((target("avx512f,avx512bw,avx512dq,bmi2"))) static inline intptr_t pt_fnv1a_wide(
    const pt_line *lines, intptr_t count, uint64_t *states, intptr_t *unfinished,
    intptr_t *consumed) {
  enum { lanes = 32 };
  const uint64_t basis = 0xcbf29ce484222325ULL;
  // Per lane: where its line's next block starts and how far a round moves it (64, or 0 for a
  // lane without a line), what the round loads (that block, a copy of the line's last bytes, or
  // zeros), the bytes left (a lane without a line never runs short), and the line's index (-1:
  // none). Addresses as integers: a position moves past its line's end before the lane is
  // given the next line, and is never read there.
  uintptr_t position[lanes];
  intptr_t stride[lanes];
  uintptr_t cursor[lanes];
  int64_t left[lanes];
  intptr_t line[lanes];
  // A line's last block (fewer than 64 bytes) is copied here, zero-filled, once: a masked load
  // in every round would take as long as the rest of the round.
  uint8_t tail[lanes][64] __attribute__((aligned(64)));
  static const uint8_t zeros[64] __attribute__((aligned(64))) = {0};
  uint64_t lane_state[lanes] __attribute__((aligned(64)));
  intptr_t next = 0;
  int active = 0;
  // Points a lane that has fewer than 64 bytes left at a zero-filled copy of them (a masked
  // load reads nothing past the line and cannot fault).
#define PT_FNV_COPY_TAIL(lane)                                                            \
  do {                                                                                    \
    _mm512_store_si512(tail[lane],                                                        \
        _mm512_maskz_loadu_epi8(                                                          \
            _bzhi_u64(~0ULL, (unsigned)left[lane]), (const void *)position[lane]));      \
    cursor[lane] = (uintptr_t)tail[lane];                                                 \
  } while (0)
  // Gives `lane` the next line with bytes (an empty line's state is the basis, stored at once),
  // or no line.
#define PT_FNV_TAKE(lane)                                                        \
  do {                                                                           \
    while (next < count && lines[next].count == 0) states[next++] = basis;       \
    if (next < count) {                                                          \
      line[lane] = next;                                                         \
      position[lane] = cursor[lane] = (uintptr_t)lines[next].start;              \
      stride[lane] = 64;                                                         \
      left[lane] = lines[next].count;                                            \
      if (left[lane] < 64) PT_FNV_COPY_TAIL(lane);                               \
      next++;                                                                    \
      active++;                                                                  \
    } else {                                                                     \
      line[lane] = -1;                                                           \
      position[lane] = cursor[lane] = (uintptr_t)zeros;                          \
      stride[lane] = 0;                                                          \
      left[lane] = INT64_MAX;                                                    \
    }                                                                            \
  } while (0)
  for (int lane = 0; lane < lanes; lane++) PT_FNV_TAKE(lane);
  const __m512i start = _mm512_set1_epi64((long long)basis);
  // The states, the shuffle patterns and a round's columns are named values, not arrays, and
  // the loops over them are written out: the Swift compiler's pipeline, which compiles this
  // header, does not unroll them, and indexed states would go through memory at every step.
  // byteK: byte K of each quadword into the quadword's low byte, the rest zero (the shuffle
  // indexes within each 128-bit lane, so odd quadwords take 8 + K).
#define PT_FNV_PATTERN(k)                                                          \
  _mm512_set_epi64(0x8080808080808000LL | (8 + k), 0x8080808080808000LL | (k),     \
      0x8080808080808000LL | (8 + k), 0x8080808080808000LL | (k),                  \
      0x8080808080808000LL | (8 + k), 0x8080808080808000LL | (k),                  \
      0x8080808080808000LL | (8 + k), 0x8080808080808000LL | (k))
  const __m512i byte0 = PT_FNV_PATTERN(0), byte1 = PT_FNV_PATTERN(1);
  const __m512i byte2 = PT_FNV_PATTERN(2), byte3 = PT_FNV_PATTERN(3);
  const __m512i byte4 = PT_FNV_PATTERN(4), byte5 = PT_FNV_PATTERN(5);
  const __m512i byte6 = PT_FNV_PATTERN(6), byte7 = PT_FNV_PATTERN(7);
#undef PT_FNV_PATTERN
  const __m512i multiplier = _mm512_set1_epi64(0x100000001b3LL);
  __m512i s0 = start, s1 = start, s2 = start, s3 = start;
#define PT_FNV_STORE_STATES()                \
  do {                                       \
    _mm512_store_si512(lane_state, s0);      \
    _mm512_store_si512(lane_state + 8, s1);  \
    _mm512_store_si512(lane_state + 16, s2); \
    _mm512_store_si512(lane_state + 24, s3); \
  } while (0)
  // column[g][j]: quadword j of group g's eight blocks, lane l's in quadword l.
  __m512i column[4][8] __attribute__((aligned(64)));
  // The 8 x 8 quadword transpose of group g's eight 64-byte blocks.
#define PT_FNV_LOAD(g, l) _mm512_loadu_si512((const void *)cursor[8 * g + l])
#define PT_FNV_TRANSPOSE(g)                                                                  \
  do {                                                                                       \
    __m512i v0 = PT_FNV_LOAD(g, 0), v1 = PT_FNV_LOAD(g, 1), v2 = PT_FNV_LOAD(g, 2);          \
    __m512i v3 = PT_FNV_LOAD(g, 3), v4 = PT_FNV_LOAD(g, 4), v5 = PT_FNV_LOAD(g, 5);          \
    __m512i v6 = PT_FNV_LOAD(g, 6), v7 = PT_FNV_LOAD(g, 7);                                  \
    /* Per 128-bit lane i: (v_l, v_l+1) quadwords 2i (lo) and 2i + 1 (hi). */                \
    __m512i a0 = _mm512_unpacklo_epi64(v0, v1), a1 = _mm512_unpackhi_epi64(v0, v1);          \
    __m512i a2 = _mm512_unpacklo_epi64(v2, v3), a3 = _mm512_unpackhi_epi64(v2, v3);          \
    __m512i a4 = _mm512_unpacklo_epi64(v4, v5), a5 = _mm512_unpackhi_epi64(v4, v5);          \
    __m512i a6 = _mm512_unpacklo_epi64(v6, v7), a7 = _mm512_unpackhi_epi64(v6, v7);          \
    /* 128-bit lanes 0 and 2 (0x88) or 1 and 3 (0xDD) of each, then of the other. */         \
    __m512i b0 = _mm512_shuffle_i64x2(a0, a2, 0x88), b2 = _mm512_shuffle_i64x2(a0, a2, 0xDD); \
    __m512i b1 = _mm512_shuffle_i64x2(a1, a3, 0x88), b3 = _mm512_shuffle_i64x2(a1, a3, 0xDD); \
    __m512i b4 = _mm512_shuffle_i64x2(a4, a6, 0x88), b6 = _mm512_shuffle_i64x2(a4, a6, 0xDD); \
    __m512i b5 = _mm512_shuffle_i64x2(a5, a7, 0x88), b7 = _mm512_shuffle_i64x2(a5, a7, 0xDD); \
    column[g][0] = _mm512_shuffle_i64x2(b0, b4, 0x88);                                       \
    column[g][4] = _mm512_shuffle_i64x2(b0, b4, 0xDD);                                       \
    column[g][1] = _mm512_shuffle_i64x2(b1, b5, 0x88);                                       \
    column[g][5] = _mm512_shuffle_i64x2(b1, b5, 0xDD);                                       \
    column[g][2] = _mm512_shuffle_i64x2(b2, b6, 0x88);                                       \
    column[g][6] = _mm512_shuffle_i64x2(b2, b6, 0xDD);                                       \
    column[g][3] = _mm512_shuffle_i64x2(b3, b7, 0x88);                                       \
    column[g][7] = _mm512_shuffle_i64x2(b3, b7, 0xDD);                                       \
  } while (0)
  // One byte of every lane, the four groups side by side so that their multiplies overlap.
#define PT_FNV_XOR(s, c, pattern) _mm512_xor_si512(s, _mm512_shuffle_epi8(c, pattern))
#define PT_FNV_STEP(pattern)                                                    \
  s0 = _mm512_mullo_epi64(PT_FNV_XOR(s0, c0, pattern), multiplier);             \
  s1 = _mm512_mullo_epi64(PT_FNV_XOR(s1, c1, pattern), multiplier);             \
  s2 = _mm512_mullo_epi64(PT_FNV_XOR(s2, c2, pattern), multiplier);             \
  s3 = _mm512_mullo_epi64(PT_FNV_XOR(s3, c3, pattern), multiplier)
  // inverse[m]: the FNV prime's inverse modulo 2^64 to the power m, which takes m steps over
  // zero bytes back off a state (Newton's iteration: each doubles the correct low bits).
  uint64_t inverse[64];
  {
    const uint64_t prime = 0x100000001b3ULL;
    uint64_t x = prime;
    for (int i = 0; i < 5; i++) x *= 2 - prime * x;
    inverse[0] = 1;
    for (int m = 1; m < 64; m++) inverse[m] = inverse[m - 1] * x;
  }
  while (4 * active >= lanes) {
    PT_FNV_TRANSPOSE(0);
    PT_FNV_TRANSPOSE(1);
    PT_FNV_TRANSPOSE(2);
    PT_FNV_TRANSPOSE(3);
    for (int j = 0; j < 8; j++) {
      const __m512i c0 = column[0][j], c1 = column[1][j], c2 = column[2][j], c3 = column[3][j];
      PT_FNV_STEP(byte0);
      PT_FNV_STEP(byte1);
      PT_FNV_STEP(byte2);
      PT_FNV_STEP(byte3);
      PT_FNV_STEP(byte4);
      PT_FNV_STEP(byte5);
      PT_FNV_STEP(byte6);
      PT_FNV_STEP(byte7);
    }
    // On to the next block of each lane, in a loop without branches; the few lanes that ran
    // short are settled after it: a line's last bytes are copied, and a line with none left
    // has ended.
    uint32_t short_lanes = 0;
    for (int lane = 0; lane < lanes; lane++) {
      left[lane] -= stride[lane];
      position[lane] += (uintptr_t)stride[lane];
      cursor[lane] = position[lane];
      short_lanes |= (uint32_t)(left[lane] < 64) << lane;
    }
    uint32_t ended = 0;
    for (uint32_t bits = short_lanes; bits != 0; bits &= bits - 1) {
      const int lane = __builtin_ctz(bits);
      if (left[lane] > 0) {
        PT_FNV_COPY_TAIL(lane);
      } else {
        ended |= 1u << lane;
      }
    }
    if (!ended) continue;
    // The lanes whose line ended: its state out, the next line in, the lane's state back to the
    // basis (in the registers: scalar stores read back by a vector load would stall).
    PT_FNV_STORE_STATES();
    for (uint32_t bits = ended; bits != 0; bits &= bits - 1) {
      const int lane = __builtin_ctz(bits);
      // The last block held 64 + left bytes of the line: -left steps ran over zeros.
      states[line[lane]] = lane_state[lane] * inverse[-left[lane]];
      active--;
      PT_FNV_TAKE(lane);
    }
    s0 = _mm512_mask_mov_epi64(s0, (__mmask8)ended, start);
    s1 = _mm512_mask_mov_epi64(s1, (__mmask8)(ended >> 8), start);
    s2 = _mm512_mask_mov_epi64(s2, (__mmask8)(ended >> 16), start);
    s3 = _mm512_mask_mov_epi64(s3, (__mmask8)(ended >> 24), start);
  }
  // Lines still in a lane (their whole blocks so far), and lines not reached.
  PT_FNV_STORE_STATES();
  intptr_t unfinished_count = 0;
  for (int lane = 0; lane < lanes; lane++) {
    if (line[lane] < 0) continue;
    states[line[lane]] = lane_state[lane];
    unfinished[unfinished_count] = line[lane];
    consumed[unfinished_count++] = lines[line[lane]].count - left[lane];
  }
  for (; next < count; next++) {
    states[next] = basis;
    unfinished[unfinished_count] = next;
    consumed[unfinished_count++] = 0;
  }
  return unfinished_count;
#undef PT_FNV_TAKE
#undef PT_FNV_COPY_TAIL
#undef PT_FNV_STORE_STATES
#undef PT_FNV_LOAD
#undef PT_FNV_TRANSPOSE
#undef PT_FNV_XOR
#undef PT_FNV_STEP
}

#else

static inline int pt_fnv1a_wide_available(void) { return 0; }

static inline intptr_t pt_fnv1a_wide(
    const pt_line *lines, intptr_t count, uint64_t *states, intptr_t *unfinished,
    intptr_t *consumed) {
  (void)lines;
  for (intptr_t i = 0; i < count; i++) {
    states[i] = 0xcbf29ce484222325ULL;
    unfinished[i] = i;
    consumed[i] = 0;
  }
  return count;
}

#endif
#endif
