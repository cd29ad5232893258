#ifndef CCRCFOLD_H
#define CCRCFOLD_H

#include <stddef.h>
#include <stdint.h>

/// Folds the whole 64-byte blocks at the start of `data` (at least 64 bytes) into 64 bytes
/// written to `block`, with PCLMULQDQ: the CRC-32 register `state` (zlib's value, inverted)
/// run over `data[0 ..< returned]` equals a register of 0 run over `block`, so
/// `crc32(crc32(0xFFFFFFFF, block, 64), rest)` continues the checksum. Returns the bytes
/// folded (a multiple of 64), or 0 when the CPU lacks PCLMULQDQ or `length < 64`; the caller
/// then checksums `data` in full the usual way.
size_t push_transcode_crc32_fold(
    const uint8_t *data, size_t length, uint32_t state, uint8_t block[64]);

#endif
