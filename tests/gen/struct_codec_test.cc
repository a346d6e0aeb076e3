// SPDX-License-Identifier: Apache-2.0
//
// The generated struct codecs (sim/autogen/tma_structs.h) against positions derived by
// hand from rtl/pkg/tma_pkg.sv: a packed struct's first field is its most significant, a
// packed array [N-1:0] has element 0 at its least significant end, and Verilator stores a wide
// port as 32-bit words, bit n in word n / 32. The RTL unit tests (walker, frontend) check the
// same codecs against the Verilated structs.
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "sim/autogen/tma_structs.h"

namespace tma::pkg {
namespace {

uint64_t Field(const uint32_t* w, int lsb, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; ++i)
    v |= static_cast<uint64_t>((w[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1u) << i;
  return v;
}

// cmd_t from its least significant end: tag 8 (0-7), cta_group 2 (8-9), dst_cta 4 (10-13),
// issuer 4 (14-17), cta_mask 16 (18-33), multicast (34), mbar_addr 32 (35-66), smem_addr 32
// (67-98), im2col 3 x 16 (99-146), coords 5 x 32 (147-306), desc_addr 64 (307-370), dim 3
// (371-373), redop 3 (374-376), mode 3 (377-379), op 2 (380-381): 382 bits in 12 words.
TEST(StructCodec, CmdFieldPositions) {
  EXPECT_EQ(cmd_t::kBits, 382);
  EXPECT_EQ(cmd_t::kWords, 12);
  EXPECT_EQ(static_cast<int>(CmdWidth), 382);
  cmd_t c;
  c.op = OpPrefetch;
  c.mode = ModeIm2colW128;
  c.redop = RedXor;
  c.dim = 5;
  c.desc_addr = 0xFEDCBA9876543210ull;
  c.coords.v[0] = 0x11111111u;
  c.coords.v[4] = 0xCAFEF00Du;
  c.im2col.v[0] = 0xA5A5;
  c.im2col.v[2] = 0x1234;
  c.smem_addr = 0x89ABCDEFu;
  c.mbar_addr = 0x01234567u;
  c.multicast = true;
  c.cta_mask = 0xBEEF;
  c.issuer = 0xC;
  c.dst_cta = 0x3;
  c.cta_group = 2;
  c.tag = 0x5A;
  const auto w = Pack(c);
  EXPECT_EQ(Field(w.data(), 0, 8), 0x5Au);
  EXPECT_EQ(Field(w.data(), 8, 2), 2u);
  EXPECT_EQ(Field(w.data(), 10, 4), 0x3u);
  EXPECT_EQ(Field(w.data(), 14, 4), 0xCu);
  EXPECT_EQ(Field(w.data(), 18, 16), 0xBEEFu);
  EXPECT_EQ(Field(w.data(), 34, 1), 1u);
  EXPECT_EQ(Field(w.data(), 35, 32), 0x01234567u);
  EXPECT_EQ(Field(w.data(), 67, 32), 0x89ABCDEFu);
  EXPECT_EQ(Field(w.data(), 99, 16), 0xA5A5u);
  EXPECT_EQ(Field(w.data(), 131, 16), 0x1234u);
  EXPECT_EQ(Field(w.data(), 147, 32), 0x11111111u);
  EXPECT_EQ(Field(w.data(), 275, 32), 0xCAFEF00Du);
  EXPECT_EQ(Field(w.data(), 307, 64), 0xFEDCBA9876543210ull);
  EXPECT_EQ(Field(w.data(), 371, 3), 5u);
  EXPECT_EQ(Field(w.data(), 374, 3), 7u);
  EXPECT_EQ(Field(w.data(), 377, 3), 3u);
  EXPECT_EQ(Field(w.data(), 380, 2), 3u);
  EXPECT_EQ(w[11] >> (382 - 352), 0u) << "bits above the struct are 0";
  EXPECT_EQ(Unpack<cmd_t>(w.data()), c);
}

// cpl_info_t (106 bits): kind 104-105, err 100-103, cta_mask 84-99, cta 80-83, mbar_addr
// 48-79, bytes 16-47, tag 8-15, red 7, redop 4-6, elem 0-3; it is the low end of job_t and
// row_t.
TEST(StructCodec, CplInfoInsideRowAndJob) {
  EXPECT_EQ(cpl_info_t::kBits, 115);
  EXPECT_EQ(row_t::kBits, 273);
  EXPECT_EQ(job_t::kBits, 1928);
  row_t r;
  r.has_data = true;
  r.last = false;
  r.gaddr = 0x123456789ull;
  r.pk = PkG12;
  r.swz = Swz128BA64;
  r.cpl.kind = CplError;
  r.cpl.err = ErrBusError;
  r.cpl.cta_mask = 0x8001;
  r.cpl.cta = 9;
  r.cpl.mbar_addr = 0xDEADBEEFu;
  r.cpl.bytes = 4096;
  r.cpl.tag = 0xFF;
  r.cpl.red = true;
  r.cpl.redop = 5;
  r.cpl.elem = 0xA;
  r.cpl.bg = true;
  r.cpl.bg_seq = 0x5A;
  r.bmask_en = true;
  r.bmask = 0xC003;
  const auto w = Pack(r);
  // row_t's last fields: bmask (bits 15:0), bmask_en (16), then cpl_info_t (bits 131:17)
  EXPECT_EQ(Field(w.data(), 0, 16), 0xC003u);  // bmask
  EXPECT_EQ(Field(w.data(), 16, 1), 1u);       // bmask_en
  EXPECT_EQ(Field(w.data(), 17 + 113, 2), CplError);
  EXPECT_EQ(Field(w.data(), 17 + 109, 4), ErrBusError);
  EXPECT_EQ(Field(w.data(), 17 + 93, 16), 0x8001u);
  EXPECT_EQ(Field(w.data(), 17 + 89, 4), 9u);
  EXPECT_EQ(Field(w.data(), 17 + 57, 32), 0xDEADBEEFu);
  EXPECT_EQ(Field(w.data(), 17 + 25, 32), 4096u);
  EXPECT_EQ(Field(w.data(), 17 + 17, 8), 0xFFu);
  EXPECT_EQ(Field(w.data(), 17 + 16, 1), 1u);      // red
  EXPECT_EQ(Field(w.data(), 17 + 13, 3), 5u);      // redop
  EXPECT_EQ(Field(w.data(), 17 + 9, 4), 0xAu);     // elem
  EXPECT_EQ(Field(w.data(), 17 + 8, 1), 1u);       // bg
  EXPECT_EQ(Field(w.data(), 17, 8), 0x5Au);        // bg_seq
  EXPECT_EQ(Field(w.data(), 132, 2), PkG12);       // pk above cpl
  EXPECT_EQ(Field(w.data(), 134, 3), Swz128BA64);  // swz above pk
  EXPECT_EQ(Field(w.data(), 272, 1), 1u);          // has_data, the top bit
  EXPECT_EQ(Field(w.data(), 271, 1), 0u);          // last
  EXPECT_EQ(Field(w.data(), 207, 64), 0x123456789ull);
  EXPECT_EQ(Unpack<row_t>(w.data()), r);
  // job_t: marker is bit 1927, dim vectors have element 0 at their low end: es (5 x 4) sits
  // above row_bytes/head/dend/pitch (4 x 12) and smem_addr (32) and the 122 bits below
  // (fill_nan, tf32, swz, pk, cpl_info_t).
  job_t j;
  j.marker = true;
  j.es.v[0] = 0x1;
  j.es.v[4] = 0xF;
  const auto jw = Pack(j);
  EXPECT_EQ(Field(jw.data(), 1927, 1), 1u);
  EXPECT_EQ(Field(jw.data(), 202, 4), 0x1u);
  EXPECT_EQ(Field(jw.data(), 202 + 16, 4), 0xFu);
  EXPECT_EQ(Unpack<job_t>(jw.data()), j);
}

// Random round trips of every wide struct, and values wider than a field are cut to it.
TEST(StructCodec, RoundTripAndTruncation) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; ++i) {
    al_row_t a;
    a.has_data = rng() & 1;
    a.beat = static_cast<uint32_t>(rng()) & 0x0FFFFFFFu;
    a.xd1 = static_cast<uint16_t>(rng() & 0xFFF);
    a.cta_mask = static_cast<uint16_t>(rng());
    EXPECT_EQ(Unpack<al_row_t>(Pack(a).data()), a);
    ar_t ar;
    ar.addr = rng();
    ar.len = static_cast<uint8_t>(rng());
    EXPECT_EQ(Unpack<ar_t>(Pack(ar).data()), ar);
  }
  rd_req_t q;
  q.addr = 0;
  q.nbeats = 0xFFFF;  // 16 bits into the 10-bit field
  const auto w = Pack(q);
  EXPECT_EQ(Unpack<rd_req_t>(w.data()).nbeats, 0x3FFu);
  EXPECT_EQ(Unpack<rd_req_t>(w.data()).addr, 0u);
  dim4_t d;
  d.v[3] = 0xA;
  EXPECT_EQ(PackU64(d), uint64_t{0xA} << 12);
  EXPECT_EQ(UnpackU64<dim4_t>(uint64_t{0xA} << 12), d);
}

}  // namespace
}  // namespace tma::pkg
