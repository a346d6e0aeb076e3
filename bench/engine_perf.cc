// SPDX-License-Identifier: Apache-2.0
//
// engine_perf: throughput and latency of the RTL engine (Verilated tma_sim_top), not a test.
// One issuer sends the same load (descriptor-cache hit) back to back; the AXI4 slave accepts
// every AR at once and returns the beats of each burst in order, one per cycle, from `latency`
// cycles after its AR; the shared-memory write and completion ports are always ready.
// Measured per (configuration, memory latency, mode, swizzle, box size):
//   * sustained efficiency: shared-memory bytes written / (cycles x DataBytes), from the first
//     write of the measured commands to the last one;
//   * engine latency: cycles from the first cycle a command is offered (valid) to an idle
//     engine (descriptor in the cache) to the handshake of its first data AR. (Until session 9
//     it counted from the command's accept, the same cycle then; the controller now takes a
//     command that reaches it idle one cycle after its valid.)
// Writes a CSV (--csv FILE) and prints a table; docs/performance.md records the figures and
// bench/plot_perf.py draws docs/perf_engine.svg from the CSV.
// Usage: engine_perf [--csv FILE] [--quick] [--config NAME] (NAME: db16, db16_small, db64,
// db64_deep; default: all).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/types.h"

#include "Vperf_db16.h"
#include "Vperf_db16_small.h"
#include "Vperf_db64.h"
#include "Vperf_db64_deep.h"
#include "verilated_dut.h"

namespace tma::tb {
namespace {

using model::DType;
using model::TensorInstr;
using model::TensorMap;

constexpr uint64_t kDescAddr = 0x1000;
constexpr uint64_t kTensorBase = 0x100000;

struct Result {
  double efficiency = 0;  // bytes / (cycles x DataBytes)
  double bytes_per_cycle = 0;
  int latency_first_ar = 0;  // offer -> first data AR, cache hit, idle engine
  uint64_t cycles = 0;
  uint64_t bytes = 0;
};

// A load of `box_bytes` (u16 elements) in rows of `row_bytes` (the swizzle span, 128 without).
struct Case {
  bool im2col;
  model::Swizzle swizzle;
  uint32_t box_bytes;
};

uint32_t RowBytes(model::Swizzle s) {
  return s == model::Swizzle::kNone ? 128u : model::SwizzleSpanBytes(s);
}

void MakeCommand(const Case& c, TensorMap* m, TensorInstr* ins) {
  const uint32_t e = 2;
  const uint32_t row = RowBytes(c.swizzle);
  const uint32_t rows = c.box_bytes / row;
  *m = TensorMap{};
  *ins = TensorInstr{};
  m->dtype = DType::kU16;
  m->swizzle = c.swizzle;
  m->global_address = kTensorBase;
  ins->op = model::Op::kLoad;
  ins->issuer_cta = 0;
  ins->dst_cta = 0;
  ins->smem_addr = 0;
  ins->mbar_addr = 0;
  if (!c.im2col) {
    // Tile: rows of `row` bytes out of 512-byte tensor rows; rank 2, or 3 beyond 256 rows.
    m->mode = model::MapMode::kTiled;
    m->rank = rows <= 256 ? 2 : 3;
    m->dims = {256, 1024, 64, 1, 1};
    m->strides = {512, 512 * 1024, 0, 0};
    m->box = {row / e, std::min(rows, 256u), std::max(rows / 256, 1u), 1, 1};
    ins->mode = model::LoadMode::kTile;
    ins->coords.assign(static_cast<size_t>(m->rank), 0);
  } else {
    // im2col NWC: cpp channels of each of ppc pixels along W (no wrap).
    m->mode = model::MapMode::kIm2col;
    m->rank = 3;
    m->dims = {256, 2048, 4, 1, 1};
    m->strides = {512, 512 * 2048, 0, 0};
    m->channels_per_pixel = row / e;
    m->pixels_per_column = rows;
    ins->mode = model::LoadMode::kIm2col;
    ins->coords = {0, 0, 0};
  }
  ins->dim = m->rank;
}

template <class Model, int kDataBytes>
class PerfBench {
 public:
  PerfBench() : dut_(1) { dut_.Reset(); }

  // Runs `n` copies of the command (after one warm-up that fetches the descriptor).
  Result Run(const TensorMap& m, const TensorInstr& ins, int n, int latency) {
    latency_ = latency;
    const model::DescriptorBytes d = model::EncodeDescriptor(m);
    desc_.assign(d.begin(), d.end());
    Result r;
    // Warm-up: descriptor miss; then the latency probe on an idle engine (cache hit).
    RunCommands(ins, 1);
    const Stats probe = RunCommands(ins, 1);
    r.latency_first_ar = static_cast<int>(probe.first_ar - probe.first_offer);
    const Stats s = RunCommands(ins, n);
    r.cycles = s.last_write - s.first_write + 1;
    r.bytes = s.bytes;
    r.bytes_per_cycle = static_cast<double>(s.bytes) / static_cast<double>(r.cycles);
    r.efficiency = r.bytes_per_cycle / kDataBytes;
    return r;
  }

