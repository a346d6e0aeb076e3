// SPDX-License-Identifier: Apache-2.0
//
// End-to-end test of tma_sim_top (Verilated C++): random legal tile loads (rank 1..5), im2col
// loads (rank 3..5: corners, offsets, element strides, wrap to the lower corner) and
// interleaved (16B / 32B) tile and im2col loads, with every whole-byte element type, swizzle,
// sm_100 sub-byte tile loads (b4x16, b4x16_p64, b6x16_p32, run by the model as sm_100),
// element strides, OOB in every dimension and multicast, and faulting commands (F1, F2, F4,
// mode / rank mismatch, bad descriptors, prefetch, stores), issued back to back against an AXI4
// slave memory with random latency and backpressure, a shared-memory write port with random
// backpressure and a completion port with random backpressure. Every shared-memory byte and every
// completion is compared with the C++ reference model (tma::model::ExecuteTensor) executing the
// same commands in order.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "engine_harness.h"
#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "sim/harness.h"
#include "sim/interleaved_load.h"
#include "sim/rtl_support.h"
#include "sim/sim_top.h"
#include "sim/smem_port.h"
#include "tma/bulk_copy.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"
#include "tma/types.h"

#include "Vtma_sim_top_db16.h"
#include "Vtma_sim_top_db64.h"

namespace tma::tb {
namespace {

using model::DType;
using model::TensorInstr;
using model::TensorMap;
namespace pkg = tma::pkg;

constexpr int kNumCtas = 4;               // the Verilated models use NumCtas = 4
constexpr uint32_t kWindowBytes = 65536;  // each CTA's shared window
constexpr uint8_t kSmemPoison = 0xA5;

struct Command {
  TensorMap map;
  TensorInstr ins;
  uint64_t desc_addr = 0;
  uint8_t tag = 0;
  bool sm100 = false;  // an sm_100 map (sub-byte types): the model runs it as sm_100
  std::optional<sim::BulkCommand> bulk;  // a non-tensor bulk command (or commit_group)
};

struct Cpl {
  int kind = 0;  // tma::pkg::Cpl*
  int cta = 0;
  uint32_t mbar = 0;
  uint32_t bytes = 0;
  int err = 0;
  bool operator<(const Cpl& o) const {
    return std::tie(kind, cta, mbar, bytes, err) < std::tie(o.kind, o.cta, o.mbar, o.bytes, o.err);
  }
  bool operator==(const Cpl& o) const {
    return kind == o.kind && cta == o.cta && mbar == o.mbar && bytes == o.bytes && err == o.err;
  }
};

std::string CplString(const Cpl& c) {
  return "{kind " + std::to_string(c.kind) + " cta " + std::to_string(c.cta) + " mbar " +
         std::to_string(c.mbar) + " bytes " + std::to_string(c.bytes) + " err " +
         std::to_string(c.err) + "}";
}

// One line describing a command (debugging output).
std::string DescribeCommand(const Command& c) {
  const TensorMap& m = c.map;
  std::string s = "mode " + std::to_string(static_cast<int>(c.ins.mode)) + " rank " +
                  std::to_string(m.rank) + " dtype " + model::ToString(m.dtype) + " il " +
                  std::to_string(static_cast<int>(m.interleave)) + " swz " +
                  std::to_string(static_cast<int>(m.swizzle)) + " cpp " +
                  std::to_string(m.channels_per_pixel) + " ppc " +
                  std::to_string(m.pixels_per_column) + " smem " + std::to_string(c.ins.smem_addr) +
                  "\n";
  for (int d = 0; d < m.rank; ++d) {
    const size_t u = static_cast<size_t>(d);
    s += "  d" + std::to_string(d) + " dim " + std::to_string(m.dims[u]) + " box " +
         std::to_string(m.box[u]) + " es " + std::to_string(m.element_strides[u]) + " c " +
         std::to_string(c.ins.coords[u]);
    if (d >= 1)
      s += " stride " + std::to_string(m.strides[u - 1]);
    if (d >= 1 && d <= 3)
      s += " lo " + std::to_string(m.lower[u - 1]) + " up " + std::to_string(m.upper[u - 1]);
    if (d < 3 && u < c.ins.im2col_info.size())
      s += " off " + std::to_string(c.ins.im2col_info[u]);
    s += "\n";
  }
  return s;
}

// ---- Random legal loads ----
class CommandGen {
 public:
  explicit CommandGen(uint32_t seed) : rng_(seed) {}

  int Rand(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Rand(0, 99) < percent; }

  // Tile coordinates of dims 1 .. rank-1: inside the tensor, or anywhere around it.
  void RandomTileCoords(TensorInstr& ins, const model::TensorMap& m, bool inside) {
    for (int d = 1; d < m.rank; ++d) {
      const int b = static_cast<int>(m.box[d]);
      const int dim = static_cast<int>(m.dims[d]);
      ins.coords.push_back(inside ? Rand(0, std::max(0, dim - b)) : Rand(-b - 1, dim + 1));
    }
  }

  // Destination, mbarrier, issuer and (a quarter of the time) a multicast mask.
  void RandomDestination(TensorInstr& ins) {
    ins.smem_addr = 128u * static_cast<uint32_t>(Rand(0, 7));
    ins.mbar_addr = 8u * static_cast<uint32_t>(Rand(0, 31));
    ins.issuer_cta = Rand(0, kNumCtas - 1);
    ins.dst_cta = Rand(0, kNumCtas - 1);
    if (Chance(25)) {
      ins.multicast = true;
      ins.cta_mask = static_cast<uint16_t>(Rand(1, (1 << kNumCtas) - 1));
    }
  }

  void SetIm2colPercent(int p) { im2col_percent_ = p; }
  void SetInterleavePercent(int p) { interleave_percent_ = p; }
  void SetSubBytePercent(int p) { subbyte_percent_ = p; }
  void SetBlackwellPercent(int p) { blackwell_percent_ = p; }

  Command Make(uint64_t tensor_base, uint64_t tensor_span) {
    if (Chance(blackwell_percent_))
      return MakeBlackwell(tensor_base, tensor_span);
    if (Chance(subbyte_percent_))
      return MakeSubByte(tensor_base, tensor_span);
    if (Chance(interleave_percent_))
      return MakeInterleaved(tensor_base, tensor_span, Chance(im2col_percent_));
    if (Chance(im2col_percent_))
      return MakeIm2col(tensor_base, tensor_span);
    Command c;
    TensorMap& m = c.map;
    for (;;) {
      m = TensorMap{};
      m.rank = Rand(1, 5);
      m.dtype = kTypes[Rand(0, 12)];
      const int e = model::ElementBytes(m.dtype);
      m.swizzle = Chance(50) ? model::Swizzle::kNone : static_cast<model::Swizzle>(Rand(1, 3));
      const int span =
          m.swizzle == model::Swizzle::kNone ? 512 : (16 << static_cast<int>(m.swizzle));
      const int max_chunks = std::min(span / 16, 256 * e / 16);
      m.box[0] = static_cast<uint32_t>(16 * Rand(1, max_chunks) / e);
      m.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(m.box[0]) * 2 + 16 / e));
      uint64_t stride = (m.dims[0] * e + 15) / 16 * 16 + 16 * Rand(0, 2);
      // A packed tensor (box rows == tensor rows, row bytes == the swizzle span): the engine
      // may walk several rows as one (wide-bus packing).
      if (Chance(20)) {
        if (m.swizzle != model::Swizzle::kNone)
          m.box[0] = static_cast<uint32_t>(span / e);
        m.dims[0] = m.box[0];
        stride = static_cast<uint64_t>(m.box[0]) * static_cast<uint64_t>(e);
      }
      const int small = m.rank >= 4 ? 3 : (m.rank == 3 ? 5 : 12);
      for (int d = 1; d < m.rank; ++d) {
        m.box[d] = static_cast<uint32_t>(Rand(1, small));
        m.dims[d] = static_cast<uint64_t>(Rand(1, small + 2));
        m.element_strides[d] = static_cast<uint32_t>(Chance(70) ? 1 : Rand(2, 3));
        m.strides[d - 1] = stride;
        stride = stride * m.dims[d] + 16 * Rand(0, 1);
      }
      m.element_strides[0] = static_cast<uint32_t>(Chance(80) ? 1 : Rand(1, 8));  // ignored
      if (stride > tensor_span)
        continue;
      m.global_address = tensor_base + 16 * Rand(0, 16);
      m.oob_fill =
          (model::IsFloat(m.dtype) && Chance(50)) ? model::OobFill::kNan : model::OobFill::kZero;
      m.l2_promotion = static_cast<model::L2Promotion>(Rand(0, 3));
      if (!model::ValidateTensorMap(m).ok())
        continue;
      // Shared-memory footprint must fit the window.
      uint64_t rows = 1;
      for (int d = 1; d < m.rank; ++d)
        rows *= (m.box[d] + m.element_strides[d] - 1) / m.element_strides[d];
      const uint64_t pitch = m.swizzle == model::Swizzle::kNone ? m.box[0] * e : span;
      if (rows * pitch + 1024 > kWindowBytes)
        continue;
      break;
    }
    TensorInstr& ins = c.ins;
    const int e = model::ElementBytes(m.dtype);
    ins.op = model::Op::kLoad;
    ins.mode = model::LoadMode::kTile;
    ins.dim = m.rank;
    const int step0 = 16 / e;
    const int b0 = static_cast<int>(m.box[0]);
    const int d0 = static_cast<int>(m.dims[0]);
    // Half of the boxes start in bounds (most of their bytes are read), half anywhere.
    const bool inside = Chance(50);
    ins.coords.push_back(inside ? step0 * Rand(0, std::max(0, d0 - b0) / step0)
                                : step0 * Rand((-b0 - step0) / step0, (d0 + step0) / step0));
    RandomTileCoords(ins, m, inside);
    RandomDestination(ins);
    return c;
  }

