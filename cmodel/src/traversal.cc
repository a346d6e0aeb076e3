// SPDX-License-Identifier: Apache-2.0
#include "tma/traversal.h"

#include <vector>

#include "tma/swizzle.h"

namespace tma::model {

namespace {

int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

bool IsIm2colFamily(LoadMode mode) {
  return mode == LoadMode::kIm2col || mode == LoadMode::kIm2colNoOffs ||
         mode == LoadMode::kIm2colW || mode == LoadMode::kIm2colW128;
}

uint32_t ChunkBytes(Interleave v) {
  return v == Interleave::k32B ? 32u : 16u;
}

// Global address of the row whose dims >= 1 sit at `c` (dim 0 at unit 0); wraps mod 2^64.
uint64_t RowBase(const TensorMap& m, const std::array<int64_t, kMaxRank>& c) {
  uint64_t a = m.global_address;
  for (int d = 1; d < m.rank; ++d) {
    a += static_cast<uint64_t>(c[static_cast<size_t>(d)]) * m.strides[static_cast<size_t>(d - 1)];
  }
  return a;
}

bool RowOob(const TensorMap& m, const std::array<int64_t, kMaxRank>& c) {
  for (int d = 1; d < m.rank; ++d) {
    const int64_t x = c[static_cast<size_t>(d)];
    if (x < 0 || static_cast<uint64_t>(x) >= m.dims[static_cast<size_t>(d)]) {
      return true;
    }
  }
  return false;
}

// The im2col pixel positions (spatial positions and image index, offsets not yet added), in
// traversal order (D8, tensor-semantics 5.2): W fastest from the start, stepping es, wrapping to
// the lower corner past `dim - 1 + upper`, then the next spatial dim, then N + es[N].
// N steps by its own element stride es[rank-1], not by 1 (H200, docs/silicon-notes.md: the 96
// im2col loads the model had wrong -- 83 in im2col.jsonl.gz, 13 in multicast.jsonl.gz, e.g.
// dir-D8-00008, im2col-00412 -- all have es[N] > 1 and a walk that wraps past the last spatial
// dim). Decoding which pixel each smem row came from in the 493 full-hex im2col cases with an
// in-bounds channel (145 of them with es[N] > 1) matches this walk row for row; each
// alternative is refuted by some of them: N + 1 by 31, snapping the start to the lower-corner
// grid by 41, restarting a wrap at the start's grid point instead of the lower corner by 18,
// offsets multiplied by the stride by 58, wrapping on position + offset > hi by 81. So: the
// start is not snapped, the stepped position (no offset) is compared against
// `dim - 1 + upper`, a wrap restarts at the lower corner, offsets are added unscaled, and a
// pixel is OOB only when outside the tensor (362 rows in 72 of those cases read real data at
// pixels outside the bounding box).
struct Im2colWalk {
  int nsp = 0;                // spatial dims
  int sp_dim[3] = {0, 0, 0};  // tensor dim of each spatial level (innermost first)
  int64_t pos[3] = {0, 0, 0};
  int64_t lo[3] = {0, 0, 0};
  int64_t hi[3] = {0, 0, 0};
  int64_t step[3] = {1, 1, 1};
  int64_t n = 0;
  int64_t n_step = 1;  // es[rank-1]

