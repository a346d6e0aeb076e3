// SPDX-License-Identifier: Apache-2.0
//
// Fault-injection campaigns on tma_sim_top (DataBytes 16 and 64 in turn, 4 CTAs, the write
// and read watchdogs at 4096 cycles): each campaign issues a batch of 4-8 random 2-D tile commands
// back to back (loads, multicast loads, stores, reductions, prefetches; random element type,
// swizzle, box, coordinates; 15 % of the bystanders spoiled: misaligned shared address, wrong
// .Nd, unaligned coordinate, a flipped descriptor bit; random AXI latency, ID order and
// ready/valid stalls on every port), injects ONE fault into one command (the victim) and
// checks the invariant of docs/verification.md, "Fault-injection campaigns":
//   * the victim completes exactly once, with the documented error (bus_error);
//   * every other command completes exactly as the model says (its completions, and every
//     byte of shared and global memory outside the victim's destination);
//   * the engine ends idle (busy low, no AXI burst outstanding) with no SVA failure.
// Faults, one kind per campaign:
//   desc_slverr / desc_decerr  RRESP on a random beat of the victim's descriptor fetch
//   rd_slverr / rd_decerr      RRESP on a random data beat of a load or of a reduction's
//                              old-data read (any row, any beat)
//   b_slverr / b_decerr        BRESP on a random burst of a store or reduction
//   watchdog                   a random burst of a store or reduction is never answered
//                              (the write watchdog must end it with bus_error)
//   reset                      reset asserted at a random cycle while commands are in flight:
//                              the engine is idle after it, no completion of a command from
//                              before the reset appears, and a new batch runs correctly.
//   rd_silent                  a random data burst of a load, or old-data burst of a
//                              reduction, is never answered (the read watchdog must end it
//                              with bus_error)
//   desc_silent                a random beat of the victim's descriptor fetch is never
//                              answered (the read watchdog must end the fetch: bus_error)
// For the silent kinds the victim is the batch's last command (the slave, once silent on an
// ID, answers no later burst of that ID).
// Campaigns per kind: $TMA_CAMPAIGNS (default 12); the seed of campaign i of kind k is
// 1000 k + i (printed with every failure; TMA_CAMPAIGN_FIRST=i TMA_CAMPAIGNS=i+1 replays it). The
// summary table (kind, campaigns, commands, faults injected, violations) is printed at the end;
// with $TMA_DUT_FCOV_OUT the DUT's functional coverage of all campaigns is written there
// (sim/dut_coverage.h).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "engine_harness.h"
#include "sim/axi_read_slave.h"
#include "sim/axi_write_slave.h"
#include "sim/cpl_port.h"
#include "sim/dut_coverage.h"
#include "tma/descriptor.h"
#include "tma/memory.h"
#include "tma/tensor_copy.h"
#include "tma/types.h"

#include "Vtma_sim_top_db16.h"
#include "Vtma_sim_top_db64.h"