  // A random sm_100 tile load of a sub-byte type (docs/descriptor.md sec. 2): b4x16 (a byte
  // copy, 2 elements per byte), b4x16_p64 / b6x16_p32 (16-element units of 8 / 12 global
  // bytes, 16 shared bytes) with the swizzles each allows, OOB rows and (5 %) a misaligned c0.
  Command MakeSubByte(uint64_t tensor_base, uint64_t tensor_span) {
    Command c;
    c.sm100 = true;
    TensorMap& m = c.map;
    bool packed = false;
    int span = 0;
    for (;;) {
      m = TensorMap{};
      m.rank = Rand(1, 4);
      const int t = Rand(0, 2);
      m.dtype = t == 0 ? DType::kB4x16 : (t == 1 ? DType::kB4x16P64 : DType::kB6x16P32);
      packed = t != 0;
      static constexpr model::Swizzle kSw[] = {model::Swizzle::kNone,
                                               model::Swizzle::k128B,
                                               model::Swizzle::k128BAtom32B,
                                               model::Swizzle::k128BAtom64B,
                                               model::Swizzle::k32B,
                                               model::Swizzle::k64B,
                                               model::Swizzle::k128BAtom32BFlip8B};
      m.swizzle = Chance(40) ? model::Swizzle::kNone : kSw[Rand(1, t == 1 ? 2 : (t == 2 ? 3 : 6))];
      span =
          m.swizzle == model::Swizzle::kNone ? 512 : static_cast<int>(SwizzleSpanBytes(m.swizzle));
      uint64_t gbytes = 0;  // global bytes of a full dim-0 row
      if (packed) {
        m.box[0] = 128;
        m.dims[0] = 128u * static_cast<uint64_t>(Rand(1, 3));
        gbytes = m.dims[0] / 16 * (t == 1 ? 8 : 12);
      } else {
        m.box[0] = static_cast<uint32_t>(32 * Rand(1, std::min(8, span / 16)));
        m.dims[0] = 2u * static_cast<uint64_t>(Rand(1, static_cast<int>(m.box[0]) + 16));
        gbytes = m.dims[0] / 2;
      }
      const uint64_t al = packed ? 32 : 16;
      uint64_t stride = (gbytes + al - 1) / al * al + al * static_cast<uint64_t>(Rand(0, 2));
      const int small = m.rank >= 3 ? 4 : 8;
      for (int d = 1; d < m.rank; ++d) {
        m.box[d] = static_cast<uint32_t>(Rand(1, small));
        m.dims[d] = static_cast<uint64_t>(Rand(1, small + 2));
        m.element_strides[d] = static_cast<uint32_t>(Chance(70) ? 1 : Rand(2, 3));
        m.strides[d - 1] = stride;
        stride = stride * m.dims[d] + al * static_cast<uint64_t>(Rand(0, 1));
      }
      if (stride > tensor_span)
        continue;
      m.global_address = tensor_base + al * static_cast<uint64_t>(Rand(0, 8));
      m.l2_promotion = static_cast<model::L2Promotion>(Rand(0, 3));
      if (!model::ValidateTensorMap(m, model::Arch::kSm100).ok())
        continue;
      uint64_t rows = 1;
      for (int d = 1; d < m.rank; ++d)
        rows *= (m.box[d] + m.element_strides[d] - 1) / m.element_strides[d];
      const uint64_t row_smem = packed ? m.box[0] : m.box[0] / 2;
      const uint64_t pitch = m.swizzle == model::Swizzle::kNone ? row_smem : span;
      if (rows * pitch + 1024 > kWindowBytes)
        continue;
      break;
    }
    TensorInstr& ins = c.ins;
    ins.op = model::Op::kLoad;
    ins.mode = model::LoadMode::kTile;
    ins.dim = m.rank;
    const int step0 = packed ? 128 : 32;  // F1: c0 x bits % 128 (packed: c0 % 128)
    const int b0 = static_cast<int>(m.box[0]);
    const int d0 = static_cast<int>(m.dims[0]);
    const bool inside = Chance(50);
    int c0 = inside ? step0 * Rand(0, std::max(0, d0 - b0) / step0)
                    : step0 * Rand((-b0 - step0) / step0, (d0 + step0) / step0);
    if (Chance(5))
      c0 += packed ? 32 * Rand(1, 3) : 2 * Rand(1, 15);  // misaligned_coordinate
    ins.coords.push_back(c0);
    RandomTileCoords(ins, m, inside);
    RandomDestination(ins);
    return c;
  }

