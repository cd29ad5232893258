// CRC-32 (the gzip polynomial, bit-reflected) folded 64 bytes at a time with carry-less
// multiplication: the method of Gopal et al., "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ Instruction" (Intel, 2009). Four 128-bit accumulators each advance by 512
// bits per step: acc' = clmul(acc.lo, x^(512+64) mod P) ^ clmul(acc.hi, x^512 mod P) ^ next,
// which keeps acc congruent, modulo P, to everything folded so far. The last 64 bytes of
// accumulators stand in for the input, so the caller finishes with zlib's table CRC over them
// (no Barrett reduction here).

#include "CCRCFold.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("pclmul,sse4.1"))) static size_t fold_pclmul(
    const uint8_t *data, size_t length, uint32_t state, uint8_t block[64]) {
  // x^(4*128+64) mod P and x^(4*128) mod P, bit-reflected (33 bits each).
  const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
  // Safe because the caller guarantees length >= 64, and each loop step reads the 64 bytes
  // at `data` only while at least 64 remain (unaligned loads).
  __m128i a0 = _mm_loadu_si128((const __m128i *)(data + 0));
  __m128i a1 = _mm_loadu_si128((const __m128i *)(data + 16));
  __m128i a2 = _mm_loadu_si128((const __m128i *)(data + 32));
  __m128i a3 = _mm_loadu_si128((const __m128i *)(data + 48));
  // The register's starting value enters as the first 32 bits of the message.
  a0 = _mm_xor_si128(a0, _mm_cvtsi32_si128((int)state));
  size_t done = 64;
  while (length - done >= 64) {
    const uint8_t *next = data + done;
    __m128i l0 = _mm_clmulepi64_si128(a0, k1k2, 0x00);
    __m128i l1 = _mm_clmulepi64_si128(a1, k1k2, 0x00);
    __m128i l2 = _mm_clmulepi64_si128(a2, k1k2, 0x00);
    __m128i l3 = _mm_clmulepi64_si128(a3, k1k2, 0x00);
    a0 = _mm_clmulepi64_si128(a0, k1k2, 0x11);
    a1 = _mm_clmulepi64_si128(a1, k1k2, 0x11);
    a2 = _mm_clmulepi64_si128(a2, k1k2, 0x11);
    a3 = _mm_clmulepi64_si128(a3, k1k2, 0x11);
    a0 = _mm_xor_si128(_mm_xor_si128(a0, l0), _mm_loadu_si128((const __m128i *)(next + 0)));
    a1 = _mm_xor_si128(_mm_xor_si128(a1, l1), _mm_loadu_si128((const __m128i *)(next + 16)));
    a2 = _mm_xor_si128(_mm_xor_si128(a2, l2), _mm_loadu_si128((const __m128i *)(next + 32)));
    a3 = _mm_xor_si128(_mm_xor_si128(a3, l3), _mm_loadu_si128((const __m128i *)(next + 48)));
    done += 64;
  }
  // Safe because `block` holds 64 bytes (the caller's contract).
  _mm_storeu_si128((__m128i *)(block + 0), a0);
  _mm_storeu_si128((__m128i *)(block + 16), a1);
  _mm_storeu_si128((__m128i *)(block + 32), a2);
  _mm_storeu_si128((__m128i *)(block + 48), a3);
  return done;
}

size_t push_transcode_crc32_fold(
    const uint8_t *data, size_t length, uint32_t state, uint8_t block[64]) {
  // Probed once; threads that race here store the same answer (relaxed atomics: no data race).
  static int probed = -1;
  int supported = __atomic_load_n(&probed, __ATOMIC_RELAXED);
  if (supported < 0) {
    __builtin_cpu_init();
    supported = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    __atomic_store_n(&probed, supported, __ATOMIC_RELAXED);
  }
  if (!supported || length < 64) return 0;
  return fold_pclmul(data, length, state, block);
}

#else

size_t push_transcode_crc32_fold(
    const uint8_t *data, size_t length, uint32_t state, uint8_t block[64]) {
  (void)data;
  (void)length;
  (void)state;
  (void)block;
  return 0;
}

#endif