  bool Failed() const { return dut_.GotError() || hung_; }

 private:
  struct Burst {
    uint64_t addr;
    int len;
    int id;
    uint64_t ready_at;
    int beat = 0;
  };
  struct Stats {
    uint64_t first_offer = 0, first_ar = 0, first_write = 0, last_write = 0, bytes = 0;
  };

  void Drive(const TensorInstr& ins) {
    dut_->cmd_op_i = static_cast<uint8_t>(ins.op);
    dut_->cmd_mode_i = static_cast<uint8_t>(ins.mode);
    dut_->cmd_redop_i = 0;
    dut_->cmd_dim_i = static_cast<uint8_t>(ins.dim);
    dut_->cmd_desc_addr_i = kDescAddr;
    for (int i = 0; i < 5; ++i) {
      dut_->cmd_coords_i[i] =
          static_cast<uint32_t>(i < static_cast<int>(ins.coords.size()) ? ins.coords[i] : 0);
    }
    dut_->cmd_im2col_i = 0;
    dut_->cmd_smem_addr_i = ins.smem_addr;
    dut_->cmd_mbar_addr_i = ins.mbar_addr;
    dut_->cmd_multicast_i = 0;
    dut_->cmd_cta_mask_i = 0;
    dut_->cmd_issuer_i = 0;
    dut_->cmd_dst_cta_i = 0;
    dut_->cmd_cta_group_i = 0;
    dut_->cmd_tag_i = 0;
  }

  void DriveR() {
    dut_->m_axi_rvalid_i = 0;
    if (rq_.empty() || rq_.front().ready_at > cycle_)
      return;
    const Burst& b = rq_.front();
    const uint64_t a = b.addr + static_cast<uint64_t>(b.beat) * kDataBytes;
    for (int i = 0; i < kDataBytes; ++i) {
      uint8_t v = 0;
      if (a + static_cast<uint64_t>(i) >= kDescAddr &&
          a + static_cast<uint64_t>(i) < kDescAddr + desc_.size())
        v = desc_[a + static_cast<uint64_t>(i) - kDescAddr];
      uint32_t& w = dut_->m_axi_rdata_i[i / 4];
      const int sh = (i % 4) * 8;
      w = (w & ~(0xFFu << sh)) | (static_cast<uint32_t>(v) << sh);
    }
    dut_->m_axi_rvalid_i = 1;
    dut_->m_axi_rid_i = static_cast<uint8_t>(b.id);
    dut_->m_axi_rresp_i = 0;
    dut_->m_axi_rlast_i = b.beat == b.len;
  }

  static int Popcount(const Model& m) {
    if constexpr (kDataBytes > 64) {
      int n = 0;
      for (int i = 0; i < kDataBytes / 32; ++i)
        n += __builtin_popcount(m.smem_wr_strb_o[i]);
      return n;
    } else {
      return __builtin_popcountll(static_cast<uint64_t>(m.smem_wr_strb_o));
    }
  }

  Stats RunCommands(const TensorInstr& ins, int n) {
    Stats s;
    int sent = 0, completed = 0;
    bool seen_ar = false, seen_write = false, offered = false;
    const uint64_t limit = cycle_ + 50000000;
    while (completed < n) {
      if (cycle_ > limit) {
        hung_ = true;
        break;
      }
      dut_->cmd_valid_i = sent < n;
      Drive(ins);
      dut_->desc_inval_i = 0;
      dut_->m_axi_arready_i = 1;
      dut_->smem_wr_ready_i = 1;
      dut_->cpl_ready_i = 1;
      DriveR();
      dut_.Settle();
      if (dut_->cmd_valid_i && !offered) {
        s.first_offer = cycle_;
        offered = true;
      }
      if (dut_->cmd_valid_i && dut_->cmd_ready_o)
        ++sent;
      if (dut_->m_axi_arvalid_o) {
        Burst b{dut_->m_axi_araddr_o, dut_->m_axi_arlen_o, dut_->m_axi_arid_o,
                cycle_ + static_cast<uint64_t>(latency_)};
        if (b.id == 0 && !seen_ar) {
          seen_ar = true;
          s.first_ar = cycle_;
        }
        rq_.push_back(b);
      }
      const bool r_fire = dut_->m_axi_rvalid_i && dut_->m_axi_rready_o;
      if (dut_->smem_wr_valid_o) {
        if (!seen_write) {
          seen_write = true;
          s.first_write = cycle_;
        }
        s.last_write = cycle_;
        s.bytes += static_cast<uint64_t>(Popcount(*dut_.operator->()));
      }
      if (dut_->cpl_valid_o)
        ++completed;
      dut_.Cycle();
      ++cycle_;
      if (r_fire) {
        Burst& b = rq_.front();
        if (b.beat == b.len)
          rq_.pop_front();
        else
          ++b.beat;
      }
    }
    // Drain to idle so that the next run starts on an idle engine.
    for (int i = 0; i < 4 && !hung_; ++i) {
      dut_->cmd_valid_i = 0;
      dut_.Cycle();
      ++cycle_;
    }
    return s;
  }

