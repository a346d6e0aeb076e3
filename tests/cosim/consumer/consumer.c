/* SPDX-License-Identifier: Apache-2.0
 * A tiny consumer of the installed library: creates a FUNCTIONAL engine and runs one 1-D
 * bulk copy of 64 bytes global -> shared (the bytes must arrive unchanged). */
#include <opentma/cosim.h>
#include <stdio.h>
#include <string.h>

static unsigned char g[64], s[128];
static unsigned tx;
static int gr(void* u, uint64_t a, void* d, uint32_t n) {
  (void)u;
  if (a < 0x1000 || a + n > 0x1000 + sizeof g)
    return 1;
  memcpy(d, g + (a - 0x1000), n);
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
  if (r != 0 || a + n > sizeof s)
    return 1;
  memcpy(d, s + a, n);
  return 0;
}
static int sw(void* u, uint32_t r, uint32_t a, const void* d, uint32_t n) {
  (void)u;
  if (r != 0 || a + n > sizeof s)
    return 1;
  memcpy(s + a, d, n);
  return 0;
}
static void ct(void* u, uint32_t r, uint32_t m, uint32_t b) {
  (void)u;
  (void)r;
  (void)m;
  tx += b;
}
int main(void) {
  otma_config c;
  otma_host h;
  otma_op op;
  otma_engine* e;
  unsigned i;
  for (i = 0; i < sizeof g; ++i)
    g[i] = (unsigned char)(i + 1);
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.abi_version = OTMA_ABI_VERSION;
  memset(&h, 0, sizeof h);
  h.struct_size = sizeof h;
  h.gmem_read = gr;
  h.gmem_write = gw;
  h.smem_read = sr;
  h.smem_write = sw;
  h.complete_tx = ct;
  if (otma_create(&c, &h, &e) != OTMA_OK)
    return 1;
  memset(&op, 0, sizeof op);
  op.struct_size = sizeof op;
  op.kind = OTMA_OP_BULK_COPY;
  op.bulk_dir = OTMA_BULK_G2S_CTA;
  op.bulk_gaddr = 0x1000;
  op.smem_addr = 32;
  op.bulk_size = 64;
  op.mbar_addr = 8;
  op.dst_rank = -1;
  op.mbar_rank = -1;
  if (otma_submit(e, &op, NULL) != OTMA_OK)
    return 2;
  otma_destroy(e);
  if (tx != 64 || memcmp(s + 32, g, 64) != 0)
    return 3;
  printf("consumer OK (abi %u.%u)\n", otma_abi_version() >> 16, otma_abi_version() & 0xffff);
  return 0;
}
