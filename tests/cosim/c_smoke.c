/* SPDX-License-Identifier: Apache-2.0
 *
 * A1: a pure C99 consumer of libopentma_cosim (built with -std=c99 -Wall -Wextra -Werror
 * -pedantic, linked against the shared library). It refuses a major-version mismatch and a
 * too-small struct_size, then runs a 2-D bf16 tile load in FUNCTIONAL mode and checks every
 * shared-memory byte and the complete_tx against values derived by hand below.
 *
 * Tensor: bf16, dims {64, 16}, row pitch 128 B, element (x, y) at byte 128*y + 2*x; global
 * byte i holds (i * 7 + 3) & 0xff. Box {16, 4} at coords {8, 2}: shared row r (32 B) holds
 * global bytes [128*(2+r) + 16, 128*(2+r) + 48); complete_tx = 16 * 4 * 2 = 128 bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "opentma/cosim.h"

#define GBASE 0x10000u
#define GBYTES 2048u

static uint8_t g_mem[GBYTES];
static uint8_t s_mem[2][1024];
static uint32_t g_tx_rank = 99, g_tx_mbar = 0, g_tx_bytes = 0, g_done = 0;
static int g_failures = 0;

#define CHECK(cond)                                                       \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "c_smoke: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                       \
    }                                                                     \
  } while (0)

static int gread(void* u, uint64_t a, void* d, uint32_t n) {
  (void)u;
  if (a < GBASE || a + n > GBASE + GBYTES)
    return 1;
  memcpy(d, g_mem + (a - GBASE), n);
  return 0;
}
static int gwrite(void* u, uint64_t a, const void* s, uint32_t n) {
  (void)u;
  if (a < GBASE || a + n > GBASE + GBYTES)
    return 1;
  memcpy(g_mem + (a - GBASE), s, n);
  return 0;
}
static int sread(void* u, uint32_t r, uint32_t a, void* d, uint32_t n) {
  (void)u;
  if (r > 1 || a + n > 1024)
    return 1;
  memcpy(d, s_mem[r] + a, n);
  return 0;
}
static int swrite(void* u, uint32_t r, uint32_t a, const void* s, uint32_t n) {
  (void)u;
  if (r > 1 || a + n > 1024)
    return 1;
  memcpy(s_mem[r] + a, s, n);
  return 0;
}
static void ctx(void* u, uint32_t rank, uint32_t mbar, uint32_t bytes) {
  (void)u;
  g_tx_rank = rank;
  g_tx_mbar = mbar;
  g_tx_bytes += bytes;
}
static void done(void* u, otma_token t, uint32_t ev, otma_status s) {
  (void)u;
  (void)t;
  if (ev == OTMA_EV_DONE && s == OTMA_OK)
    ++g_done;
}

int main(void) {
  otma_config cfg;
  otma_host host;
  otma_engine* e = NULL;
  otma_tensor_params p;
  otma_op op;
  uint8_t map[128];
  otma_token tok = 0;
  uint32_t i, r;

  for (i = 0; i < GBYTES; ++i)
    g_mem[i] = (uint8_t)((i * 7u + 3u) & 0xffu);
  memset(&host, 0, sizeof host);
  host.struct_size = sizeof host;
  host.gmem_read = gread;
  host.gmem_write = gwrite;
  host.smem_read = sread;
  host.smem_write = swrite;
  host.complete_tx = ctx;
  host.op_done = done;

  memset(&cfg, 0, sizeof cfg);
  cfg.struct_size = sizeof cfg;
  cfg.mode = OTMA_MODE_FUNCTIONAL;
  cfg.cluster_size = 2;

  CHECK((otma_abi_version() >> 16) == OTMA_ABI_MAJOR);
  cfg.abi_version = (uint32_t)(OTMA_ABI_MAJOR + 1) << 16;
  CHECK(otma_create(&cfg, &host, &e) == OTMA_E_VERSION && e == NULL);
  cfg.abi_version = OTMA_ABI_VERSION;
  cfg.struct_size = 8; /* a caller built against a struct this library never had */
  CHECK(otma_create(&cfg, &host, &e) == OTMA_E_STRUCT_SIZE && e == NULL);
  cfg.struct_size = sizeof cfg;
  host.struct_size = 4;
  CHECK(otma_create(&cfg, &host, &e) == OTMA_E_STRUCT_SIZE && e == NULL);
  host.struct_size = sizeof host;
  CHECK(otma_create(&cfg, &host, &e) == OTMA_OK && e != NULL);
  if (e == NULL)
    return 1;

  memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  p.dtype = 9; /* bf16 */
  p.rank = 2;
  p.global_address = GBASE;
  p.dims[0] = 64;
  p.dims[1] = 16;
  p.strides[0] = 128;
  p.box[0] = 16;
  p.box[1] = 4;
  p.elem_strides[0] = p.elem_strides[1] = 1;
  CHECK(otma_encode_tensor_map(&p, OTMA_ARCH_SM90, map) == OTMA_OK);

  memset(&op, 0, sizeof op);
  op.struct_size = sizeof op;
  op.kind = OTMA_OP_TENSOR_LOAD;
  op.load_mode = OTMA_LOAD_TILE;
  op.dim = 2;
  op.coords[0] = 8;
  op.coords[1] = 2;
  op.desc_bytes = map;
  op.smem_addr = 256;
  op.mbar_addr = 8;
  op.dst_rank = -1;
  op.mbar_rank = -1;
  op.issuer_rank = 1;
  op.struct_size = 8;
  CHECK(otma_submit(e, &op, &tok) == OTMA_E_STRUCT_SIZE);
  op.struct_size = sizeof op;
  CHECK(otma_submit(e, &op, &tok) == OTMA_OK && tok != 0);
  CHECK(g_done == 1);
  CHECK(g_tx_rank == 1 && g_tx_mbar == 8 && g_tx_bytes == 128);
  for (r = 0; r < 4; ++r) {
    for (i = 0; i < 32; ++i) {
      const uint32_t gi = 128u * (2u + r) + 16u + i;
      CHECK(s_mem[1][256 + r * 32 + i] == (uint8_t)((gi * 7u + 3u) & 0xffu));
    }
  }
  CHECK(s_mem[0][256] == 0); /* rank 0 untouched */

  /* A misaligned shared destination is a fault (silicon: CUDA error 716). */
  op.smem_addr = 264;
  CHECK(otma_submit(e, &op, &tok) == OTMA_E_MISALIGNED);
  CHECK(strcmp(otma_status_str(OTMA_E_MISALIGNED), "misaligned") == 0);

  otma_destroy(e);
  if (g_failures == 0)
    printf("c_smoke: OK\n");
  return g_failures == 0 ? 0 : 1;
}