  // A random legal im2col load (rank 3..5): channels cpp from c0, pixels per column ppc,
  // corners, offsets, element strides of the spatial dims, OOB in every dimension.
  Command MakeIm2col(uint64_t tensor_base, uint64_t tensor_span) {
    Command c;
    TensorMap& m = c.map;
    for (;;) {
      m = TensorMap{};
      m.mode = model::MapMode::kIm2col;
      m.rank = Rand(3, 5);
      m.dtype = kTypes[Rand(0, 12)];
      const int e = model::ElementBytes(m.dtype);
      m.swizzle = Chance(50) ? model::Swizzle::kNone : static_cast<model::Swizzle>(Rand(1, 3));
      const int span =
          m.swizzle == model::Swizzle::kNone ? 512 : (16 << static_cast<int>(m.swizzle));
      const int max_chunks = std::min(span / 16, 256 * e / 16);
      m.channels_per_pixel = static_cast<uint32_t>(16 * Rand(1, max_chunks) / e);
      m.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(m.channels_per_pixel) * 2 + 4));
      uint64_t stride = (m.dims[0] * e + 15) / 16 * 16 + 16 * Rand(0, 2);
      const int lim = m.rank == 3 ? 32768 : (m.rank == 4 ? 128 : 16);
      for (int d = 1; d < m.rank; ++d) {
        m.dims[d] = static_cast<uint64_t>(Rand(1, m.rank == 5 ? 5 : 8));
        m.element_strides[d] = static_cast<uint32_t>(Chance(70) ? 1 : Rand(2, 3));
        m.strides[d - 1] = stride;
        stride = stride * m.dims[d] + 16 * Rand(0, 1);
      }
      for (int k = 0; k < m.rank - 2; ++k) {
        m.lower[static_cast<size_t>(k)] = Chance(10) ? -lim : Rand(-3, 2);
        m.upper[static_cast<size_t>(k)] = Chance(10) ? lim - 1 - Rand(0, 2) : Rand(-3, 3);
      }
      m.element_strides[0] = static_cast<uint32_t>(Chance(80) ? 1 : Rand(1, 8));  // ignored
      m.pixels_per_column = static_cast<uint32_t>(Chance(20) ? Rand(1, 1024) : Rand(1, 40));
      if (stride > tensor_span)
        continue;
      m.global_address = tensor_base + 16 * Rand(0, 16);
      m.oob_fill =
          (model::IsFloat(m.dtype) && Chance(50)) ? model::OobFill::kNan : model::OobFill::kZero;
      if (!model::ValidateTensorMap(m).ok())
        continue;
      const uint64_t pitch = m.swizzle == model::Swizzle::kNone ? m.channels_per_pixel * e : span;
      if (m.pixels_per_column * pitch + 1024 > kWindowBytes)
        continue;
      break;
    }
    TensorInstr& ins = c.ins;
    const int e = model::ElementBytes(m.dtype);
    ins.op = model::Op::kLoad;
    ins.mode = model::LoadMode::kIm2col;
    ins.dim = m.rank;
    const int step0 = 16 / e;
    const int b0 = static_cast<int>(m.channels_per_pixel);
    const int d0 = static_cast<int>(m.dims[0]);
    const bool inside = Chance(50);
    ins.coords.push_back(inside ? step0 * Rand(0, std::max(0, d0 - b0) / step0)
                                : step0 * Rand((-b0 - step0) / step0, (d0 + step0) / step0));
    // Start pixel inside the bounding box [lower, dim - 1 + upper] of every spatial dim (F4).
    for (int k = 0; k < m.rank - 2; ++k) {
      const int lo = m.lower[static_cast<size_t>(k)];
      const int hi = static_cast<int>(m.dims[static_cast<size_t>(k + 1)]) - 1 +
                     m.upper[static_cast<size_t>(k)];
      ins.coords.push_back(Chance(15) ? (Chance(50) ? lo : hi) : Rand(std::max(lo, hi - 12), hi));
    }
    ins.coords.push_back(
        inside ? 0 : Rand(-1, static_cast<int>(m.dims[static_cast<size_t>(m.rank - 1)])));
    if (Chance(70)) {
      const int max_off = m.rank == 3 ? 65535 : (m.rank == 4 ? 255 : 31);
      for (int k = 0; k < m.rank - 2; ++k) {
        ins.im2col_info.push_back(
            static_cast<uint16_t>(Chance(10) ? Rand(0, max_off) : Rand(0, 3)));
      }
    }
    RandomDestination(ins);
    return c;
  }

  // A random legal interleaved (16B / 32B) load, tile or im2col (silicon D5 / D8; the
  // generator the SystemC bench's RandomMixSeq uses too), its box within the window.
  Command MakeInterleaved(uint64_t tensor_base, uint64_t tensor_span, bool im2col) {
    Command c;
    sim::InterleavedLoadLimits lim;
    lim.tensor_base = tensor_base;
    lim.tensor_span = tensor_span;
    lim.max_smem_bytes = kWindowBytes;
    sim::MakeInterleavedLoad([this](int lo, int hi) { return Rand(lo, hi); }, lim, im2col, &c.map,
                             &c.ins);
    RandomDestination(c.ins);
    return c;
  }

  // Turns a load into a store of the same box (or an F3 / F2 error; an im2col load mostly
  // into an im2col_no_offs store, else an invalid_instruction: .im2col is no store mode).
  void ToStore(Command* c) {
    c->ins.op = model::Op::kStore;
    c->ins.multicast = false;
    c->ins.cta_mask = 0;
    if (c->ins.mode == model::LoadMode::kIm2col && Chance(80)) {
      c->ins.mode = model::LoadMode::kIm2colNoOffs;
      c->ins.im2col_info.clear();
    }
  }

  // Turns a legal command into one that faults (or a prefetch / store).
  void Spoil(Command* c) {
    const bool i2c = c->ins.mode == model::LoadMode::kIm2col;
    if (i2c && Chance(40)) {
      const int k = Rand(0, c->map.rank - 3);
      if (Chance(50)) {
        // F4: the start pixel outside the bounding box of spatial dim k + 1.
        const int32_t hi = static_cast<int32_t>(c->map.dims[static_cast<size_t>(k + 1)]) - 1 +
                           c->map.upper[static_cast<size_t>(k)];
        c->ins.coords[static_cast<size_t>(k + 1)] =
            Chance(50) ? c->map.lower[static_cast<size_t>(k)] - Rand(1, 3) : hi + Rand(1, 3);
      } else if (c->map.rank > 3) {
        // F4: an offset out of range for the rank (255 / 31).
        c->ins.im2col_info.assign(static_cast<size_t>(c->map.rank - 2), 0);
        c->ins.im2col_info[static_cast<size_t>(k)] =
            static_cast<uint16_t>(c->map.rank == 4 ? Rand(256, 65535) : Rand(32, 300));
      } else {
        c->ins.mode = model::LoadMode::kTile;  // the mode does not match the map
        c->ins.im2col_info.clear();
      }
      return;
    }
    switch (Rand(0, 5)) {
      case 0:
        c->ins.smem_addr += 16;  // F2
        break;
      case 1:
        if (model::ElementBytes(c->map.dtype) < 16)
          c->ins.coords[0] += 1;  // F1 (c0 x E not a multiple of 16)
        break;
      case 2:
        c->ins.op = model::Op::kPrefetch;
        c->ins.multicast = false;
        c->ins.cta_mask = 0;
        break;
      case 3:
        ToStore(c);
        break;
      case 4:
        c->ins.dim = c->map.rank == 5 ? 4 : c->map.rank + 1;  // .Nd does not match the rank
        break;
      default:
        if (i2c) {
          c->map.channels_per_pixel += 1;  // cpp x E not a multiple of 16 (rule 17)
          if (!model::ValidateTensorMap(c->map).ok())
            break;
          c->map.channels_per_pixel -= 1;
          break;
        }
        c->map.box[0] = c->map.box[0] + 1;  // box[0] x E not a multiple of 16: bad descriptor
        if (!model::ValidateTensorMap(c->map).ok())
          break;
        c->map.box[0] -= 1;
        break;
    }
  }

  // A random legal sm_100 load: tile::gather4 (four rows, some out of bounds), im2col::w or
  // im2col::w::128 (a wide map, wHalo, wOffset, W wraps stepping N), or a tile load with a
  // 128B-atom swizzle; a third of them .cta_group::2 with mbar in a CTA of the destination's
  // pair (the complete-tx routing).
  Command MakeBlackwell(uint64_t tensor_base, uint64_t tensor_span) {
    Command c;
    c.sm100 = true;
    TensorMap& m = c.map;
    TensorInstr& ins = c.ins;
    const int kind = Rand(0, 3);
    for (;;) {
      m = TensorMap{};
      ins = TensorInstr{};
      m.dtype = kTypes[Rand(0, 12)];
      const int e = model::ElementBytes(m.dtype);
      if (kind == 0 || kind == 3) {  // gather4 (2-D, box[1] 1), or a 128B-atom tile
        m.rank = kind == 0 ? 2 : Rand(2, 3);
        m.swizzle = kind == 3 ? static_cast<model::Swizzle>(Rand(4, 6))
                              : (Chance(50) ? model::Swizzle::kNone
                                            : static_cast<model::Swizzle>(Rand(1, 6)));
        const int span = m.swizzle == model::Swizzle::kNone ? 256 : 128;
        m.box[0] = static_cast<uint32_t>(16 * Rand(1, std::min(span, 256 * e) / 16) / e);
        if (m.swizzle >= model::Swizzle::k32B && m.swizzle <= model::Swizzle::k64B)
          m.box[0] = std::min<uint32_t>(
              m.box[0], static_cast<uint32_t>((16 << static_cast<int>(m.swizzle)) / e));
        m.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(m.box[0]) * 2 + 16 / e));
        uint64_t stride = (m.dims[0] * e + 15) / 16 * 16 + 16 * Rand(0, 2);
        for (int d = 1; d < m.rank; ++d) {
          m.box[d] = kind == 0 ? 1u : static_cast<uint32_t>(Rand(1, 6));
          m.dims[d] = static_cast<uint64_t>(Rand(1, 40));
          m.strides[d - 1] = stride;
          stride = stride * m.dims[d] + 16 * Rand(0, 1);
        }
        if (stride > tensor_span)
          continue;
        ins.mode = kind == 0 ? model::LoadMode::kTileGather4 : model::LoadMode::kTile;
      } else {  // im2col::w (kind 1) / im2col::w::128 (kind 2)
        m.mode = model::MapMode::kIm2colWide;
        m.wide_mode = kind == 1 ? model::WideMode::kW : model::WideMode::kW128;
        m.rank = Rand(3, 5);
        const model::Swizzle sw[3] = {model::Swizzle::k64B, model::Swizzle::k128B,
                                      model::Swizzle::k128BAtom32B};
        m.swizzle = sw[Rand(0, 2)];
        const int span = m.swizzle == model::Swizzle::k64B ? 64 : 128;
        m.channels_per_pixel = static_cast<uint32_t>(16 * Rand(1, span / 16) / e);
        m.dims[0] = static_cast<uint64_t>(Rand(1, static_cast<int>(m.channels_per_pixel) * 2 + 4));
        uint64_t stride = (m.dims[0] * e + 15) / 16 * 16 + 16 * Rand(0, 2);
        for (int d = 1; d < m.rank; ++d) {
          m.dims[d] = static_cast<uint64_t>(Rand(1, d == 1 ? 40 : 5));
          m.element_strides[d] = static_cast<uint32_t>(Chance(70) ? 1 : Rand(2, 3));
          m.strides[d - 1] = stride;
          stride = stride * m.dims[d] + 16 * Rand(0, 1);
        }
        m.lower[0] = Rand(-3, 2);
        m.upper[0] = Rand(-3, 3);
        m.pixels_per_column = kind == 1 ? static_cast<uint32_t>(Rand(1, 60)) : 128u;
        if (stride > tensor_span)
          continue;
        ins.mode = kind == 1 ? model::LoadMode::kIm2colW : model::LoadMode::kIm2colW128;
        ins.im2col_info = {static_cast<uint16_t>(Rand(0, kind == 1 ? 20 : 6)),
                           static_cast<uint16_t>(Rand(0, 4))};
      }
      m.global_address = tensor_base + 16 * Rand(0, 16);
      m.oob_fill =
          (model::IsFloat(m.dtype) && Chance(50)) ? model::OobFill::kNan : model::OobFill::kZero;
      if (!model::ValidateTensorMap(m, model::Arch::kSm100).ok())
        continue;
      const model::TraversalPlan p = model::PlanTraversal(m, [&] {
        TensorInstr t = ins;
        t.dim = m.rank;
        t.coords.assign(ins.mode == model::LoadMode::kTileGather4 ? 5 : m.rank, 0);
        return t;
      }());
      if (!p.ok || p.num_rows * p.row_pitch + 1024 > kWindowBytes)
        continue;
      break;
    }
    const int e = model::ElementBytes(m.dtype);
    ins.op = model::Op::kLoad;
    ins.dim = m.rank;
    const int step0 = 16 / e;
    const int b0 =
        static_cast<int>(m.mode == model::MapMode::kTiled ? m.box[0] : m.channels_per_pixel);
    const int d0 = static_cast<int>(m.dims[0]);
    ins.coords.push_back(step0 * Rand((-b0 - step0) / step0, (d0 + step0) / step0));
    if (ins.mode == model::LoadMode::kTileGather4) {
      for (int k = 0; k < 4; ++k)
        ins.coords.push_back(Rand(-2, static_cast<int>(m.dims[1]) + 1));
    } else if (ins.mode == model::LoadMode::kTile) {
      RandomTileCoords(ins, m, Chance(50));
    } else {
      ins.coords.push_back(Rand(m.lower[0] - 2, static_cast<int>(m.dims[1]) + m.upper[0]));
      for (int d = 2; d < m.rank; ++d)
        ins.coords.push_back(Rand(-1, static_cast<int>(m.dims[static_cast<size_t>(d)])));
    }
    RandomDestination(ins);
    if (Chance(33)) {
      ins.cta_group = 2;
      const int dst = ins.multicast ? Rand(0, kNumCtas - 1) : ins.dst_cta;
      if (!ins.multicast)
        ins.mbar_cta = (dst & ~1) | Rand(0, 1);
      else if (Chance(50))
        ins.mbar_cta = Rand(0, kNumCtas - 1);
    }
    return c;
  }

 private:
  static constexpr DType kTypes[] = {DType::kU8,     DType::kU16,  DType::kU32,    DType::kS32,
                                     DType::kU64,    DType::kS64,  DType::kF16,    DType::kF32,
                                     DType::kF64,    DType::kBF16, DType::kF32Ftz, DType::kTF32,
                                     DType::kTF32Ftz};
  std::mt19937 rng_;
  int im2col_percent_ = 0;
  int interleave_percent_ = 0;
  int subbyte_percent_ = 0;
  int blackwell_percent_ = 0;
};

