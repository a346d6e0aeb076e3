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

// cmd_t from its least significant end: tag 8 (0-7), mbar_cta 4 (8-11), mbar_remote (12),
// smem_cta (13), cta_group 2 (14-15), dst_cta 4 (16-19), issuer 4 (20-23), cta_mask 16
// (24-39), multicast (40), mbar_addr 32 (41-72), smem_addr 32 (73-104), im2col 3 x 16
// (105-152), coords 5 x 32 (153-312), desc_addr 64 (313-376), dim 3 (377-379), redop 3
// (380-382), mode 3 (383-385), op 2 (386-387): 388 bits in 13 words.
TEST(StructCodec, CmdFieldPositions) {
  EXPECT_EQ(cmd_t::kBits, 388);
  EXPECT_EQ(cmd_t::kWords, 13);
  EXPECT_EQ(static_cast<int>(CmdWidth), 388);
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
  c.smem_cta = true;
  c.mbar_remote = false;
  c.mbar_cta = 0x9;
  c.tag = 0x5A;
  const auto w = Pack(c);
  EXPECT_EQ(Field(w.data(), 0, 8), 0x5Au);
  EXPECT_EQ(Field(w.data(), 8, 4), 0x9u);
  EXPECT_EQ(Field(w.data(), 12, 1), 0u);
  EXPECT_EQ(Field(w.data(), 13, 1), 1u);
  EXPECT_EQ(Field(w.data(), 14, 2), 2u);
  EXPECT_EQ(Field(w.data(), 16, 4), 0x3u);
  EXPECT_EQ(Field(w.data(), 20, 4), 0xCu);
  EXPECT_EQ(Field(w.data(), 24, 16), 0xBEEFu);
  EXPECT_EQ(Field(w.data(), 40, 1), 1u);
  EXPECT_EQ(Field(w.data(), 41, 32), 0x01234567u);
  EXPECT_EQ(Field(w.data(), 73, 32), 0x89ABCDEFu);
  EXPECT_EQ(Field(w.data(), 105, 16), 0xA5A5u);
  EXPECT_EQ(Field(w.data(), 137, 16), 0x1234u);
  EXPECT_EQ(Field(w.data(), 153, 32), 0x11111111u);
  EXPECT_EQ(Field(w.data(), 281, 32), 0xCAFEF00Du);
  EXPECT_EQ(Field(w.data(), 313, 64), 0xFEDCBA9876543210ull);
  EXPECT_EQ(Field(w.data(), 377, 3), 5u);
  EXPECT_EQ(Field(w.data(), 380, 3), 7u);
  EXPECT_EQ(Field(w.data(), 383, 3), 3u);
  EXPECT_EQ(Field(w.data(), 386, 2), 3u);
  EXPECT_EQ(w[12] >> (388 - 384), 0u) << "bits above the struct are 0";
  EXPECT_EQ(Unpack<cmd_t>(w.data()), c);
}

// cpl_info_t (117 bits): kind 115-116, err 111-114, cta_mask 95-110, cta 91-94, mbar_addr
// 59-90, bytes 27-58, peer 26, mbar_par 25, tag 17-24, red 16, redop 13-15, elem 9-12, bg 8,
// bg_seq 0-7; it is the low end of job_t and sits above row_t's bmask_en / bmask.
TEST(StructCodec, CplInfoInsideRowAndJob) {
  EXPECT_EQ(cpl_info_t::kBits, 117);
  EXPECT_EQ(row_t::kBits, 275);
  EXPECT_EQ(job_t::kBits, 1945);
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
  r.cpl.peer = true;
  r.cpl.mbar_par = false;
  r.cpl.tag = 0xFF;
  r.cpl.red = true;
  r.cpl.redop = 5;
  r.cpl.elem = 0xA;
  r.cpl.bg = true;
  r.cpl.bg_seq = 0x5A;
  r.bmask_en = true;
  r.bmask = 0xC003;
  const auto w = Pack(r);
  // row_t's last fields: bmask (bits 15:0), bmask_en (16), then cpl_info_t (bits 133:17)
  EXPECT_EQ(Field(w.data(), 0, 16), 0xC003u);  // bmask
  EXPECT_EQ(Field(w.data(), 16, 1), 1u);       // bmask_en
  EXPECT_EQ(Field(w.data(), 17 + 115, 2), CplError);
  EXPECT_EQ(Field(w.data(), 17 + 111, 4), ErrBusError);
  EXPECT_EQ(Field(w.data(), 17 + 95, 16), 0x8001u);
  EXPECT_EQ(Field(w.data(), 17 + 91, 4), 9u);
  EXPECT_EQ(Field(w.data(), 17 + 59, 32), 0xDEADBEEFu);
  EXPECT_EQ(Field(w.data(), 17 + 27, 32), 4096u);
  EXPECT_EQ(Field(w.data(), 17 + 26, 1), 1u);  // peer
  EXPECT_EQ(Field(w.data(), 17 + 25, 1), 0u);  // mbar_par
  EXPECT_EQ(Field(w.data(), 17 + 17, 8), 0xFFu);
  EXPECT_EQ(Field(w.data(), 17 + 16, 1), 1u);      // red
  EXPECT_EQ(Field(w.data(), 17 + 13, 3), 5u);      // redop
  EXPECT_EQ(Field(w.data(), 17 + 9, 4), 0xAu);     // elem
  EXPECT_EQ(Field(w.data(), 17 + 8, 1), 1u);       // bg
  EXPECT_EQ(Field(w.data(), 17, 8), 0x5Au);        // bg_seq
  EXPECT_EQ(Field(w.data(), 134, 2), PkG12);       // pk above cpl
  EXPECT_EQ(Field(w.data(), 136, 3), Swz128BA64);  // swz above pk
  EXPECT_EQ(Field(w.data(), 274, 1), 1u);          // has_data, the top bit
  EXPECT_EQ(Field(w.data(), 273, 1), 0u);          // last
  EXPECT_EQ(Field(w.data(), 209, 64), 0x123456789ull);
  EXPECT_EQ(Unpack<row_t>(w.data()), r);
  // job_t: marker is bit 1944, dim vectors have element 0 at their low end: es (5 x 4) sits
  // above row_bytes/tx_row/head/dend/pitch (5 x 12) and smem_addr (32) and the 124 bits below
  // (fill_nan, tf32, swz, pk, cpl_info_t).
  job_t j;
  j.marker = true;
  j.es.v[0] = 0x1;
  j.es.v[4] = 0xF;
  j.tx_row = 0xABC;
  const auto jw = Pack(j);
  EXPECT_EQ(Field(jw.data(), 1944, 1), 1u);
  EXPECT_EQ(Field(jw.data(), 216, 4), 0x1u);
  EXPECT_EQ(Field(jw.data(), 216 + 16, 4), 0xFu);
  EXPECT_EQ(Field(jw.data(), 192, 12), 0xABCu);  // tx_row, under row_bytes
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
