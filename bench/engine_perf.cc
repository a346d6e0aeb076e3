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
// With --store the command is the store of the same box (tile, or im2col_no_offs for the
// im2col rows): the AXI4 write slave accepts every AW and W at once and answers each burst's
// B `latency` cycles after its last beat; efficiency is then global bytes written (W beats'
// strobes) / (cycles x DataBytes) from the first W beat to the last.
// Writes a CSV (--csv FILE) and prints a table; docs/performance.md records the figures and
// bench/plot_perf.py draws docs/perf_engine.svg from the CSV (loads; store rows have the modes
// store_tile / store_im2col_no_offs).
// Packed loads (mode tile_packed): tile loads of a packed tensor whose rows are the box rows
// (box[0] == dims[0], stride == the row), rows of 16 bytes without swizzle and of the span with
// one, so consecutive rows are adjacent in global and shared memory and the engine may move
// several rows in one beat (wide-bus packing, docs/performance.md); --packed-ref runs the same
// boxes out of tensor rows twice as long (rows not adjacent: one row per read).
// The sm_100 load modes (the tops are built with Arch = Sm103):
//   * gather4: tile::gather4 loads of a 2-D u16 map (box[1] == 1), four rows of box/4 bytes from
//     the row coordinates {2, 5, 0, 9} (not adjacent in global memory) at column 0; every box
//     whose rows the mode allows (16-byte multiples up to 512 bytes without swizzle, up to the
//     span with one), every swizzle of the seeds (the 128B atoms and 96B included);
//   * im2col_w: im2col::w loads (NWC, rank 3), rows of the span (64B, 128B, 128B_atom_32B: the
//     swizzles an im2col-wide map allows), box/row pixels of which a quarter are wHalo halo
//     pixels, wOffset 1;
//   * im2col_w128: im2col::w::128 loads, 128 pixels (wHalo 0, wOffset 1) of box/128 bytes each.
// A cell the mode does not allow (the encoder's or the instruction check's verdict at sm_103)
// prints "-" and writes no CSV row.
// Every load is checked: global memory holds a pattern of its address, the shared-memory port
// keeps what it writes, and after the run that window must equal the model's (ExecuteTensor of
// the same command, the same memory), the shared-memory bytes written must be the commands'
// count times the model's smem_bytes_written, and every completion must carry the model's
// complete-tx bytes without an error.
// With --reduce the commands are reductions of the store boxes (tile and im2col_no_offs, no
// swizzle and 128B, the --quick sizes), at db16: add.u32 (an integer pair with an AXI5
// AtomicStore form) and add.f32 / add.f16 read-modify-write, and add.u32 on the top built with
// AtomicReduce = 1 (Vperf_db16_atop: one AtomicStore per element, executed by the write slave);
// efficiency = global bytes reduced (W strobes) / (cycles x DataBytes), first W beat to last.
// With --mixed the commands alternate between the load and the store of the same tile box on
// one engine (db16, no swizzle and 128B); it reports the bytes moved each way per cycle (shared-
// memory writes of the loads, W strobes of the stores) from the first of either to the last.
// Usage: engine_perf [--csv FILE] [--quick] [--store] [--packed | --packed-ref] [--config NAME]
//        [--mode MODE] [--cmd-rate] [--reduce] [--mixed]
// (NAME: db16, db16_small, db32, db64, db64_deep, db128; default: all. MODE: tile, im2col,
// tile_packed, gather4, im2col_w, im2col_w128; default: all. --cmd-rate: each cell prints the
// mean cycles between the measured commands' handshakes on the command port instead of the
// efficiency; the CSV is the same.)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cmd_port.h"
#include "sim/cpl_port.h"
#include "sim/harness.h"
#include "sim/sim_top.h"
#include "sim/smem_port.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"
#include "tma/types.h"

// The perf tops of this build (bench/CMakeLists.txt, ENGINE_PERF_CONFIGS).
#ifdef TMA_PERF_DB128
#include "Vperf_db128.h"
#endif
#ifdef TMA_PERF_DB16
#include "Vperf_db16.h"
#endif
#ifdef TMA_PERF_DB16_ATOP
#include "Vperf_db16_atop.h"
#endif
#ifdef TMA_PERF_DB16_SMALL
#include "Vperf_db16_small.h"
#endif
#ifdef TMA_PERF_DB32
#include "Vperf_db32.h"
#endif
#ifdef TMA_PERF_DB64
#include "Vperf_db64.h"
#endif
#ifdef TMA_PERF_DB64_DEEP
#include "Vperf_db64_deep.h"
#endif