// Cycles simulated by every bench of this run; printed at the end with the CPU time (the
// speed table of docs/performance.md).
uint64_t g_cycles = 0;
class SpeedReport : public ::testing::Environment {
 public:
  void TearDown() override {
    const double cpu = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    std::printf("e2e: %llu cycles, cpu %.2f s (%.0f cycles/s)\n",
                static_cast<unsigned long long>(g_cycles), cpu,
                cpu > 0 ? static_cast<double>(g_cycles) / cpu : 0.0);
  }
};
const auto* const g_speed = ::testing::AddGlobalTestEnvironment(new SpeedReport);

// ---- The bench: tma_sim_top in the harness of sim/ ----
// Commands back to back (sim::CmdPort), the AXI4 read slave (sim::AxiReadSlave: bursts in AR
// order, first beat 1..12 cycles after the AR, random arready and R gaps), the shared-memory
// write port (sim::SmemPort, random ready, into the cluster's windows) and the completion port
// (sim::CplPort, random ready), every protocol error a test failure.
template <class Model, int kDataBytes>
class EngineBench {
 public:
  explicit EngineBench(uint32_t seed)
      : e_(
            Options(seed), [this](sim::EngineCommand* c) { return NextCommand(c); },
            [this](const sim::EngineCompletion& c) {
              Cpl x;
              x.kind = static_cast<int>(c.kind);
              x.cta = c.cta;
              x.mbar = c.mbar_addr;
              x.bytes = c.bytes;
              x.err = static_cast<int>(c.error);
              auto& v = cpls_[c.tag];
              if (v.empty())
                ++commands_with_cpl_;
              v.push_back(x);
            },
            [this](const sim::GroupCompletion& g) { groups_.push_back(g); }) {
    e_.axi().config().in_order = true;
    e_.axi().config().full_width = true;
    e_.axi().config().SetLatency(0, 11);
    for (auto& l : e_.axw().config().latency)
      l = {0, 11};
    e_.h().Reset(2);
  }

  model::SparseGlobalMemory& gmem() { return e_.gmem(); }
  // What the engine's stores wrote (global memory of the write channels; loads read gmem()).
  model::SparseGlobalMemory& wmem() { return e_.wmem(); }
  sim::AxiWriteSlave& axw() { return e_.axw(); }
  sim::AxiReadSlave& axi() { return e_.axi(); }
  model::ClusterSharedMemory& smem() { return e_.smem(); }
  void SetStress(int ready_percent) { e_.SetStress(ready_percent); }

  // Runs the commands back to back; returns the completions per tag.
  std::map<int, std::vector<Cpl>> Run(const std::vector<Command>& cmds, uint64_t max_cycles) {
    cmds_ = &cmds;
    sim::Harness& h = e_.h();
    const uint64_t start = h.cycle();
    const size_t want = static_cast<size_t>(std::count_if(cmds.begin(), cmds.end(), HasCompletion));
    while (h.cycle() - start < max_cycles) {
      h.Step();
      if (next_ == cmds.size() && commands_with_cpl_ >= want && e_.Quiet())
        break;
    }
    g_cycles += h.cycle() - start;
    EXPECT_LT(h.cycle() - start, max_cycles) << "engine did not finish (hang)";
    EXPECT_FALSE(e_.TakeAssertFailure()) << "an RTL assertion fired";
    return cpls_;
  }

  const std::vector<uint8_t>& Window(int cta) const { return e_.smem().Window(cta); }
  // The bulk async-group completions, in the order the port took them.
  const std::vector<sim::GroupCompletion>& groups() const { return groups_; }

 private:
  static EngineHarnessOptions Options(uint32_t seed) {
    EngineHarnessOptions o;
    o.seed = seed;
    o.rng_seed = seed * 7919u + 1;
    o.ctas = kNumCtas;
    o.window = kWindowBytes;
    o.poison = kSmemPoison;
    o.write_memory = true;
    o.groups = true;
    return o;
  }
  bool NextCommand(sim::EngineCommand* e) {
    if (cmds_ == nullptr || next_ == cmds_->size())
      return false;
    // A store reads shared memory that loads write: it starts on an idle engine once every
    // earlier command has completed, and the next command waits for it (software orders them
    // the same way, with mbarrier and bulk-group waits); the model runs them in order.
    // (a commit_group only closes its issuer's group: it waits for nothing)
    // (a bulk shared::cta -> shared::cluster copy is offered like a load: its test keeps its
    // bytes apart from the others')
    const bool commit = !HasCompletion((*cmds_)[next_]);
    auto to_global = [](const Command& c) {
      return c.ins.op == model::Op::kStore && !(c.bulk && c.bulk->to_cluster);
    };
    const bool store =
        !commit && (to_global((*cmds_)[next_]) || (next_ > 0 && to_global((*cmds_)[next_ - 1])));
    if (store && (e_.pins().busy || commands_with_cpl_ + commits_ < next_ || !e_.axw().idle()))
      return false;
    commits_ += commit ? 1 : 0;
    const Command& c = (*cmds_)[next_++];
    e->instr = c.ins;
    e->desc_addr = c.desc_addr;
    e->tag = c.tag;
    e->bulk = c.bulk;
    if (std::getenv("TMA_E2E_DUMP"))  // debugging: every command
      std::printf("%s", DescribeCommand(c).c_str());
    return true;
  }

  EngineHarness<Model, kDataBytes> e_;
  std::vector<sim::GroupCompletion> groups_;
  // A commit_group has no completion of its own, unless its issuer is not one of the engine's
  // CTAs (tma_cmd_reg, tma_bulk_rows: invalid_instruction).
  static bool HasCompletion(const Command& c) {
    return !(c.bulk && c.bulk->commit) || c.ins.issuer_cta >= kNumCtas;
  }

  const std::vector<Command>* cmds_ = nullptr;
  size_t next_ = 0;
  size_t commands_with_cpl_ = 0;
  size_t commits_ = 0;  // commit_group commands issued (they have no completion)
  std::map<int, std::vector<Cpl>> cpls_;
};

