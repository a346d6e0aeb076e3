/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The firmware's C API (tma/tma_fw.h) from pure C99 (built with -std=c99 -pedantic -Werror):
 * the encoder (expected bytes derived by hand from docs/descriptor.md's field table) and the
 * driver over a link and an engine queue written here in C (completions by the engine's rules,
 * docs/interfaces.md). Exit status 0 = pass.
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

/* ---- The driver over a C link (a word array) and a C queue ---- */
#define GMEM_BASE 0x10000000u
static uint32_t gmem[1024];

static tma_fw_link_status_t mem_read(void* ctx, uint64_t a, uint32_t* v) {
  (void)ctx;
  if (a % 4 != 0 || a < GMEM_BASE || a >= GMEM_BASE + sizeof gmem)
    return TMA_FW_LINK_BAD_ARGUMENT;
  *v = gmem[(a - GMEM_BASE) / 4];
  return TMA_FW_LINK_OK;
}

static tma_fw_link_status_t mem_write(void* ctx, uint64_t a, uint32_t v) {
  (void)ctx;
  if (a % 4 != 0 || a < GMEM_BASE || a >= GMEM_BASE + sizeof gmem)
    return TMA_FW_LINK_BAD_ARGUMENT;
  gmem[(a - GMEM_BASE) / 4] = v;
  return TMA_FW_LINK_OK;
}

typedef struct {
  tma_fw_cmd_t cmds[16];
  int ncmds;
  tma_fw_cpl_t cpl[64];
  int head, tail;
  int invals;
  int fail_tag;
  int hold; /* accept commands but never complete them */
} queue_t;

static void emit(queue_t* q, uint8_t kind, uint8_t cta, uint8_t err, uint8_t tag) {
  tma_fw_cpl_t* c = &q->cpl[q->tail++ % 64];
  memset(c, 0, sizeof *c);
  c->kind = kind;
  c->cta = cta;
  c->bytes = kind == 0 ? 512 : 0;
  c->err = err;
  c->tag = tag;
}

static tma_fw_status_t q_push(void* ctx, const tma_fw_cmd_t* cmd) {
  queue_t* q = (queue_t*)ctx;
  int cta;
  if (q->ncmds == 16)
    return TMA_FW_QUEUE_FULL;
  q->cmds[q->ncmds++] = *cmd;
  if (q->hold)
    return TMA_FW_OK;
  if (cmd->tag == q->fail_tag) {
    emit(q, 1, cmd->issuer, 4, cmd->tag); /* one error completion: invalid_coordinate */
  } else if (cmd->mode == 7 && cmd->op != 0 && (cmd->coords[2] & 32u)) {
    emit(q, 0, cmd->dst_cta, 0, cmd->tag); /* shared::cluster: one complete-tx, destination */
  } else if (cmd->op == 0) {
    for (cta = 0; cta < 16; ++cta) {
      const unsigned mask = cmd->multicast ? cmd->cta_mask : 1u << cmd->dst_cta;
      if ((mask >> cta) & 1)
        emit(q, 0, (uint8_t)cta, 0, cmd->tag); /* one complete-tx per destination */
    }
  } else {
    emit(q, 2, cmd->issuer, 0, cmd->tag); /* one done */
  }
  return TMA_FW_OK;
}

static tma_fw_status_t q_pop(void* ctx, tma_fw_cpl_t* cpl, int* got) {
  queue_t* q = (queue_t*)ctx;
  *got = q->head != q->tail;
  if (*got)
    *cpl = q->cpl[q->head++ % 64];
  return TMA_FW_OK;
}

static tma_fw_status_t q_inval(void* ctx) {
  ((queue_t*)ctx)->invals++;
  return TMA_FW_OK;
}

static tma_fw_status_t q_ack(void* ctx) {
  (void)ctx;
  return TMA_FW_OK;
}

static void driver(void) {
  const tma_fw_link_ops_t lops = {mem_read, mem_write, NULL}; /* no interrupt: polling */
  const tma_fw_queue_ops_t qops = {q_push, q_pop, q_inval, q_ack};
  tma_fw_device_config_t cfg;
  queue_t q;
  tma_fw_link_t* link;
  tma_fw_device_t* dev;
  tma_fw_tensor_operands_t t;
  tma_fw_load_options_t lo;
  tma_fw_error_t err;
  tma_fw_tensor_map_t map;
  const uint64_t dims[1] = {256};
  const uint32_t box[1] = {64}, es[1] = {1};
  uint8_t tag = 0xff, tag2 = 0xff;
  int k;

  memset(&q, 0, sizeof q);
  q.fail_tag = -1;
  memset(&cfg, 0, sizeof cfg);
  cfg.gmem_link_base = GMEM_BASE;
  cfg.arch = TMA_FW_ARCH_SM90;
  cfg.num_ctas = 4;
  cfg.use_interrupt = 1;
  link = tma_fw_link_from_ops(&lops, NULL);
  CHECK(link != NULL);
  dev = tma_fw_device_create(link, &qops, &q, &cfg);
  CHECK(dev != NULL);
  if (link == NULL || dev == NULL)
    return;

  /* A map written through the driver lands in global memory as little-endian words. */
  CHECK(tma_fw_encode_tiled(&map, TMA_FW_DATA_TYPE_FLOAT32, 1, 0x2000, dims, NULL, box, es,
                            TMA_FW_INTERLEAVE_NONE, TMA_FW_SWIZZLE_NONE, TMA_FW_L2_PROMOTION_NONE,
                            TMA_FW_FLOAT_OOB_FILL_NONE, TMA_FW_ARCH_SM90, NULL) == TMA_FW_SUCCESS);
  CHECK(tma_fw_write_tensor_map(dev, 0x100, &map, &err) == TMA_FW_OK);
  for (k = 0; k < 32; ++k)
    CHECK(gmem[0x100 / 4 + k] == (uint32_t)(map.opaque[k / 2] >> (32 * (k % 2))));
  CHECK(tma_fw_invalidate_descriptors(dev, &err) == TMA_FW_OK);
  CHECK(q.invals == 1);

  /* A multicast load to CTAs 0 and 2: one command, done after two complete-tx. */
  memset(&t, 0, sizeof t);
  t.tensor_map = 0x100;
  t.dim = 1;
  t.coords[0] = -8;
  t.num_coords = 1;
  t.smem = 0x200;
  t.cta = 1;
  memset(&lo, 0, sizeof lo);
  lo.mbar = 0x10;
  lo.dst_cta = -1;
  lo.cta_mask = 0x5;
  CHECK(tma_fw_load_tensor(dev, &t, &lo, &tag, &err) == TMA_FW_OK);
  CHECK(q.ncmds == 1);
  CHECK(q.cmds[0].op == 0 && q.cmds[0].multicast == 1 && q.cmds[0].cta_mask == 0x5);
  CHECK(q.cmds[0].coords[0] == 0xfffffff8u && q.cmds[0].issuer == 1 && q.cmds[0].tag == tag);
  CHECK(tma_fw_wait(dev, tag, 100000, &err) == TMA_FW_OK);
  CHECK(tma_fw_tx_bytes(dev, 0) == 512 && tma_fw_tx_bytes(dev, 1) == 0 &&
        tma_fw_tx_bytes(dev, 2) == 512);

  /* A store that fails: the group's wait reports the class and the tag. */
  q.fail_tag = tag + 2;
  CHECK(tma_fw_store_tensor(dev, &t, &tag2, &err) == TMA_FW_OK);
  CHECK(tma_fw_reduce_tensor(dev, 1, &t, &tag2, &err) == TMA_FW_OK);
  CHECK(q.cmds[2].op == 2 && q.cmds[2].redop == 1);
  tma_fw_commit_group(dev);
  CHECK(tma_fw_wait_group(dev, 0, 100000, &err) == TMA_FW_ENGINE_ERROR);
  CHECK(err.error_class == 4 && err.tag == tag2);

  /* Operand lists the instruction does not allow never reach the engine. */
  t.num_coords = 2;
  CHECK(tma_fw_store_tensor(dev, &t, NULL, &err) == TMA_FW_BAD_ARGUMENT);
  CHECK(strcmp(err.field, "coords") == 0);
  CHECK(q.ncmds == 3);

  /* A non-tensor bulk store and reduction: bulk commands (mode 7), size in coords[0]. */
  CHECK(tma_fw_store_bulk(dev, 0x3000, 0x200, 64, 1, 0xff, &tag, &err) == TMA_FW_OK);
  CHECK(tma_fw_reduce_bulk(dev, 0, 6, 0x3000, 0x200, 64, 1, &tag2, &err) == TMA_FW_OK);
  CHECK(q.ncmds == 5);
  CHECK(q.cmds[3].op == 1 && q.cmds[3].mode == 7 && q.cmds[3].desc_addr == 0x3000);
  CHECK(q.cmds[3].smem_addr == 0x200 && q.cmds[3].coords[0] == 64);
  CHECK(q.cmds[3].coords[1] == 0x100ffu && q.cmds[3].issuer == 1);
  CHECK(q.cmds[4].op == 2 && q.cmds[4].coords[2] == (6u | 16u)); /* .add.noftz.f16 */
  tma_fw_commit_group(dev);
  CHECK(tma_fw_wait_group(dev, 0, 100000, &err) == TMA_FW_OK);

  /* shared::cta -> shared::cluster copy and reduction (max.s32) from CTA 1 into CTA 3: store /
   * reduce bulk commands with coords[2] bit 5, the destination offset in desc_addr; each done
   * by one complete-tx on CTA 3. */
  CHECK(tma_fw_copy_bulk_to_cluster(dev, 0x400, 0x200, 64, 0x18, 3, 1, &tag, &err) == TMA_FW_OK);
  CHECK(tma_fw_reduce_bulk_to_cluster(dev, 2, 2, 0x440, 0x200, 64, 0x18, 3, 1, &tag2, &err) ==
        TMA_FW_OK);
  CHECK(q.ncmds == 7);
  CHECK(q.cmds[5].op == 1 && q.cmds[5].mode == 7 && q.cmds[5].coords[2] == 32u);
  CHECK(q.cmds[5].desc_addr == 0x400 && q.cmds[5].smem_addr == 0x200 &&
        q.cmds[5].mbar_addr == 0x18 && q.cmds[5].issuer == 1 && q.cmds[5].dst_cta == 3);
  CHECK(q.cmds[6].op == 2 && q.cmds[6].redop == 2 && q.cmds[6].coords[2] == (2u | 32u));
  CHECK(tma_fw_wait(dev, tag, 100000, &err) == TMA_FW_OK);
  CHECK(tma_fw_wait(dev, tag2, 100000, &err) == TMA_FW_OK);
  CHECK(tma_fw_tx_bytes(dev, 3) == 1024);
  CHECK(tma_fw_copy_bulk_to_cluster(dev, 0, 0, 16, 0, 4, 1, NULL, &err) == TMA_FW_BAD_ARGUMENT);
  CHECK(strcmp(err.field, "dstMem") == 0);

  /* A command the engine never finishes: the wait times out, it does not hang. */
  t.num_coords = 1;
  q.hold = 1;
  CHECK(tma_fw_prefetch_tensor(dev, &t, &tag, &err) == TMA_FW_OK);
  CHECK(tma_fw_wait(dev, tag, 2000, &err) == TMA_FW_TIMEOUT);
  CHECK(err.status == TMA_FW_TIMEOUT && err.tag == tag);

  tma_fw_device_destroy(dev);
  CHECK(tma_fw_link_read32(link, GMEM_BASE + 0x100, &gmem[0]) == TMA_FW_LINK_OK);
  CHECK(tma_fw_link_read32(link, 0x4, &gmem[1]) == TMA_FW_LINK_BAD_ARGUMENT);
  tma_fw_link_close(link);
  CHECK(tma_fw_link_open_uartbone("/nonexistent/tty", 115200) == NULL);
}

int main(void) {
  tiled_u16();
  driver();
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