namespace tma::tb {
namespace {

using model::DType;
using model::TensorInstr;
using model::TensorMap;

constexpr uint64_t kDescAddr = 0x1000;
constexpr uint64_t kTensorBase = 0x100000;
bool g_store = false;       // --store: measure the stores of the boxes
bool g_packed = false;      // --packed / --packed-ref: only the packed-tensor loads ...
bool g_packed_ref = false;  // ... out of tensor rows twice the box rows (not packable)
bool g_reduce = false;      // --reduce: reductions of the store boxes (g_store is set too)
bool g_mixed = false;       // --mixed: loads and stores of the same boxes, alternating

const char* g_mode = nullptr;  // --mode: only this mode
bool g_cmd_rate = false;       // --cmd-rate: print cycles per command instead of efficiency

struct Result {
  double efficiency = 0;  // bytes / (cycles x DataBytes)
  double bytes_per_cycle = 0;
  int latency_first_ar = 0;   // offer -> first data AR, cache hit, idle engine
  double cycles_per_cmd = 0;  // mean cycles between the measured commands' handshakes
  uint64_t cycles = 0;
  uint64_t bytes = 0;
  double limit = 0;  // the physical limit's efficiency for this command (LimitEfficiency)
};

// The physical limit of a port of `data_bytes` for a command that moves `bytes` through shared
// memory: the global side needs one beat per DataBytes-aligned global block holding a byte of the
// box (rows that are not adjacent in global memory each need their own beats, whatever the
// engine does), the shared-memory side bytes / DataBytes beats; one beat per cycle on each.
// Returns bytes / (data_bytes x the larger beat count): 1.0 where the box fills whole beats.
double LimitEfficiency(const TensorMap& m, const TensorInstr& ins, uint32_t data_bytes,
                       double bytes) {
  std::vector<uint64_t> blocks;
  model::ForEachElement(m, ins, [&](const model::ElementVisit& v) {
    if (v.oob || v.bytes == 0)
      return;
    for (uint64_t a = v.global_addr / data_bytes; a <= (v.global_addr + v.bytes - 1) / data_bytes;
         ++a)
      blocks.push_back(a);
  });
  std::sort(blocks.begin(), blocks.end());
  const double gbeats =
      static_cast<double>(std::unique(blocks.begin(), blocks.end()) - blocks.begin());
  const double sbeats = bytes / data_bytes;
  const double beats = std::max(gbeats, sbeats);
  return beats > 0 ? sbeats / beats : 0;
}

enum Mode { kTile = 0, kIm2col = 1, kPacked = 2, kGather4 = 3, kIm2colW = 4, kIm2colW128 = 5 };

// A load of `box_bytes` (u16 elements) in rows of `row_bytes` (the swizzle span, 128 without;
// packed: 16 without).
struct Case {
  Mode mode;
  model::Swizzle swizzle;
  uint32_t box_bytes;
};

uint32_t RowBytes(model::Swizzle s, Mode mode) {
  if (s == model::Swizzle::kNone)
    return mode == kPacked ? 16u : 128u;
  return model::SwizzleSpanBytes(s);
}

void MakeCommand(const Case& c, TensorMap* m, TensorInstr* ins) {
  const uint32_t e = 2;
  const uint32_t row = RowBytes(c.swizzle, c.mode);
  const uint32_t rows = c.box_bytes / row;
  *m = TensorMap{};
  *ins = TensorInstr{};
  m->dtype = DType::kU16;
  m->swizzle = c.swizzle;
  m->global_address = kTensorBase;
  ins->op = g_store ? model::Op::kStore : model::Op::kLoad;
  ins->issuer_cta = 0;
  ins->dst_cta = 0;
  ins->smem_addr = 0;
  ins->mbar_addr = 0;
  if (c.mode == kPacked) {
    // A packed tensor: its rows are the box rows (--packed-ref: twice as long); rank 2, or 3
    // beyond 256 rows.
    const uint32_t k = g_packed_ref ? 2 : 1;
    m->mode = model::MapMode::kTiled;
    m->rank = rows <= 256 ? 2 : 3;
    const uint64_t d1 = rows <= 256 ? 1024 : 256;
    m->dims = {k * row / e, d1, 64, 1, 1};
    m->strides = {k * row, k * row * d1, 0, 0};
    m->box = {row / e, std::min(rows, 256u), std::max(rows / 256, 1u), 1, 1};
    ins->mode = model::LoadMode::kTile;
    ins->coords.assign(static_cast<size_t>(m->rank), 0);
  } else if (c.mode == kTile) {
    // Tile: rows of `row` bytes out of 512-byte tensor rows; rank 2, or 3 beyond 256 rows.
    m->mode = model::MapMode::kTiled;
    m->rank = rows <= 256 ? 2 : 3;
    m->dims = {256, 1024, 64, 1, 1};
    m->strides = {512, 512 * 1024, 0, 0};
    m->box = {row / e, std::min(rows, 256u), std::max(rows / 256, 1u), 1, 1};
    ins->mode = model::LoadMode::kTile;
    ins->coords.assign(static_cast<size_t>(m->rank), 0);
  } else if (c.mode == kGather4) {
    // tile::gather4: four rows of box/4 bytes at column 0 of the rows {2, 5, 0, 9} of a 2-D
    // map of 512-byte rows (rows not adjacent in global memory).
    m->mode = model::MapMode::kTiled;
    m->rank = 2;
    m->dims = {256, 1024, 1, 1, 1};
    m->strides = {512, 0, 0, 0};
    m->box = {c.box_bytes / 4 / e, 1, 1, 1, 1};
    ins->mode = model::LoadMode::kTileGather4;
    ins->coords = {0, 2, 5, 0, 9};
  } else if (c.mode == kIm2colW || c.mode == kIm2colW128) {
    // im2col::w NWC: box/row pixels along W, the last quarter of them wHalo halo pixels;
    // im2col::w::128: 128 pixels of box/128 bytes, no halo. wOffset 1 shifts the W box [0, 2047]
    // and the start.
    const bool w128 = c.mode == kIm2colW128;
    const uint32_t halo = w128 ? 0 : rows / 4;
    m->mode = model::MapMode::kIm2colWide;
    m->wide_mode = w128 ? model::WideMode::kW128 : model::WideMode::kW;
    m->rank = 3;
    m->dims = {256, 2048, 4, 1, 1};
    m->strides = {512, 512 * 2048, 0, 0};
    m->channels_per_pixel = (w128 ? c.box_bytes / 128 : row) / e;
    m->pixels_per_column = w128 ? 128 : rows - halo;
    ins->mode = w128 ? model::LoadMode::kIm2colW128 : model::LoadMode::kIm2colW;
    ins->coords = {0, 0, 0};
    ins->im2col_info = {static_cast<uint16_t>(halo), 1};
  } else {
    // im2col NWC: cpp channels of each of ppc pixels along W (no wrap).
    m->mode = model::MapMode::kIm2col;
    m->rank = 3;
    m->dims = {256, 2048, 4, 1, 1};
    m->strides = {512, 512 * 2048, 0, 0};
    m->channels_per_pixel = row / e;
    m->pixels_per_column = rows;
    ins->mode = g_store ? model::LoadMode::kIm2colNoOffs : model::LoadMode::kIm2col;
    ins->coords = {0, 0, 0};
  }
  ins->dim = m->rank;
}

// The byte of global memory at `a`: a pattern of the address from kTensorBase on (so that a
// byte out of place shows in the data check), 0 below.
uint8_t Pattern(uint64_t a) {
  return a < kTensorBase ? 0 : static_cast<uint8_t>((a * 0x9E3779B97F4A7C15ull) >> 56);
}

// Global memory of the runs: the descriptor at kDescAddr, Pattern() elsewhere (OKAY).
class DescOnly : public sim::BeatSource {
 public:
  std::vector<uint8_t> desc;
  uint32_t ReadBeat(uint64_t lane0, uint64_t, uint32_t, uint8_t* data, int n) override {
    for (int i = 0; i < n; ++i) {
      const uint64_t a = lane0 + static_cast<uint64_t>(i);
      data[i] = a >= kDescAddr && a < kDescAddr + desc.size() ? desc[a - kDescAddr] : Pattern(a);
    }
    return 0;
  }
};

// The same global memory for the model (the data check).
class PatternGlobal : public model::GlobalMemoryIf {
 public:
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override {
    for (size_t i = 0; i < n; ++i)
      dst[i] = Pattern(addr + i);
    return true;
  }
  bool Write(uint64_t, const uint8_t*, size_t) override { return true; }
};

constexpr uint32_t kWindowBytes = 256u << 10;  // CTA 0's shared memory kept for the data check

// Shared memory that takes every write and keeps CTA 0's window (the data check of loads).
class Discard : public model::SharedMemoryIf {
 public:
  std::vector<uint8_t> window = std::vector<uint8_t>(kWindowBytes, 0);
  int NumCtas() const override { return 16; }
  bool Read(int, uint32_t, uint8_t*, size_t) override { return true; }
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override {
    if (cta == 0 && addr + n <= window.size())
      std::memcpy(&window[addr], src, n);
    return true;
  }
};

// Global memory that takes every store's write.
class DiscardGlobal : public model::GlobalMemoryIf {
 public:
  bool Read(uint64_t, uint8_t*, size_t) override { return true; }
  bool Write(uint64_t, const uint8_t*, size_t) override { return true; }
};

// The measurement and the command valid of one run: samples the settled pins of each cycle
// (first offer, first data AR, smem writes, completions) and offers the command while fewer
// than `n` have been taken.
struct Probe : sim::Clocked {
  struct Stats {
    uint64_t first_offer = 0, first_ar = 0, first_write = 0, last_write = 0, bytes = 0;
    uint64_t cpl_bytes = 0, cpl_errors = 0;  // completions: complete-tx bytes, errors
    uint64_t accepts = 0, first_accept = 0, last_accept = 0;  // command handshakes
  };
  int n = 0, sent = 0, completed = 0;
  bool seen_ar = false, seen_write = false, offered = false;
  Stats s;
  // --mixed: the commands alternate (mix[sent % 2] is offered next); bytes moved each way
  // (shared-memory writes, W strobes) and the cycles of the first and the last of either.
  const sim::EngineCommand* mix = nullptr;
  uint64_t ld_bytes = 0, st_bytes = 0, mix_first = 0, mix_last = 0;
  bool mix_seen = false;
  void Tick(sim::TopPins& p, uint64_t now) override {
    if (p.cmd_valid && !offered) {
      s.first_offer = now;
      offered = true;
    }
    if (p.cmd_valid && p.cmd_ready)
      ++sent;
    if (p.cmd_valid && p.cmd_ready) {
      if (s.accepts++ == 0)
        s.first_accept = now;
      s.last_accept = now;
    }
    if (p.arvalid && p.arid == tma::pkg::AxiIdData && !seen_ar) {
      seen_ar = true;
      s.first_ar = now;
    }
    // Loads: shared-memory writes; stores: W beats taken by the slave.
    const bool write = g_store ? p.wvalid && p.wready : p.smem_wr_valid;
    if (write) {
      if (!seen_write) {
        seen_write = true;
        s.first_write = now;
      }
      s.last_write = now;
      s.bytes += static_cast<uint64_t>(sim::StrobeCount(g_store ? p.wstrb : p.smem_wr_strb));
    }
    if (p.cpl_valid) {
      ++completed;
      s.cpl_bytes += p.cpl.bytes;
      s.cpl_errors += p.cpl.err != 0;
    }
    if (mix) {
      const bool ld = p.smem_wr_valid, st = p.wvalid && p.wready;
      ld_bytes += ld ? static_cast<uint64_t>(sim::StrobeCount(p.smem_wr_strb)) : 0;
      st_bytes += st ? static_cast<uint64_t>(sim::StrobeCount(p.wstrb)) : 0;
      if (ld || st) {
        mix_first = mix_seen ? mix_first : now;
        mix_seen = true;
        mix_last = now;
      }
      if (p.cmd_valid && p.cmd_ready)
        sim::CmdCodec::Encode(mix[sent % 2], &p);
    }
    p.cmd_valid = sent < n;
  }
};

class PerfBench {
 public:
  explicit PerfBench(std::unique_ptr<sim::SimTop> top)
      : top_(std::move(top)),
        h_(top_.get()),
        axi_(&mem_, &rng_, Fail()),
        axw_(&gdiscard_, &rng_, Fail()),
        smem_(&discard_, &rng_, Fail()),
        cpl_(&rng_, nullptr) {
    axi_.config().in_order = true;
    h_.Add(&probe_);
    h_.Add(&axi_);
    h_.Add(&axw_);
    h_.Add(&smem_);
    h_.Add(&cpl_);
    h_.Reset(2);
  }

