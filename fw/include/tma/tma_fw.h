/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C API of the OpenTMA firmware's tensor-map encoder (C99; the C++ API is
 * tma/fw/encoder.h, which this wraps). The three encoders take the CUDA driver's parameters
 * (cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col / cuTensorMapEncodeIm2colWide), in the
 * driver's order, with the driver's enum values, plus the target architecture and an optional
 * diagnostic; they return the driver's verdict (TMA_FW_SUCCESS, or
 * TMA_FW_ERROR_INVALID_VALUE = CUDA_ERROR_INVALID_VALUE) and the driver's 128 bytes.
 * Link with tma_fw_c (CMake), which brings tma_fw_encoder and the C++ runtime.
 */
#ifndef TMA_TMA_FW_H_
#define TMA_TMA_FW_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TMA_FW_SUCCESS = 0, TMA_FW_ERROR_INVALID_VALUE = 1 } tma_fw_result_t;

typedef enum { /* CUtensorMapDataType */
               TMA_FW_DATA_TYPE_UINT8 = 0,
               TMA_FW_DATA_TYPE_UINT16 = 1,
               TMA_FW_DATA_TYPE_UINT32 = 2,
               TMA_FW_DATA_TYPE_INT32 = 3,
               TMA_FW_DATA_TYPE_UINT64 = 4,
               TMA_FW_DATA_TYPE_INT64 = 5,
               TMA_FW_DATA_TYPE_FLOAT16 = 6,
               TMA_FW_DATA_TYPE_FLOAT32 = 7,
               TMA_FW_DATA_TYPE_FLOAT64 = 8,
               TMA_FW_DATA_TYPE_BFLOAT16 = 9,
               TMA_FW_DATA_TYPE_FLOAT32_FTZ = 10,
               TMA_FW_DATA_TYPE_TFLOAT32 = 11,
               TMA_FW_DATA_TYPE_TFLOAT32_FTZ = 12,
               TMA_FW_DATA_TYPE_16U4_ALIGN8B = 13,
               TMA_FW_DATA_TYPE_16U4_ALIGN16B = 14,
               TMA_FW_DATA_TYPE_16U6_ALIGN16B = 15
} tma_fw_data_type_t;

typedef enum { /* CUtensorMapInterleave */
               TMA_FW_INTERLEAVE_NONE = 0,
               TMA_FW_INTERLEAVE_16B = 1,
               TMA_FW_INTERLEAVE_32B = 2
} tma_fw_interleave_t;

typedef enum { /* CUtensorMapSwizzle; 96B (sm_103) has no driver value and is 7 here */
               TMA_FW_SWIZZLE_NONE = 0,
               TMA_FW_SWIZZLE_32B = 1,
               TMA_FW_SWIZZLE_64B = 2,
               TMA_FW_SWIZZLE_128B = 3,
               TMA_FW_SWIZZLE_128B_ATOM_32B = 4,
               TMA_FW_SWIZZLE_128B_ATOM_32B_FLIP_8B = 5,
               TMA_FW_SWIZZLE_128B_ATOM_64B = 6,
               TMA_FW_SWIZZLE_96B = 7
} tma_fw_swizzle_t;

typedef enum { /* CUtensorMapL2promotion */
               TMA_FW_L2_PROMOTION_NONE = 0,
               TMA_FW_L2_PROMOTION_L2_64B = 1,
               TMA_FW_L2_PROMOTION_L2_128B = 2,
               TMA_FW_L2_PROMOTION_L2_256B = 3
} tma_fw_l2_promotion_t;

typedef enum { /* CUtensorMapFloatOOBfill */
               TMA_FW_FLOAT_OOB_FILL_NONE = 0,
               TMA_FW_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1
} tma_fw_oob_fill_t;

typedef enum { /* CUtensorMapIm2ColWideMode */
               TMA_FW_IM2COL_WIDE_MODE_W = 0,
               TMA_FW_IM2COL_WIDE_MODE_W128 = 1
} tma_fw_im2col_wide_mode_t;

/* The device the map is for: sm_90 measured; sm_100 / sm_103 unverified on silicon. */
typedef enum { TMA_FW_ARCH_SM90 = 0, TMA_FW_ARCH_SM100 = 1, TMA_FW_ARCH_SM103 = 2 } tma_fw_arch_t;

/* The 128 bytes of a CUtensorMap (little-endian fields, docs/descriptor.md). */
typedef struct {
  uint64_t opaque[16];
} tma_fw_tensor_map_t;

/* Why a map was rejected: the rule number (silicon-findings.md "Encoder rules"; 0 when
 * accepted), the driver parameter ("boxDim[1]") and a sentence, both NUL-terminated and cut to
 * fit. */
typedef struct {
  int rule;
  char field[40];
  char message[200];
} tma_fw_violation_t;

/* `why` may be NULL. On a rejection *tensor_map is all zero. */
tma_fw_result_t tma_fw_encode_tiled(tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type,
                                    uint32_t rank, uint64_t global_address,
                                    const uint64_t* global_dim, const uint64_t* global_strides,
                                    const uint32_t* box_dim, const uint32_t* element_strides,
                                    tma_fw_interleave_t interleave, tma_fw_swizzle_t swizzle,
                                    tma_fw_l2_promotion_t l2_promotion, tma_fw_oob_fill_t oob_fill,
                                    tma_fw_arch_t arch, tma_fw_violation_t* why);

tma_fw_result_t tma_fw_encode_im2col(tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type,
                                     uint32_t rank, uint64_t global_address,
                                     const uint64_t* global_dim, const uint64_t* global_strides,
                                     const int* pixel_box_lower_corner,
                                     const int* pixel_box_upper_corner, uint32_t channels_per_pixel,
                                     uint32_t pixels_per_column, const uint32_t* element_strides,
                                     tma_fw_interleave_t interleave, tma_fw_swizzle_t swizzle,
                                     tma_fw_l2_promotion_t l2_promotion, tma_fw_oob_fill_t oob_fill,
                                     tma_fw_arch_t arch, tma_fw_violation_t* why);

tma_fw_result_t tma_fw_encode_im2col_wide(
    tma_fw_tensor_map_t* tensor_map, tma_fw_data_type_t data_type, uint32_t rank,
    uint64_t global_address, const uint64_t* global_dim, const uint64_t* global_strides,
    int pixel_box_lower_corner_width, int pixel_box_upper_corner_width, uint32_t channels_per_pixel,
    uint32_t pixels_per_column, const uint32_t* element_strides, tma_fw_interleave_t interleave,
    tma_fw_im2col_wide_mode_t mode, tma_fw_swizzle_t swizzle, tma_fw_l2_promotion_t l2_promotion,
    tma_fw_oob_fill_t oob_fill, tma_fw_arch_t arch, tma_fw_violation_t* why);

/* "u8" ... "b6x16_p32", "none" ... "96B", "sm_90" ...; "?" for an out-of-range value. */
const char* tma_fw_data_type_name(tma_fw_data_type_t t);
const char* tma_fw_swizzle_name(tma_fw_swizzle_t s);
const char* tma_fw_arch_name(tma_fw_arch_t a);

#ifdef __cplusplus
}
#endif

#endif /* TMA_TMA_FW_H_ */