  VerilatedDut<Model> dut_;
  std::deque<Burst> rq_;
  std::vector<uint8_t> desc_;
  uint64_t cycle_ = 0;
  int latency_ = 1;
  bool hung_ = false;
};

struct Config {
  const char* name;
  int data_bytes;
  int max_outstanding;
  int row_fifo;
};

template <class Model, int kDataBytes>
bool RunConfig(const Config& cfg, const std::vector<int>& latencies,
               const std::vector<uint32_t>& sizes, FILE* csv) {
  static const model::Swizzle kSwz[] = {model::Swizzle::kNone, model::Swizzle::k32B,
                                        model::Swizzle::k64B, model::Swizzle::k128B};
  bool ok = true;
  for (int lat : latencies) {
    for (int im2col = 0; im2col < 2; ++im2col) {
      for (model::Swizzle swz : kSwz) {
        std::printf("%-10s lat %3d %-6s %-5s |", cfg.name, lat, im2col ? "im2col" : "tile",
                    model::ToString(swz));
        for (uint32_t size : sizes) {
          TensorMap m;
          TensorInstr ins;
          const Case c{im2col != 0, swz, size};
          MakeCommand(c, &m, &ins);
          const model::Status st = model::ValidateTensorMap(m);
          if (!st.ok()) {
            std::fprintf(stderr, "bad map: %s\n", st.ToString().c_str());
            return false;
          }
          // Enough commands for >= 128 KiB and >= 4 commands.
          const int n = static_cast<int>(std::max<uint32_t>(4, (128u << 10) / size));
          PerfBench<Model, kDataBytes> bench;
          const Result r = bench.Run(m, ins, n, lat);
          if (bench.Failed()) {
            std::fprintf(stderr, "run failed (assertion or hang)\n");
            ok = false;
          }
          std::printf(" %5.1f%%", 100.0 * r.efficiency);
          if (csv) {
            std::fprintf(csv, "%s,%d,%d,%d,%d,%s,%s,%u,%.4f,%.4f,%d\n", cfg.name, cfg.data_bytes,
                         cfg.max_outstanding, cfg.row_fifo, lat, im2col ? "im2col" : "tile",
                         model::ToString(swz), size, r.bytes_per_cycle, r.efficiency,
                         r.latency_first_ar);
          }
          if (size == sizes.front() || size == sizes.back())
            std::printf(" [lat %d]", r.latency_first_ar);
        }
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
  return ok;
}

}  // namespace
}  // namespace tma::tb

int main(int argc, char** argv) {
  using namespace tma::tb;
  const char* csv_path = nullptr;
  const char* only = nullptr;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) {
      csv_path = argv[++i];
    } else if (!std::strcmp(argv[i], "--config") && i + 1 < argc) {
      only = argv[++i];
    } else if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: engine_perf [--csv FILE] [--quick] [--config NAME]\n");
      return 2;
    }
  }
  FILE* csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv) {
    std::fprintf(csv,
                 "config,data_bytes,max_outstanding,row_fifo,mem_latency,mode,swizzle,box_bytes,"
                 "bytes_per_cycle,efficiency,latency_first_ar\n");
  }
  std::vector<uint32_t> sizes = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  if (quick)
    sizes = {128, 1024, 4096, 32768};
  std::printf("sustained smem write efficiency (bytes/cycle / DataBytes) per box size:");
  for (uint32_t s : sizes)
    std::printf(" %u", s);
  std::printf("\n");
  auto want = [only](const char* name) { return !only || !std::strcmp(only, name); };
  bool ok = true;
  // db16 and db64: the defaults of tma_sim_top (MaxOutstanding 512, RowFifoDepth 512).
  if (want("db16"))
    ok &= RunConfig<Vperf_db16, 16>({"db16", 16, 512, 512}, {1, 300}, sizes, csv);
  if (want("db16_small"))
    ok &= RunConfig<Vperf_db16_small, 16>({"db16_small", 16, 8, 8}, {1, 300}, sizes, csv);
  if (want("db64"))
    ok &= RunConfig<Vperf_db64, 64>({"db64", 64, 512, 512}, {1, 300}, sizes, csv);
  if (want("db64_deep"))
    ok &= RunConfig<Vperf_db64_deep, 64>({"db64_deep", 64, 1024, 1024}, {1, 300}, sizes, csv);
  if (csv)
    std::fclose(csv);
  return ok ? 0 : 1;
}