// Builds `n` commands, runs them on the RTL and the model, compares everything. `n` stays
// below 256: completions are matched to commands by their 8-bit tag.
template <class Model, int kDataBytes>
void RunRandomOnce(uint32_t seed, int n, int spoil_percent, int ready_percent, int im2col_percent,
                   int interleave_percent, int subbyte_percent, int store_percent,
                   int blackwell_percent) {
  CommandGen gen(seed);
  gen.SetBlackwellPercent(blackwell_percent);
  gen.SetIm2colPercent(im2col_percent);
  gen.SetInterleavePercent(interleave_percent);
  gen.SetSubBytePercent(subbyte_percent);
  EngineBench<Model, kDataBytes> bench(seed);
  bench.SetStress(ready_percent);
  constexpr uint64_t kTensorBase = 0x40000;
  constexpr uint64_t kTensorSpan = 1 << 20;
  // Tensor data: random bytes (a few NaN/denormal patterns come up by chance for floats).
  std::mt19937 drng(seed ^ 0x5555u);
  for (uint64_t a = kTensorBase - 4096; a < kTensorBase + kTensorSpan + 8192; a += 4) {
    uint32_t v = drng();
    if ((drng() & 63) == 0)
      v = 0x7F800000u | (drng() & 0x807FFFFFu);  // Inf / NaN for f32 and tf32
    uint8_t b[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8),
                    static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 24)};
    bench.gmem().Write(a, b, 4);
  }
  std::vector<Command> cmds;
  if (const char* lim = std::getenv("TMA_E2E_MAX_CMDS"))  // debugging: a prefix of the run
    n = std::min(n, std::atoi(lim));
  for (int i = 0; i < n; ++i) {
    Command c;
    if (i > 0 && gen.Chance(15)) {
      c = cmds.back();  // same map at the same address: a descriptor-cache hit
      c.ins.smem_addr = 128u * static_cast<uint32_t>(gen.Rand(0, 7));
    } else {
      c = gen.Make(kTensorBase, kTensorSpan);
      if (!c.sm100 && gen.Chance(spoil_percent))
        gen.Spoil(&c);
      else if (!c.sm100 && gen.Chance(store_percent))
        gen.ToStore(&c);
      c.desc_addr = 0x10000 + 128u * static_cast<uint64_t>(i);
      const model::DescriptorBytes d = model::EncodeDescriptor(c.map);
      bench.gmem().Write(c.desc_addr, d.data(), d.size());
    }
    c.tag = static_cast<uint8_t>(i);
    cmds.push_back(c);
  }

  const auto cpls = bench.Run(cmds, 4000000);
  if (std::getenv("TMA_E2E_DUMP") && !cmds.empty()) {  // debugging: the last command
    const Command& c = cmds.back();
    std::printf("%s\n", DescribeCommand(c).c_str());
    const model::TraversalPlan p = model::PlanTraversal(c.map, c.ins);
    model::ForEachRow(c.map, c.ins, p, [&](const model::RowVisit& v) {
      if (!v.row_oob)
        std::printf("row %llu base 0x%llx x0 %lld smem %u\n",
                    static_cast<unsigned long long>(v.index),
                    static_cast<unsigned long long>(v.row_base), static_cast<long long>(v.x0),
                    v.smem_offset);
    });
  }

  // The model executes the same commands in order.
  model::ClusterSharedMemory ref(kNumCtas, kWindowBytes, kSmemPoison);
  model::SparseGlobalMemory ref_w;  // the model's stores (the bench's wmem())
  int loads_ok = 0, stores_ok = 0;
  int kinds[4] = {0, 0, 0, 0};
  uint64_t bytes_read = 0;
  for (const Command& c : cmds) {
    std::vector<Cpl> want;
    model::ExecResult r;
    const bool store = c.ins.op == model::Op::kStore;
    if (!sim::RtlImplementsOp(c.ins.op)) {
      r.status = model::Status::Error(model::ErrorClass::kUnsupported, "op", "reduction");
    } else {
      model::ExecOptions opt;
      opt.arch = c.sm100 ? model::Arch::kSm100 : model::Arch::kSm90;
      r = model::ExecuteTensor(c.map, c.ins, store ? ref_w : bench.gmem(), ref, opt);
    }
    if (!r.status.ok()) {
      want.push_back(
          Cpl{pkg::CplError, c.ins.issuer_cta, c.ins.mbar_addr, 0, static_cast<int>(r.status.cls)});
    } else if (store) {
      ++stores_ok;  // a store ends in one done completion (bulk group)
      want.push_back(Cpl{pkg::CplDone, c.ins.issuer_cta, c.ins.mbar_addr, 0, 0});
    } else if (c.ins.op == model::Op::kPrefetch) {
      want.push_back(Cpl{pkg::CplDone, c.ins.issuer_cta, c.ins.mbar_addr, 0, 0});
    } else {
      ++loads_ok;
      const bool i2c = c.ins.mode == model::LoadMode::kIm2col;
      const bool il = c.map.interleave != model::Interleave::kNone;
      ++kinds[(i2c ? 1 : 0) + (il ? 2 : 0)];
      bytes_read += r.global_bytes_read;
      for (const model::CompleteTx& t : r.complete_tx)
        want.push_back(Cpl{pkg::CplTx, t.cta, t.mbar_addr, t.bytes, 0});
    }
    std::vector<Cpl> got;
    auto it = cpls.find(c.tag);
    if (it != cpls.end())
      got = it->second;
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    std::string ws, gs;
    for (const Cpl& x : want)
      ws += CplString(x);
    for (const Cpl& x : got)
      gs += CplString(x);
    EXPECT_EQ(gs, ws) << "command " << int(c.tag) << " (" << r.status.ToString() << "), mode "
                      << int(c.ins.mode) << " rank " << c.map.rank << " dtype "
                      << model::ToString(c.map.dtype);
  }
  EXPECT_GT(loads_ok + stores_ok, n / 3) << "too few legal loads and stores to mean anything";
  int sm100[5] = {0, 0, 0, 0, 0};  // gather4, im2col::w, im2col::w::128, other, cta_group::2
  for (const Command& c : cmds) {
    if (!c.sm100)
      continue;
    const model::LoadMode md = c.ins.mode;
    ++sm100[md == model::LoadMode::kTileGather4
                ? 0
                : (md == model::LoadMode::kIm2colW ? 1
                                                   : (md == model::LoadMode::kIm2colW128 ? 2 : 3))];
    sm100[4] += c.ins.cta_group == 2;
  }
  std::printf(
      "seed %u: %d commands, %d loads ok (tile %d, im2col %d, interleaved tile %d, "
      "interleaved im2col %d), %llu in-bounds bytes read; sm_100 commands: gather4 %d, "
      "im2col::w %d, im2col::w::128 %d, other %d, .cta_group::2 %d\n",
      seed, n, loads_ok, kinds[0], kinds[1], kinds[2], kinds[3],
      static_cast<unsigned long long>(bytes_read), sm100[0], sm100[1], sm100[2], sm100[3],
      sm100[4]);
  // Global memory written by the stores.
  {
    size_t bad = 0;
    uint64_t first = 0;
    for (uint64_t a = kTensorBase - 4096; a < kTensorBase + kTensorSpan + 8192; ++a) {
      uint8_t g = 0, w = 0;
      bench.wmem().Read(a, &g, 1);
      ref_w.Read(a, &w, 1);
      if (g != w && bad++ == 0)
        first = a;
    }
    EXPECT_EQ(bad, 0u) << "stores: " << bad << " global bytes differ, first at 0x" << std::hex
                       << first;
    if (stores_ok > 0)
      std::printf("seed %u: %d stores ok\n", seed, stores_ok);
  }
  for (int cta = 0; cta < kNumCtas; ++cta) {
    const auto& got = bench.Window(cta);
    const auto& want = ref.Window(cta);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      if (got[i] != want[i] && bad++ == 0)
        first = i;
    }
    if (bad && std::getenv("TMA_E2E_DUMP")) {  // debugging: the 64 bytes from the first
      for (size_t i = first & ~size_t{15}; i < (first & ~size_t{15}) + 64 && i < want.size(); ++i)
        std::printf("%05zx got %02x want %02x\n", i, got[i], want[i]);
    }
    EXPECT_EQ(bad, 0u) << "CTA " << cta << ": " << bad << " bytes differ, first at 0x" << std::hex
                       << first << " got " << int(got[first]) << " want " << int(want[first]);
  }
}

// RunRandomOnce, repeated with further seeds for the long regression: TMA_E2E_SCALE=N runs
// each test N times over (docs/verification.md).
template <class Model, int kDataBytes>
void RunRandom(uint32_t seed, int n, int spoil_percent, int ready_percent, int im2col_percent = 0,
               int interleave_percent = 0, int subbyte_percent = 0, int store_percent = 0,
               int blackwell_percent = 0) {
  const char* scale_env = std::getenv("TMA_E2E_SCALE");
  const int scale = scale_env ? std::max(1, std::atoi(scale_env)) : 1;
  for (int rep = 0; rep < scale; ++rep) {
    RunRandomOnce<Model, kDataBytes>(seed + 1000u * static_cast<uint32_t>(rep), n, spoil_percent,
                                     ready_percent, im2col_percent, interleave_percent,
                                     subbyte_percent, store_percent, blackwell_percent);
  }
}

TEST(EngineE2E, RandomTileLoadsDb16) {
  for (uint32_t seed = 1; seed <= 4; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 150, 0, 70);
}

TEST(EngineE2E, RandomTileLoadsDb64) {
  for (uint32_t seed = 11; seed <= 14; ++seed)
    RunRandom<Vtma_sim_top_db64, 64>(seed, 150, 0, 70);
}

TEST(EngineE2E, RandomIm2colLoadsDb16) {
  for (uint32_t seed = 51; seed <= 54; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 120, 0, 70, 100);
}

TEST(EngineE2E, RandomIm2colLoadsDb64) {
  for (uint32_t seed = 61; seed <= 63; ++seed)
    RunRandom<Vtma_sim_top_db64, 64>(seed, 120, 0, 70, 100);
}

TEST(EngineE2E, RandomInterleavedLoadsDb16) {
  for (uint32_t seed = 81; seed <= 84; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 120, 0, 70, 50, 100);
}

TEST(EngineE2E, RandomInterleavedLoadsDb64) {
  for (uint32_t seed = 91; seed <= 93; ++seed)
    RunRandom<Vtma_sim_top_db64, 64>(seed, 120, 0, 70, 50, 100);
}

// sm_100 sub-byte loads (b4x16, b4x16_p64, b6x16_p32 through tma_unpack) mixed with the
// sm_90 tile loads; DataBytes 64 (SubByte = 1 there, -GSubByte) puts rows at goff 32.
TEST(EngineE2E, RandomSubByteLoadsDb16) {
  for (uint32_t seed = 101; seed <= 103; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 120, 0, 70, 0, 0, 60);
}

