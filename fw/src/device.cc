// SPDX-License-Identifier: Apache-2.0
//
// The driver (tma/fw/device.h): commands, bulk groups, completions, tensor maps in memory.
#include "tma/fw/device.h"

#include <algorithm>
#include <bitset>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "tma/fw/names.h"

namespace tma::fw {
namespace {

namespace pkg = tma::pkg;

static_assert(static_cast<int>(TensorMode::kIm2colNoOffs) == pkg::ModeIm2colNoOffs);
static_assert(static_cast<int>(ErrorClass::kBusError) == pkg::ErrBusError);
static_assert(static_cast<int>(RedOp::kXor) == pkg::RedXor);
static_assert(static_cast<int>(BulkType::kF64) == pkg::BulkTF64);
static_assert(static_cast<int>(BulkType::kBF16) == pkg::BulkTBF16);

// coords[2] of a bulk command (docs/interfaces.md "Bulk commands").
constexpr uint32_t kBulkNoftz = 1u << 4;
constexpr uint32_t kBulkToCluster = 1u << 5;
constexpr uint32_t kBulkCommit = 1u << 6;
constexpr uint32_t kBulkCpMaskGiven = 1u << 16;  // coords[1]

Error Fail(Status s, std::string field, std::string message) {
  return Error::Make(s, std::move(field), std::move(message));
}

// Coordinates the mode and .Nd qualifier take (tensor-semantics / seed 001): tile and im2col
// one per dimension, gather4 / scatter4 five (col, row0..row3).
size_t CoordCount(const TensorOperands& t) {
  return t.mode == TensorMode::kTileGather4 || t.mode == TensorMode::kTileScatter4
             ? 5
             : static_cast<size_t>(t.dim);
}

// im2colInfo entries: dim - 2 offsets for im2col, {wHalo, wOffset} for im2col::w / w::128.
size_t Im2colCount(const TensorOperands& t) {
  switch (t.mode) {
    case TensorMode::kIm2col:
      return static_cast<size_t>(std::max(t.dim - 2, 0));
    case TensorMode::kIm2colW:
    case TensorMode::kIm2colW128:
      return 2;
    default:
      return 0;
  }
}

}  // namespace

const char* ToString(Status s) {
  switch (s) {
    case Status::kOk:
      return "ok";
    case Status::kBadArgument:
      return "bad_argument";
    case Status::kUnsupported:
      return "unsupported";
    case Status::kQueueFull:
      return "queue_full";
    case Status::kTimeout:
      return "timeout";
    case Status::kLinkError:
      return "link_error";
    case Status::kEngineError:
      return "engine_error";
  }
  return "?";
}

const char* ToString(ErrorClass c) {
  return NameOf(kErrorClassNames, c);
}

Error Error::Make(Status s, std::string field, std::string message) {
  Error e;
  e.status = s;
  e.field = std::move(field);
  e.message = std::move(message);
  return e;
}

std::string Error::ToString() const {
  std::string s = tma::fw::ToString(status);
  if (status == Status::kEngineError)
    s += std::string(" ") + tma::fw::ToString(error_class);
  if (status == Status::kLinkError)
    s += std::string(" ") + tma::fw::ToString(link_status);
  if (tag >= 0)
    s += " (tag " + std::to_string(tag) + ")";
  if (!field.empty())
    s += ": " + field;
  if (!message.empty())
    s += ": " + message;
  return s;
}

Device::Device(Link* link, EngineQueue* queue, DeviceConfig cfg)
    : link_(link), queue_(queue), cfg_(cfg) {}

Error Device::LinkFailure(LinkStatus s, const char* what) const {
  Error e = Fail(Status::kLinkError, "", what);
  e.link_status = s;
  return e;
}

// ---- Global memory and tensor maps
// ---------------------------------------------------------------

Error Device::WriteGlobal(uint64_t global_addr, const uint8_t* src, size_t n) {
  if (n == 0)
    return {};
  const uint64_t first = global_addr & ~uint64_t{3};
  const uint64_t end = (global_addr + n + 3) & ~uint64_t{3};
  std::vector<uint32_t> words((end - first) / 4);
  const uint64_t base = cfg_.gmem_link_base + first;
  // Partial words at either end keep their other bytes.
  if (first != global_addr || (global_addr + n) % 4 != 0) {
    LinkStatus s = link_->Read32(base, &words.front());
    if (s == LinkStatus::kOk && words.size() > 1)
      s = link_->Read32(base + 4 * (words.size() - 1), &words.back());
    if (s != LinkStatus::kOk)
      return LinkFailure(s, "global memory read");
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(global_addr - first) + i;
    const int shift = static_cast<int>(8 * (k % 4));
    uint32_t& w = words[k / 4];
    w = (w & ~(uint32_t{0xff} << shift)) | (uint32_t{src[i]} << shift);
  }
  const LinkStatus s = link_->WriteBlock(base, words.data(), words.size());
  return s == LinkStatus::kOk ? Error{} : LinkFailure(s, "global memory write");
}

Error Device::ReadGlobal(uint64_t global_addr, uint8_t* dst, size_t n) {
  if (n == 0)
    return {};
  const uint64_t first = global_addr & ~uint64_t{3};
  const uint64_t end = (global_addr + n + 3) & ~uint64_t{3};
  std::vector<uint32_t> words((end - first) / 4);
  const LinkStatus s = link_->ReadBlock(cfg_.gmem_link_base + first, words.data(), words.size());
  if (s != LinkStatus::kOk)
    return LinkFailure(s, "global memory read");
  for (size_t i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(global_addr - first) + i;
    dst[i] = static_cast<uint8_t>(words[k / 4] >> (8 * (k % 4)));
  }
  return {};
}

Error Device::WriteTensorMap(uint64_t global_addr, const TensorMap& map) {
  if (global_addr % 64 != 0)
    return Fail(Status::kBadArgument, "tensorMap", "a tensor map must be 64-byte aligned");
  return WriteGlobal(global_addr, map.bytes.data(), map.bytes.size());
}

Error Device::ReadTensorMap(uint64_t global_addr, TensorMap* map) {
  if (global_addr % 64 != 0)
    return Fail(Status::kBadArgument, "tensorMap", "a tensor map must be 64-byte aligned");
  return ReadGlobal(global_addr, map->bytes.data(), map->bytes.size());
}

Error Device::InvalidateDescriptors() {
  return queue_->InvalidateDescriptors();
}

// ---- Commands
// --------------------------------------------------------------------------------------

Error Device::CheckOperands(const TensorOperands& t, bool load) const {
  if (t.dim < 1 || t.dim > kMaxRank)
    return Fail(Status::kBadArgument, "dim", "the .Nd qualifier must be 1..5");
  if (t.coords.size() != CoordCount(t))
    return Fail(Status::kBadArgument, "coords",
                "tensorCoords needs " + std::to_string(CoordCount(t)) + " entries for this mode");
  if (t.im2col.size() != Im2colCount(t))
    return Fail(Status::kBadArgument, "im2colInfo",
                "im2colInfo needs " + std::to_string(Im2colCount(t)) + " entries for this mode");
  if (t.cta < 0 || t.cta >= cfg_.num_ctas)
    return Fail(Status::kBadArgument, "cta", "the issuing CTA is outside the cluster");
  if (t.tensor_map % 64 != 0)
    return Fail(Status::kBadArgument, "tensorMap", "a tensor map must be 64-byte aligned");
  if (!load && t.mode == TensorMode::kTileGather4)
    return Fail(Status::kBadArgument, "mode", "tile::gather4 is a load mode");
  if (load && t.mode == TensorMode::kTileScatter4)
    return Fail(Status::kBadArgument, "mode", "tile::scatter4 is a store mode");
  return {};
}

pkg::cmd_t Device::Command(uint8_t op, const TensorOperands& t) const {
  pkg::cmd_t c;
  c.op = op;
  c.mode = static_cast<uint8_t>(t.mode);
  c.dim = static_cast<uint8_t>(t.dim);
  c.desc_addr = t.tensor_map;
  for (size_t i = 0; i < t.coords.size() && i < c.coords.v.size(); ++i)
    c.coords.v[i] = static_cast<uint32_t>(t.coords[i]);
  for (size_t i = 0; i < t.im2col.size() && i < c.im2col.v.size(); ++i)
    c.im2col.v[i] = t.im2col[i];
  c.smem_addr = t.smem;
  c.issuer = static_cast<uint8_t>(t.cta);
  c.dst_cta = static_cast<uint8_t>(t.cta);
  return c;
}

Error Device::Submit(pkg::cmd_t cmd, int completions, bool in_group, Ticket* ticket) {
  if (ticket != nullptr)
    *ticket = Ticket{};
  if (slots_[next_tag_].busy) {
    Error e = Fail(Status::kQueueFull, "tag", "256 commands are outstanding");
    return e;
  }
  cmd.tag = next_tag_;
  Error e = queue_->Push(cmd);
  if (!e.ok())
    return e;
  Slot& s = slots_[next_tag_];
  s.busy = true;
  s.completions_left = completions;
  s.error = Error{};
  ++outstanding_;
  if (in_group) {
    open_group_.tags.push_back(next_tag_);
    if (cmd.op == pkg::OpStore || cmd.op == pkg::OpReduce)
      open_issuers_[cmd.issuer & 15] = true;  // the engine's group of the issuer too
  }
  if (ticket != nullptr)
    *ticket = Ticket{next_tag_, true};
  ++next_tag_;
  return {};
}

Error Device::LoadTensor(const TensorOperands& t, const LoadOptions& o, Ticket* ticket) {
  if (Error e = CheckOperands(t, true); !e.ok())
    return e;
  if (o.cta_group != 0 && o.cta_group != 1 && o.cta_group != 2)
    return Fail(Status::kBadArgument, "cta_group", ".cta_group is ::1 or ::2");
  if (o.cta_group != 0 && cfg_.arch == Arch::kSm90)
    return Fail(Status::kUnsupported, "cta_group", ".cta_group needs sm_100 or later");
  const uint32_t cluster = cfg_.num_ctas >= 16 ? 0xffffu : (1u << cfg_.num_ctas) - 1;
  if ((o.cta_mask & ~cluster) != 0)
    return Fail(Status::kBadArgument, "ctaMask", "ctaMask names a CTA outside the cluster");
  if (o.dst_cta >= cfg_.num_ctas)
    return Fail(Status::kBadArgument, "dstMem", "the destination CTA is outside the cluster");
  pkg::cmd_t c = Command(pkg::OpLoad, t);
  c.mbar_addr = o.mbar;
  c.multicast = o.cta_mask != 0;
  c.cta_mask = o.cta_mask;
  if (o.dst_cta >= 0)
    c.dst_cta = static_cast<uint8_t>(o.dst_cta);
  c.cta_group = static_cast<uint8_t>(o.cta_group);
  const int completions = c.multicast ? static_cast<int>(std::bitset<16>(o.cta_mask).count()) : 1;
  return Submit(c, completions, false, ticket);
}

Error Device::StoreTensor(const TensorOperands& t, Ticket* ticket) {
  if (Error e = CheckOperands(t, false); !e.ok())
    return e;
  return Submit(Command(pkg::OpStore, t), 1, true, ticket);
}

Error Device::ReduceTensor(RedOp op, const TensorOperands& t, Ticket* ticket) {
  if (Error e = CheckOperands(t, false); !e.ok())
    return e;
  if (static_cast<int>(op) > static_cast<int>(RedOp::kXor))
    return Fail(Status::kBadArgument, "redOp", "unknown reduction");
  pkg::cmd_t c = Command(pkg::OpReduce, t);
  c.redop = static_cast<uint8_t>(op);
  return Submit(c, 1, true, ticket);
}

Error Device::PrefetchTensor(const TensorOperands& t, Ticket* ticket) {
  TensorOperands p = t;
  p.smem = 0;
  if (Error e = CheckOperands(p, true); !e.ok())
    return e;
  return Submit(Command(pkg::OpPrefetch, p), 1, true, ticket);
}

Error Device::SubmitCommand(pkg::cmd_t cmd, Ticket* ticket) {
  int completions = 1;
  if (cmd.op == pkg::OpLoad && cmd.multicast)
    completions = static_cast<int>(std::bitset<16>(cmd.cta_mask).count());
  // A shared::cta -> shared::cluster copy or reduction is an mbarrier operation, not a group's.
  const bool to_cluster =
      cmd.mode == pkg::BulkMode && cmd.op != pkg::OpLoad && (cmd.coords.v[2] & kBulkToCluster) != 0;
  return Submit(cmd, completions, cmd.op != pkg::OpLoad && !to_cluster, ticket);
}

Error Device::SubmitBulk(pkg::cmd_t cmd, int completions, Ticket* ticket) {
  cmd.mode = pkg::BulkMode;
  if (cmd.op != pkg::OpPrefetch && (cmd.issuer >= cfg_.num_ctas))
    return Fail(Status::kBadArgument, "cta", "the issuing CTA is outside the cluster");
  return Submit(cmd, completions, cmd.op != pkg::OpLoad, ticket);
}

Error Device::LoadBulk(uint32_t smem, uint64_t global_addr, uint32_t bytes, uint32_t mbar,
                       const BulkLoadOptions& o, Ticket* ticket) {
  const uint32_t cluster = cfg_.num_ctas >= 16 ? 0xffffu : (1u << cfg_.num_ctas) - 1;
  if (o.cta < 0 || o.cta >= cfg_.num_ctas)
    return Fail(Status::kBadArgument, "cta", "the issuing CTA is outside the cluster");
  if ((o.cta_mask & ~cluster) != 0)
    return Fail(Status::kBadArgument, "ctaMask", "ctaMask names a CTA outside the cluster");
  if (o.dst_cta >= cfg_.num_ctas)
    return Fail(Status::kBadArgument, "dstMem", "the destination CTA is outside the cluster");
  pkg::cmd_t c;
  c.op = pkg::OpLoad;
  c.desc_addr = global_addr;
  c.smem_addr = smem;
  c.mbar_addr = mbar;
  c.coords.v[0] = bytes;
  c.coords.v[2] = o.to_cluster ? kBulkToCluster : 0;
  c.issuer = static_cast<uint8_t>(o.cta);
  c.dst_cta = static_cast<uint8_t>(o.dst_cta >= 0 ? o.dst_cta : o.cta);
  c.multicast = o.cta_mask != 0;
  c.cta_mask = o.cta_mask;
  const int completions = c.multicast ? static_cast<int>(std::bitset<16>(o.cta_mask).count()) : 1;
  return SubmitBulk(c, completions, ticket);
}

Error Device::StoreBulk(uint64_t global_addr, uint32_t smem, uint32_t bytes, int cta, int cp_mask,
                        Ticket* ticket) {
  if (cp_mask > 0xffff)
    return Fail(Status::kBadArgument, "cp_mask", ".cp_mask has 16 bits");
  pkg::cmd_t c;
  c.op = pkg::OpStore;
  c.desc_addr = global_addr;
  c.smem_addr = smem;
  c.coords.v[0] = bytes;
  c.coords.v[1] = cp_mask >= 0 ? kBulkCpMaskGiven | static_cast<uint32_t>(cp_mask) : 0;
  c.issuer = static_cast<uint8_t>(cta);
  c.dst_cta = c.issuer;
  return SubmitBulk(c, 1, ticket);
}

Error Device::ReduceBulk(RedOp op, BulkType type, uint64_t global_addr, uint32_t smem,
                         uint32_t bytes, int cta, Ticket* ticket) {
  if (static_cast<int>(op) > static_cast<int>(RedOp::kXor))
    return Fail(Status::kBadArgument, "redOp", "unknown reduction");
  if (static_cast<int>(type) > static_cast<int>(BulkType::kF64))
    return Fail(Status::kBadArgument, "type", "unknown .type");
  const bool half = type == BulkType::kF16 || type == BulkType::kBF16;
  pkg::cmd_t c;
  c.op = pkg::OpReduce;
  c.redop = static_cast<uint8_t>(op);
  c.desc_addr = global_addr;
  c.smem_addr = smem;
  c.coords.v[0] = bytes;
  c.coords.v[2] = static_cast<uint32_t>(type) | (op == RedOp::kAdd && half ? kBulkNoftz : 0);
  c.issuer = static_cast<uint8_t>(cta);
  c.dst_cta = c.issuer;
  return SubmitBulk(c, 1, ticket);
}

Error Device::PrefetchBulk(uint64_t global_addr, uint32_t bytes, Ticket* ticket) {
  pkg::cmd_t c;
  c.op = pkg::OpPrefetch;
  c.desc_addr = global_addr;
  c.coords.v[0] = bytes;
  return SubmitBulk(c, 1, ticket);
}

Error Device::SubmitToCluster(pkg::cmd_t cmd, int cta, int dst_cta, Ticket* ticket) {
  if (ticket != nullptr)
    *ticket = Ticket{};
  if (cta < 0 || cta >= cfg_.num_ctas)
    return Fail(Status::kBadArgument, "cta", "the issuing CTA is outside the cluster");
  if (dst_cta < 0 || dst_cta >= cfg_.num_ctas)
    return Fail(Status::kBadArgument, "dstMem", "the destination CTA is outside the cluster");
  cmd.mode = pkg::BulkMode;
  cmd.coords.v[2] |= kBulkToCluster;
  cmd.issuer = static_cast<uint8_t>(cta);
  cmd.dst_cta = static_cast<uint8_t>(dst_cta);
  // One complete-tx on the destination CTA; no bulk group.
  return Submit(cmd, 1, false, ticket);
}

Error Device::CopyBulkToCluster(uint32_t dst, uint32_t src, uint32_t bytes, uint32_t mbar,
                                int dst_cta, int cta, Ticket* ticket) {
  pkg::cmd_t c;
  c.op = pkg::OpStore;
  c.desc_addr = dst;
  c.smem_addr = src;
  c.mbar_addr = mbar;
  c.coords.v[0] = bytes;
  return SubmitToCluster(c, cta, dst_cta, ticket);
}

Error Device::ReduceBulkToCluster(RedOp op, BulkType type, uint32_t dst, uint32_t src,
                                  uint32_t bytes, uint32_t mbar, int dst_cta, int cta,
                                  Ticket* ticket) {
  if (static_cast<int>(op) > static_cast<int>(RedOp::kXor))
    return Fail(Status::kBadArgument, "redOp", "unknown reduction");
  if (static_cast<int>(type) > static_cast<int>(BulkType::kF64))
    return Fail(Status::kBadArgument, "type", "unknown .type");
  pkg::cmd_t c;
  c.op = pkg::OpReduce;
  c.redop = static_cast<uint8_t>(op);
  c.desc_addr = dst;
  c.smem_addr = src;
  c.mbar_addr = mbar;
  c.coords.v[0] = bytes;
  c.coords.v[2] = static_cast<uint32_t>(type);
  return SubmitToCluster(c, cta, dst_cta, ticket);
}

// ---- Groups and completions
// --------------------------------------------------------------------------

Error Device::CommitGroup() {
  if (cfg_.engine_groups) {
    // One commit_group command per issuer with a store or reduction in the group; the engine
    // numbers its groups per issuer.
    for (int cta = 0; cta < 16; ++cta) {
      if (!open_issuers_[cta])
        continue;
      pkg::cmd_t c;
      c.mode = pkg::BulkMode;
      c.coords.v[2] = kBulkCommit;
      c.issuer = static_cast<uint8_t>(cta);
      c.dst_cta = c.issuer;
      if (Error e = queue_->Push(c); !e.ok())
        return e;
      const uint8_t seq = engine_seq_[cta]++;
      engine_group_[cta << 8 | seq] = 0;
      open_group_.engine.emplace_back(static_cast<uint8_t>(cta), seq);
      open_issuers_[cta] = false;
    }
  }
  groups_.push_back(std::move(open_group_));
  open_group_ = Group{};
  open_issuers_.fill(false);
  return {};
}

void Device::Absorb(const pkg::cpl_t& c) {
  if (c.kind == pkg::CplGroup) {
    uint8_t& g = engine_group_[(c.cta & 15) << 8 | c.tag];
    g |= (c.bytes & kGroupDoneBit) ? 2 : 1;
    if (c.bytes & kGroupErrBit)
      g |= 4;
    return;
  }
  Slot& s = slots_[c.tag];
  if (!s.busy)
    return;  // a completion for no outstanding command: ignored (the tag was never issued)
  if (c.kind == pkg::CplTx && c.cta < tx_bytes_.size())
    tx_bytes_[c.cta] += c.bytes;
  if (c.kind == pkg::CplError) {
    s.error.status = Status::kEngineError;
    s.error.error_class = static_cast<ErrorClass>(c.err);
    s.error.tag = c.tag;
    s.error.field = "cpl.err";
    s.error.message = std::string("the engine reported ") +
                      ToString(static_cast<ErrorClass>(c.err)) + " for command " +
                      std::to_string(c.tag);
    s.completions_left = 0;
  } else {
    --s.completions_left;
  }
  if (s.completions_left <= 0) {
    s.busy = false;
    --outstanding_;
    if (!s.error.ok())
      errors_.push_back(s.error);
  }
}

Error Device::Poll() {
  for (;;) {
    pkg::cpl_t c;
    bool got = false;
    Error e = queue_->Pop(&c, &got);
    if (!e.ok())
      return e;
    if (!got)
      return {};
    Absorb(c);
  }
}

Error Device::WaitUntil(uint32_t timeout_us, const std::function<bool()>& done) {
  // Each round drains the completions, then sleeps on the interrupt (acknowledged before the
  // next drain, so a completion arriving in between raises it again) or, without one, polls
  // (sleeping poll_interval_us between rounds when set).
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::microseconds(timeout_us);
  for (;;) {
    if (Error e = Poll(); !e.ok())
      return e;
    if (done())
      return {};
    const Clock::time_point now = Clock::now();
    if (now >= deadline)
      return Fail(Status::kTimeout, "",
                  "no completion within " + std::to_string(timeout_us) + " us");
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - now);
    const uint32_t step = static_cast<uint32_t>(std::max<int64_t>(left.count(), 1));
    if (cfg_.use_interrupt) {
      const LinkStatus s = link_->WaitInterrupt(step);
      if (s == LinkStatus::kOk) {
        if (Error e = queue_->AcknowledgeInterrupt(); !e.ok())
          return e;
      } else if (s == LinkStatus::kUnsupported) {
        cfg_.use_interrupt = false;  // this link has no interrupt: poll from now on
      } else if (s != LinkStatus::kTimeout) {
        return LinkFailure(s, "wait for interrupt");
      }
    } else if (cfg_.poll_interval_us != 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(std::min(cfg_.poll_interval_us, step)));
    }
  }
}

