/* SPDX-License-Identifier: Apache-2.0
 * A consumer of the installed shared library's RTL mode: one 2-D tile load (u8, box 16 x 4 at
 * {8, 2} of a 64 x 8 tensor) on the Verilated engine, clocked with otma_tick until op_done, its
 * shared bytes compared with the tensor's (row y of the box = global bytes [64 (2 + y) + 16,
 * + 16)) and with the same load in FUNCTIONAL mode (the reference model). Exit 0 on a match;
 * exit 77 when the library was built without the RTL mode (OTMA_E_NO_BACKEND). */
#include <opentma/cosim.h>
#include <stdio.h>
#include <string.h>

#define GBASE 0x10000u
static unsigned char g[64 * 8], s[2][256];
static int cur; /* the shared window the engine being run writes */
static unsigned tx;
static int done;
static otma_status fault;
static int gr(void* u, uint64_t a, void* d, uint32_t n) {
  (void)u;
  if (a < GBASE || a + n > GBASE + sizeof g)
    return 1;
  memcpy(d, g + (a - GBASE), n);
  return 0;
}
static int gw(void* u, uint64_t a, const void* d, uint32_t n) {
  (void)u;
  (void)a;
  (void)d;
  (void)n;
  return 1;
}
static int sr(void* u, uint32_t r, uint32_t a, void* d, uint32_t n) {
  (void)u;
  if (r != 0 || a + n > sizeof s[0])
    return 1;
  memcpy(d, s[cur] + a, n);
  return 0;
}
static int sw(void* u, uint32_t r, uint32_t a, const void* d, uint32_t n) {
  (void)u;
  if (r != 0 || a + n > sizeof s[0])
    return 1;
  memcpy(s[cur] + a, d, n);
  return 0;
}
static void ct(void* u, uint32_t r, uint32_t m, uint32_t b) {
  (void)u;
  (void)r;
  (void)m;
  tx += b;
}
static void od(void* u, otma_token t, uint32_t ev, otma_status st) {
  (void)u;
  (void)t;
  if (ev == OTMA_EV_DONE && st == OTMA_OK)
    done = 1;
  else if (ev == OTMA_EV_FAULT) {
    done = -1;
    fault = st;
  }
}
static void lg(void* u, int level, const char* msg) {
  (void)u;
  printf("log %d: %s\n", level, msg);
}

/* Runs the load on a fresh engine of `mode` into s[idx]; 0 on success. */
static int run(uint32_t mode, int idx, const uint8_t map[128]) {
  otma_config c;
  otma_host h;
  otma_op op;
  otma_engine* e;
  otma_status st;
  long i;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.abi_version = OTMA_ABI_VERSION;
  c.mode = mode;
  memset(&h, 0, sizeof h);
  h.struct_size = sizeof h;
  h.gmem_read = gr;
  h.gmem_write = gw;
  h.smem_read = sr;
  h.smem_write = sw;
  h.complete_tx = ct;
  h.op_done = od;
  h.log = lg;
  st = otma_create(&c, &h, &e);
  if (st == OTMA_E_NO_BACKEND)
    return 77;
  if (st != OTMA_OK)
    return 10;
  memset(&op, 0, sizeof op);
  op.struct_size = sizeof op;
  op.kind = OTMA_OP_TENSOR_LOAD;
  op.dim = 2;
  op.coords[0] = 16;
  op.coords[1] = 2;
  op.desc_bytes = map;
  op.smem_addr = 128;
  op.mbar_addr = 8;
  op.dst_rank = -1;
  op.mbar_rank = -1;
  cur = idx;
  tx = 0;
  done = 0;
  while ((st = otma_submit(e, &op, NULL)) == OTMA_E_BUSY)
    otma_tick(e, 1);
  if (st != OTMA_OK)
    return 11;
  for (i = 0; i < 100000 && !done; ++i)
    otma_tick(e, 1);
  printf("mode %u: %s after %llu cycles, complete_tx %u bytes\n", mode,
         done == 1  ? "done"
         : done < 0 ? otma_status_str(fault)
                    : "not done",
         (unsigned long long)otma_cycle(e), tx);
  otma_destroy(e);
  return done == 1 && tx == 64 ? 0 : 12;
}

int main(void) {
  otma_tensor_params p;
  uint8_t map[128];
  int rc, x, y;
  for (x = 0; x < (int)sizeof g; ++x)
    g[x] = (unsigned char)(x * 7 + 1);
  memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  p.dtype = 0; /* u8 */
  p.rank = 2;
  p.global_address = GBASE;
  p.dims[0] = 64;
  p.dims[1] = 8;
  p.strides[0] = 64;
  p.box[0] = 16;
  p.box[1] = 4;
  p.elem_strides[0] = p.elem_strides[1] = 1;
  if (otma_encode_tensor_map(&p, OTMA_ARCH_SM90, map) != OTMA_OK)
    return 2;
  rc = run(OTMA_MODE_RTL, 0, map);
  if (rc == 77) {
    printf("this libopentma_cosim has no RTL mode\n");
    return 77;
  }
  if (rc != 0)
    return rc;
  if (run(OTMA_MODE_FUNCTIONAL, 1, map) != 0)
    return 3;
  for (y = 0; y < 4; ++y)
    for (x = 0; x < 16; ++x)
      if (s[0][128 + 16 * y + x] != g[64 * (2 + y) + 16 + x])
        return 4;
  if (memcmp(s[0], s[1], sizeof s[0]) != 0)
    return 5;
  printf("consumer_rtl OK: the RTL's 64 bytes equal the tensor's and the model's\n");
  return 0;
}