TEST(EngineE2E, RandomSubByteLoadsDb64) {
  for (uint32_t seed = 111; seed <= 112; ++seed)
    RunRandom<Vtma_sim_top_db64, 64>(seed, 120, 0, 70, 0, 0, 60);
}

// sm_100 modes (tile::gather4, im2col::w, im2col::w::128, 128B-atom swizzles,
// .cta_group::2 routing) mixed with the sm_90 tile loads.
TEST(EngineE2E, RandomBlackwellLoadsDb16) {
  for (uint32_t seed = 131; seed <= 133; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 120, 0, 70, 0, 0, 0, 0, 60);
}

TEST(EngineE2E, RandomBlackwellLoadsDb64) {
  for (uint32_t seed = 141; seed <= 142; ++seed)
    RunRandom<Vtma_sim_top_db64, 64>(seed, 120, 0, 70, 0, 0, 0, 0, 60);
}

TEST(EngineE2E, FullSpeedSubByteDb16) {
  RunRandom<Vtma_sim_top_db16, 16>(121, 150, 0, 100, 0, 0, 80);
}

// The directed tests' map: u32, 64 x 64 elements in rows of kRowBytes at kRowMapBase, box 40 x
// 8 (160-byte rows: one burst of 10 beats each at DataBytes 16); and its command k: op, rows
// 8 (k % 4) .. + 7, elements 8 .. 47, into shared memory at 2048 k of CTA k % 4.
constexpr uint64_t kRowMapBase = 0x80000;
constexpr uint64_t kRowBytes = 256;

TensorMap RowMap() {
  TensorMap m;
  m.rank = 2;
  m.dtype = DType::kU32;
  m.dims[0] = 64;
  m.dims[1] = 64;
  m.strides[0] = kRowBytes;
  m.box[0] = 40;
  m.box[1] = 8;
  m.global_address = kRowMapBase;
  return m;
}

Command RowCommand(const TensorMap& m, int k, model::Op op, uint64_t desc_addr) {
  Command c;
  c.map = m;
  c.ins.op = op;
  c.ins.mode = model::LoadMode::kTile;
  c.ins.dim = 2;
  c.ins.coords = {8, 8 * (k % 4)};
  c.ins.smem_addr = 2048u * static_cast<uint32_t>(k);
  c.ins.issuer_cta = k % kNumCtas;
  c.ins.dst_cta = c.ins.issuer_cta;
  c.desc_addr = desc_addr;
  c.tag = static_cast<uint8_t>(k);
  return c;
}

// Write errors: four stores of disjoint row ranges of one tensor, the second hitting a SLVERR
// range, the fourth a range the slave never answers (the watchdog, 4096 cycles in the sim
// tops); the first and third must complete (done) with exactly the model's bytes, the second
// and fourth with one bus_error each; a load after them still completes correctly.
TEST(EngineE2E, StoreWriteErrorsDb16) {
  EngineBench<Vtma_sim_top_db16, 16> bench(7);
  model::ClusterSharedMemory ref(kNumCtas, kWindowBytes, kSmemPoison);
  std::mt19937 rng(7);
  for (int cta = 0; cta < kNumCtas; ++cta) {
    for (uint32_t a = 0; a < kWindowBytes; ++a) {
      const uint8_t v = static_cast<uint8_t>(rng());
      bench.smem().Write(cta, a, &v, 1);
      ref.Write(cta, a, &v, 1);
    }
  }
  constexpr uint64_t kBase = kRowMapBase;
  const TensorMap m = RowMap();
  ASSERT_TRUE(model::ValidateTensorMap(m).ok());
  const model::DescriptorBytes d = model::EncodeDescriptor(m);
  bench.gmem().Write(0x10000, d.data(), d.size());
  std::vector<Command> cmds;
  for (int k = 0; k < 5; ++k)
    cmds.push_back(RowCommand(m, k, k == 4 ? model::Op::kLoad : model::Op::kStore, 0x10000));
  auto rows_of = [&](int k) {
    return std::make_pair(kBase + 8 * k * kRowBytes, kBase + 8 * (k + 1) * kRowBytes);
  };
  bench.axw().AddErrorRange(rows_of(1).first + 3 * kRowBytes + 64,
                            rows_of(1).first + 3 * kRowBytes + 80, 2);
  bench.axw().AddSilentRange(rows_of(3).first + 5 * kRowBytes, rows_of(3).first + 6 * kRowBytes);
  const auto cpls = bench.Run(cmds, 200000);

  model::SparseGlobalMemory ref_w;
  auto kind_of = [&](int k) {
    auto it = cpls.find(k);
    return it == cpls.end() || it->second.size() != 1
               ? std::make_pair(-1, -1)
               : std::make_pair(it->second[0].kind, it->second[0].err);
  };
  for (int k = 0; k < 4; ++k) {
    const bool bad = k == 1 || k == 3;
    const auto [kind, err] = kind_of(k);
    EXPECT_EQ(kind, bad ? pkg::CplError : pkg::CplDone) << "store " << k;
    if (bad) {
      EXPECT_EQ(err, static_cast<int>(model::ErrorClass::kBusError)) << "store " << k;
      continue;
    }
    ASSERT_TRUE(model::ExecuteTensor(m, cmds[static_cast<size_t>(k)].ins, ref_w, ref).status.ok());
    size_t diff = 0;
    for (uint64_t a = rows_of(k).first; a < rows_of(k).second; ++a) {
      uint8_t g = 0, w = 0;
      bench.wmem().Read(a, &g, 1);
      ref_w.Read(a, &w, 1);
      diff += g != w;
    }
    EXPECT_EQ(diff, 0u) << "store " << k << ": global bytes differ from the model";
  }
  // The load (into CTA 0 at 8192) completes with its complete-tx.
  auto it = cpls.find(4);
  ASSERT_TRUE(it != cpls.end());
  ASSERT_EQ(it->second.size(), 1u);
  EXPECT_EQ(it->second[0].kind, pkg::CplTx);
  EXPECT_EQ(it->second[0].bytes, 40u * 4u * 8u);
  // 4 stores x 8 rows of one burst each; rows 29, 30, 31 unanswered (an ID's responses keep
  // AW order: once silent, silent); row 11 answered SLVERR.
  EXPECT_EQ(bench.axw().bursts(), 32u);
  EXPECT_EQ(bench.axw().silent_bursts(), 3u);
  EXPECT_EQ(bench.axw().error_bursts(), 1u);
}

// The read watchdog (tma_sim_top: 4096 cycles): six 2-D tile loads of one u32 map (rows of
// 160 bytes: one 10-beat burst each, 8 rows a command, each into its own shared-memory slot).
// The read slave answers one data burst of load 1 (its row 3) and the first descriptor beat
// of load 4 (its own map) only 6000 cycles after their AR; an ID's bursts keep AR order, so
// the later bursts of those IDs wait behind them. Expected: the watchdog fails load 1's burst
// (bus_error) and then, as the slave is still silent, waits again for load 1's next burst,
// which is answered before a second timeout; load 4's fetch fails (bus_error); the late beats
// are dropped, so loads 0, 2, 3 and 5 (load 5 after the silent fetch, its map cached) complete
// with the model's bytes, and nothing outside loads 1 and 4's slots is written.
TEST(EngineE2E, ReadWatchdogDb16) {
  EngineBench<Vtma_sim_top_db16, 16> bench(9);
  bench.axi().config().in_order = false;  // the IDs' bursts are independent
  constexpr uint64_t kBase = kRowMapBase;
  std::mt19937 rng(9);
  for (uint64_t a = kBase; a < kBase + 64 * kRowBytes; a += 4) {
    const uint32_t v = rng();
    bench.gmem().Write(a, reinterpret_cast<const uint8_t*>(&v), 4);
  }
  const TensorMap m = RowMap();
  ASSERT_TRUE(model::ValidateTensorMap(m).ok());
  const model::DescriptorBytes d = model::EncodeDescriptor(m);
  bench.gmem().Write(0x10000, d.data(), d.size());
  bench.gmem().Write(0x10080, d.data(), d.size());
  std::vector<Command> cmds;
  for (int k = 0; k < 6; ++k) {
    Command c = RowCommand(m, k, model::Op::kLoad, k == 4 ? 0x10080 : 0x10000);
    c.ins.coords = {8, 8 * k};  // rows 8k .. 8k + 7: each load its own rows
    c.ins.mbar_addr = 8u * static_cast<uint32_t>(k);
    cmds.push_back(c);
  }
  const uint64_t row13 = kBase + (8 + 3) * kRowBytes + 32;  // load 1, row 3, its first byte
  bench.axi().AddSilentRange(row13, row13 + 1, 6000);
  bench.axi().AddSilentRange(0x10080, 0x10090, 6000);
  const auto cpls = bench.Run(cmds, 100000);

  model::ClusterSharedMemory ref(kNumCtas, kWindowBytes, kSmemPoison);
  for (int k = 0; k < 6; ++k) {
    auto it = cpls.find(k);
    ASSERT_TRUE(it != cpls.end()) << "load " << k << " has no completion";
    ASSERT_EQ(it->second.size(), 1u) << "load " << k;
    const Cpl& c = it->second[0];
    if (k == 1 || k == 4) {
      EXPECT_EQ(c.kind, pkg::CplError) << "load " << k;
      EXPECT_EQ(c.err, static_cast<int>(model::ErrorClass::kBusError)) << "load " << k;
      continue;
    }
    EXPECT_EQ(c.kind, pkg::CplTx) << "load " << k;
    EXPECT_EQ(c.bytes, 40u * 4u * 8u) << "load " << k;
    ASSERT_TRUE(
        model::ExecuteTensor(m, cmds[static_cast<size_t>(k)].ins, bench.gmem(), ref).status.ok());
  }
  for (int cta = 0; cta < kNumCtas; ++cta) {
    size_t diff = 0;
    for (uint32_t a = 0; a < kWindowBytes; ++a) {
      const uint32_t slot = a / 2048;
      if ((slot == 1 && cta == 1) || (slot == 4 && cta == 0))
        continue;  // the failed loads' destinations
      diff += bench.Window(cta)[a] != ref.Window(cta)[a];
    }
    EXPECT_EQ(diff, 0u) << "CTA " << cta << ": shared-memory bytes differ from the model";
  }
  // Both held bursts were answered late (and dropped); every burst was requested once: 8 data
  // bursts for each load but load 4 (its fetch failed: it reads no data) and 8 descriptor
  // beats for each of the two maps.
  EXPECT_EQ(bench.axi().silent_bursts(), 2u);
  EXPECT_EQ(bench.axi().bursts(), 5u * 8u + 2u * 8u);
}

