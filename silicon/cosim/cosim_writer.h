// SPDX-License-Identifier: Apache-2.0
//
// Host side of the co-simulation capture that needs no GPU: the description of a captured
// kernel (buffers, tensor maps, launch) and the conversion of its binary log records into an
// `otma-trace` v1 JSON Lines file (docs/cosim/trace-format.md).
#ifndef TMA_SILICON_COSIM_WRITER_H_
#define TMA_SILICON_COSIM_WRITER_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "../sha256_lite.h"
#include "cosim_trace.h"

namespace cosim {

// Host-side hashes use the oracle's independent SHA-256 (silicon/sha256_lite.h), so a stage hash
// the GPU computed with Sha256() above agrees with the host only if both implementations do.
inline std::string HexOf(const uint8_t* p, size_t n) {
  return tma::silicon::Hex(p, n);
}

inline std::string Sha256HexOf(const uint8_t* p, size_t n) {
  return tma::silicon::Sha256Hex(p, n);
}

inline std::string Q(const std::string& s) {
  return "\"" + s + "\"";
}

template <typename T>
std::string JArr(const T* v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

struct BufferDesc {
  std::string name, role, dtype;
  uint64_t bytes = 0;
  uint64_t va = 0;
  std::string init_json;         // the `init` object
  std::vector<uint8_t> initial;  // contents before the kernel
  std::vector<uint8_t> final_;   // contents after the kernel
};

struct TensorDesc {
  std::string name;
  int buffer = 0;
  uint64_t offset = 0;
  std::string mode;         // "tile" or "im2col"
  std::string tensor_json;  // golden-case `tensor` object
  std::string encode_json;  // the driver call (informative)
  uint8_t desc[128] = {};
  int rank = 0;
  int64_t dims[5] = {};
  uint32_t box[5] = {};  // tile mode
  int32_t lower[3] = {}, upper[3] = {};
  uint32_t cpp = 0, ppc = 0, esize = 0;
  int dims_in_ptx = 0;  // the instruction's .Nd
};

struct Capture {
  std::string kernel, source, gpu, sm, driver;
  int cuda_runtime = 0, cuda_driver_api = 0, sm_count = 0;
  double clk_mhz = 0;
  int grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, cluster[3] = {1, 1, 1};
  uint32_t dyn_smem = 0;
  std::string params_json = "{}";
  std::string capture_json = "{}";
  std::vector<BufferDesc> buffers;
  std::vector<TensorDesc> tensors;
  std::vector<Rec> recs;
  const uint8_t* dump = nullptr;  // store / reduce source copies, kDumpSlot bytes per slot
  uint32_t dump_slot = 0;
  uint32_t dump_slots = 0;
};

inline uint64_t RecOobBytes(const TensorDesc& t, const Rec& r) {
  if (t.mode == "im2col")
    return Im2colOobBytes(t.dims, r.coords, r.offs, t.lower, t.upper, t.cpp, t.ppc, t.esize);
  return TileOobBytes(t.rank, t.dims, r.coords, t.box, t.esize);
}

inline std::string PtxOf(const TensorDesc& t, const Rec& r) {
  const std::string nd = std::to_string(t.dims_in_ptx) + "d";
  switch (r.kind) {
    case kRecLoad:
      return "cp.async.bulk.tensor." + nd + ".shared::cluster.global." + t.mode +
             ".mbarrier::complete_tx::bytes" + (r.mask ? ".multicast::cluster" : "");
    case kRecStore:
      return "cp.async.bulk.tensor." + nd + ".global.shared::cta.tile.bulk_group";
    case kRecReduce:
      return "cp.reduce.async.bulk.tensor." + nd + ".global.shared::cta.add.tile.bulk_group";
    default:
      return "";
  }
}

struct Counts {
  std::map<std::string, uint64_t> by_kind;
  uint64_t desc_mismatch = 0;
};

// Converts one record to its JSON line (without the newline). `seq` is its log index.
inline std::string RecJson(const Capture& c, const Rec& r, uint32_t seq, Counts* n) {
  std::string s = "{\"rec\":";
  auto common = [&](uint64_t t) {
    s += ",\"seq\":" + std::to_string(seq) + ",\"t\":" + std::to_string(t) +
         ",\"smid\":" + std::to_string(r.smid) + ",\"cta\":" + JArr(r.cta, 3) +
         ",\"cluster_id\":" + JArr(r.cluster_id, 3) + ",\"rank\":" + std::to_string(r.rank) +
         ",\"warp\":" + std::to_string(r.warp);
  };
  switch (r.kind) {
    case kRecLoad:
    case kRecStore:
    case kRecReduce: {
      const TensorDesc& t = c.tensors.at(r.tensor);
      s += Q("tma");
      common(r.t0);
      const char* op = r.kind == kRecLoad ? "load" : r.kind == kRecStore ? "store" : "reduce";
      s += ",\"ptx\":" + Q(PtxOf(t, r)) + ",\"op\":" + Q(op) + ",\"mode\":" + Q(t.mode);
      if (r.kind == kRecReduce)
        s += ",\"redop\":\"add\"";
      s += ",\"tensor_name\":" + Q(t.name) + ",\"tensor\":" + t.tensor_json;
      s += ",\"desc\":" + Q(HexOf(r.desc, 128));
      if (std::memcmp(r.desc, t.desc, 128) != 0)
        ++n->desc_mismatch;
      s += ",\"coords\":" + JArr(r.coords, t.rank);
      if (t.mode == "im2col" && r.kind == kRecLoad)
        s += ",\"im2col\":" + JArr(r.offs, t.rank - 2);
      if (r.kind == kRecLoad && c.cluster[0] * c.cluster[1] * c.cluster[2] > 1) {
        s +=
            ",\"cluster\":{\"ctas\":" + std::to_string(c.cluster[0] * c.cluster[1] * c.cluster[2]) +
            ",\"issuer\":" + std::to_string(r.rank);
        if (r.mask)
          s += ",\"cta_mask\":" + std::to_string(r.mask);
        s += "}";
      }
      s += ",\"smem_addr\":" + std::to_string(r.smem);
      if (r.kind == kRecLoad)
        s += ",\"mbar_addr\":" + std::to_string(r.mbar);
      s += ",\"bytes\":" + std::to_string(r.bytes) +
           ",\"oob_bytes\":" + std::to_string(RecOobBytes(t, r));
      if (r.kind == kRecLoad) {
        s += ",\"phase\":" + std::to_string(r.phase);
      } else {
        s += ",\"group\":" + std::to_string(r.group);
        s += ",\"src_sha256\":" + Q(HexOf(r.hash, 32));
        if (c.dump && r.aux < c.dump_slots && r.bytes <= c.dump_slot)
          s += ",\"src_hex\":" +
               Q(HexOf(c.dump + static_cast<size_t>(r.aux) * c.dump_slot, r.bytes));
      }
      ++n->by_kind[std::string(op) + (r.mask ? "_multicast" : "") +
                   (t.mode == "im2col" ? "_im2col" : "")];
      break;
    }
    case kRecArm:
      s += Q("arm");
      common(r.t0);
      s += ",\"mbar_addr\":" + std::to_string(r.mbar) + ",\"phase\":" + std::to_string(r.phase) +
           ",\"expect_tx\":" + std::to_string(r.expect_tx);
      ++n->by_kind["arm"];
      break;
    case kRecPwait:
      s += Q("pwait");
      common(r.t0);
      s += ",\"mbar_addr\":" + std::to_string(r.mbar) + ",\"phase\":" + std::to_string(r.phase) +
           ",\"t_start\":" + std::to_string(r.t0) + ",\"t_done\":" + std::to_string(r.t1);
      ++n->by_kind["pwait"];
      break;
    case kRecWait:
      s += Q("wait");
      common(r.t0);
      s += ",\"mbar_addr\":" + std::to_string(r.mbar) + ",\"phase\":" + std::to_string(r.phase) +
           ",\"t_start\":" + std::to_string(r.t0) + ",\"t_done\":" + std::to_string(r.t1) +
           ",\"stage_addr\":" + std::to_string(r.smem) +
           ",\"stage_bytes\":" + std::to_string(r.bytes);
      if (r.aux2)
        s += ",\"stage_sha256\":" + Q(HexOf(r.hash, 32));
      s += ",\"t_release\":" + std::to_string(r.t2);
      ++n->by_kind["wait"];
      break;
    case kRecCommit:
      s += Q("commit");
      common(r.t0);
      s += ",\"group\":" + std::to_string(r.group);
      ++n->by_kind["commit"];
      break;
    case kRecWaitGroup:
      s += Q("wait_group");
      common(r.t0);
      s += ",\"n\":" + std::to_string(r.aux) + ",\"read\":" + (r.aux2 ? "true" : "false") +
           ",\"t_start\":" + std::to_string(r.t0) + ",\"t_done\":" + std::to_string(r.t1);
      ++n->by_kind["wait_group"];
      break;
    case kRecCta:
      s += Q("cta");
      common(r.t0);
      s += ",\"smem_base\":" + std::to_string(r.smem) + ",\"t_start\":" + std::to_string(r.t0) +
           ",\"t_end\":" + std::to_string(r.t1) + ",\"gt_start\":" + std::to_string(r.gt) +
           ",\"gt_end\":" + std::to_string(r.t2);
      ++n->by_kind["cta"];
      break;
    default:
      s += Q("unknown") + ",\"kind\":" + std::to_string(r.kind);
      ++n->by_kind["unknown"];
      break;
  }
  return s + "}";
}

// Writes the whole trace; returns the record counts (also put in the header).
inline Counts WriteTrace(const Capture& c, FILE* f) {
  std::vector<uint32_t> order(c.recs.size());
  for (uint32_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto lin = [&](const Rec& r) {
    return static_cast<int64_t>(r.cta[0]) +
           static_cast<int64_t>(c.grid[0]) *
               (r.cta[1] + static_cast<int64_t>(c.grid[1]) * r.cta[2]);
  };
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Rec& x = c.recs[a];
    const Rec& y = c.recs[b];
    if (lin(x) != lin(y))
      return lin(x) < lin(y);
    if (x.t0 != y.t0)
      return x.t0 < y.t0;
    return a < b;
  });
  Counts n;
  std::vector<std::string> lines;
  lines.reserve(order.size());
  for (uint32_t i : order)
    lines.push_back(RecJson(c, c.recs[i], i, &n));
  std::string counts = "{";
  bool first = true;
  for (const auto& [k, v] : n.by_kind) {
    counts += (first ? "" : ",") + Q(k) + ":" + std::to_string(v);
    first = false;
  }
  counts += "}";
  std::string h = "{\"rec\":\"header\",\"format\":\"otma-trace\",\"version\":1";
  h += ",\"kernel\":" + Q(c.kernel) + ",\"source\":" + Q(c.source) + ",\"gpu\":" + Q(c.gpu) +
       ",\"sm\":" + Q(c.sm) + ",\"driver\":" + Q(c.driver) +
       ",\"cuda_runtime\":" + std::to_string(c.cuda_runtime) +
       ",\"cuda_driver_api\":" + std::to_string(c.cuda_driver_api) +
       ",\"sm_count\":" + std::to_string(c.sm_count);
  char clk[32];
  std::snprintf(clk, sizeof(clk), "%.0f", c.clk_mhz);
  h += std::string(",\"clk_mhz\":") + clk;
  h += ",\"grid\":" + JArr(c.grid, 3) + ",\"block\":" + JArr(c.block, 3) +
       ",\"cluster\":" + JArr(c.cluster, 3) + ",\"dyn_smem\":" + std::to_string(c.dyn_smem);
  h += ",\"params\":" + c.params_json;
  h += ",\"buffers\":[";
  for (size_t i = 0; i < c.buffers.size(); ++i) {
    const BufferDesc& b = c.buffers[i];
    h += std::string(i ? "," : "") + "{\"name\":" + Q(b.name) + ",\"role\":" + Q(b.role) +
         ",\"bytes\":" + std::to_string(b.bytes) + ",\"va\":" + std::to_string(b.va) +
         ",\"dtype\":" + Q(b.dtype) + ",\"init\":" + b.init_json +
         ",\"init_sha256\":" + Q(Sha256HexOf(b.initial.data(), b.initial.size())) + "}";
  }
  h += "],\"tensors\":[";
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    const TensorDesc& t = c.tensors[i];
    h += std::string(i ? "," : "") + "{\"name\":" + Q(t.name) +
         ",\"buffer\":" + Q(c.buffers.at(t.buffer).name) +
         ",\"offset\":" + std::to_string(t.offset) + ",\"mode\":" + Q(t.mode) +
         ",\"tensor\":" + t.tensor_json + ",\"desc\":" + Q(HexOf(t.desc, 128)) +
         ",\"encode\":" + t.encode_json + "}";
  }
  h += "],\"hash\":\"sha256\",\"counts\":" + counts + ",\"capture\":" + c.capture_json + "}";
  std::fprintf(f, "%s\n", h.c_str());
  for (const std::string& l : lines)
    std::fprintf(f, "%s\n", l.c_str());
  for (const BufferDesc& b : c.buffers)
    std::fprintf(f, "{\"rec\":\"final\",\"buffer\":%s,\"bytes\":%llu,\"sha256\":%s}\n",
                 Q(b.name).c_str(), static_cast<unsigned long long>(b.final_.size()),
                 Q(Sha256HexOf(b.final_.data(), b.final_.size())).c_str());
  return n;
}

}  // namespace cosim

#endif  // TMA_SILICON_COSIM_WRITER_H_