namespace tma::tb {
namespace {

namespace pkg = tma::pkg;
using model::DType;

constexpr int kCtas = 4;
constexpr uint32_t kWindow = 65536;
constexpr uint32_t kSlot = 4096;  // each command's shared-memory slot (in every CTA)
constexpr uint8_t kPoison = 0xA5;
constexpr uint64_t kDescBase = 0x10000;
constexpr uint64_t kTensorBase = 0x100000;
constexpr uint64_t kTensorSpan = 0x10000;  // each command's own tensor
constexpr int kSlots = 8;                  // commands per batch, at most
constexpr int kBusError = static_cast<int>(model::ErrorClass::kBusError);

enum Kind {
  kDescSlv,
  kDescDec,
  kRdSlv,
  kRdDec,
  kBSlv,
  kBDec,
  kWatchdog,
  kReset,
  kRdSilent,
  kDescSilent,
  kKinds
};
const char* const kKindName[kKinds] = {"desc_slverr", "desc_decerr", "rd_slverr", "rd_decerr",
                                       "b_slverr",    "b_decerr",    "watchdog",  "reset",
                                       "rd_silent",   "desc_silent"};

struct Cmd {
  model::TensorMap map;
  model::TensorInstr ins;
  uint64_t desc_addr = 0;
  uint8_t tag = 0;
};

struct Got {
  int kind, cta, err;
  uint32_t bytes;
};

struct Stats {
  uint64_t campaigns = 0, commands = 0, faults = 0, violations = 0;
};
Stats g_stats[kKinds];
// The DUT's functional coverage over every campaign of the run, written to
// $TMA_DUT_FCOV_OUT at the end (tools/regress merges it with the bench's and the replay's).
sim::DutCoverage g_dut_cov;
class DutCovWriter : public ::testing::Environment {
 public:
  void TearDown() override { EXPECT_TRUE(g_dut_cov.WriteEnvFile()) << "$TMA_DUT_FCOV_OUT"; }
};
const auto* const g_dut_cov_writer = ::testing::AddGlobalTestEnvironment(new DutCovWriter);

// The engine (Model: tma_sim_top at kDataBytes) in the harness of sim/; both AXI slaves serve
// one global memory (reductions read the old data back through the read port).
class BenchBase {
 public:
  virtual ~BenchBase() = default;
  virtual model::SparseGlobalMemory& gmem() = 0;
  virtual model::ClusterSharedMemory& smem() = 0;
  virtual sim::AxiReadSlave& axi() = 0;
  virtual sim::AxiWriteSlave& axw() = 0;
  virtual std::map<int, std::vector<Got>>& got() = 0;
  virtual void Issue(const std::vector<Cmd>& cmds) = 0;
  virtual bool RunToIdle(uint64_t max_cycles, size_t want_done) = 0;
  virtual void Step(uint64_t n) = 0;
  virtual void ResetNow(int cycles) = 0;
  virtual bool busy() = 0;
  virtual bool TakeSva() = 0;
};

template <class Model, int kDataBytes>
class Bench : public BenchBase {
 public:
  explicit Bench(uint32_t seed)
      : e_(
            Options(seed), [this](sim::EngineCommand* c) { return Next(c); },
            [this](const sim::EngineCompletion& c) {
              got_[c.tag].push_back(
                  Got{static_cast<int>(c.kind), c.cta, static_cast<int>(c.error), c.bytes});
            }) {
    std::mt19937 g(seed);
    auto pct = [&] { return static_cast<int>(50 + g() % 51); };
    sim::AxiReadSlave& axi = e_.axi();
    sim::AxiWriteSlave& axw = e_.axw();
    axi.config().in_order = g() % 2;
    axi.config().SetLatency(0, static_cast<int>(g() % 20), g() % 2);
    axi.config().full_width = true;
    axi.config().arready_pct = pct();
    axi.config().rvalid_pct = pct();
    for (auto& l : axw.config().latency)
      l = {0, static_cast<int>(g() % 20)};
    axw.config().awready_pct = pct();
    axw.config().wready_pct = pct();
    axw.config().bvalid_pct = pct();
    e_.sport().set_ready_pct(pct());
    e_.cpl().set_ready_pct(pct());
    e_.h().Reset(2);
  }

  model::SparseGlobalMemory& gmem() override { return e_.gmem(); }
  model::ClusterSharedMemory& smem() override { return e_.smem(); }
  sim::AxiReadSlave& axi() override { return e_.axi(); }
  sim::AxiWriteSlave& axw() override { return e_.axw(); }
  std::map<int, std::vector<Got>>& got() override { return got_; }

  void Issue(const std::vector<Cmd>& cmds) override {
    cmds_ = cmds;
    next_ = 0;
  }
  // Steps until every command has its completions and the engine is idle (or max cycles).
  bool RunToIdle(uint64_t max_cycles, size_t want_done) override {
    for (uint64_t i = 0; i < max_cycles; ++i) {
      e_.h().Step();
      if (next_ == cmds_.size() && e_.Quiet() && Done() >= want_done)
        return true;
    }
    return false;
  }
  void Step(uint64_t n) override {
    for (uint64_t i = 0; i < n; ++i)
      e_.h().Step();
  }
  // Reset in the middle of whatever runs: the harness forgets its bursts and commands.
  void ResetNow(int cycles) override {
    e_.axi().Clear();
    e_.axw().Clear();
    e_.sport().Clear();
    e_.cmd().Clear();
    cmds_.clear();
    next_ = 0;
    e_.pins().cmd_valid = false;
    e_.h().Reset(cycles);
  }
  bool busy() override { return e_.pins().busy; }
  bool TakeSva() override { return e_.TakeAssertFailure(); }