// Non-tensor bulk operations and bulk async-groups on one engine: bulk stores (one with a
// .cp_mask, one whose write burst is answered SLVERR), commit_group of two issuers (one group
// empty), a bulk load of a size that is not a multiple of 16 (silicon B1: size & ~15 bytes move)
// and a bulk prefetch; a bulk store and a commit_group of CTAs 5 and 6, which the 4-CTA engine
// does not have. Expected: the model's bytes for every command but the failing one, one
// bus_error completion for it, invalid_instruction for the two of absent CTAs (and no group of
// theirs), and per issuer its groups' read-done then done in group order, the failing store's
// group flagged.
TEST(EngineE2E, BulkGroupsAndErrorsDb16) {
  EngineBench<Vtma_sim_top_db16, 16> bench(11);
  model::ClusterSharedMemory ref(kNumCtas, kWindowBytes, kSmemPoison);
  std::mt19937 rng(11);
  for (int cta = 0; cta < kNumCtas; ++cta) {
    for (uint32_t a = 0; a < kWindowBytes; ++a) {
      const uint8_t v = static_cast<uint8_t>(rng());
      bench.smem().Write(cta, a, &v, 1);
      ref.Write(cta, a, &v, 1);
    }
  }
  model::SparseGlobalMemory ref_g;  // the load's source, as the engine reads it
  for (uint64_t a = 0x40000; a < 0x42000; ++a) {
    const uint8_t v = static_cast<uint8_t>(rng());
    bench.gmem().Write(a, &v, 1);
    ref_g.Write(a, &v, 1);
  }
  auto op = [](model::Op o, int issuer, uint64_t gaddr, uint32_t saddr, uint32_t size,
               uint8_t tag) {
    Command c;
    c.ins.op = o;
    c.ins.issuer_cta = issuer;
    c.ins.dst_cta = issuer;
    c.ins.mbar_addr = 0xF000;
    sim::BulkCommand b;
    b.gaddr = gaddr;
    b.saddr = saddr;
    b.size = size;
    c.bulk = b;
    c.tag = tag;
    return c;
  };
  auto commit = [&](int issuer, uint8_t tag) {
    Command c = op(model::Op::kStore, issuer, 0, 0, 0, tag);
    c.bulk->commit = true;
    return c;
  };
  std::vector<Command> cmds;
  cmds.push_back(op(model::Op::kStore, 0, 0x80000, 0x100, 1024, 0));
  cmds.push_back(commit(0, 1));                                        // issuer 0, group 0
  cmds.push_back(op(model::Op::kStore, 0, 0x82000, 0x2000, 2048, 2));  // a burst: SLVERR
  cmds.push_back(commit(0, 3));                                        // issuer 0, group 1
  cmds.push_back(op(model::Op::kStore, 1, 0x83000, 0x300, 512, 4));
  cmds.back().bulk->cp_mask = 0x0F0F;
  cmds.push_back(commit(1, 5));                                       // issuer 1, group 0
  cmds.push_back(op(model::Op::kLoad, 2, 0x40010, 0x8000, 1000, 6));  // moves 992 bytes
  cmds.push_back(commit(0, 7));                                       // issuer 0, group 2
  cmds.push_back(op(model::Op::kPrefetch, 3, 0x40000, 0, 4096, 8));
  cmds.push_back(op(model::Op::kStore, 5, 0x84000, 0x100, 256, 9));  // CTA 5: not in the engine
  cmds.push_back(commit(6, 10));                                     // CTA 6: likewise
  bench.axw().AddErrorRange(0x82000 + 512, 0x82000 + 528, 2);
  const auto cpls = bench.Run(cmds, 200000);

  auto one = [&](int tag) {
    auto it = cpls.find(tag);
    EXPECT_TRUE(it != cpls.end() && it->second.size() == 1) << "command " << tag;
    return it == cpls.end() || it->second.empty() ? Cpl{-1} : it->second[0];
  };
  EXPECT_EQ(one(0).kind, pkg::CplDone);
  EXPECT_EQ(one(2).kind, pkg::CplError);
  EXPECT_EQ(one(2).err, static_cast<int>(model::ErrorClass::kBusError));
  EXPECT_EQ(one(4).kind, pkg::CplDone);
  EXPECT_EQ(one(6).kind, pkg::CplTx);
  EXPECT_EQ(one(6).cta, 2);
  EXPECT_EQ(one(6).bytes, 992u);
  EXPECT_EQ(one(8).kind, pkg::CplDone);
  for (int tag : {9, 10}) {
    EXPECT_EQ(one(tag).kind, pkg::CplError) << "command " << tag << " of an absent CTA";
    EXPECT_EQ(one(tag).err, static_cast<int>(model::ErrorClass::kInvalidInstruction)) << tag;
  }
  for (int tag : {1, 3, 5, 7}) {
    EXPECT_EQ(cpls.count(tag), 0u) << "commit_group " << tag << " completed like a command";
  }

  // The model's bytes: the two good stores in global memory, the load in CTA 2's window.
  model::SparseGlobalMemory ref_w;
  for (int k : {0, 4, 6}) {
    const Command& c = cmds[static_cast<size_t>(k)];
    model::BulkCopyInstr in;
    in.dir = c.ins.op == model::Op::kLoad ? model::BulkDir::kGlobalToSharedCta
                                          : model::BulkDir::kSharedCtaToGlobal;
    in.src = c.ins.op == model::Op::kLoad ? c.bulk->gaddr : c.bulk->saddr;
    in.dst = c.ins.op == model::Op::kLoad ? c.bulk->saddr : c.bulk->gaddr;
    in.size = c.bulk->size;
    in.mbar_addr = c.ins.mbar_addr;
    in.issuer_cta = c.ins.issuer_cta;
    in.byte_mask = c.bulk->cp_mask;
    const model::BulkResult r =
        model::ExecuteBulkCopy(in, c.ins.op == model::Op::kLoad ? ref_g : ref_w, ref);
    ASSERT_TRUE(r.status.ok()) << k << ": " << r.status.ToString();
  }
  auto same_global = [&](uint64_t lo, uint64_t hi) {
    size_t diff = 0;
    for (uint64_t a = lo; a < hi; ++a) {
      uint8_t g = 0, w = 0;
      const bool gok = bench.wmem().Read(a, &g, 1);
      const bool wok = ref_w.Read(a, &w, 1);
      diff += gok != wok || g != w;
    }
    return diff;
  };
  EXPECT_EQ(same_global(0x80000 - 64, 0x80000 + 1024 + 64), 0u) << "bulk store 0";
  EXPECT_EQ(same_global(0x83000 - 64, 0x83000 + 512 + 64), 0u) << "bulk store 4 (.cp_mask)";
  EXPECT_EQ(bench.Window(2), ref.Window(2)) << "bulk load 6 (CTA 2's window)";

  // Group completions: per issuer read-done then done of groups 0, 1, 2 in order.
  std::map<int, std::vector<std::tuple<int, bool, bool>>> per;
  for (const sim::GroupCompletion& g : bench.groups()) {
    per[g.issuer].push_back({g.seq, g.done, g.err});
  }
  using G = std::vector<std::tuple<int, bool, bool>>;
  EXPECT_EQ(per[0], (G{{0, false, false},
                       {0, true, false},
                       {1, false, true},
                       {1, true, true},
                       {2, false, false},
                       {2, true, false}}));
  EXPECT_EQ(per[1], (G{{0, false, false}, {0, true, false}}));
  EXPECT_EQ(per.size(), 2u) << "group completions of an issuer that committed none";
  EXPECT_EQ(bench.axw().error_bursts(), 1u) << "the SLVERR burst of bulk store 2";
}