  // Runs `n` copies of the command (after one warm-up that fetches the descriptor).
  Result Run(const TensorMap& m, const TensorInstr& ins, int n, int latency) {
    // A beat may go out `latency` cycles after its AR's cycle: the slave's latency counts the
    // cycles after the first possible one.
    axi_.config().SetLatency(latency - 1, latency - 1);
    for (auto& l : axw_.config().latency)
      l = {latency, latency};
    const model::DescriptorBytes d = model::EncodeDescriptor(m);
    mem_.desc.assign(d.begin(), d.end());
    sim::EngineCommand cmd;
    cmd.instr = ins;
    cmd.desc_addr = kDescAddr;
    sim::CmdCodec::Encode(cmd, &h_.pins());
    Result r;
    // Warm-up: descriptor miss; then the latency probe on an idle engine (cache hit).
    RunCommands(1);
    const Probe::Stats probe = RunCommands(1);
    r.latency_first_ar = static_cast<int>(probe.first_ar - probe.first_offer);
    const Probe::Stats s = RunCommands(n);
    if (ins.op == model::Op::kLoad)
      CheckLoad(m, ins, n, s);
    if (s.accepts > 1)
      r.cycles_per_cmd =
          static_cast<double>(s.last_accept - s.first_accept) / static_cast<double>(s.accepts - 1);
    r.cycles = s.last_write - s.first_write + 1;
    r.bytes = s.bytes;
    r.bytes_per_cycle = static_cast<double>(s.bytes) / static_cast<double>(r.cycles);
    r.efficiency = r.bytes_per_cycle / top_->pins.data_bytes;
    if (n > 0)
      r.limit = LimitEfficiency(m, ins, top_->pins.data_bytes,
                                static_cast<double>(s.bytes) / static_cast<double>(n));
    return r;
  }