Error Device::Wait(uint8_t tag, uint32_t timeout_us) {
  Error e = WaitUntil(timeout_us, [&] { return !slots_[tag].busy; });
  if (!e.ok()) {
    e.tag = tag;
    return e;
  }
  Error err = slots_[tag].error;
  if (!err.ok()) {
    // Returned here, so not again by TakeErrors.
    errors_.erase(std::remove_if(errors_.begin(), errors_.end(),
                                 [&](const Error& x) { return x.tag == tag; }),
                  errors_.end());
    slots_[tag].error = Error{};
  }
  return err;
}

Error Device::WaitAll(uint32_t timeout_us) {
  return WaitUntil(timeout_us, [&] { return outstanding_ == 0; });
}

bool Device::GroupDone(const Group& g, bool read_only) const {
  for (const auto& [cta, seq] : g.engine) {
    if ((engine_group_[cta << 8 | seq] & (read_only ? 1 : 2)) == 0)
      return false;
  }
  return read_only ||
         std::all_of(g.tags.begin(), g.tags.end(), [&](uint8_t t) { return !slots_[t].busy; });
}

Error Device::WaitGroups(int n, uint32_t timeout_us, bool read_only) {
  if (n < 0)
    return Fail(Status::kBadArgument, "N", "wait_group N needs N >= 0");
  const size_t keep = static_cast<size_t>(n);
  Error e = WaitUntil(timeout_us, [&] {
    // All but the most recent n committed groups complete.
    for (size_t i = 0; i + keep < groups_.size(); ++i) {
      if (!GroupDone(groups_[i], read_only))
        return false;
    }
    return true;
  });
  if (!e.ok() || read_only)
    return e;
  // Retire the finished groups; report the first error among their commands, else an engine
  // group that reported a failed operation.
  Error first;
  while (groups_.size() > keep) {
    for (uint8_t t : groups_.front().tags) {
      if (first.ok() && !slots_[t].error.ok())
        first = slots_[t].error;
    }
    for (const auto& [cta, seq] : groups_.front().engine) {
      if (first.ok() && (engine_group_[cta << 8 | seq] & 4) != 0)
        first = Fail(Status::kEngineError, "bulk_group",
                     "the engine reported a failed operation in group " + std::to_string(seq) +
                         " of CTA " + std::to_string(cta));
    }
    groups_.pop_front();
  }
  return first;
}

Error Device::WaitGroup(int n, uint32_t timeout_us) {
  return WaitGroups(n, timeout_us, false);
}

Error Device::WaitGroupRead(int n, uint32_t timeout_us) {
  return WaitGroups(n, timeout_us, cfg_.engine_groups);
}

std::vector<Error> Device::TakeErrors() {
  std::vector<Error> v = std::move(errors_);
  errors_.clear();
  return v;
}

}  // namespace tma::fw
