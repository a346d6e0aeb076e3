/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The firmware's C API (tma/tma_fw.h) from pure C99 (built with -std=c99 -pedantic -Werror).
 * Expected bytes derived by hand from docs/descriptor.md's field table; exit status 0 = pass.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tma/tma_fw.h"

static int failures = 0;

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: CHECK(%s)\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                       \
    }                                                                   \
  } while (0)

static uint8_t byte_at(const tma_fw_tensor_map_t* m, int i) {
  return (uint8_t)(m->opaque[i / 8] >> (8 * (i % 8)));
}

/* u16, rank 2, 64 x 8 box of a 64 x 8 tensor at 0x10000, row stride 128 B, no swizzle. */
static void tiled_u16(void) {
  const uint64_t dims[2] = {64, 8};
  const uint64_t strides[1] = {128};
  const uint32_t box[2] = {64, 8};
  const uint32_t es[2] = {1, 1};
  tma_fw_tensor_map_t m;
  tma_fw_violation_t why;
  uint8_t want[128];
  int i;
  memset(&m, 0xa5, sizeof m);
  CHECK(tma_fw_encode_tiled(&m, TMA_FW_DATA_TYPE_UINT16, 2, 0x10000, dims, strides, box, es,
                            TMA_FW_INTERLEAVE_NONE, TMA_FW_SWIZZLE_NONE, TMA_FW_L2_PROMOTION_NONE,
                            TMA_FW_FLOAT_OOB_FILL_NONE, TMA_FW_ARCH_SM90, &why) == TMA_FW_SUCCESS);
  CHECK(why.rule == 0);
  memset(want, 0, sizeof want);
  want[2] = 0x01;  /* bits 0-63: global address 0x10000 */
  want[8] = 0x90;  /* bits 68-70: rank - 1 = 1; bits 71-74: format code 1 (u16) */
  want[12] = 0x08; /* bits 96-127: globalStrides[0] / 16 = 8 */
  want[32] = 0x3f; /* bits 256-287: globalDim[0] - 1 = 63 */
  want[36] = 0x07; /* bits 288-319: globalDim[1] - 1 = 7 */
  want[55] = 0x3f; /* bits 440-447: boxDim[0] - 1 = 63 */
  want[56] = 0x07; /* bits 448-455: boxDim[1] - 1 = 7 */
  want[65] = 0x04; /* bits 512-543: box bytes 64 x 8 x 2 = 1024 */
  want[72] = 0x10; /* bits 576-607: swizzle repeat of none = 16 */
  for (i = 0; i < 128; ++i) {
    if (byte_at(&m, i) != want[i]) {
      fprintf(stderr, "byte %d: got 0x%02x want 0x%02x\n", i, byte_at(&m, i), want[i]);
      ++failures;
    }
  }
}

/* boxDim[0] = 300 breaks rule 11; the map is left all zero. */
static void rejected(void) {
  const uint64_t dims[1] = {1024};
  const uint32_t box[1] = {300};
  const uint32_t es[1] = {1};
  tma_fw_tensor_map_t m;
  tma_fw_violation_t why;
  int i;
  memset(&m, 0xa5, sizeof m);
  CHECK(tma_fw_encode_tiled(&m, TMA_FW_DATA_TYPE_UINT8, 1, 0, dims, NULL, box, es,
                            TMA_FW_INTERLEAVE_NONE, TMA_FW_SWIZZLE_NONE, TMA_FW_L2_PROMOTION_NONE,
                            TMA_FW_FLOAT_OOB_FILL_NONE, TMA_FW_ARCH_SM90,
                            &why) == TMA_FW_ERROR_INVALID_VALUE);
  CHECK(why.rule == 11);
  CHECK(strcmp(why.field, "boxDim[0]") == 0);
  CHECK(strstr(why.message, "300") != NULL);
  for (i = 0; i < 128; ++i)
    CHECK(byte_at(&m, i) == 0);
  /* NULL diagnostic is allowed; an enum value beyond 8 bits is rejected, not wrapped. */
  CHECK(tma_fw_encode_tiled(&m, (tma_fw_data_type_t)256, 1, 0, dims, NULL, box, es,
                            TMA_FW_INTERLEAVE_NONE, TMA_FW_SWIZZLE_NONE, TMA_FW_L2_PROMOTION_NONE,
                            TMA_FW_FLOAT_OOB_FILL_NONE, TMA_FW_ARCH_SM90,
                            NULL) == TMA_FW_ERROR_INVALID_VALUE);
}

/* im2col-wide exists from sm_100 on (rule 21); im2col needs rank >= 3 (rule 2). */
static void im2col(void) {
  const uint64_t dims[3] = {64, 16, 4};
  const uint64_t strides[2] = {128, 2048};
  const uint32_t es[3] = {1, 1, 1};
  const int lo[1] = {0};
  const int hi[1] = {0};
  tma_fw_tensor_map_t m;
  tma_fw_violation_t why;
  CHECK(tma_fw_encode_im2col_wide(&m, TMA_FW_DATA_TYPE_UINT16, 3, 0, dims, strides, 0, 0, 64, 16,
                                  es, TMA_FW_INTERLEAVE_NONE, TMA_FW_IM2COL_WIDE_MODE_W,
                                  TMA_FW_SWIZZLE_128B, TMA_FW_L2_PROMOTION_NONE,
                                  TMA_FW_FLOAT_OOB_FILL_NONE, TMA_FW_ARCH_SM90,
                                  &why) == TMA_FW_ERROR_INVALID_VALUE);
  CHECK(why.rule == 21);
  CHECK(tma_fw_encode_im2col(&m, TMA_FW_DATA_TYPE_UINT16, 2, 0, dims, strides, lo, hi, 64, 16, es,
                             TMA_FW_INTERLEAVE_NONE, TMA_FW_SWIZZLE_NONE, TMA_FW_L2_PROMOTION_NONE,
                             TMA_FW_FLOAT_OOB_FILL_NONE, TMA_FW_ARCH_SM90,
                             &why) == TMA_FW_ERROR_INVALID_VALUE);
  CHECK(why.rule == 2);
  CHECK(strcmp(why.field, "tensorRank") == 0);
}

static void names(void) {
  CHECK(strcmp(tma_fw_data_type_name(TMA_FW_DATA_TYPE_BFLOAT16), "bf16") == 0);
  CHECK(strcmp(tma_fw_swizzle_name(TMA_FW_SWIZZLE_128B_ATOM_64B), "128B_atom_64B") == 0);
  CHECK(strcmp(tma_fw_arch_name(TMA_FW_ARCH_SM103), "sm_103") == 0);
}

int main(void) {
  tiled_u16();
  rejected();
  im2col();
  names();
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