  bool Failed() { return top_->TakeAssertFailure() || hung_ || failed_; }
  uint64_t cycles() const { return h_.cycle(); }
  uint64_t atomics() const { return axw_.atomics(); }

  // --mixed: n commands alternating between the load `ld` and the store `st` (after a warm-up
  // of each); *ld_bpc / *st_bpc: bytes moved each way per cycle, from the first byte to the
  // last.
  void RunMixed(const TensorMap& m, const TensorInstr& ld, const TensorInstr& st, int n,
                int latency, double* ld_bpc, double* st_bpc) {
    axi_.config().SetLatency(latency - 1, latency - 1);
    for (auto& l : axw_.config().latency)
      l = {latency, latency};
    const model::DescriptorBytes d = model::EncodeDescriptor(m);
    mem_.desc.assign(d.begin(), d.end());
    sim::EngineCommand cmds[2];
    cmds[0].instr = ld;
    cmds[1].instr = st;
    cmds[0].desc_addr = cmds[1].desc_addr = kDescAddr;
    for (const sim::EngineCommand& c : cmds) {  // warm-up: descriptor fetch, one of each
      sim::CmdCodec::Encode(c, &h_.pins());
      RunCommands(1);
    }
    sim::CmdCodec::Encode(cmds[0], &h_.pins());
    mix_ = cmds;
    RunCommands(n);
    mix_ = nullptr;
    const double cyc = static_cast<double>(mixed_.mix_last - mixed_.mix_first + 1);
    *ld_bpc = static_cast<double>(mixed_.ld_bytes) / cyc;
    *st_bpc = static_cast<double>(mixed_.st_bytes) / cyc;
  }