 private:
  // The DUT's functional coverage monitor is clocked first: it sees the pins as the DUT
  // sampled them. Both AXI slaves serve one global memory.
  static EngineHarnessOptions Options(uint32_t seed) {
    EngineHarnessOptions o;
    o.seed = seed;
    o.rng_seed = seed * 31u + 7;
    o.ctas = kCtas;
    o.window = kWindow;
    o.poison = kPoison;
    o.first = &g_dut_cov;
    return o;
  }
  size_t Done() const {
    size_t n = 0;
    for (const Cmd& c : cmds_)
      n += got_.count(c.tag) != 0;
    return n;
  }
  bool Next(sim::EngineCommand* e) {
    if (next_ == cmds_.size())
      return false;
    const Cmd& c = cmds_[next_++];
    e->instr = c.ins;
    e->desc_addr = c.desc_addr;
    e->tag = c.tag;
    return true;
  }

  EngineHarness<Model, kDataBytes> e_;
  std::vector<Cmd> cmds_;
  size_t next_ = 0;
  std::map<int, std::vector<Got>> got_;
};

// What a command may be: anything, a reader of global data (load or reduction), a writer
// (store or reduction), a plain load.
enum class Role { kAny, kLoad, kWrite, kPlainLoad };

// A random 2-D tile command of slot k: its own descriptor and shared-memory slot and its own
// tensor (number `region`, kTensorSpan bytes each); the box inside the tensor (every row is
// read or written). Ops: load (multicast a quarter of the time), store, reduction, prefetch;
// a victim's role narrows them (a reader: load or reduction, which reads the old data; a
// writer: store or reduction) and its reduction is a legal one (add of u32 / s32 / f32).
Cmd MakeCmd(std::mt19937& g, int k, int region, Role role, int tag, bool victim) {
  static constexpr DType kTypes[] = {DType::kU8,     DType::kU16, DType::kU32,    DType::kS32,
                                     DType::kU64,    DType::kS64, DType::kF16,    DType::kF32,
                                     DType::kBF16,   DType::kF64, DType::kF32Ftz, DType::kTF32,
                                     DType::kTF32Ftz};
  static constexpr DType kAddTypes[] = {DType::kU32, DType::kS32, DType::kF32};
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(g() % static_cast<unsigned>(hi - lo + 1));
  };
  Cmd c;
  model::Op op = model::Op::kLoad;
  const int pick = rnd(0, 9);
  if (role == Role::kPlainLoad)
    op = model::Op::kLoad;
  else if (role == Role::kLoad)
    op = pick < 6 ? model::Op::kLoad : model::Op::kReduce;
  else if (role == Role::kWrite)
    op = pick < 5 ? model::Op::kStore : model::Op::kReduce;
  else
    op = pick < 4 ? model::Op::kLoad
                  : (pick < 6 ? model::Op::kStore
                              : (pick < 8 ? model::Op::kReduce : model::Op::kPrefetch));
  model::TensorMap& m = c.map;
  m.rank = 2;
  m.dtype = (op == model::Op::kReduce && victim) ? kAddTypes[rnd(0, 2)] : kTypes[rnd(0, 12)];
  const int e = model::ElementBytes(m.dtype);
  m.swizzle = rnd(0, 1) ? model::Swizzle::kNone : static_cast<model::Swizzle>(rnd(1, 3));
  // Loads also take the 128B-atomicity swizzles (sm_100 tile loads, claimed by the RTL).
  if (op == model::Op::kLoad && rnd(0, 4) == 0)
    m.swizzle = static_cast<model::Swizzle>(rnd(4, 6));
  const int span =
      m.swizzle == model::Swizzle::kNone
          ? 256
          : (m.swizzle <= model::Swizzle::k128B ? (16 << static_cast<int>(m.swizzle)) : 128);
  m.box[0] = static_cast<uint32_t>(16 * rnd(1, span / 16) / e);  // 16 .. 256 bytes a row
  m.box[1] = static_cast<uint32_t>(rnd(1, 16));
  m.dims[0] = m.box[0] + static_cast<uint64_t>(rnd(0, 64 / e));
  m.dims[1] = m.box[1] + static_cast<uint64_t>(rnd(0, 8));
  m.strides[0] = (m.dims[0] * e + 15) / 16 * 16 + 16 * static_cast<uint64_t>(rnd(0, 4));
  m.global_address = kTensorBase + kTensorSpan * static_cast<uint64_t>(region) +
                     16 * static_cast<uint64_t>(rnd(0, 8));
  c.ins.op = op;
  c.ins.mode = model::LoadMode::kTile;
  c.ins.dim = 2;
  if (op == model::Op::kReduce)
    c.ins.redop = victim ? model::RedOp::kAdd : static_cast<model::RedOp>(rnd(0, 7));
  const int step0 = 16 / e;
  c.ins.coords = {step0 * rnd(0, static_cast<int>(m.dims[0] - m.box[0]) / step0),
                  rnd(0, static_cast<int>(m.dims[1] - m.box[1]))};
  c.ins.smem_addr = kSlot * static_cast<uint32_t>(k);
  c.ins.mbar_addr = 8u * static_cast<uint32_t>(k);
  c.ins.issuer_cta = rnd(0, kCtas - 1);
  c.ins.dst_cta = op == model::Op::kLoad ? rnd(0, kCtas - 1) : c.ins.issuer_cta;
  if (op == model::Op::kLoad && rnd(0, 3) == 0) {
    c.ins.multicast = true;
    c.ins.cta_mask = static_cast<uint16_t>(rnd(1, (1 << kCtas) - 1));
  }
  c.desc_addr = kDescBase + 128u * static_cast<uint64_t>(k);
  c.tag = static_cast<uint8_t>(tag);
  if (m.swizzle > model::Swizzle::k128B && !model::ValidateTensorMap(m, model::Arch::kSm100).ok())
    m.swizzle = model::Swizzle::k128B;
  // A fifth of the bystander stores and reductions: .im2col_no_offs on a rank-3 im2col map
  // (channels C from c0, pixels_per_column pixels along W from the start pixel, batch n).
  if ((op == model::Op::kStore || op == model::Op::kReduce) && !victim && rnd(0, 4) == 0) {
    model::TensorMap im = m;
    im.mode = model::MapMode::kIm2col;
    im.rank = 3;
    im.swizzle = model::Swizzle::kNone;
    im.channels_per_pixel = static_cast<uint32_t>(16 * rnd(1, 8) / e);
    im.dims[0] = im.channels_per_pixel + static_cast<uint64_t>(rnd(0, 16 / e));
    im.dims[1] = static_cast<uint64_t>(rnd(4, 24));
    im.dims[2] = static_cast<uint64_t>(rnd(1, 3));
    im.strides[0] = (im.dims[0] * e + 15) / 16 * 16;
    im.strides[1] = im.strides[0] * im.dims[1];
    im.lower[0] = rnd(0, 2);  // .im2col_no_offs: lower corner >= 0, upper <= 0
    im.upper[0] = rnd(-2, 0);
    im.pixels_per_column = static_cast<uint32_t>(rnd(1, 16));
    im.box[0] = im.box[1] = im.box[2] = 1;
    if (model::ValidateTensorMap(im).ok()) {
      m = im;
      c.ins.mode = model::LoadMode::kIm2colNoOffs;
      c.ins.dim = 3;
      c.ins.coords = {0, rnd(im.lower[0], static_cast<int>(im.dims[1]) - 1 + im.upper[0]),
                      rnd(0, static_cast<int>(im.dims[2]) - 1)};
    }
  }
  return c;
}

// Turns a bystander into a command the engine must refuse (the model gives the class): a
// misaligned shared address, a rank that does not match .2d, an unaligned inner coordinate,
// or a descriptor with a broken field (written by the caller).
void Spoil(std::mt19937& g, Cmd* c, bool* bad_desc) {
  switch (g() % 4) {
    case 0:
      c->ins.smem_addr += 16;
      break;
    case 1:
      c->ins.dim = 3;
      break;
    case 2:
      if (model::ElementBytes(c->map.dtype) < 16)
        c->ins.coords[0] += 1;
      break;
    default:
      *bad_desc = true;
      break;
  }
}

// The global byte range [lo, hi) of row r of a command's box.
std::pair<uint64_t, uint64_t> RowRange(const Cmd& c, int r) {
  const int e = model::ElementBytes(c.map.dtype);
  const uint64_t row = c.map.global_address +
                       c.map.strides[0] * static_cast<uint64_t>(c.ins.coords[1] + r) +
                       static_cast<uint64_t>(c.ins.coords[0]) * e;
  return {row, row + c.map.box[0] * e};
}

std::string Describe(const Got& x) {
  return "{kind " + std::to_string(x.kind) + " cta " + std::to_string(x.cta) + " bytes " +
         std::to_string(x.bytes) + " err " + std::to_string(x.err) + "}";
}

std::unique_ptr<BenchBase> MakeBench(int data_bytes, uint32_t seed) {
  if (data_bytes == 64)
    return std::make_unique<Bench<Vtma_sim_top_db64, 64>>(seed);
  return std::make_unique<Bench<Vtma_sim_top_db16, 16>>(seed);
}

// One campaign on a DataBytes-16 or -64 top; returns the violations found (each also a test
// failure).
int RunCampaign(Kind kind, uint32_t seed, int data_bytes) {
  std::mt19937 g(seed);
  std::unique_ptr<BenchBase> bp = MakeBench(data_bytes, seed);
  BenchBase& b = *bp;
  int violations = 0;
  auto violation = [&](const std::string& what) {
    ++violations;
    ADD_FAILURE() << kKindName[kind] << " campaign seed " << seed << " DataBytes " << data_bytes
                  << ": " << what;
  };
  // Memories: random tensor bytes (the DUT's global memory and the model's copy), random
  // shared-memory contents (the stores' and reductions' sources).
  model::SparseGlobalMemory refg;
  for (uint64_t a = kTensorBase; a < kTensorBase + 2 * kSlots * kTensorSpan; a += 4) {
    const uint32_t v = g();
    b.gmem().Write(a, reinterpret_cast<const uint8_t*>(&v), 4);
    refg.Write(a, reinterpret_cast<const uint8_t*>(&v), 4);
  }
  model::ClusterSharedMemory ref(kCtas, kWindow, kPoison);
  for (int cta = 0; cta < kCtas; ++cta) {
    for (uint32_t a = 0; a < kWindow; a += 4) {
      const uint32_t v = g();
      b.smem().Write(cta, a, reinterpret_cast<const uint8_t*>(&v), 4);
      ref.Write(cta, a, reinterpret_cast<const uint8_t*>(&v), 4);
    }
  }
  const bool write_fault = kind == kBSlv || kind == kBDec || kind == kWatchdog;
  const bool read_fault = kind == kRdSlv || kind == kRdDec || kind == kRdSilent;
  const bool silent = kind == kWatchdog || kind == kRdSilent || kind == kDescSilent;
  const int n = 4 + static_cast<int>(g() % (kSlots - 3));  // commands in the batch
  // The victim: any command; for the silent kinds the last one (the slave, once silent on an
  // ID, answers no later burst of that ID, so no burst of that ID may follow the victim's).
  const int victim = silent ? n - 1 : static_cast<int>(g() % static_cast<unsigned>(n));
  // A batch of commands of slots 0 .. n-1 (tags tag0 + k, tensors region0 + k); bystanders
  // are spoiled now and then (15 %).
  auto make_batch = [&](int tag0, int region0, int desc_off, int vic) {
    std::vector<Cmd> v;
    for (int k = 0; k < n; ++k) {
      const bool is_victim = k == vic;
      Role role = Role::kAny;
      if (is_victim && write_fault)
        role = Role::kWrite;
      else if (is_victim && read_fault)
        role = Role::kLoad;
      else if (kind == kWatchdog)
        role = Role::kPlainLoad;  // no other write: none may follow the silent burst
      Cmd c = MakeCmd(g, k, region0 + k, role, tag0 + k, is_victim);
      c.desc_addr += static_cast<uint64_t>(desc_off);
      bool bad_desc = false;
      if (!is_victim && g() % 100 < 15)
        Spoil(g, &c, &bad_desc);
      model::DescriptorBytes d = model::EncodeDescriptor(c.map);
      if (bad_desc)
        d[g() % d.size()] ^= static_cast<uint8_t>(1u << (g() % 8));  // one flipped bit
      b.gmem().Write(c.desc_addr, d.data(), d.size());
      refg.Write(c.desc_addr, d.data(), d.size());
      v.push_back(c);
    }
    return v;
  };
  std::vector<Cmd> cmds = make_batch(0, 0, 0, kind == kReset ? -1 : victim);
  // The fault.
  const Cmd& vc = cmds[static_cast<size_t>(victim)];
  const uint32_t resp = (kind == kDescDec || kind == kRdDec || kind == kBDec) ? 3 : 2;
  if (kind == kDescSlv || kind == kDescDec || kind == kDescSilent) {
    const uint64_t beat = vc.desc_addr + 16 * (g() % 8);
    if (kind == kDescSilent)
      b.axi().AddSilentRange(beat, beat + 16);
    else
      b.axi().AddErrorRange(beat, beat + 16, resp);
  } else if (kind != kReset) {
    const int r = static_cast<int>(g() % vc.map.box[1]);
    const auto [lo, hi] = RowRange(vc, r);
    const uint64_t a = lo + g() % (hi - lo);
    if (kind == kRdSilent)
      b.axi().AddSilentRange(a, a + 1);
    else if (read_fault)
      b.axi().AddErrorRange(a, a + 1, resp);
    else if (kind == kWatchdog)
      b.axw().AddSilentRange(a, a + 1);
    else
      b.axw().AddErrorRange(a, a + 1, resp);
  }

  std::vector<Cmd> checked = cmds;  // the commands whose results are compared
  int victim_tag = victim;
  int region0 = 0;
  if (kind == kReset) {
    // Reset at a random cycle while the batch runs, then a new batch: tags 100 + k, the same
    // shared-memory slots and descriptor addresses 0x4000 up (the model starts from what the
    // DUT's memories hold after the reset), new tensors (regions kSlots + k).
    b.Issue(cmds);
    b.Step(1 + g() % 400);
    b.ResetNow(2 + static_cast<int>(g() % 3));
    if (b.busy())
      violation("busy after the reset");
    b.Step(2);
    b.got().clear();
    victim_tag = -1;
    region0 = kSlots;
    checked = make_batch(100, kSlots, 0x4000, -1);
    for (int cta = 0; cta < kCtas; ++cta)
      ref.Write(cta, 0, b.smem().Window(cta).data(), kWindow);
    for (uint64_t a = kTensorBase; a < kTensorBase + kSlots * kTensorSpan; a += 4096) {
      uint8_t buf[4096];
      b.gmem().Read(a, buf, sizeof buf);
      refg.Write(a, buf, sizeof buf);
    }
  }
  b.Issue(checked);
  const bool finished = b.RunToIdle(silent ? 600000 : 300000, checked.size());
  if (!finished)
    violation("the engine did not finish (hang) or did not return to idle");
  b.Step(64);  // a stray completion or write after the end is still seen
  if (b.busy())
    violation("busy again after the end");
  if (b.TakeSva())
    violation("an RTL assertion fired");
  if ((kind == kRdSilent || kind == kDescSilent) && b.axi().silent_bursts() == 0)
    violation("no burst touched the silent range: no fault was injected");

  // The model runs every command but the victim, in order.
  for (const Cmd& c : checked) {
    std::vector<Got> got = b.got().count(c.tag) ? b.got()[c.tag] : std::vector<Got>{};
    if (c.tag == victim_tag) {
      if (got.size() != 1 || got[0].kind != pkg::CplError || got[0].err != kBusError) {
        std::string str;
        for (const Got& x : got)
          str += Describe(x);
        violation("victim (tag " + std::to_string(c.tag) + ", op " + model::ToString(c.ins.op) +
                  ") completed " + str + ", want exactly one bus_error");
      }
      continue;
    }
    model::ExecResult r = model::ExecuteTensorAt(c.desc_addr, c.ins, refg, ref);
    // A flipped descriptor bit may select a 128B-atomicity swizzle: the RTL has no arch input
    // and accepts them on every map (docs/differences.md), so the model judges that map as
    // sm_100 does (it refused it before moving any data).
    model::TensorMap dm;
    uint8_t db[model::kDescriptorBytes];
    refg.Read(c.desc_addr, db, sizeof db);
    if (r.status.cls == model::ErrorClass::kInvalidDescriptor &&
        model::DecodeDescriptor(db, &dm).ok() &&
        (dm.swizzle == model::Swizzle::k128BAtom32B ||
         dm.swizzle == model::Swizzle::k128BAtom32BFlip8B ||
         dm.swizzle == model::Swizzle::k128BAtom64B)) {
      model::ExecOptions sm100;
      sm100.arch = model::Arch::kSm100;
      r = model::ExecuteTensorAt(c.desc_addr, c.ins, refg, ref, sm100);
    }
    std::vector<Got> want;
    if (!r.status.ok())
      want.push_back(Got{pkg::CplError, c.ins.issuer_cta, static_cast<int>(r.status.cls), 0});
    else if (c.ins.op != model::Op::kLoad)
      want.push_back(Got{pkg::CplDone, c.ins.issuer_cta, 0, 0});
    else
      for (const model::CompleteTx& t : r.complete_tx)
        want.push_back(Got{pkg::CplTx, t.cta, 0, t.bytes});
    auto key = [](const Got& x) { return std::make_tuple(x.kind, x.cta, x.err, x.bytes); };
    auto less = [&](const Got& x, const Got& y) { return key(x) < key(y); };
    std::sort(got.begin(), got.end(), less);
    std::sort(want.begin(), want.end(), less);
    std::string gs, ws;
    for (const Got& x : got)
      gs += Describe(x);
    for (const Got& x : want)
      ws += Describe(x);
    if (gs != ws)
      violation("command " + std::to_string(c.tag) + " (op " + model::ToString(c.ins.op) +
                ") completed " + gs + ", want " + ws + " (model: " + r.status.ToString() + ")");
  }
  // Shared memory: every byte but the victim's slot (a load's destination in every CTA).
  for (int cta = 0; cta < kCtas; ++cta) {
    const auto& got = b.smem().Window(cta);
    const auto& want = ref.Window(cta);
    size_t bad = 0;
    for (uint32_t a = 0; a < kWindow; ++a) {
      if (victim_tag >= 0 && a / kSlot == static_cast<uint32_t>(victim))
        continue;
      bad += got[a] != want[a];
    }
    if (bad)
      violation("CTA " + std::to_string(cta) + ": " + std::to_string(bad) +
                " shared-memory bytes outside the victim's destination differ from the model");
  }
  // Global memory: every tensor but the victim's.
  size_t bad = 0;
  for (int k = 0; k < n; ++k) {
    if (victim_tag >= 0 && k == victim)
      continue;
    const uint64_t lo = kTensorBase + kTensorSpan * static_cast<uint64_t>(region0 + k);
    for (uint64_t a = lo; a < lo + kTensorSpan; a += 4096) {
      uint8_t x[4096], y[4096];
      b.gmem().Read(a, x, sizeof x);
      refg.Read(a, y, sizeof y);
      for (size_t i = 0; i < sizeof x; ++i)
        bad += x[i] != y[i];
    }
  }
  if (bad)
    violation(std::to_string(bad) + " global bytes outside the victim's tensor differ");

  Stats& st = g_stats[kind];
  ++st.campaigns;
  st.commands += cmds.size() + (kind == kReset ? checked.size() : 0);
  ++st.faults;
  st.violations += static_cast<uint64_t>(violations);
  return violations;
}

int Campaigns() {
  const char* e = std::getenv("TMA_CAMPAIGNS");
  return e ? std::max(1, std::atoi(e)) : 12;
}

class FaultCampaign : public ::testing::TestWithParam<int> {};

TEST_P(FaultCampaign, InvariantHolds) {
  const Kind kind = static_cast<Kind>(GetParam());
  const char* first = std::getenv("TMA_CAMPAIGN_FIRST");            // replay from campaign i on
  for (int i = first ? std::atoi(first) : 0; i < Campaigns(); ++i)  // DataBytes 16, 64 in turn
    RunCampaign(kind, 1000u * static_cast<uint32_t>(kind) + static_cast<uint32_t>(i),
                i % 2 ? 64 : 16);
  const Stats& s = g_stats[kind];
  std::printf(
      "CAMPAIGN %-12s campaigns %llu commands %llu faults %llu violations %llu\n", kKindName[kind],
      static_cast<unsigned long long>(s.campaigns), static_cast<unsigned long long>(s.commands),
      static_cast<unsigned long long>(s.faults), static_cast<unsigned long long>(s.violations));
}

INSTANTIATE_TEST_SUITE_P(Kinds, FaultCampaign, ::testing::Range(0, static_cast<int>(kKinds)),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return std::string(kKindName[i.param]);
                         });

}  // namespace
}  // namespace tma::tb
