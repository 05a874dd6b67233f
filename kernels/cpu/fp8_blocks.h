// FP8 weights (DType::kFP8): a row is blocks of kFp8Block (128) values, each an fp32 scale then
// 128 OCP e4m3 codes (fp8_e4m3.h); value = scale * e4m3(code). One scale per 128 values of a
// row holds every layout Hugging Face FP8 checkpoints use exactly: a per-tensor or per-channel
// scale repeats, and a DeepSeek-V3 128x128 block's scale is its 128 rows' scale for those
// columns. The codes are the checkpoint's, byte for byte.
#pragma once

#include <cstdint>

namespace infergate {

// One block from 128 values: scale = amax / 448 (0 for zeros), codes rounded to nearest even.
void quantize_block_fp8(const float* x, uint8_t* block);
void dequantize_block_fp8(const uint8_t* block, float* out);

// A block from a checkpoint's codes and scale, as they are.
void make_block_fp8(const uint8_t* codes, float scale, uint8_t* block);

// x [n, k] (k a multiple of 128) into fp8 rows with one scale per 128x128 tile (rows 128 i ..
// 128 i + 127, columns 128 j ..), the tile's amax / 448: DeepSeek-V3's weight_block_size
// [128, 128], so the result writes back as such a checkpoint (safetensors_writer.h).
void quantize_fp8_tiles(const float* x, int64_t n, int64_t k, uint8_t* out);

}  // namespace infergate