// Stores (tile, interleaved, im2col_no_offs) mixed with loads; each store runs on an idle
// engine (EngineBench::NextCommand), with random AW / W / B readiness and B latency.
// Bulk shared::cta -> shared::cluster copies and reductions (tma_s2s_copy) offered back to back
// with bulk loads in flight: each waits for the engine to drain, borrows both shared-memory
// ports and completes with one complete-tx on its destination CTA; a copy of size 8 moves
// nothing (B1) and still completes; a copy to the issuer's own window is invalid_instruction.
// The reductions: one per kind of walk (a peer CTA; the issuer's own window with overlapping
// ranges, the destination above the source (walked downward), below it, and equal to it), a
// B1 size, the destination CTA left to the issuer, a pair outside the .shared::cluster table
// (unsupported_reduction). Every window must equal the model's (ExecuteBulkCopy /
// ExecuteBulkReduce in command order; the copies' and reductions' bytes are apart from the
// loads', so the order between them does not matter).
template <class Model, int kDataBytes>
void RunSharedToCluster(uint32_t seed, int ready_percent) {
  EngineBench<Model, kDataBytes> bench(seed);
  bench.SetStress(ready_percent);
  model::ClusterSharedMemory ref(kNumCtas, kWindowBytes, kSmemPoison);
  std::mt19937 rng(seed);
  for (int cta = 0; cta < kNumCtas; ++cta) {
    for (uint32_t a = 0; a < kWindowBytes; ++a) {
      const uint8_t v = static_cast<uint8_t>(rng());
      bench.smem().Write(cta, a, &v, 1);
      ref.Write(cta, a, &v, 1);
    }
  }
  model::SparseGlobalMemory ref_g;
  for (uint64_t a = 0x40000; a < 0x42000; ++a) {
    const uint8_t v = static_cast<uint8_t>(rng());
    bench.gmem().Write(a, &v, 1);
    ref_g.Write(a, &v, 1);
  }
  // (src, dst): the load's global source and shared destination, the copy's two offsets
  auto op = [](bool s2s, int issuer, int dst_cta, uint64_t src, uint32_t dst, uint32_t size,
               uint8_t tag) {
    Command c;
    c.ins.op = s2s ? model::Op::kStore : model::Op::kLoad;
    c.ins.issuer_cta = issuer;
    c.ins.dst_cta = dst_cta;
    c.ins.mbar_addr = 0xF000 + 8u * tag;
    sim::BulkCommand b;
    b.to_cluster = s2s || dst_cta != issuer;
    b.gaddr = s2s ? dst : src;
    b.saddr = static_cast<uint32_t>(s2s ? src : dst);
    b.size = size;
    c.bulk = b;
    c.tag = tag;
    return c;
  };
  std::vector<Command> cmds;
  cmds.push_back(op(false, 0, 0, 0x40000, 0x1000, 2048, 0));
  cmds.push_back(op(true, 0, 1, 0x4000, 0x6010, 1040, 1));
  cmds.push_back(op(false, 2, 2, 0x40800, 0x2000, 512, 2));
  cmds.push_back(op(true, 3, 2, 0x5030, 0x7000, 560, 3));
  cmds.push_back(op(true, 1, 0, 0x5000, 0x8000, 8, 4));  // B1: moves 0 bytes
  cmds.push_back(op(false, 1, 3, 0x40c00, 0x3000, 256, 5));
  cmds.push_back(op(true, 2, 2, 0x100, 0x9000, 64, 6));  // to the issuer: invalid
  cmds.push_back(op(true, 1, 3, 0x8020, 0xA030, 4096, 7));
  auto red = [&](model::RedOp redop, model::BulkType type, int issuer, int dst_cta, uint32_t src,
                 uint32_t dst, uint32_t size, uint8_t tag) {
    Command c = op(true, issuer, dst_cta, src, dst, size, tag);
    c.ins.op = model::Op::kReduce;
    c.ins.redop = redop;
    c.bulk->type = static_cast<uint8_t>(type);
    return c;
  };
  using model::BulkType;
  using model::RedOp;
  cmds.push_back(red(RedOp::kAdd, BulkType::kU32, 2, 1, 0xC000, 0xC400, 528, 8));
  cmds.push_back(red(RedOp::kMin, BulkType::kS32, 3, 3, 0xD000, 0xD040, 256, 9));   // above
  cmds.push_back(red(RedOp::kXor, BulkType::kB32, 0, 0, 0xD840, 0xD800, 256, 10));  // below
  cmds.push_back(red(RedOp::kAdd, BulkType::kU64, 1, 1, 0xE000, 0xE000, 64, 11));   // equal
  cmds.push_back(red(RedOp::kDec, BulkType::kU32, 0, 3, 0xE400, 0xE800, 24, 12));   // B1: 16
  cmds.push_back(red(RedOp::kInc, BulkType::kU32, 2, -1, 0xB800, 0xB900, 96, 13));
  cmds.push_back(red(RedOp::kMax, BulkType::kU32, 1, 2, 0x9100, 0x9600, 1024, 14));
  cmds.push_back(red(RedOp::kAnd, BulkType::kB64, 1, 2, 0x9100, 0x9600, 64, 15));
  const auto cpls = bench.Run(cmds, 400000);

  std::vector<int> failed;  // tags of the commands the model fails
  for (size_t k = 0; k < cmds.size(); ++k) {
    const Command& c = cmds[k];
    model::BulkResult r;
    if (c.ins.op == model::Op::kReduce) {
      model::BulkReduceInstr in;
      in.dir = model::BulkDir::kSharedCtaToSharedCluster;
      in.redop = c.ins.redop;
      in.type = static_cast<model::BulkType>(c.bulk->type);
      in.src = c.bulk->saddr;
      in.dst = c.bulk->gaddr;
      in.size = c.bulk->size;
      in.mbar_addr = c.ins.mbar_addr;
      in.issuer_cta = c.ins.issuer_cta;
      in.dst_cta = c.ins.dst_cta;
      r = model::ExecuteBulkReduce(in, ref_g, ref);
    } else {
      model::BulkCopyInstr in;
      const bool s2s = c.ins.op == model::Op::kStore;
      in.dir = s2s                  ? model::BulkDir::kSharedCtaToSharedCluster
               : c.bulk->to_cluster ? model::BulkDir::kGlobalToSharedCluster
                                    : model::BulkDir::kGlobalToSharedCta;
      in.src = s2s ? c.bulk->saddr : c.bulk->gaddr;
      in.dst = s2s ? c.bulk->gaddr : c.bulk->saddr;
      in.size = c.bulk->size;
      in.mbar_addr = c.ins.mbar_addr;
      in.issuer_cta = c.ins.issuer_cta;
      in.dst_cta = c.ins.dst_cta;
      r = model::ExecuteBulkCopy(in, ref_g, ref);
    }
    auto it = cpls.find(c.tag);
    ASSERT_TRUE(it != cpls.end() && it->second.size() == 1) << "command " << k;
    const Cpl& got = it->second[0];
    if (!r.status.ok()) {
      failed.push_back(c.tag);
      EXPECT_EQ(got.kind, pkg::CplError) << k;
      EXPECT_EQ(got.err, static_cast<int>(r.status.cls)) << k;
      continue;
    }
    ASSERT_EQ(r.complete_tx.size(), 1u) << k;
    EXPECT_EQ(got.kind, pkg::CplTx) << k;
    EXPECT_EQ(got.cta, r.complete_tx[0].cta) << k;
    EXPECT_EQ(got.mbar, r.complete_tx[0].mbar_addr) << k;
    EXPECT_EQ(got.bytes, r.complete_tx[0].bytes) << k;
  }
  // (the copy to its own window; and.b64, not in the .shared::cluster table)
  EXPECT_EQ(failed, (std::vector<int>{6, 15}));
  for (int cta = 0; cta < kNumCtas; ++cta) {
    EXPECT_EQ(bench.Window(cta), ref.Window(cta)) << "CTA " << cta << "'s window";
  }
}

TEST(EngineE2E, BulkSharedToClusterDb16) {
  RunSharedToCluster<Vtma_sim_top_db16, 16>(51, 100);
  RunSharedToCluster<Vtma_sim_top_db16, 16>(52, 40);
}

TEST(EngineE2E, BulkSharedToClusterDb64) {
  RunSharedToCluster<Vtma_sim_top_db64, 64>(53, 100);
  RunSharedToCluster<Vtma_sim_top_db64, 64>(54, 40);
}

TEST(EngineE2E, StoresAndLoadsDb16) {
  for (uint32_t seed = 131; seed <= 133; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 120, 5, 70, 30, 20, 0, 40);
}

TEST(EngineE2E, StoresAndLoadsDb64) {
  for (uint32_t seed = 141; seed <= 142; ++seed)
    RunRandom<Vtma_sim_top_db64, 64>(seed, 120, 5, 60, 30, 20, 0, 40);
}

TEST(EngineE2E, MixedFaultsDb16) {
  for (uint32_t seed = 71; seed <= 73; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 120, 35, 60, 50, 20);
}

TEST(EngineE2E, FaultsAndPrefetchDb16) {
  for (uint32_t seed = 21; seed <= 23; ++seed)
    RunRandom<Vtma_sim_top_db16, 16>(seed, 100, 40, 60);
}

TEST(EngineE2E, FullSpeedDb16) {
  RunRandom<Vtma_sim_top_db16, 16>(31, 150, 10, 100);
}

TEST(EngineE2E, HeavyBackpressureDb64) {
  RunRandom<Vtma_sim_top_db64, 64>(41, 100, 10, 25);
}

}  // namespace
}  // namespace tma::tb