 private:
  sim::ErrorFn Fail() {
    return [this](const std::string& id, const std::string& msg) {
      std::fprintf(stderr, "%s: %s\n", id.c_str(), msg.c_str());
      failed_ = true;
    };
  }

  // Loads: every command writes the same box, so after the runs CTA 0's window must equal the
  // model's after one; the measured commands' shared-memory bytes and complete-tx bytes must be
  // n times the model's, with no completion error.
  void CheckLoad(const TensorMap& m, const TensorInstr& ins, int n, const Probe::Stats& s) {
    PatternGlobal g;
    model::ClusterSharedMemory want(1, kWindowBytes);
    model::ExecOptions o;
    o.arch = model::Arch::kSm103;
    const model::ExecResult e = model::ExecuteTensor(m, ins, g, want, o);
    const uint64_t k = static_cast<uint64_t>(n);
    std::string err;
    if (!e.status.ok()) {
      err = "the model refuses the command: " + e.status.ToString();
    } else if (s.bytes != k * e.smem_bytes_written) {
      err = "shared-memory bytes " + std::to_string(s.bytes) + ", model " +
            std::to_string(k * e.smem_bytes_written);
    } else if (e.complete_tx.size() != 1 || s.cpl_bytes != k * e.complete_tx[0].bytes) {
      err = "complete-tx bytes " + std::to_string(s.cpl_bytes) + ", model " +
            std::to_string(e.complete_tx.empty() ? 0 : k * e.complete_tx[0].bytes);
    } else if (s.cpl_errors != 0) {
      err = std::to_string(s.cpl_errors) + " completions with an error";
    } else if (discard_.window != want.Window(0)) {
      const auto d =
          std::mismatch(discard_.window.begin(), discard_.window.end(), want.Window(0).begin());
      err = "shared memory differs from the model's from offset " +
            std::to_string(d.first - discard_.window.begin());
    }
    if (!err.empty()) {
      std::fprintf(stderr, "data check: %s\n", err.c_str());
      failed_ = true;
    }
  }

  Probe::Stats RunCommands(int n) {
    probe_ = Probe{};
    probe_.n = n;
    probe_.mix = mix_;
    h_.pins().cmd_valid = n > 0;
    h_.Apply();
    const uint64_t limit = h_.cycle() + 50000000;
    while (probe_.completed < n) {
      if (h_.cycle() > limit) {
        hung_ = true;
        break;
      }
      h_.Step();
    }
    // Drain to idle so that the next run starts on an idle engine.
    probe_.n = 0;
    h_.pins().cmd_valid = false;
    h_.Apply();
    for (int i = 0; i < 4 && !hung_; ++i)
      h_.Step();
    mixed_ = probe_;
    return probe_.s;
  }