  void Advance() {
    for (int k = 0; k < nsp; ++k) {
      pos[k] += step[k];
      if (pos[k] <= hi[k]) {
        return;
      }
      pos[k] = lo[k];
    }
    n += n_step;
  }
};

}  // namespace

TraversalPlan PlanTraversal(const TensorMap& m, const TensorInstr& ins) {
  TraversalPlan p;
  const int r = m.rank;
  if (r < 1 || r > kMaxRank) {
    return p;
  }
  const bool gs = ins.mode == LoadMode::kTileGather4 || ins.mode == LoadMode::kTileScatter4;
  const bool i2c = IsIm2colFamily(ins.mode);
  const size_t want_coords = gs ? 5u : static_cast<size_t>(r);
  if (ins.coords.size() != want_coords || (gs && r != 2) || (i2c && r < 3)) {
    return p;
  }
  const bool inter = m.interleave != Interleave::kNone;
  p.layout = LayoutOf(m.dtype);
  if (inter) {
    const uint32_t chunk = ChunkBytes(m.interleave);
    p.layout.unit_elems = 1;
    p.layout.unit_gbytes = p.layout.unit_sbytes = chunk;
  }
  const ElementLayout& L = p.layout;
  p.swizzle = m.swizzle;

  if (!i2c) {
    if (inter) {
      p.units = static_cast<uint32_t>(CeilDiv(m.box[0], m.element_strides[0]));
      p.x0_step = m.element_strides[0];
    } else {
      p.units = m.box[0] / L.unit_elems;
    }
  } else if (inter && (ins.mode == LoadMode::kIm2col || ins.mode == LoadMode::kIm2colNoOffs)) {
    p.units = 1;  // one chunk per pixel, cpp ignored (D8)
  } else {
    p.units = m.channels_per_pixel / L.unit_elems;
  }
  if (p.units == 0) {
    return p;
  }
  p.x0_bound = static_cast<int64_t>((m.dims[0] + L.unit_elems - 1) / L.unit_elems);
  p.row_bytes = p.units * L.unit_sbytes;
  p.row_pitch = p.row_bytes;
  const uint32_t span = SwizzleSpanBytes(m.swizzle);
  if (!inter && span != 0) {
    p.row_pitch = (p.row_bytes + span - 1) / span * span;  // rows padded to the span (D6)
  }

  if (gs) {
    p.num_rows = 4;
  } else if (!i2c) {
    uint64_t rows = 1;
    for (int d = 1; d < r; ++d) {
      if (inter && d == r - 2) {
        continue;  // the box is not iterated along dim rank-2 (D5)
      }
      rows *= static_cast<uint64_t>(
          CeilDiv(m.box[static_cast<size_t>(d)], m.element_strides[static_cast<size_t>(d)]));
    }
    p.num_rows = rows;
  } else if (ins.mode == LoadMode::kIm2colW) {
    const uint64_t halo = ins.im2col_info.empty() ? 0 : ins.im2col_info[0];
    p.num_rows = m.pixels_per_column + halo;
  } else if (ins.mode == LoadMode::kIm2colW128) {
    const uint64_t halo = ins.im2col_info.empty() ? 0 : ins.im2col_info[0];
    p.num_rows = 128 + 4 * halo;
  } else {
    p.num_rows = m.pixels_per_column;
  }
  // complete-tx counts the global payload of the rows: the shared row bytes, except for the
  // padded sub-byte types b4x16_p64 / b6x16_p32, whose gaps do not count (silicon finding B1,
  // sm_120a: a 128 x 2 box signals 128 / 192 bytes, not its 256-byte footprint).
  p.tx_bytes = p.num_rows * p.units * L.unit_gbytes;
  p.ok = true;
  return p;
}

void ForEachRow(const TensorMap& m, const TensorInstr& ins, const TraversalPlan& p,
                const std::function<void(const RowVisit&)>& fn) {
  if (!p.ok) {
    return;
  }
  const int r = m.rank;
  const bool inter = m.interleave != Interleave::kNone;
  const auto& es = m.element_strides;
  const int64_t ue = p.layout.unit_elems;
  RowVisit v;

  auto emit = [&](uint64_t index) {
    v.index = index;
    v.smem_offset = static_cast<uint32_t>(index * p.row_pitch);
    v.coords[0] = v.x0 * ue;
    v.row_oob = RowOob(m, v.coords);
    v.row_base = v.row_oob ? 0 : RowBase(m, v.coords);
    fn(v);
  };

  if (ins.mode == LoadMode::kTileGather4 || ins.mode == LoadMode::kTileScatter4) {
    v.x0 = ins.coords[0] / ue;
    for (int k = 0; k < 4; ++k) {
      v.box_index[1] = k;
      v.coords[1] = ins.coords[static_cast<size_t>(k + 1)];
      emit(static_cast<uint64_t>(k));
    }
    return;
  }

  if (ins.mode == LoadMode::kTile) {
    // Odometer over dims >= 1 (dim 1 fastest); with interleave dim r-2 stays at its coordinate.
    std::array<int64_t, kMaxRank> n{1, 1, 1, 1, 1};
    for (int d = 1; d < r; ++d) {
      const size_t u = static_cast<size_t>(d);
      n[u] = (inter && d == r - 2) ? 1 : CeilDiv(m.box[u], es[u]);
    }
    std::array<int64_t, kMaxRank> i{0, 0, 0, 0, 0};
    v.x0 = ins.coords[0] / ue;
    for (uint64_t row = 0; row < p.num_rows; ++row) {
      for (int d = 1; d < r; ++d) {
        const size_t u = static_cast<size_t>(d);
        v.box_index[u] = i[u];
        v.coords[u] = ins.coords[u] + i[u] * es[u];
      }
      emit(row);
      for (int d = 1; d < r; ++d) {
        const size_t u = static_cast<size_t>(d);
        if (++i[u] < n[u]) {
          break;
        }
        i[u] = 0;
      }
    }
    return;
  }

  // ---- im2col family ----
  Im2colWalk w;
  const bool wide = ins.mode == LoadMode::kIm2colW || ins.mode == LoadMode::kIm2colW128;
  const int n_dim = r - 1;
  int first_sp = 1;
  if (wide) {
    // im2col::w[::128] [INF]: only W (dim 1) is traversed; H and D stay at their coordinates;
    // wOffset shifts the lower corner, the upper corner and the start W alike.
    const int64_t woff = ins.im2col_info.size() > 1 ? ins.im2col_info[1] : 0;
    w.nsp = 1;
    w.sp_dim[0] = 1;
    w.pos[0] = ins.coords[1] + woff;
    w.lo[0] = m.lower[0] + woff;
    w.hi[0] = static_cast<int64_t>(m.dims[1]) - 1 + m.upper[0] + woff;
    w.step[0] = es[1];
  } else {
    first_sp = inter ? 0 : 1;  // interleaved im2col: spatial dims 0 .. r-3 (D8)
    w.nsp = r - 2;
    for (int k = 0; k < w.nsp; ++k) {
      const int d = first_sp + k;
      const size_t u = static_cast<size_t>(d);
      w.sp_dim[k] = d;
      w.pos[k] = ins.coords[u];
      w.lo[k] = m.lower[static_cast<size_t>(k)];
      w.hi[k] = static_cast<int64_t>(m.dims[u]) - 1 + m.upper[static_cast<size_t>(k)];
      w.step[k] = es[u];
    }
  }
  w.n = ins.coords[static_cast<size_t>(n_dim)];
  w.n_step = es[static_cast<size_t>(n_dim)];  // measured for .im2col; the same for ::w [INF]

  // Fixed coordinates: every dim not walked keeps the instruction's coordinate.
  std::array<int64_t, kMaxRank> base{};
  for (int d = 0; d < r; ++d) {
    base[static_cast<size_t>(d)] = ins.coords[static_cast<size_t>(d)];
  }
  std::array<int64_t, 3> off{0, 0, 0};
  if (ins.mode == LoadMode::kIm2col) {
    for (size_t k = 0; k < ins.im2col_info.size() && k < 3; ++k) {
      off[k] = ins.im2col_info[k];
    }
  }

  auto place = [&](const Im2colWalk& s, uint64_t slot, int64_t pixel) {
    v.coords = base;
    for (int k = 0; k < s.nsp; ++k) {
      v.coords[static_cast<size_t>(s.sp_dim[k])] = s.pos[k] + off[static_cast<size_t>(k)];
    }
    v.coords[static_cast<size_t>(n_dim)] = s.n;
    v.box_index = {};
    v.box_index[1] = pixel;
    v.x0 = (inter && !wide) ? v.coords[0] : ins.coords[0] / ue;
    emit(slot);
  };

  if (ins.mode == LoadMode::kIm2colW128) {
    // 128 pixels in groups of 32, each group followed by wHalo halo pixels: the next wHalo
    // positions of the traversal after the group [INF].
    const int64_t halo = ins.im2col_info.empty() ? 0 : ins.im2col_info[0];
    std::vector<Im2colWalk> seq;
    seq.reserve(static_cast<size_t>(128 + halo));
    for (int64_t k = 0; k < 128 + halo; ++k) {
      seq.push_back(w);
      w.Advance();
    }
    uint64_t slot = 0;
    for (int64_t g = 0; g < 4; ++g) {
      for (int64_t k = 0; k < 32; ++k) {
        place(seq[static_cast<size_t>(32 * g + k)], slot++, 32 * g + k);
      }
      for (int64_t h = 0; h < halo; ++h) {
        place(seq[static_cast<size_t>(32 * (g + 1) + h)], slot++, 32 * (g + 1) + h);
      }
    }
    return;
  }
  // im2col, im2col_no_offs, and im2col::w (whose wHalo halo pixels continue the walk [INF]).
  for (uint64_t k = 0; k < p.num_rows; ++k) {
    place(w, k, static_cast<int64_t>(k));
    w.Advance();
  }
}

void ForEachElement(const TensorMap& m, const TensorInstr& ins,
                    const std::function<void(const ElementVisit&)>& fn) {
  const TraversalPlan p = PlanTraversal(m, ins);
  const int64_t ue = p.layout.unit_elems;
  ElementVisit e;
  e.bytes = p.layout.unit_sbytes;
  ForEachRow(m, ins, p, [&](const RowVisit& row) {
    e.box_index = row.box_index;
    e.coords = row.coords;
    for (uint32_t i = 0; i < p.units; ++i) {
      const int64_t x = row.x0 + static_cast<int64_t>(i) * p.x0_step;
      e.box_index[0] = row.box_index[0] + static_cast<int64_t>(i) * ue;
      e.coords[0] = x * ue;
      e.oob = row.row_oob || x < 0 || x >= p.x0_bound;
      e.global_addr = e.oob ? 0 : row.row_base + static_cast<uint64_t>(x) * p.layout.unit_gbytes;
      e.smem_offset = row.smem_offset + i * p.layout.unit_sbytes;
      fn(e);
    }
  });
}

uint32_t CompleteTxBytes(const TensorMap& m, const TensorInstr& ins) {
  return static_cast<uint32_t>(PlanTraversal(m, ins).tx_bytes);
}

}  // namespace tma::model
