// SPDX-License-Identifier: Apache-2.0
#include "tma/tensor_copy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "tma/descriptor.h"
#include "tma/element.h"
#include "tma/mbarrier.h"
#include "tma/reduce.h"
#include "tma/swizzle.h"
#include "tma/traversal.h"

namespace tma::model {

namespace {

Status Err(ErrorClass c, const std::string& field, const std::string& msg) {
  return Status::Error(c, field, msg);
}
Status BadInstr(const std::string& field, const std::string& msg) {
  return Err(ErrorClass::kInvalidInstruction, field, msg);
}

bool ModeAllowed(Op op, LoadMode mode) {
  switch (op) {
    case Op::kLoad:
      return mode == LoadMode::kTile || mode == LoadMode::kIm2col || mode == LoadMode::kIm2colW ||
             mode == LoadMode::kIm2colW128 || mode == LoadMode::kTileGather4;
    case Op::kStore:
      return mode == LoadMode::kTile || mode == LoadMode::kTileScatter4 ||
             mode == LoadMode::kIm2colNoOffs;
    case Op::kReduce:
      return mode == LoadMode::kTile || mode == LoadMode::kIm2colNoOffs;
    case Op::kPrefetch:
      return mode == LoadMode::kTile || mode == LoadMode::kTileGather4 ||
             mode == LoadMode::kIm2col || mode == LoadMode::kIm2colW ||
             mode == LoadMode::kIm2colW128;
  }
  return false;
}

std::string Str(int64_t v) {
  return std::to_string(v);
}

bool IsTf32(DType t) {
  return t == DType::kTF32 || t == DType::kTF32Ftz;
}

// The spatial dims of an im2col map: 1 .. r-2, or 0 .. r-3 with interleave (F4, rule 16).
int FirstSpatialDim(const TensorMap& m) {
  return m.interleave == Interleave::kNone ? 1 : 0;
}

// The CTAs a load writes (in ascending order).
std::vector<int> DestinationCtas(const TensorInstr& ins) {
  std::vector<int> ctas;
  if (ins.multicast) {
    for (int c = 0; c < kMaxCtas; ++c) {
      if ((ins.cta_mask >> c) & 1u) {
        ctas.push_back(c);
      }
    }
  } else if (ins.smem_space == SmemSpace::kSharedCluster && ins.dst_cta >= 0) {
    ctas.push_back(ins.dst_cta);
  } else {
    ctas.push_back(ins.issuer_cta);
  }
  return ctas;
}

// Where mbar may sit (seed 001 lines 107-113, 152-160; tensor-semantics.md §10): with
// .shared::cta in the executing CTA; without multicast in the destination CTA, or with
// .cta_group::2 also in its peer; and every routed complete-tx must land inside the cluster.
Status CheckMbarCta(const TensorInstr& ins, int num_ctas) {
  if (ins.mbar_cta < -1 || ins.mbar_cta >= num_ctas) {
    return BadInstr("mbar", "the CTA holding mbar (" + Str(ins.mbar_cta) +
                                ") is outside the cluster of " + Str(num_ctas));
  }
  if (ins.mbar_cta >= 0 && ins.smem_space == SmemSpace::kSharedCta &&
      ins.mbar_cta != ins.issuer_cta) {
    return BadInstr("mbar", "with .shared::cta the mbarrier must be in the executing CTA");
  }
  if (ins.mbar_cta >= 0 && !ins.multicast) {
    const int dst = DestinationCtas(ins).front();
    const bool same = ins.mbar_cta == dst;
    if (ins.cta_group == 2 ? !(same || ins.mbar_cta == PeerCta(dst)) : !same) {
      return BadInstr("mbar",
                      "mbar is in CTA " + Str(ins.mbar_cta) + " but dstMem in CTA " + Str(dst) +
                          (ins.cta_group == 2 ? ": .cta_group::2 allows that CTA or its peer"
                                              : ": .cta_group::1 needs the same CTA"));
    }
  }
  if (ins.cta_group == 2) {
    for (int cta : DestinationCtas(ins)) {
      const int to = RouteCompleteTx(cta, ins.mbar_cta >= 0 ? ins.mbar_cta : cta, 2);
      if (to >= num_ctas) {
        return BadInstr("mbar", "the complete-tx for CTA " + Str(cta) + " goes to its peer CTA " +
                                    Str(to) + ", outside the cluster of " + Str(num_ctas));
      }
    }
  }
  return Status::Ok();
}

// A contiguous piece of the shared-memory image: `len` bytes at physical window offset `phys`
// hold the packed tile bytes [src, src + len).
struct SmemPiece {
  uint32_t phys;
  uint32_t src;
  uint32_t len;
};

// The physical pieces of a plan's rows at `base` (dstMem / srcMem), contiguous pieces merged.
std::vector<SmemPiece> SmemPieces(const TraversalPlan& p, uint32_t base) {
  std::vector<SmemPiece> out;
  const bool swz = p.swizzle != Swizzle::kNone;
  const uint32_t gran = swz ? SwizzleGranuleBytes(p.swizzle) : p.row_bytes;
  for (uint64_t k = 0; k < p.num_rows; ++k) {
    const uint32_t row_log = base + static_cast<uint32_t>(k * p.row_pitch);
    const uint32_t row_src = static_cast<uint32_t>(k * p.row_bytes);
    for (uint32_t j = 0; j < p.row_bytes; j += gran) {
      const uint32_t len = std::min(gran, p.row_bytes - j);
      const uint32_t phys = swz ? SwizzleAddress(row_log + j, p.swizzle) : row_log + j;
      const uint32_t src = row_src + j;
      if (!out.empty() && out.back().phys + out.back().len == phys &&
          out.back().src + out.back().len == src) {
        out.back().len += len;
      } else {
        out.push_back({phys, src, len});
      }
    }
  }
  return out;
}

// Packs sixteen 8-bit containers into sixteen 6-bit values, value k at bits [6k, 6k+6) of the
// 96-bit little-endian group (.b6p2x16 store direction; bit order [INF]).
void PackB6(const uint8_t* in16, uint8_t* out12) {
  std::memset(out12, 0, 12);
  for (int k = 0; k < 16; ++k) {
    const uint32_t v = in16[k] & 0x3Fu;
    for (int b = 0; b < 6; ++b) {
      if ((v >> b) & 1u) {
        const int bit = 6 * k + b;
        out12[bit / 8] = static_cast<uint8_t>(out12[bit / 8] | (1u << (bit % 8)));
      }
    }
  }
}

// Whether the last logical byte of the box lies inside the window of each CTA in `ctas`.
bool LastByteFits(const TraversalPlan& p, const TensorInstr& ins, SharedMemoryIf& s,
                  const std::vector<int>& ctas) {
  if (p.num_rows == 0 || p.row_bytes == 0) {
    return true;
  }
  const uint64_t last = ins.smem_addr + (p.num_rows - 1) * p.row_pitch + p.row_bytes - 1;
  if (last > 0xFFFFFFFFull) {
    return false;
  }
  uint8_t probe;
  for (int cta : ctas) {
    if (!s.Read(cta, static_cast<uint32_t>(last), &probe, 1)) {
      return false;
    }
  }
  return true;
}

void Emit(const ExecOptions& o, Effect::Kind kind, int cta, uint64_t addr, const uint8_t* data,
          size_t n, uint32_t tx = 0) {
  if (!o.on_effect) {
    return;
  }
  Effect e;
  e.kind = kind;
  e.cta = cta;
  e.addr = addr;
  if (data) {
    e.bytes.assign(data, data + n);
  }
  e.tx_bytes = tx;
  o.on_effect(e);
}

ExecResult Fail(Status s) {
  ExecResult r;
  r.status = std::move(s);
  return r;
}

ExecResult ExecuteLoad(const TensorMap& m, const TensorInstr& ins, const TraversalPlan& p,
                       GlobalMemoryIf& g, SharedMemoryIf& s, const ExecOptions& o) {
  ExecResult res;
  const uint64_t extent = p.num_rows * p.row_pitch;
  if (static_cast<uint64_t>(ins.smem_addr) + extent > 0x100000000ull || extent > 0xFFFFFFFFull) {
    return Fail(Err(ErrorClass::kBusError, "dstMem",
                    "the box (" + Str(static_cast<int64_t>(extent)) +
                        " bytes) does not fit in the shared address space"));
  }
  // Cheap check first (the box's last logical byte must be in every window), so that an
  // absurd box is refused before anything is allocated; then the exact physical extent.
  const std::vector<int> ctas = DestinationCtas(ins);
  if (!LastByteFits(p, ins, s, ctas)) {
    return Fail(Err(ErrorClass::kBusError, "dstMem", "the box does not fit in the shared window"));
  }
  const std::vector<SmemPiece> pieces = SmemPieces(p, ins.smem_addr);
  if (!pieces.empty()) {
    uint32_t lo = pieces[0].phys;
    uint64_t hi = static_cast<uint64_t>(pieces[0].phys) + pieces[0].len;
    for (const SmemPiece& pc : pieces) {
      lo = std::min(lo, pc.phys);
      hi = std::max(hi, static_cast<uint64_t>(pc.phys) + pc.len);
    }
    uint8_t probe;
    for (int cta : ctas) {
      if (!s.Read(cta, lo, &probe, 1) || !s.Read(cta, static_cast<uint32_t>(hi - 1), &probe, 1)) {
        return Fail(Err(ErrorClass::kBusError, "dstMem",
                        "the box does not fit in the shared window of CTA " + Str(cta)));
      }
    }
  }

  // Read every in-bounds byte first (a bus error leaves shared memory untouched).
  const ElementLayout& L = p.layout;
  std::vector<uint8_t> tile(static_cast<size_t>(p.num_rows * p.row_bytes));
  const std::vector<uint8_t> unit_fill = OobFillBytes(m.dtype, m.oob_fill);
  // OOB fill: the element's pattern repeated over the row (an interleave chunk holds whole
  // elements; sub-byte units are zero).
  std::vector<uint8_t> row_fill(p.row_bytes);
  for (uint32_t i = 0; i < p.row_bytes; ++i) {
    row_fill[i] = unit_fill[i % unit_fill.size()];
  }
  const bool tf32 = IsTf32(m.dtype);
  const bool direct = p.x0_step == 1 && L.unit_gbytes == L.unit_sbytes;
  bool bus_error = false;
  uint64_t bytes_read = 0;
  auto round_tf32 = [&](uint8_t* d, size_t n) {
    for (size_t b = 0; b + 4 <= n; b += 4) {
      uint32_t u;
      std::memcpy(&u, d + b, 4);
      u = RoundToTf32(u);
      std::memcpy(d + b, &u, 4);
    }
  };
  ForEachRow(m, ins, p, [&](const RowVisit& row) {
    if (bus_error) {
      return;
    }
    uint8_t* dst = tile.data() + row.index * p.row_bytes;
    std::memcpy(dst, row_fill.data(), p.row_bytes);
    if (row.row_oob) {
      return;
    }
    if (direct) {
      const int64_t lo = std::max<int64_t>(0, -row.x0);
      const int64_t hi = std::min<int64_t>(p.units, p.x0_bound - row.x0);
      if (lo >= hi) {
        return;
      }
      const size_t n = static_cast<size_t>(hi - lo) * L.unit_sbytes;
      uint8_t* d = dst + lo * L.unit_sbytes;
      if (!g.Read(row.row_base + static_cast<uint64_t>(row.x0 + lo) * L.unit_gbytes, d, n)) {
        bus_error = true;
        return;
      }
      bytes_read += n;
      if (tf32) {
        round_tf32(d, n);
      }
      return;
    }
    for (uint32_t i = 0; i < p.units; ++i) {
      const int64_t x = row.x0 + static_cast<int64_t>(i) * p.x0_step;
      if (x < 0 || x >= p.x0_bound) {
        continue;
      }
      uint8_t* d = dst + i * L.unit_sbytes;
      if (!g.Read(row.row_base + static_cast<uint64_t>(x) * L.unit_gbytes, d, L.unit_gbytes)) {
        bus_error = true;
        return;
      }
      std::memset(d + L.unit_gbytes, 0, L.unit_sbytes - L.unit_gbytes);  // sub-byte padding
      bytes_read += L.unit_gbytes;
      if (tf32) {
        round_tf32(d, L.unit_gbytes);
      }
    }
  });
  if (bus_error) {
    return Fail(Err(ErrorClass::kBusError, "global", "a global read of the box failed"));
  }
  res.global_bytes_read = bytes_read;

  for (int cta : ctas) {
    for (const SmemPiece& pc : pieces) {
      if (!s.Write(cta, pc.phys, tile.data() + pc.src, pc.len)) {
        res.status = Err(ErrorClass::kBusError, "dstMem", "a shared-memory write failed");
        return res;
      }
      res.smem_bytes_written += pc.len;
      Emit(o, Effect::Kind::kSmemWrite, cta, pc.phys, tile.data() + pc.src, pc.len);
    }
  }
  // One complete-tx per destination CTA, to the mbarrier at the same offset in that CTA or,
  // with .cta_group::2, in the CTA of its pair that has mbar's %cluster_ctarank parity (§10).
  for (int cta : ctas) {
    const int to = RouteCompleteTx(cta, ins.mbar_cta >= 0 ? ins.mbar_cta : cta, ins.cta_group);
    res.complete_tx.push_back({to, ins.mbar_addr, static_cast<uint32_t>(p.tx_bytes)});
    Emit(o, Effect::Kind::kCompleteTx, to, ins.mbar_addr, nullptr, 0,
         static_cast<uint32_t>(p.tx_bytes));
  }
  return res;
}

ExecResult ExecuteStore(const TensorMap& m, const TensorInstr& ins, const TraversalPlan& p,
                        GlobalMemoryIf& g, SharedMemoryIf& s, const ExecOptions& o) {
  ExecResult res;
  const uint64_t extent = p.num_rows * p.row_pitch;
  if (static_cast<uint64_t>(ins.smem_addr) + extent > 0x100000000ull) {
    return Fail(Err(ErrorClass::kBusError, "srcMem", "the box does not fit in shared memory"));
  }
  if (!LastByteFits(p, ins, s, {ins.issuer_cta})) {
    return Fail(Err(ErrorClass::kBusError, "srcMem", "the box does not fit in the shared window"));
  }
  // Read the source box (unswizzling) from the issuer's window.
  std::vector<uint8_t> tile(static_cast<size_t>(p.num_rows * p.row_bytes));
  for (const SmemPiece& pc : SmemPieces(p, ins.smem_addr)) {
    if (!s.Read(ins.issuer_cta, pc.phys, tile.data() + pc.src, pc.len)) {
      return Fail(Err(ErrorClass::kBusError, "srcMem", "a shared-memory read failed"));
    }
  }

  // The global runs to write: rows out of bounds in dims >= 1 are skipped; along dim 0 whole
  // 16-byte granules are written (D7) unless element_exact_store_clip.
  const ElementLayout& L = p.layout;
  int64_t limit = p.x0_bound;
  if (!o.element_exact_store_clip) {
    const int64_t bytes = (p.x0_bound * static_cast<int64_t>(L.unit_gbytes) + 15) / 16 * 16;
    limit = (bytes + L.unit_gbytes - 1) / L.unit_gbytes;
  }
  struct Run {
    uint64_t addr;
    size_t off;
    size_t len;
  };
  std::vector<Run> runs;
  std::vector<uint8_t> data;
  const bool pack_b6 = m.dtype == DType::kB6x16P32;
  auto add_unit_range = [&](uint64_t addr, const uint8_t* src, uint32_t n_units) {
    const size_t off = data.size();
    if (pack_b6) {
      data.resize(off + n_units * 12u);
      for (uint32_t u = 0; u < n_units; ++u) {
        PackB6(src + u * 16u, data.data() + off + u * 12u);
      }
    } else {
      data.insert(data.end(), src, src + n_units * L.unit_sbytes);
    }
    runs.push_back({addr, off, data.size() - off});
  };
  ForEachRow(m, ins, p, [&](const RowVisit& row) {
    if (row.row_oob) {
      return;
    }
    const uint8_t* src = tile.data() + row.index * p.row_bytes;
    if (p.x0_step == 1) {
      const int64_t lo = std::max<int64_t>(0, -row.x0);
      const int64_t hi = std::min<int64_t>(p.units, limit - row.x0);
      if (lo < hi) {
        add_unit_range(row.row_base + static_cast<uint64_t>(row.x0 + lo) * L.unit_gbytes,
                       src + lo * L.unit_sbytes, static_cast<uint32_t>(hi - lo));
      }
      return;
    }
    for (uint32_t i = 0; i < p.units; ++i) {
      const int64_t x = row.x0 + static_cast<int64_t>(i) * p.x0_step;
      if (x >= 0 && x < limit) {
        add_unit_range(row.row_base + static_cast<uint64_t>(x) * L.unit_gbytes,
                       src + i * L.unit_sbytes, 1);
      }
    }
  });

  // Probe every destination before the first write (a bus error writes nothing).
  std::vector<uint8_t> scratch;
  for (const Run& r : runs) {
    scratch.resize(r.len);
    if (!g.Read(r.addr, scratch.data(), r.len)) {
      return Fail(Err(ErrorClass::kBusError, "global", "a global access of the box failed"));
    }
  }
  const bool reduce = ins.op == Op::kReduce;
  // The reduction works element by element, also inside a 16B/32B interleave chunk (the
  // traversal's unit): with the chunk as the element only its first element was reduced, which
  // silicon contradicted in 27 of the 68 measured interleaved reductions (reduce.jsonl.gz, e.g.
  // reduce-00187: the xor reaches every element of each chunk; the other 41 touch no in-bounds
  // chunk).
  const size_t e = LayoutOf(m.dtype).unit_gbytes;
  for (const Run& r : runs) {
    const uint8_t* out = data.data() + r.off;
    if (reduce) {
      // Re-read: rows may overlap in global memory (strides are not checked for overlap).
      scratch.resize(r.len);
      g.Read(r.addr, scratch.data(), r.len);
      res.global_bytes_read += r.len;
      for (size_t b = 0; b + e <= r.len; b += e) {
        ReduceElement(ins.redop, m.dtype, scratch.data() + b, out + b);
      }
      out = scratch.data();
    }
    if (!g.Write(r.addr, out, r.len)) {
      res.status = Err(ErrorClass::kBusError, "global", "a global write failed");
      return res;
    }
    res.global_bytes_written += r.len;
    Emit(o, Effect::Kind::kGlobalWrite, 0, r.addr, out, r.len);
  }
  return res;
}

}  // namespace

std::string Effect::ToString() const {
  char head[96];
  switch (kind) {
    case Kind::kSmemWrite:
      std::snprintf(head, sizeof(head), "smem_write cta=%d addr=0x%08llx len=%zu data=", cta,
                    static_cast<unsigned long long>(addr), bytes.size());
      break;
    case Kind::kGlobalWrite:
      std::snprintf(head, sizeof(head), "global_write addr=0x%016llx len=%zu data=",
                    static_cast<unsigned long long>(addr), bytes.size());
      break;
    case Kind::kCompleteTx:
      std::snprintf(head, sizeof(head), "complete_tx cta=%d mbar=0x%08llx bytes=%u", cta,
                    static_cast<unsigned long long>(addr), tx_bytes);
      return head;
  }
  static const char kHex[] = "0123456789abcdef";
  std::string out(head);
  out.reserve(out.size() + 2 * bytes.size());
  for (uint8_t b : bytes) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

Status CheckInstruction(const TensorMap& m, const TensorInstr& ins, Arch arch, int num_ctas) {
  Status d = ValidateTensorMap(m, arch);
  if (!d.ok()) {
    return d;
  }
  const int r = m.rank;
  const LoadMode mode = ins.mode;
  const bool load = ins.op == Op::kLoad;
  const bool to_global = ins.op == Op::kStore || ins.op == Op::kReduce;
  const bool gs = mode == LoadMode::kTileGather4 || mode == LoadMode::kTileScatter4;
  const bool wide = mode == LoadMode::kIm2colW || mode == LoadMode::kIm2colW128;
  const bool inter = m.interleave != Interleave::kNone;

  // ---- Qualifiers, operands, mode combinations ----
  if (!ModeAllowed(ins.op, mode)) {
    return BadInstr("load_mode",
                    std::string(".") + ToString(mode) + " is not a mode of " + ToString(ins.op));
  }
  if ((gs || wide) && arch == Arch::kSm90) {
    return Err(ErrorClass::kUnsupported, "load_mode",
               std::string(".") + ToString(mode) + " needs sm_100 or later");
  }
  if (ins.cta_group < 0 || ins.cta_group > 2) {
    return BadInstr("cta_group", "must be 1 or 2 (got " + Str(ins.cta_group) + ")");
  }
  if (ins.cta_group != 0 && !load) {
    return BadInstr("cta_group", ".cta_group exists only with mbarrier completion (loads)");
  }
  if (ins.cta_group == 2 && arch == Arch::kSm90) {
    return Err(ErrorClass::kUnsupported, "cta_group", ".cta_group::2 needs sm_100 or later");
  }
  if (ins.dim != r) {
    return BadInstr("dim", "." + Str(ins.dim) + "d does not match the map's rank " + Str(r));
  }
  const MapMode want = (mode == LoadMode::kIm2col || mode == LoadMode::kIm2colNoOffs)
                           ? MapMode::kIm2col
                           : (wide ? MapMode::kIm2colWide : MapMode::kTiled);
  if (m.mode != want) {
    return BadInstr("load_mode",
                    std::string(".") + ToString(mode) + " does not match the map's encoding mode");
  }
  if (wide && (m.wide_mode == WideMode::kW128) != (mode == LoadMode::kIm2colW128)) {
    return BadInstr("load_mode", "im2col::w / im2col::w::128 must match the map's wide mode");
  }
  if (gs) {
    if (r != 2) {
      return BadInstr("dim", "tile::gather4 / scatter4 need a 2-D tensor");
    }
    if (m.box[1] != 1) {
      return BadInstr("boxDim[1]",
                      "tile::gather4 / scatter4 need boxDim[1] == 1 (got " + Str(m.box[1]) + ")");
    }
    if (inter) {
      return BadInstr("interleave", "tile::gather4 / scatter4 do not support interleave");
    }
  }
  const size_t want_coords = gs ? 5u : static_cast<size_t>(r);
  if (ins.coords.size() != want_coords) {
    return BadInstr("coords", "needs " + Str(static_cast<int64_t>(want_coords)) +
                                  " coordinates (got " +
                                  Str(static_cast<int64_t>(ins.coords.size())) + ")");
  }
  const size_t ninfo = ins.im2col_info.size();
  if (mode == LoadMode::kIm2col) {
    if (ninfo != 0 && ninfo != static_cast<size_t>(r - 2)) {
      return BadInstr("im2col", ".im2col takes rank-2 = " + Str(r - 2) + " offsets (got " +
                                    Str(static_cast<int64_t>(ninfo)) + ")");
    }
  } else if (wide) {
    if (ninfo != 2) {
      return BadInstr("im2col", "im2col::w takes {wHalo, wOffset}");
    }
  } else if (ninfo != 0) {
    return BadInstr("im2col", "im2colInfo is only for .im2col and .im2col::w*");
  }
  if (ins.multicast) {
    if (!load || ins.smem_space != SmemSpace::kSharedCluster) {
      return BadInstr("multicast", ".multicast::cluster needs a load to .shared::cluster");
    }
    // F6: mask bits at or above the cluster size make silicon fail the launch (unspecified
    // launch failure 719); the golden-case class for it is invalid_instruction.
    if (num_ctas < kMaxCtas && (ins.cta_mask >> num_ctas) != 0) {
      return BadInstr("cta_mask", "ctaMask has bits at or above the cluster size " + Str(num_ctas));
    }
    // A mask of no CTA: nothing to write and nothing to signal. The RTL refuses it as
    // invalid_instruction (unverified on silicon; docs/differences.md); the model agrees.
    if (ins.cta_mask == 0) {
      return BadInstr("cta_mask", "ctaMask 0 names no destination CTA");
    }
  }
  if (ins.issuer_cta < 0 || ins.issuer_cta >= num_ctas) {
    return BadInstr("issuer_cta", "the issuing CTA is outside the cluster");
  }
  if (load && !ins.multicast) {
    if (ins.dst_cta < -1 || ins.dst_cta >= num_ctas) {
      return BadInstr("dst_cta", "the destination CTA is outside the cluster");
    }
    if (ins.smem_space == SmemSpace::kSharedCta && ins.dst_cta >= 0 &&
        ins.dst_cta != ins.issuer_cta) {
      return BadInstr("dstMem", ".shared::cta destination must be the executing CTA");
    }
  }
  if (load) {
    Status mb = CheckMbarCta(ins, num_ctas);
    if (!mb.ok()) {
      return mb;
    }
  } else if (ins.mbar_cta != -1) {
    return BadInstr("mbar", "only loads have an mbarrier operand");
  }
  if (ins.op == Op::kStore && m.dtype == DType::kB4x16P64) {
    return BadInstr("dtype", ".global.shared::cta does not support .b4x16_p64 (PTX restriction)");
  }
  if (mode == LoadMode::kIm2colNoOffs) {
    for (int k = 0; k < r - 2; ++k) {
      if (m.lower[static_cast<size_t>(k)] < 0 || m.upper[static_cast<size_t>(k)] > 0) {
        return BadInstr("lower", "im2col_no_offs needs lower corners >= 0 and upper <= 0");
      }
    }
  }

  // ---- F2: shared-memory alignment ----
  if (ins.op != Op::kPrefetch && ins.smem_addr % 128 != 0) {
    return Err(ErrorClass::kMisaligned, load ? "dstMem" : "srcMem",
               "must be 128-byte aligned (got " + Str(ins.smem_addr) + ")");
  }
  if (load && ins.mbar_addr % 8 != 0) {
    return Err(ErrorClass::kMisaligned, "mbar",
               "must be 8-byte aligned (got " + Str(ins.mbar_addr) + ")");
  }

  // ---- F1: inner coordinate alignment (interleave: dim 0 counts chunks, any value) ----
  if (!inter) {
    const int64_t c0 = ins.coords[0];
    const int64_t bits = LayoutOf(m.dtype).bits;
    if ((c0 * bits) % 128 != 0) {
      return Err(ErrorClass::kMisalignedCoordinate, "coords[0]",
                 "coords[0] x element size must be a multiple of 16 bytes (got " + Str(c0) + ")");
    }
    if ((m.dtype == DType::kB4x16P64 || m.dtype == DType::kB6x16P32) && c0 % 128 != 0) {
      return Err(ErrorClass::kMisalignedCoordinate, "coords[0]",
                 "packed sub-byte types need coords[0] a multiple of 128 (got " + Str(c0) + ")");
    }
  }

  // ---- F3: stores and reductions with a negative coordinate ----
  if (to_global) {
    for (size_t i = 0; i < ins.coords.size(); ++i) {
      if (ins.coords[i] < 0) {
        return Err(
            ErrorClass::kInvalidCoordinate, "coords[" + Str(static_cast<int64_t>(i)) + "]",
            "stores and reductions need non-negative coordinates (got " + Str(ins.coords[i]) + ")");
      }
    }
  }

  // ---- F4 and operand ranges of the im2col modes ----
  if (mode == LoadMode::kIm2col || mode == LoadMode::kIm2colNoOffs) {
    const int64_t max_off = r == 3 ? 65535 : (r == 4 ? 255 : 31);
    for (size_t k = 0; k < ninfo; ++k) {
      if (ins.im2col_info[k] > max_off) {
        return Err(ErrorClass::kInvalidCoordinate, "im2col[" + Str(static_cast<int64_t>(k)) + "]",
                   "offset out of range 0.." + Str(max_off) + " for rank " + Str(r));
      }
    }
    const int first = FirstSpatialDim(m);
    for (int k = 0; k < r - 2; ++k) {
      const size_t dd = static_cast<size_t>(first + k);
      const int64_t lo = m.lower[static_cast<size_t>(k)];
      const int64_t hi = static_cast<int64_t>(m.dims[dd]) - 1 + m.upper[static_cast<size_t>(k)];
      const int64_t c = ins.coords[dd];
      if (c < lo || c > hi) {
        return Err(ErrorClass::kInvalidCoordinate, "coords[" + Str(static_cast<int64_t>(dd)) + "]",
                   "im2col start " + Str(c) + " is outside the bounding box [" + Str(lo) + ", " +
                       Str(hi) + "]");
      }
    }
  }
  if (wide) {
    const int64_t max_halo = mode == LoadMode::kIm2colW ? 511 : 31;
    if (ins.im2col_info[0] > max_halo) {
      return Err(ErrorClass::kInvalidCoordinate, "im2col[0]",
                 "wHalo out of range 0.." + Str(max_halo));
    }
    if (ins.im2col_info[1] > 31) {
      return Err(ErrorClass::kInvalidCoordinate, "im2col[1]", "wOffset out of range 0..31");
    }
  }

  // ---- F5: reduction type table ----
  if (ins.op == Op::kReduce && (IsSubByte(m.dtype) || !ReductionSupported(ins.redop, m.dtype))) {
    return Err(ErrorClass::kUnsupportedReduction, "redop",
               std::string(".") + ToString(ins.redop) + " on " + ToString(m.dtype) +
                   " does not execute (F5)");
  }
  return Status::Ok();
}

ExecResult ExecuteTensor(const TensorMap& m, const TensorInstr& ins, GlobalMemoryIf& g,
                         SharedMemoryIf& s, const ExecOptions& o) {
  Status st = CheckInstruction(m, ins, o.arch, s.NumCtas());
  if (!st.ok()) {
    return Fail(std::move(st));
  }
  if (ins.op == Op::kPrefetch) {
    return {};  // a hint: validated, no data moves, nothing is signalled
  }
  const TraversalPlan p = PlanTraversal(m, ins);
  if (!p.ok) {
    return Fail(BadInstr("coords", "the instruction has no traversal"));
  }
  if (ins.op == Op::kLoad) {
    return ExecuteLoad(m, ins, p, g, s, o);
  }
  return ExecuteStore(m, ins, p, g, s, o);
}

ExecResult ExecuteTensorAt(uint64_t tensor_map_addr, const TensorInstr& ins, GlobalMemoryIf& g,
                           SharedMemoryIf& s, const ExecOptions& o) {
  DescriptorBytes bytes{};
  if (!g.Read(tensor_map_addr, bytes.data(), bytes.size())) {
    return Fail(Err(ErrorClass::kBusError, "tensorMap", "reading the tensor map failed"));
  }
  TensorMap m;
  Status st = DecodeDescriptor(bytes.data(), &m);
  if (!st.ok()) {
    return Fail(std::move(st));
  }
  return ExecuteTensor(m, ins, g, s, o);
}

}  // namespace tma::model