  std::unique_ptr<sim::SimTop> top_;
  sim::Harness h_;
  sim::MtRandom rng_;  // every knob at 100 %, in-order bursts: never drawn
  DescOnly mem_;
  Discard discard_;
  DiscardGlobal gdiscard_;
  Probe probe_;
  sim::AxiReadSlave axi_;
  sim::AxiWriteSlave axw_;
  sim::SmemPort smem_;
  sim::CplPort cpl_;
  bool hung_ = false;
  bool failed_ = false;
  const sim::EngineCommand* mix_ = nullptr;  // --mixed: the two commands
  Probe mixed_;                              // the last run's probe
};

struct Config {
  const char* name;
  int data_bytes;
  int max_outstanding;
  int row_fifo;
};

using TopFactory = std::unique_ptr<sim::SimTop> (*)();

template <class Model, int kDataBytes>
std::unique_ptr<sim::SimTop> MakeTop() {
  // Every flop starts at a random value (seeded): the runs must not depend on it.
  return std::make_unique<sim::VerilatedTop<Model>>(kDataBytes, "perf",
                                                    sim::VerilatedOptions{2, 2});
}

uint64_t g_cycles = 0;  // cycles simulated by every run (the speed line)

bool IsSm100Mode(Mode mode) {
  return mode == kGather4 || mode == kIm2colW || mode == kIm2colW128;
}

// Whether the mode has a command for `c` (the sm_100 modes allow some box sizes and swizzles
// only): rows of whole 16-byte units, and the encoder's and the instruction check's verdicts
// at sm_103 (the perf tops' Arch).
bool Allowed(const Case& c) {
  const uint32_t unit = c.mode == kGather4      ? 4 * 16
                        : c.mode == kIm2colW128 ? 128 * 16
                                                : RowBytes(c.swizzle, c.mode);
  if (c.box_bytes % unit != 0)
    return false;
  TensorMap m;
  TensorInstr ins;
  MakeCommand(c, &m, &ins);
  return model::ValidateTensorMap(m, model::Arch::kSm103).ok() &&
         model::CheckInstruction(m, ins, model::Arch::kSm103, 1).ok();
}

bool RunConfig(TopFactory make, const Config& cfg, const std::vector<int>& latencies,
               const std::vector<uint32_t>& sizes, FILE* csv) {
  static const model::Swizzle kSwz[] = {model::Swizzle::kNone, model::Swizzle::k32B,
                                        model::Swizzle::k64B, model::Swizzle::k128B};
  // The sm_100 modes: every swizzle of the seeds (the cells a mode does not allow are skipped).
  static const std::vector<model::Swizzle> kSwzSm100 = {
      model::Swizzle::kNone,        model::Swizzle::k32B,
      model::Swizzle::k64B,         model::Swizzle::k128B,
      model::Swizzle::k128BAtom32B, model::Swizzle::k128BAtom32BFlip8B,
      model::Swizzle::k128BAtom64B, model::Swizzle::k96B};
  static const char* const kModeName[] = {"tile",    "im2col",   "tile_packed",
                                          "gather4", "im2col_w", "im2col_w128"};
  std::vector<Mode> modes = {kTile, kIm2col};
  if (!g_store)
    modes.push_back(kPacked);
  for (Mode md : {kGather4, kIm2colW, kIm2colW128}) {
    if (!g_store)
      modes.push_back(md);
  }
  if (g_packed)
    modes = {kPacked};
  if (g_mode)
    modes.erase(std::remove_if(modes.begin(), modes.end(),
                               [](Mode md) { return std::strcmp(kModeName[md], g_mode) != 0; }),
                modes.end());
  bool ok = true;
  for (int lat : latencies) {
    for (Mode mode : modes) {
      const std::vector<model::Swizzle> swizzles =
          IsSm100Mode(mode) ? kSwzSm100
                            : std::vector<model::Swizzle>(std::begin(kSwz), std::end(kSwz));
      for (model::Swizzle swz : swizzles) {
        std::printf("%-10s lat %3d %-11s %-5s |", cfg.name, lat,
                    g_packed_ref && mode == kPacked ? "packed_ref" : kModeName[mode],
                    model::ToString(swz));
        for (uint32_t size : sizes) {
          TensorMap m;
          TensorInstr ins;
          const Case c{mode, swz, size};
          if (IsSm100Mode(mode) && !Allowed(c)) {
            std::printf("     - ");
            continue;
          }
          MakeCommand(c, &m, &ins);
          const model::Status st = model::ValidateTensorMap(m, model::Arch::kSm103);
          if (!st.ok()) {
            std::fprintf(stderr, "bad map: %s\n", st.ToString().c_str());
            return false;
          }
          // Enough commands for >= 128 KiB and >= 4 commands.
          const int n = static_cast<int>(std::max<uint32_t>(4, (128u << 10) / size));
          PerfBench bench(make());
          const Result r = bench.Run(m, ins, n, lat);
          g_cycles += bench.cycles();
          if (bench.Failed()) {
            std::fprintf(stderr, "run failed (assertion or hang)\n");
            ok = false;
          }
          if (g_cmd_rate)
            std::printf(" %6.2f", r.cycles_per_cmd);
          else
            std::printf(" %5.1f%%", 100.0 * r.efficiency);
          if (csv) {
            const char* name =
                g_store ? (mode == kIm2col ? "store_im2col_no_offs" : "store_tile")
                        : (mode == kPacked && g_packed_ref ? "tile_packed_ref" : kModeName[mode]);
            std::fprintf(csv, "%s,%d,%d,%d,%d,%s,%s,%u,%.4f,%.4f,%d,%.4f\n", cfg.name,
                         cfg.data_bytes, cfg.max_outstanding, cfg.row_fifo, lat, name,
                         model::ToString(swz), size, r.bytes_per_cycle, r.efficiency,
                         r.latency_first_ar, r.limit);
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

// --reduce: the store boxes (tile, im2col_no_offs; no swizzle and 128B) as reductions of
// `pair`, on the top `make` (AtomicReduce 0 or 1). The box keeps its bytes: box[0] (channels for
// im2col) is rescaled from the u16 elements of MakeCommand to the pair's element size.
struct RedPair {
  const char* name;
  model::RedOp op;
  DType dtype;
  bool atomic;  // on the AtomicReduce = 1 top
};

bool RunReduce(TopFactory rmw, TopFactory atomic, const std::vector<int>& latencies,
               const std::vector<uint32_t>& sizes, FILE* csv) {
  static const model::Swizzle kSwz[] = {model::Swizzle::kNone, model::Swizzle::k128B};
  static const RedPair kPairs[] = {
      {"add.u32", model::RedOp::kAdd, DType::kU32, false},
      {"add.u32.atom", model::RedOp::kAdd, DType::kU32, true},
      {"add.f32", model::RedOp::kAdd, DType::kF32, false},
      {"add.f16", model::RedOp::kAdd, DType::kF16, false},
  };
  bool ok = true;
  for (int lat : latencies) {
    for (Mode mode : {kTile, kIm2col}) {
      for (model::Swizzle swz : kSwz) {
        for (const RedPair& pr : kPairs) {
          std::printf("db16       lat %3d %-13s %-5s %-12s |", lat,
                      mode == kIm2col ? "im2col_no_off" : "tile", model::ToString(swz), pr.name);
          for (uint32_t size : sizes) {
            TensorMap m;
            TensorInstr ins;
            MakeCommand(Case{mode, swz, size}, &m, &ins);
            const uint32_t e = static_cast<uint32_t>(model::ElementBytes(pr.dtype));
            m.dtype = pr.dtype;
            if (mode == kIm2col) {
              m.channels_per_pixel = m.channels_per_pixel * 2 / e;
            } else {
              m.box[0] = m.box[0] * 2 / e;
            }
            ins.op = model::Op::kReduce;
            ins.redop = pr.op;
            const model::Status st = model::ValidateTensorMap(m);
            if (!st.ok()) {
              std::fprintf(stderr, "bad map: %s\n", st.ToString().c_str());
              return false;
            }
            const int n = static_cast<int>(std::max<uint32_t>(4, (128u << 10) / size));
            PerfBench bench((pr.atomic ? atomic : rmw)());
            const Result r = bench.Run(m, ins, n, lat);
            g_cycles += bench.cycles();
            if (bench.Failed() || (pr.atomic != (bench.atomics() > 0))) {
              std::fprintf(stderr, "run failed (assertion, hang, or atomics %llu)\n",
                           static_cast<unsigned long long>(bench.atomics()));
              ok = false;
            }
            std::printf(" %5.1f%%", 100.0 * r.efficiency);
            if (csv) {
              std::fprintf(csv, "%s,%d,%d,%d,%d,%s_%s,%s,%u,%.4f,%.4f,%d,%.4f\n",
                           pr.atomic ? "db16_atop" : "db16", 16, 512, 512, lat,
                           mode == kIm2col ? "reduce_im2col_no_offs" : "reduce_tile", pr.name,
                           model::ToString(swz), size, r.bytes_per_cycle, r.efficiency,
                           r.latency_first_ar, r.limit);
            }
          }
          std::printf("\n");
          std::fflush(stdout);
        }
      }
    }
  }
  return ok;
}

// --mixed: the load and the store of the same tile box, alternating on one engine (db16).
bool RunMixedConfig(TopFactory make, const std::vector<int>& latencies,
                    const std::vector<uint32_t>& sizes, FILE* csv) {
  static const model::Swizzle kSwz[] = {model::Swizzle::kNone, model::Swizzle::k128B};
  bool ok = true;
  for (int lat : latencies) {
    for (model::Swizzle swz : kSwz) {
      std::printf("db16       lat %3d mixed %-5s | load B/cyc, store B/cyc, both / DataBytes:", lat,
                  model::ToString(swz));
      for (uint32_t size : sizes) {
        TensorMap m;
        TensorInstr ld, st;
        g_store = false;
        MakeCommand(Case{kTile, swz, size}, &m, &ld);
        g_store = true;
        MakeCommand(Case{kTile, swz, size}, &m, &st);
        g_store = false;
        const int n = 2 * static_cast<int>(std::max<uint32_t>(4, (128u << 10) / size));
        PerfBench bench(make());
        double ld_bpc = 0, st_bpc = 0;
        bench.RunMixed(m, ld, st, n, lat, &ld_bpc, &st_bpc);
        g_cycles += bench.cycles();
        if (bench.Failed()) {
          std::fprintf(stderr, "run failed (assertion or hang)\n");
          ok = false;
        }
        std::printf("  %u: %.2f %.2f %.1f%%", size, ld_bpc, st_bpc,
                    100.0 * (ld_bpc + st_bpc) / 16.0);
        if (csv) {
          std::fprintf(csv, "db16,16,512,512,%d,mixed_load,%s,%u,%.4f,%.4f,0,\n", lat,
                       model::ToString(swz), size, ld_bpc, ld_bpc / 16.0);
          std::fprintf(csv, "db16,16,512,512,%d,mixed_store,%s,%u,%.4f,%.4f,0,\n", lat,
                       model::ToString(swz), size, st_bpc, st_bpc / 16.0);
        }
      }
      std::printf("\n");
      std::fflush(stdout);
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
    } else if (!std::strcmp(argv[i], "--store")) {
      g_store = true;
    } else if (!std::strcmp(argv[i], "--reduce")) {
      g_reduce = true;
    } else if (!std::strcmp(argv[i], "--mixed")) {
      g_mixed = true;
    } else if (!std::strcmp(argv[i], "--packed")) {
      g_packed = true;
    } else if (!std::strcmp(argv[i], "--packed-ref")) {
      g_packed = true;
      g_packed_ref = true;
    } else if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) {
      g_mode = argv[++i];
    } else if (!std::strcmp(argv[i], "--cmd-rate")) {
      g_cmd_rate = true;
    } else {
      std::fprintf(stderr,
                   "usage: engine_perf [--csv FILE] [--quick] [--store] [--packed | --packed-ref] "
                   "[--config NAME] [--mode MODE] [--cmd-rate] [--reduce] [--mixed]\n");
      return 2;
    }
  }
  FILE* csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv) {
    std::fprintf(csv,
                 "config,data_bytes,max_outstanding,row_fifo,mem_latency,mode,swizzle,box_bytes,"
                 "bytes_per_cycle,efficiency,latency_first_ar,limit_efficiency\n");
  }
  std::vector<uint32_t> sizes = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  if (quick)
    sizes = {128, 1024, 4096, 32768};
  if (g_reduce || g_mixed) {
    // Reductions and mixed streams: db16 only, the --quick sizes.
    const std::vector<uint32_t> rsizes = {128, 1024, 4096, 32768};
    bool rok = true;
    const std::clock_t r0 = std::clock();
#if defined(TMA_PERF_DB16) && defined(TMA_PERF_DB16_ATOP)
    if (g_reduce) {
      std::printf(
          "sustained global reduce efficiency (bytes reduced / cycles / DataBytes) per "
          "box size: 128 1024 4096 32768\n");
      g_store = true;
      rok &=
          RunReduce(MakeTop<Vperf_db16, 16>, MakeTop<Vperf_db16_atop, 16>, {1, 300}, rsizes, csv);
      g_store = false;
    }
    if (g_mixed)
      rok &= RunMixedConfig(MakeTop<Vperf_db16, 16>, {1, 300}, rsizes, csv);
#else
    std::fprintf(stderr, "engine_perf: --reduce and --mixed need db16 and db16_atop\n");
    rok = false;
#endif
    if (csv)
      std::fclose(csv);
    const double cpu = static_cast<double>(std::clock() - r0) / CLOCKS_PER_SEC;
    std::printf("engine_perf: %llu cycles, cpu %.2f s\n", static_cast<unsigned long long>(g_cycles),
                cpu);
    return rok ? 0 : 1;
  }
  std::printf(g_store ? "sustained global write efficiency of stores (bytes/cycle / DataBytes) per "
                        "box size:"
                      : "sustained smem write efficiency (bytes/cycle / DataBytes) per box size:");
  for (uint32_t s : sizes)
    std::printf(" %u", s);
  std::printf("\n");
  auto want = [only](const char* name) { return !only || !std::strcmp(only, name); };
  bool ok = true;
  const std::clock_t c0 = std::clock();
  // db16, db32, db64, db128: the defaults of tma_sim_top (MaxOutstanding 512, RowFifoDepth 512).
#ifdef TMA_PERF_DB16
  if (want("db16"))
    ok &= RunConfig(MakeTop<Vperf_db16, 16>, {"db16", 16, 512, 512}, {1, 300}, sizes, csv);
#endif
#ifdef TMA_PERF_DB16_SMALL
  if (want("db16_small"))
    ok &= RunConfig(MakeTop<Vperf_db16_small, 16>, {"db16_small", 16, 8, 8}, {1, 300}, sizes, csv);
#endif
#ifdef TMA_PERF_DB32
  if (want("db32"))
    ok &= RunConfig(MakeTop<Vperf_db32, 32>, {"db32", 32, 512, 512}, {1, 300}, sizes, csv);
#endif
#ifdef TMA_PERF_DB64
  if (want("db64"))
    ok &= RunConfig(MakeTop<Vperf_db64, 64>, {"db64", 64, 512, 512}, {1, 300}, sizes, csv);
#endif
#ifdef TMA_PERF_DB64_DEEP
  if (want("db64_deep"))
    ok &= RunConfig(MakeTop<Vperf_db64_deep, 64>, {"db64_deep", 64, 1024, 1024}, {1, 300}, sizes,
                    csv);
#endif
#ifdef TMA_PERF_DB128
  if (want("db128"))
    ok &= RunConfig(MakeTop<Vperf_db128, 128>, {"db128", 128, 512, 512}, {1, 300}, sizes, csv);
#endif
  if (csv)
    std::fclose(csv);
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  std::printf("engine_perf: %llu cycles, cpu %.2f s (%.0f cycles/s)\n",
              static_cast<unsigned long long>(g_cycles), cpu,
              cpu > 0 ? static_cast<double>(g_cycles) / cpu : 0.0);
  return ok ? 0 : 1;
}
