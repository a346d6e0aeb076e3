// SPDX-License-Identifier: Apache-2.0
#include "sim/dut_coverage.h"

#include <bitset>
#include <cstdlib>
#include <fstream>
#include <ostream>

#include "tma/descriptor.h"
#include "tma/types.h"

namespace tma::sim {
namespace {

namespace pkg = tma::pkg;

constexpr const char* kNoInstr =
    "no such instruction: the seeds' .load_mode lists (load / prefetch: tile, gather4, im2col, "
    "im2col::w, im2col::w::128; store: tile, scatter4, im2col_no_offs; reduce: tile, "
    "im2col_no_offs) do not pair them: only a refused command (invalid_instruction) has it";
constexpr int kModeW = pkg::ModeIm2colW, kModeW128 = pkg::ModeIm2colW128,
              kModeGather4 = pkg::ModeTileGather4, kModeScatter4 = pkg::ModeTileScatter4;

int McastBin(const pkg::cmd_t& c) {
  if (!c.multicast)
    return 0;
  const int n = static_cast<int>(std::bitset<16>(c.cta_mask).count());
  return n == 0 ? 1 : (n == 1 ? 2 : (n == 2 ? 3 : (n <= 4 ? 4 : (n <= 8 ? 5 : 6))));
}

int LenBin(int len) {  // AxLEN + 1 beats
  const int beats = len + 1;
  return beats == 1
             ? 0
             : (beats == 2 ? 1 : (beats <= 4 ? 2 : (beats <= 15 ? 3 : (beats == 16 ? 4 : 5))));
}

int LatBin(uint64_t cycles) {
  return cycles < 16 ? 0 : (cycles < 64 ? 1 : (cycles < 256 ? 2 : (cycles < 1024 ? 3 : 4)));
}

}  // namespace

DutCoverage::DutCoverage() {
  op_ = Add("dut.op", {"load", "store", "reduce", "prefetch"});
  mode_ = Add("dut.mode", {"tile", "im2col", "im2col_w", "im2col_w128", "gather4", "scatter4",
                           "im2col_no_offs"});
  redop_ = Add("dut.redop", {"add", "min", "max", "inc", "dec", "and", "or", "xor"});
  rank_ = Add("dut.rank", {"1d", "2d", "3d", "4d", "5d"});
  mcast_ =
      Add("dut.multicast", {"none", "mask0", "1cta", "2ctas", "3-4ctas", "5-8ctas", "9-16ctas"});
  std::vector<std::string> types;
  for (int t = 0; t < model::kNumDTypes; ++t)
    types.push_back(model::ToString(static_cast<model::DType>(t)));
  dtype_ = Add("dut.dtype", types);
  swz_ = Add("dut.swizzle", {"none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B",
                             "128B_atom_64B", "96B"});
  il_ = Add("dut.interleave", {"none", "16B", "32B"});
  err_ = Add("dut.error", {"none", "invalid_descriptor", "misaligned", "misaligned_coordinate",
                           "invalid_coordinate", "unsupported_reduction", "invalid_instruction",
                           "unsupported", "bus_error"});
  kind_ = Add("dut.cpl_kind", {"complete_tx", "error", "done"});
  lat_ = Add("dut.latency", {"<16", "16-63", "64-255", "256-1023", ">=1024"});
  cache_ = Add("dut.desc_cache", {"miss", "hit", "invalidate"});
  arlen_ = Add("dut.ar_beats", {"1", "2", "3-4", "5-15", "16", ">16"});
  awlen_ = Add("dut.aw_beats", {"1", "2", "3-4", "5-15", "16", ">16"});
  page_ = Add("dut.page_end", {"read_burst_ends_on_4k", "write_burst_ends_on_4k"});
  rresp_ = Add("dut.rresp", {"okay", "exokay", "slverr", "decerr"});
  bresp_ = Add("dut.bresp", {"okay", "exokay", "slverr", "decerr"});
  errpos_ = Add("dut.rd_error_beat", {"single", "first", "middle", "last"});
  order_ = Add("dut.r_order", {"in_ar_order", "overtaking"});
  stall_ = Add("dut.backpressure", {"cmd", "ar", "r", "aw", "w", "b", "smem_wr", "smem_rd", "cpl"});
  smem_ = Add("dut.smem_beat", {"full_strobes", "partial_strobes", "multicast", "read"});
  phase_ = Add("dut.smem_phase", {"0", "1", "2", "3", "4", "5", "6", "7"});
  pfrd_ =
      Add("dut.prefetch_reads", {"tile", "im2col", "im2col_w", "im2col_w128", "gather4", "bulk"});
  opmode_ = AddCross("dut.op_x_mode", op_, mode_);
  operr_ = AddCross("dut.op_x_error", op_, err_);
  moderr_ = AddCross("dut.mode_x_error", mode_, err_);
  opdtype_ = AddCross("dut.op_x_dtype", op_, dtype_);
  opswz_ = AddCross("dut.op_x_swizzle", op_, swz_);
  modeil_ = AddCross("dut.mode_x_interleave", mode_, il_);
  swzdtype_ = AddCross("dut.swizzle_x_dtype", swz_, dtype_);
  opmcast_ = AddCross("dut.op_x_multicast", op_, mcast_);

  // Bins that are no goal, with the reason. A refused command (an error stimulus) may still
  // hit one: its hits are written (WriteBins) but it is not counted.
  Ignore(rresp_, 1, "EXOKAY: the engine issues no exclusive access, no slave may answer it");
  Ignore(bresp_, 1, "EXOKAY: the engine issues no exclusive access, no slave may answer it");
  Ignore(arlen_, 5, "bursts are at most MaxBurstLen = 16 beats in every top");
  Ignore(awlen_, 5, "bursts are at most MaxBurstLen = 16 beats in every top");
  Ignore(swz_, 7, "96B swizzle: sm_103 only, not decoded as legal for any claimed arch");
  for (int op = 0; op < 4; ++op) {
    // (stores with the sm_100 swizzles are counted: the scatter4 hand cases and stores hit
    // them)
    if (op >= 2)
      for (int s : {4, 5, 6})
        Ignore(opswz_, op * 8 + s,
               op == 2 ? "sm_100 swizzles: sm_100 reductions are not claimed (rtl_claims "
                         "ops_sm100)"
                       : "sm_100 swizzles on a prefetch: it moves no shared-memory data, the "
                         "swizzle does not act on it");
    if (op != 0)  // only loads may multicast (PTX)
      for (int m = 1; m < 7; ++m)
        Ignore(opmcast_, op * 7 + m,
               "only loads take a ctaMask (PTX .multicast::cluster); a store, reduction or "
               "prefetch with one is refused (invalid_instruction), as some bulk cases are");
    Ignore(opswz_, op * 8 + 7, "96B swizzle: sm_103 only");
    if (op != 0)
      for (int t = 13; t < 16; ++t)
        Ignore(opdtype_, op * 16 + t,
               "sub-byte types: the bench makes sub-byte maps for loads only (a b4x16_p64 "
               "store is refused, PTX; a b6x16_p32 store is outside the claims, no packer; "
               "sm_100 reductions are not claimed)");
  }
  // op x mode: the pairs that are no instruction of the seeds (ModeAllowed in the model).
  for (int op : {1, 2})  // store, reduce
    for (int mode : {kModeW, kModeW128, kModeGather4})
      Ignore(opmode_, op * 7 + mode, kNoInstr);
  for (int op : {0, 2, 3})  // load, reduce, prefetch
    Ignore(opmode_, op * 7 + kModeScatter4, kNoInstr);
  Ignore(opmode_, 1 * 7 + 1, kNoInstr);  // store .im2col
  Ignore(opmode_, 2 * 7 + 1, kNoInstr);  // reduce .im2col
  Ignore(opmode_, 0 * 7 + 6, kNoInstr);  // load .im2col_no_offs
  Ignore(opmode_, 3 * 7 + 6, kNoInstr);  // prefetch .im2col_no_offs
  // im2col::w* and gather4 are load / prefetch modes, scatter4 a store mode: no reduction of
  // them (cp.reduce.async.bulk.tensor has .tile and .im2col_no_offs only).
  for (int mode : {kModeW, kModeW128, kModeGather4, kModeScatter4})
    Ignore(moderr_, mode * 9 + 5, "unsupported_reduction: no reduction of this mode (seeds)");
  Ignore(moderr_, kModeGather4 * 9 + 4,
         "invalid_coordinate: a gather4 load / prefetch has no rule (F3 is for stores and "
         "reductions, F4 and the wHalo / wOffset ranges for the im2col modes: CheckInstruction)");
  // An interleaved map with these modes is refused (spec 8: interleave is not allowed with
  // im2col::w or gather4): such a command only reaches the bin as an error, which
  // mode_x_error counts.
  for (int mode : {kModeW, kModeW128})
    for (int i = 1; i < 3; ++i)
      Ignore(modeil_, mode * 3 + i,
             "im2col-wide maps need interleave none (encoder rule 23): only a refused "
             "command (invalid_descriptor / invalid_instruction) has this pair");
  for (int mode : {kModeGather4, kModeScatter4})
    for (int i = 1; i < 3; ++i)
      Ignore(modeil_, mode * 3 + i,
             "gather4 / scatter4 do not allow interleave (spec 8, CheckInstruction): only a "
             "refused command (invalid_instruction) has this pair");
  for (int t = 0; t < 16; ++t)
    Ignore(swzdtype_, 7 * 16 + t, "96B swizzle: sm_103 only");
  // Encoder rule 4: b4x16_p64 takes none, 128B, 128B_atom_32B; b6x16_p32 also 128B_atom_64B.
  for (int sw : {1, 2, 5, 6})
    Ignore(swzdtype_, sw * 16 + 14, "b4x16_p64 does not allow this swizzle (encoder rule 4)");
  for (int sw : {1, 2, 5})
    Ignore(swzdtype_, sw * 16 + 15, "b6x16_p32 does not allow this swizzle (encoder rule 4)");
  Ignore(operr_, 3 * 9 + 2,
         "misaligned (F2) is a shared-memory address rule: a tensor prefetch has none (a "
         "non-tensor bulk prefetch's misaligned global address lands here)");
  // Prefetches move no data: no bus error from data, no reduction error.
  Ignore(operr_, 3 * 9 + 5, "unsupported_reduction: reductions only");
  Ignore(operr_, 0 * 9 + 5, "unsupported_reduction: reductions only");
  Ignore(operr_, 1 * 9 + 5, "unsupported_reduction: reductions only");
  Ignore(moderr_, 1 * 9 + 5, "unsupported_reduction: no reduction .im2col");
}

int DutCoverage::Add(const std::string& name, std::vector<std::string> bins) {
  Item it;
  it.name = name;
  it.hits.assign(bins.size(), 0);
  it.ignored.assign(bins.size(), false);
  it.why.assign(bins.size(), "");
  it.bins = std::move(bins);
  items_.push_back(std::move(it));
  return static_cast<int>(items_.size()) - 1;
}

int DutCoverage::AddCross(const std::string& name, int a, int b) {
  std::vector<std::string> bins;
  for (const std::string& x : items_[static_cast<size_t>(a)].bins)
    for (const std::string& y : items_[static_cast<size_t>(b)].bins)
      bins.push_back(x + "/" + y);
  const int i = Add(name, std::move(bins));
  cross_of_[i] = {a, b};
  return i;
}

void DutCoverage::Ignore(int item, int bin, const std::string& why) {
  Item& it = items_[static_cast<size_t>(item)];
  it.ignored.at(static_cast<size_t>(bin)) = true;
  it.why.at(static_cast<size_t>(bin)) = why;
}

void DutCoverage::Hit(int item, int bin) {
  Item& it = items_[static_cast<size_t>(item)];
  if (bin >= 0 && bin < static_cast<int>(it.hits.size()))
    ++it.hits[static_cast<size_t>(bin)];
}

void DutCoverage::HitCross(int item, int a, int b) {
  const int nb = static_cast<int>(items_[static_cast<size_t>(cross_of_[item].second)].bins.size());
  if (a >= 0 && b >= 0 && b < nb)
    Hit(item, a * nb + b);
}

void DutCoverage::Reset() {
  for (Open& o : open_)
    o.valid = false;
  cmd_maps_.clear();
  for (auto& q : rd_bursts_)
    q.clear();
  ar_order_.clear();
  inval_pending_ = false;
}

// A command's first completion: its outcome, and the map it used (from the fetched bytes).
void DutCoverage::Completed(const Open& o, uint8_t kind, uint8_t err, uint64_t now) {
  Hit(kind_, kind);
  const int e = kind == pkg::CplError ? err : 0;
  Hit(err_, e);
  HitCross(operr_, o.op, e);
  HitCross(moderr_, o.mode, e);
  if (kind != pkg::CplError)
    Hit(lat_, LatBin(now - o.start));
  // The descriptor bytes the DUT read at the command's address (now or for an earlier
  // command: a cache hit), decoded.
  uint8_t bytes[model::kDescriptorBytes];
  for (int i = 0; i < model::kDescriptorBytes; ++i) {
    auto it = desc_bytes_.find(o.desc_addr + static_cast<uint64_t>(i));
    if (it == desc_bytes_.end())
      return;  // never fetched (refused before the fetch)
    bytes[i] = it->second;
  }
  model::TensorMap m;
  if (!model::DecodeDescriptor(bytes, &m).ok())
    return;
  const int t = static_cast<int>(m.dtype);
  const int s = static_cast<int>(m.swizzle);
  Hit(dtype_, t);
  Hit(swz_, s);
  Hit(il_, static_cast<int>(m.interleave));
  HitCross(opdtype_, o.op, t);
  HitCross(opswz_, o.op, s);
  HitCross(modeil_, o.mode, static_cast<int>(m.interleave));
  HitCross(swzdtype_, s, t);
}

void DutCoverage::Tick(TopPins& p, uint64_t now) {
  if (!p.rst_n) {
    in_reset_ = true;
    return;
  }
  if (in_reset_) {
    Reset();
    in_reset_ = false;
  }
  // Back-pressure: a stalled handshake on each stream.
  const bool stalls[] = {p.cmd_valid && !p.cmd_ready,
                         p.arvalid && !p.arready,
                         p.rvalid && !p.rready,
                         p.awvalid && !p.awready,
                         p.wvalid && !p.wready,
                         p.bvalid && !p.bready,
                         p.smem_wr_valid && !p.smem_wr_ready,
                         p.smem_rd_valid && !p.smem_rd_ready,
                         p.cpl_valid && !p.cpl_ready};
  for (int i = 0; i < 9; ++i)
    if (stalls[i])
      Hit(stall_, i);
  if (p.desc_inval)
    inval_pending_ = true;

  // Commands.
  if (p.cmd_valid && p.cmd_ready) {
    const pkg::cmd_t& c = p.cmd;
    Open& o = open_[c.tag];
    o.valid = true;
    o.op = c.op;
    o.mode = c.mode;
    o.desc_addr = c.desc_addr;
    o.start = now;
    Hit(op_, c.op);
    Hit(mode_, c.mode);
    HitCross(opmode_, c.op, c.mode);
    if (c.op == pkg::OpReduce)
      Hit(redop_, c.redop);
    if (c.dim >= 1 && c.dim <= 5)
      Hit(rank_, c.dim - 1);
    Hit(mcast_, McastBin(c));
    HitCross(opmcast_, c.op, McastBin(c));
    if (inval_pending_) {
      Hit(cache_, 2);
      inval_pending_ = false;
    }
    // Hit or miss: a descriptor read of this address after the handshake is a miss (at the
    // descriptor AR, below); a command that completes without one used its cached map.
    cmd_maps_.push_back({c.desc_addr, -1});
  }

  // AXI read: bursts, order, responses.
  if (p.arvalid && p.arready) {
    Hit(arlen_, LenBin(p.arlen));
    // A data read while every open command is a prefetch of one mode is that prefetch's.
    if (p.arid == pkg::AxiIdData) {
      int pf_mode = -1;
      bool only_pf = true;
      for (const Open& o : open_) {
        if (!o.valid)
          continue;
        const int m = o.mode == pkg::BulkMode ? 5 : o.mode;
        only_pf = only_pf && o.op == pkg::OpPrefetch && m <= 5 && (pf_mode < 0 || pf_mode == m);
        pf_mode = m;
      }
      if (only_pf && pf_mode >= 0)
        Hit(pfrd_, pf_mode);
    }
    const uint64_t bytes = static_cast<uint64_t>(p.arlen + 1) << p.arsize;
    if (((p.araddr + bytes) & 0xFFF) == 0)
      Hit(page_, 0);
    rd_bursts_[p.arid & 15].push_back({p.arlen, 0});
    ar_order_.push_back(p.arid & 15);
    if (p.arid == pkg::AxiIdDesc) {
      // A descriptor read of a command waiting for its map: a miss.
      for (auto& d : cmd_maps_) {
        if (d.second < 0 && p.araddr <= d.first && d.first < p.araddr + bytes) {
          d.second = 1;
          Hit(cache_, 0);
          break;
        }
      }
    }
  }
  if (p.rvalid && p.rready) {
    const int id = p.rid & 15;
    Hit(rresp_, p.rresp & 3);
    if (!ar_order_.empty())
      Hit(order_, ar_order_.front() == id ? 0 : 1);
    auto& q = rd_bursts_[static_cast<size_t>(id)];
    if (!q.empty()) {
      auto& b = q.front();
      if (p.rresp != 0)
        Hit(errpos_, b.first == 0 ? 0 : (b.second == 0 ? 1 : (p.rlast ? 3 : 2)));
      ++b.second;
      if (p.rlast) {
        q.pop_front();
        for (auto it = ar_order_.begin(); it != ar_order_.end(); ++it) {
          if (*it == id) {
            ar_order_.erase(it);
            break;
          }
        }
      }
    }
  }
  // Descriptor bytes: the address of each descriptor beat comes from its burst's start.
  if (p.arvalid && p.arready && p.arid == pkg::AxiIdDesc)
    desc_beats_.push_back({p.araddr, p.arlen + 1});
  if (p.rvalid && p.rready && p.rid == pkg::AxiIdDesc && !desc_beats_.empty()) {
    auto& b = desc_beats_.front();
    for (int i = 0; i < p.data_bytes; ++i)
      desc_bytes_[b.first + static_cast<uint64_t>(i)] = p.rdata[i];
    b.first += static_cast<uint64_t>(p.data_bytes);
    if (--b.second == 0 || p.rlast)
      desc_beats_.pop_front();
  }

  // AXI write.
  if (p.awvalid && p.awready) {
    Hit(awlen_, LenBin(p.awlen));
    const uint64_t bytes = static_cast<uint64_t>(p.awlen + 1) << p.awsize;
    if (((p.awaddr + bytes) & 0xFFF) == 0)
      Hit(page_, 1);
  }
  if (p.bvalid && p.bready)
    Hit(bresp_, p.bresp & 3);

  // Shared memory.
  if (p.smem_wr_valid && p.smem_wr_ready) {
    const Strobe full = FullStrobe(p.data_bytes);
    Hit(smem_, (p.smem_wr_strb & full) == full ? 0 : 1);
    if (std::bitset<16>(p.smem_wr_cta_mask).count() > 1)
      Hit(smem_, 2);
    Hit(phase_, static_cast<int>((p.smem_wr_addr >> 4) & 7));
  }
  if (p.smem_rd_valid && p.smem_rd_ready)
    Hit(smem_, 3);

  // Completions: the first of each command.
  if (p.cpl_valid && p.cpl_ready) {
    Open& o = open_[p.cpl.tag];
    if (o.valid) {
      o.valid = false;
      Completed(o, p.cpl.kind, p.cpl.err, now);
      // A command whose map was not read after its handshake used a cached one.
      for (auto it = cmd_maps_.begin(); it != cmd_maps_.end(); ++it) {
        if (it->first == o.desc_addr) {
          if (it->second < 0 && p.cpl.kind != pkg::CplError)
            Hit(cache_, 1);
          cmd_maps_.erase(it);
          break;
        }
      }
    }
  }
}

double DutCoverage::Percent() const {
  double sum = 0;
  int n = 0;
  for (const Item& it : items_) {
    int goal = 0, hit = 0;
    for (size_t b = 0; b < it.bins.size(); ++b) {
      if (it.ignored[b])
        continue;
      ++goal;
      hit += it.hits[b] > 0;
    }
    sum += goal ? 100.0 * hit / goal : 100.0;
    ++n;
  }
  return n ? sum / n : 100.0;
}

void DutCoverage::WriteBins(std::ostream& os) const {
  for (size_t i = 0; i < items_.size(); ++i) {
    const Item& it = items_[i];
    const char* kind = cross_of_.count(static_cast<int>(i)) ? "cross" : "point";
    for (size_t b = 0; b < it.bins.size(); ++b) {
      os << kind << '\t' << it.name << '\t' << b << '\t' << it.hits[b] << '\t'
         << (it.ignored[b] ? 1 : 0) << '\t' << it.bins[b] << '\n';
    }
  }
}

bool DutCoverage::WriteEnvFile() const {
  const char* path = std::getenv("TMA_DUT_FCOV_OUT");
  if (path == nullptr)
    return true;
  std::ofstream f(path);
  WriteBins(f);
  f.close();
  return !f.fail();
}

}  // namespace tma::sim
