// SPDX-License-Identifier: Apache-2.0
#include "engine.h"

#include <algorithm>
#include <cstring>

#include "adapters.h"
#include "rtl_backend.h"
#include "tma/tensor_copy.h"
#include "tma/tensormap_replace.h"

namespace m = tma::model;

namespace otma_impl {

otma_status FromModel(const m::Status& s) {
  return s.ok() ? OTMA_OK : -static_cast<otma_status>(s.cls);
}

m::TensorMap ParamsToMap(const otma_tensor_params& p) {
  m::TensorMap t;
  t.mode = static_cast<m::MapMode>(p.mode);
  t.global_address = p.global_address;
  t.rank = static_cast<int>(p.rank);
  t.dtype = static_cast<m::DType>(p.dtype);
  for (int i = 0; i < m::kMaxRank; ++i) {
    t.dims[i] = i < t.rank ? p.dims[i] : 1;
    t.box[i] = i < t.rank ? p.box[i] : 1;
    t.element_strides[i] = i < t.rank ? p.elem_strides[i] : 1;
    if (i < m::kMaxRank - 1) {
      t.strides[i] = i + 1 < t.rank ? p.strides[i] : 0;
    }
  }
  t.interleave = static_cast<m::Interleave>(p.interleave);
  t.swizzle = static_cast<m::Swizzle>(p.swizzle);
  t.l2_promotion = static_cast<m::L2Promotion>(p.l2_promotion);
  t.oob_fill = static_cast<m::OobFill>(p.oob_fill);
  for (int i = 0; i < 3; ++i) {
    t.lower[i] = p.im2col_lower[i];
    t.upper[i] = p.im2col_upper[i];
  }
  if (t.mode != m::MapMode::kTiled) {
    t.channels_per_pixel = p.channels_per_pixel;
    t.pixels_per_column = p.pixels_per_column;
    t.wide_mode = static_cast<m::WideMode>(p.wide_mode);
  }
  return t;
}

void MapToParams(const m::TensorMap& t, otma_tensor_params* p) {
  std::memset(p, 0, sizeof *p);
  p->struct_size = sizeof *p;
  p->mode = static_cast<uint32_t>(t.mode);
  p->dtype = static_cast<uint32_t>(t.dtype);
  p->rank = static_cast<uint32_t>(t.rank);
  p->interleave = static_cast<uint32_t>(t.interleave);
  p->swizzle = static_cast<uint32_t>(t.swizzle);
  p->l2_promotion = static_cast<uint32_t>(t.l2_promotion);
  p->oob_fill = static_cast<uint32_t>(t.oob_fill);
  p->global_address = t.global_address;
  for (int i = 0; i < m::kMaxRank; ++i) {
    p->dims[i] = t.dims[i];
    p->box[i] = t.box[i];
    p->elem_strides[i] = t.element_strides[i];
    if (i < m::kMaxRank - 1) {
      p->strides[i] = t.strides[i];
    }
  }
  for (int i = 0; i < 3; ++i) {
    p->im2col_lower[i] = t.lower[i];
    p->im2col_upper[i] = t.upper[i];
  }
  p->channels_per_pixel = t.channels_per_pixel;
  p->pixels_per_column = t.pixels_per_column;
  p->wide_mode = static_cast<uint32_t>(t.wide_mode);
}

// ---- Adapters: the model's memory interfaces over the host callbacks -------------------------
m::TensorInstr ToTensorInstr(const otma_op& op) {
  m::TensorInstr in;
  switch (op.kind) {
    case OTMA_OP_TENSOR_STORE:
      in.op = m::Op::kStore;
      break;
    case OTMA_OP_TENSOR_REDUCE:
      in.op = m::Op::kReduce;
      break;
    case OTMA_OP_TENSOR_PREFETCH:
      in.op = m::Op::kPrefetch;
      break;
    default:
      in.op = m::Op::kLoad;
      break;
  }
  in.mode = static_cast<m::LoadMode>(op.load_mode);
  in.dim = static_cast<int>(op.dim);
  in.redop = static_cast<m::RedOp>(op.redop);
  const bool four = in.mode == m::LoadMode::kTileGather4 || in.mode == m::LoadMode::kTileScatter4;
  const int nc = four ? 5 : std::clamp(in.dim, 0, 5);
  in.coords.assign(op.coords, op.coords + nc);
  int ni = 0;
  if (in.mode == m::LoadMode::kIm2col) {
    ni = std::clamp(in.dim - 2, 0, 3);
  } else if (in.mode == m::LoadMode::kIm2colW || in.mode == m::LoadMode::kIm2colW128) {
    ni = 2;
  }
  in.im2col_info.assign(op.im2col_info, op.im2col_info + ni);
  in.smem_space =
      (op.flags & OTMA_OPF_SHARED_CTA) ? m::SmemSpace::kSharedCta : m::SmemSpace::kSharedCluster;
  in.smem_addr = op.smem_addr;
  in.mbar_addr = op.mbar_addr;
  in.issuer_cta = static_cast<int>(op.issuer_rank);
  in.dst_cta = op.dst_rank;
  in.multicast = (op.flags & OTMA_OPF_MULTICAST) != 0;
  in.cta_mask = op.cta_mask;
  in.cta_group = static_cast<int>(op.cta_group);
  if (op.flags & OTMA_OPF_CACHE_HINT) {
    in.cache_policy = op.cache_hint;
  }
  in.mbar_cta = op.mbar_rank;
  return in;
}

// The operands bulk copies and bulk reductions share.
template <typename Instr>
void BulkCommon(const otma_op& op, Instr* in) {
  in->size = op.bulk_size;
  in->mbar_addr = op.mbar_addr;
  in->issuer_cta = static_cast<int>(op.issuer_rank);
  in->dst_cta = op.dst_rank;
  if (op.flags & OTMA_OPF_CACHE_HINT) {
    in->cache_policy = op.cache_hint;
  }
}

void TakeBulk(const otma_op& op, m::BulkResult r, OpEffects* fx) {
  fx->status = std::move(r.status);
  fx->complete_tx = std::move(r.complete_tx);
  fx->bulk_group = r.bulk_group;
  fx->payload = op.bulk_size;
}

// im2col-family loads start later than tile loads (calibration: im2col_extra).
bool IsTensorLoadIm2col(const otma_op& op) {
  return op.kind == OTMA_OP_TENSOR_LOAD &&
         (op.load_mode == OTMA_LOAD_IM2COL || op.load_mode == OTMA_LOAD_IM2COL_W ||
          op.load_mode == OTMA_LOAD_IM2COL_W128 || op.load_mode == OTMA_LOAD_IM2COL_NO_OFFS);
}

// ---- TIMED job ----------------------------------------------------------------------------------
enum class JobState { kQueued, kDescWait, kDescReady, kGen, kWait, kCpl };

class Job {
 public:
  otma_token token = 0;
  otma_op op{};
  std::vector<uint8_t> desc_bytes;  // owned copies of the op's pointers
  otma_tensor_params desc_params{};
  JobState state = JobState::kQueued;
  uint64_t t = 0;  // the cycle the current timed state ends
  uint64_t last_progress = 0;
  OpEffects fx;
  m::TensorMap map;
  size_t next_req = 0;
  uint32_t inflight = 0;
  size_t responded = 0;
  uint64_t port_total = 0;
  uint64_t port_done = 0;
  bool read_done_sent = false;
  otma_status status = OTMA_OK;
};

}  // namespace otma_impl

using otma_impl::IsTensorLoadIm2col;
using otma_impl::Job;
using otma_impl::JobState;
using otma_impl::OpEffects;

otma_engine::otma_engine(const otma_config& c, const otma_host& h) : cfg(c), host(h) {
  cal = otma_impl::DefaultCalibration();
  arch = static_cast<m::Arch>(cfg.arch);
  num_ctas = cfg.cluster_size == 0 ? 1 : static_cast<int>(cfg.cluster_size);
  req_bytes = cfg.req_bytes == 0 ? 32 : cfg.req_bytes;
  if (cfg.max_outstanding != 0) {
    cal.max_outstanding = cfg.max_outstanding;
  }
  if (cfg.watchdog_cycles == 0) {
    cfg.watchdog_cycles = 1000000;
  }
  if (cfg.flags & OTMA_FLAG_CHECK) {
    if (cfg.checker != nullptr) {
      checker = cfg.checker;
    } else {
      otma_checker_config cc{};
      cc.struct_size = sizeof cc;
      cc.cluster_size = static_cast<uint32_t>(num_ctas);
      own_checker = std::make_unique<otma_checker>(cc);
      checker = own_checker.get();
    }
  }
}

otma_engine::~otma_engine() = default;

void otma_engine::Log(int level, const std::string& msg) {
  if (host.log != nullptr) {
    host.log(host.user, level, msg.c_str());
  }
}

void otma_engine::Signal(otma_token t, const std::vector<m::CompleteTx>& tx) {
  for (const m::CompleteTx& c : tx) {
    if (checker != nullptr) {
      checker->CompleteTx(t, static_cast<uint32_t>(c.cta), c.mbar_addr, c.bytes, cycle);
    }
    if (host.complete_tx != nullptr) {
      host.complete_tx(host.user, static_cast<uint32_t>(c.cta), c.mbar_addr, c.bytes);
    }
  }
}

void otma_engine::Done(otma_token t, uint32_t ev, otma_status s) {
  auto g = group_warp.find(t);
  if (g != group_warp.end()) {
    groups.For(g->second).Complete(t, true, ev != OTMA_EV_READ_DONE);
    if (ev != OTMA_EV_READ_DONE) {
      group_warp.erase(g);
    }
  }
  if (ev != OTMA_EV_READ_DONE && checker != nullptr) {
    checker->OpRetired(t);
  }
  if (s != OTMA_OK) {
    Log(2, std::string("op ") + std::to_string(t) + " faulted: " + otma_status_str(s));
  }
  if (host.op_done != nullptr) {
    host.op_done(host.user, t, ev, s);
  }
}

m::Status otma_engine::ResolveMap(const otma_op& op, bool fetch, m::TensorMap* out) {
  if (op.desc_bytes != nullptr) {
    // Decoded maps of recent descriptor bytes (a kernel uses a few maps for many ops).
    for (DecodedMap& d : decoded) {
      if (d.valid && std::memcmp(d.bytes, op.desc_bytes, 128) == 0) {
        *out = d.map;
        return m::Status::Ok();
      }
    }
    const m::Status st = m::DecodeDescriptor(op.desc_bytes, out);
    if (st.ok()) {
      DecodedMap& d = decoded[decoded_next++ % decoded.size()];
      std::memcpy(d.bytes, op.desc_bytes, 128);
      d.map = *out;
      d.valid = true;
    }
    return st;
  }
  if (op.desc != nullptr) {
    *out = otma_impl::ParamsToMap(*op.desc);
    return m::Status::Ok();
  }
  if (!fetch) {
    return m::Status::Error(m::ErrorClass::kInvalidInstruction, "tensorMap",
                            "no descriptor bytes or parameters given");
  }
  uint8_t b[128];
  if (host.gmem_read == nullptr || host.gmem_read(host.user, op.desc_va, b, 128) != 0) {
    return m::Status::Error(m::ErrorClass::kBusError, "tensorMap", "reading the tensor map failed");
  }
  return m::DecodeDescriptor(b, out);
}

OpEffects otma_engine::Execute(const otma_op& op, otma_token t, const m::TensorMap* map,
                               bool deferred, bool record, bool no_data) {
  OpEffects fx;
  otma_impl::Recorder rec;
  rec.on = record;
  rec.g = req_bytes;
  otma_impl::HostGlobal g(*this, deferred, no_data, rec, fx.writes);
  otma_impl::HostShared s(*this, t, deferred, no_data, fx.writes, fx.smem_bytes);
  uint32_t read_kind = OTMA_REQ_READ;
  bool use_writes = false;
  switch (op.kind) {
    case OTMA_OP_TENSOR_LOAD:
    case OTMA_OP_TENSOR_STORE:
    case OTMA_OP_TENSOR_REDUCE:
    case OTMA_OP_TENSOR_PREFETCH: {
      const m::TensorInstr in = otma_impl::ToTensorInstr(op);
      m::ExecOptions o;
      o.arch = arch;
      if (op.kind == OTMA_OP_TENSOR_PREFETCH) {
        // A hint: the model moves nothing; the requests are the box's in-bounds sectors.
        fx.status = m::CheckInstruction(*map, in, arch, num_ctas);
        if (fx.status.ok() && record) {
          m::TensorInstr ld = in;
          ld.op = m::Op::kLoad;
          ld.smem_space = m::SmemSpace::kSharedCluster;
          ld.multicast = false;
          ld.dst_cta = -1;
          ld.cta_group = 0;
          std::vector<otma_impl::PendingWrite> sink;
          uint64_t sb = 0;
          otma_impl::HostGlobal g2(*this, true, true, rec, sink);
          otma_impl::HostShared s2(*this, t, true, true, sink, sb);
          (void)m::ExecuteTensor(*map, ld, g2, s2, o);
        }
        read_kind = OTMA_REQ_PREFETCH;
        break;
      }
      m::ExecResult r = m::ExecuteTensor(*map, in, g, s, o);
      fx.status = r.status;
      fx.complete_tx = std::move(r.complete_tx);
      if (op.kind == OTMA_OP_TENSOR_LOAD) {
        fx.payload = fx.complete_tx.empty() ? 0 : fx.complete_tx.front().bytes;
        fx.oob = fx.payload > r.global_bytes_read ? fx.payload - r.global_bytes_read : 0;
      } else {
        fx.payload = r.global_bytes_written;
        use_writes = true;
        read_kind = op.kind == OTMA_OP_TENSOR_REDUCE ? OTMA_REQ_REDUCE : OTMA_REQ_WRITE;
        fx.bulk_group = true;
      }
      break;
    }
    case OTMA_OP_BULK_COPY: {
      m::BulkCopyInstr in;
      in.dir = static_cast<m::BulkDir>(op.bulk_dir);
      const bool s2g = in.dir == m::BulkDir::kSharedCtaToGlobal;
      const bool s2s = in.dir == m::BulkDir::kSharedCtaToSharedCluster;
      in.dst = s2g ? op.bulk_gaddr : op.smem_addr;
      in.src = s2g || s2s ? op.bulk_saddr : op.bulk_gaddr;
      otma_impl::BulkCommon(op, &in);
      in.multicast = (op.flags & OTMA_OPF_MULTICAST) != 0;
      in.cta_mask = op.cta_mask;
      if (op.flags & OTMA_OPF_CP_MASK) {
        in.byte_mask = op.byte_mask;
      }
      otma_impl::TakeBulk(op, m::ExecuteBulkCopy(in, g, s), &fx);
      if (s2g) {
        use_writes = true;
        read_kind = OTMA_REQ_WRITE;
      }
      break;
    }
    case OTMA_OP_BULK_REDUCE: {
      m::BulkReduceInstr in;
      in.dir = static_cast<m::BulkDir>(op.bulk_dir);
      in.redop = static_cast<m::RedOp>(op.redop);
      in.type = static_cast<m::BulkType>(op.bulk_type);
      in.noftz = (op.flags & OTMA_OPF_NOFTZ) != 0;
      const bool s2g = in.dir == m::BulkDir::kSharedCtaToGlobal;
      in.dst = s2g ? op.bulk_gaddr : op.smem_addr;
      in.src = op.bulk_saddr;
      otma_impl::BulkCommon(op, &in);
      otma_impl::TakeBulk(op, m::ExecuteBulkReduce(in, g, s), &fx);
      if (s2g) {
        use_writes = true;
        read_kind = OTMA_REQ_REDUCE;
      }
      break;
    }
    case OTMA_OP_BULK_PREFETCH: {
      m::BulkPrefetchInstr in;
      in.src = op.bulk_gaddr;
      in.size = op.bulk_size;
      m::BulkResult r = m::ExecuteBulkPrefetch(in);
      fx.status = r.status;
      read_kind = OTMA_REQ_PREFETCH;
      if (fx.status.ok() && record) {
        otma_impl::Recorder::Add(rec.reads, rec.g, op.bulk_gaddr, op.bulk_size);
      }
      break;
    }
    case OTMA_OP_TENSORMAP_REPLACE: {
      uint8_t b[128];
      if (!g.Read(op.desc_va, b, 128)) {
        fx.status = m::Status::Error(m::ErrorClass::kBusError, "tmap", "reading the map failed");
        break;
      }
      fx.status = m::TensormapReplace(b, static_cast<m::ReplaceField>(op.replace_field - 1),
                                      static_cast<int>(op.replace_ordinal), op.replace_value, arch);
      if (fx.status.ok() && !g.Write(op.desc_va, b, 128)) {
        fx.status = m::Status::Error(m::ErrorClass::kBusError, "tmap", "writing the map failed");
      }
      if (fx.status.ok()) {
        Invalidate(op.desc_va);
      }
      fx.payload = 128;
      use_writes = true;
      read_kind = OTMA_REQ_WRITE;
      break;
    }
    default:
      fx.status = m::Status::Error(m::ErrorClass::kInvalidInstruction, "kind", "unknown op kind");
  }
  fx.req_kind = read_kind;
  if (record) {
    std::vector<uint64_t>& v = use_writes ? rec.writes : rec.reads;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    fx.sectors = std::move(v);
  }
  return fx;
}

static bool NeedsMap(uint32_t kind) {
  return kind >= OTMA_OP_TENSOR_LOAD && kind <= OTMA_OP_TENSOR_PREFETCH;
}

// Tells the checker which barriers (rank, offset) a load will signal, in the phase they are in.
void otma_engine::NotifyIssued(const otma_op& op, otma_token t) {
  if (checker == nullptr || op.kind != OTMA_OP_TENSOR_LOAD) {
    return;
  }
  const m::TensorInstr in = otma_impl::ToTensorInstr(op);
  std::vector<otma_checker::Dest> d;
  for (const m::CompleteTx& c :
       m::CompleteTxEvents(in.multicast, in.cta_mask, in.dst_cta < 0 ? in.issuer_cta : in.dst_cta,
                           in.mbar_cta, in.cta_group, in.mbar_addr, 0)) {
    d.push_back({static_cast<uint32_t>(c.cta), c.mbar_addr});
  }
  checker->OpIssued(t, d, in.multicast, op.issuer_rank, cycle);
}

// Stores and reductions to global memory complete through the issuing warp's bulk group.
static bool IsBulkGroupOp(const otma_op& op) {
  return op.kind == OTMA_OP_TENSOR_STORE || op.kind == OTMA_OP_TENSOR_REDUCE ||
         ((op.kind == OTMA_OP_BULK_COPY || op.kind == OTMA_OP_BULK_REDUCE) &&
          op.bulk_dir == OTMA_BULK_S2G);
}

void otma_engine::TrackGroup(const otma_op& op, otma_token t) {
  group_warp[t] = op.issuer_warp;
  const bool reduce = op.kind == OTMA_OP_TENSOR_REDUCE || op.kind == OTMA_OP_BULK_REDUCE;
  groups.For(op.issuer_warp).Issue(t, reduce ? m::BulkOpKind::kReduce : m::BulkOpKind::kStore);
}

otma_status otma_engine::Submit(const otma_op& op, otma_token* token) {
  if (cfg.mode == OTMA_MODE_FUNCTIONAL) {
    const otma_token t = next_token++;
    if (token != nullptr) {
      *token = t;
    }
    m::TensorMap map;
    OpEffects fx;
    if (NeedsMap(op.kind)) {
      fx.status = ResolveMap(op, true, &map);
    }
    if (fx.status.ok()) {
      NotifyIssued(op, t);
      fx = Execute(op, t, &map, false, false, false);
    }
    const otma_status st = otma_impl::FromModel(fx.status);
    if (st != OTMA_OK) {
      Done(t, OTMA_EV_FAULT, st);
      return st;
    }
    if (fx.bulk_group) {
      TrackGroup(op, t);
      Done(t, OTMA_EV_READ_DONE, OTMA_OK);
    }
    Signal(t, fx.complete_tx);
    Done(t, OTMA_EV_DONE, OTMA_OK);
    return OTMA_OK;
  }
  if (cfg.mode == OTMA_MODE_RTL) {
    const otma_token t = next_token;
    otma_status st = rtl->Submit(*this, op, t);
    if (st == OTMA_E_BUSY) {
      return st;
    }
    ++next_token;
    if (token != nullptr) {
      *token = t;
    }
    return st;
  }
  // TIMED
  size_t queued = 0;
  for (const auto& j : jobs) {
    queued += j->state == JobState::kQueued ? 1 : 0;
  }
  if (cycle < port_free_at || queued >= cal.cmd_queue) {
    return OTMA_E_BUSY;
  }
  auto j = std::make_unique<Job>();
  j->token = next_token++;
  if (token != nullptr) {
    *token = j->token;
  }
  j->op = op;
  if (op.desc_bytes != nullptr) {
    j->desc_bytes.assign(op.desc_bytes, op.desc_bytes + 128);
    j->op.desc_bytes = j->desc_bytes.data();
  }
  if (op.desc != nullptr) {
    j->desc_params = *op.desc;
    j->op.desc = &j->desc_params;
  }
  port_free_at = cycle + cal.cmd_interval;
  j->t = cycle + cal.cmd_to_start;
  j->last_progress = cycle;
  if (IsBulkGroupOp(op)) {
    TrackGroup(op, j->token);
  }
  NotifyIssued(op, j->token);
  by_token[j->token] = j.get();
  jobs.push_back(std::move(j));
  return OTMA_OK;
}

void otma_engine::Emit(Job& j, uint64_t addr, uint32_t size, uint32_t kind, bool desc) {
  const uint64_t tag = next_tag++;
  tags[tag] = Tag{j.token, size, desc};
  ++outstanding;
  ++j.inflight;
  if (host.mem_req == nullptr) {
    const uint64_t start = std::max(cycle + cal.mem_latency, mem_free_at);
    mem_free_at = start + (size + cal.mem_bytes_per_cycle - 1) / cal.mem_bytes_per_cycle - 1;
    mem.push_back(MemSlot{start, tag});
  } else {
    (void)addr;
    (void)kind;
  }
}

void otma_engine::Fault(Job& j, otma_status s) {
  j.status = s;
  j.fx.writes.clear();
  j.fx.complete_tx.clear();
  j.state = JobState::kCpl;
  j.t = cycle;
}

void otma_engine::StartJob(Job& j) {
  // The descriptor is ready: run the model (reads now, writes kept) and plan the requests.
  m::TensorMap* map = NeedsMap(j.op.kind) ? &j.map : nullptr;
  j.fx = Execute(j.op, j.token, map, true, true, (cfg.flags & OTMA_FLAG_NO_DATA) != 0);
  const otma_status st = otma_impl::FromModel(j.fx.status);
  if (st != OTMA_OK) {
    Fault(j, st);
    return;
  }
  if (j.fx.req_kind == OTMA_REQ_READ && !j.fx.sectors.empty()) {
    // Loads: responses pass the port as they come; out-of-bounds fill needs no memory.
    j.port_total = j.fx.oob + j.fx.sectors.size() * req_bytes;
    if (j.fx.oob > 0) {
      port_queue.emplace_back(j.token, j.fx.oob);
    }
  } else if (j.fx.smem_bytes > 0) {
    // Stores and reductions read their source first; shared-to-shared copies read and write.
    j.port_total = j.fx.smem_bytes;
    port_queue.emplace_back(j.token, j.port_total);
  }
  j.state = JobState::kGen;
}

void otma_engine::Respond(uint64_t tag, otma_status bus) {
  auto it = tags.find(tag);
  const Tag tg = it->second;
  tags.erase(it);
  --outstanding;
  auto jt = by_token.find(tg.op);
  if (jt == by_token.end()) {
    return;  // the op was dropped (watchdog)
  }
  Job& j = *jt->second;
  --j.inflight;
  j.last_progress = cycle;
  if (tg.desc) {
    if (bus != OTMA_OK) {
      Fault(j, OTMA_E_BUS_ERROR);
      return;
    }
    uint8_t b[128];
    m::Status st;
    if (host.gmem_read == nullptr || host.gmem_read(host.user, j.op.desc_va, b, 128) != 0) {
      st = m::Status::Error(m::ErrorClass::kBusError, "tensorMap", "reading the map failed");
    } else {
      st = m::DecodeDescriptor(b, &j.map);
    }
    if (!st.ok()) {
      Fault(j, otma_impl::FromModel(st));
      return;
    }
    desc_cache[j.op.desc_va] = std::vector<uint8_t>(b, b + 128);
    desc_lru.push_back(j.op.desc_va);
    while (desc_lru.size() > cal.desc_cache_entries) {
      desc_cache.erase(desc_lru.front());
      desc_lru.pop_front();
    }
    j.state = JobState::kDescReady;
    j.t = cycle + (IsTensorLoadIm2col(j.op) ? cal.im2col_extra : 0);
    return;
  }
  if (bus != OTMA_OK && j.status == OTMA_OK) {
    j.status = OTMA_E_BUS_ERROR;
  }
  ++j.responded;
  if (j.fx.req_kind == OTMA_REQ_READ) {
    port_queue.emplace_back(j.token, tg.size);
  }
}

void otma_engine::Finish(Job& j) {
  if (j.status == OTMA_OK) {
    for (const otma_impl::PendingWrite& w : j.fx.writes) {
      if (w.smem) {
        if (checker != nullptr) {
          checker->TmaSmemWrite(j.token, w.rank, static_cast<uint32_t>(w.addr),
                                static_cast<uint32_t>(w.bytes.size()), cycle);
        }
        if (host.smem_write != nullptr && !(cfg.flags & OTMA_FLAG_NO_DATA)) {
          host.smem_write(host.user, w.rank, static_cast<uint32_t>(w.addr), w.bytes.data(),
                          static_cast<uint32_t>(w.bytes.size()));
        }
      } else if (host.gmem_write != nullptr && !(cfg.flags & OTMA_FLAG_NO_DATA)) {
        host.gmem_write(host.user, w.addr, w.bytes.data(), static_cast<uint32_t>(w.bytes.size()));
      }
    }
    if (group_warp.count(j.token) && !j.read_done_sent) {
      Done(j.token, OTMA_EV_READ_DONE, OTMA_OK);
    }
    Signal(j.token, j.fx.complete_tx);
    Done(j.token, OTMA_EV_DONE, OTMA_OK);
  } else {
    Done(j.token, OTMA_EV_FAULT, j.status);
  }
}

void otma_engine::Step() {
  ++cycle;
  // The engine's own memory: responses in FIFO order at their cycle.
  while (!mem.empty() && mem.front().ready <= cycle) {
    const uint64_t tag = mem.front().tag;
    mem.pop_front();
    Respond(tag, OTMA_OK);
  }
  // Shared-memory port.
  uint64_t port = cal.smem_bytes_per_cycle;
  while (port > 0 && !port_queue.empty()) {
    auto& [tok, bytes] = port_queue.front();
    const uint64_t n = std::min(port, bytes);
    bytes -= n;
    port -= n;
    auto jt = by_token.find(tok);
    if (jt != by_token.end()) {
      jt->second->port_done += n;
      jt->second->last_progress = cycle;
    }
    if (bytes == 0) {
      port_queue.pop_front();
    }
  }
  bool agu_used = false;
  for (auto& jp : jobs) {
    Job& j = *jp;
    switch (j.state) {
      case JobState::kQueued:
        if (cycle >= j.t) {
          if (NeedsMap(j.op.kind) && j.op.desc_bytes == nullptr && j.op.desc == nullptr) {
            auto c = desc_cache.find(j.op.desc_va);
            if (c == desc_cache.end()) {
              if (host.mem_req != nullptr) {
                // A fetch the host refuses (its memory system is full) is offered again the
                // next cycle, as a data request is.
                const otma_mem_req r{next_tag, j.op.desc_va, 128, OTMA_REQ_DESC, j.token};
                if (host.mem_req(host.user, &r) != 0) {
                  break;
                }
              }
              Emit(j, j.op.desc_va, 128, OTMA_REQ_DESC, true);
              j.state = JobState::kDescWait;
              break;
            }
            const m::Status st = m::DecodeDescriptor(c->second.data(), &j.map);
            if (!st.ok()) {
              Fault(j, otma_impl::FromModel(st));
              break;
            }
          } else if (NeedsMap(j.op.kind)) {
            const m::Status st = ResolveMap(j.op, false, &j.map);
            if (!st.ok()) {
              Fault(j, otma_impl::FromModel(st));
              break;
            }
          }
          j.state = JobState::kDescReady;
          j.t = cycle + cal.desc_hit + (IsTensorLoadIm2col(j.op) ? cal.im2col_extra : 0);
        }
        break;
      case JobState::kDescReady:
        if (cycle >= j.t) {
          StartJob(j);
        }
        break;
      default:
        break;
    }
  }
  // Address generation: the oldest op still generating, agu_bytes_per_cycle of requests.
  for (auto& jp : jobs) {
    Job& j = *jp;
    if (j.state != JobState::kGen) {
      continue;
    }
    if (!agu_used) {
      agu_used = true;
      agu_credit = std::min<double>(agu_credit + cal.agu_bytes_per_cycle,
                                    cal.agu_bytes_per_cycle + req_bytes);
      const bool needs_port = j.fx.req_kind == OTMA_REQ_WRITE || j.fx.req_kind == OTMA_REQ_REDUCE;
      while (j.next_req < j.fx.sectors.size() && agu_credit >= req_bytes &&
             outstanding < cal.max_outstanding) {
        if (needs_port && j.port_done < j.port_total &&
            (j.next_req + 1) * req_bytes > j.port_done) {
          break;  // the shared-memory source of this request has not been read yet
        }
        const uint64_t a = j.fx.sectors[j.next_req];
        if (host.mem_req != nullptr) {
          otma_mem_req r{next_tag, a, req_bytes, j.fx.req_kind, j.token};
          if (host.mem_req(host.user, &r) != 0) {
            break;
          }
        }
        Emit(j, a, req_bytes, j.fx.req_kind, false);
        agu_credit -= req_bytes;
        ++j.next_req;
        j.last_progress = cycle;
      }
    }
    if (j.next_req >= j.fx.sectors.size()) {
      j.state = JobState::kWait;
    }
  }
  if (!agu_used) {
    agu_credit = 0;
  }
  // Completion.
  for (auto& jp : jobs) {
    Job& j = *jp;
    if (j.state == JobState::kWait) {
      if (group_warp.count(j.token) && !j.read_done_sent && j.port_done >= j.port_total &&
          j.status == OTMA_OK) {
        j.read_done_sent = true;
        Done(j.token, OTMA_EV_READ_DONE, OTMA_OK);
      }
      if (j.inflight == 0 && j.port_done >= j.port_total) {
        j.state = JobState::kCpl;
        j.t = cycle + cal.cpl_latency;
      }
    }
    if (j.state != JobState::kCpl && j.status == OTMA_OK &&
        cycle - j.last_progress > cfg.watchdog_cycles) {
      Fault(j, OTMA_E_TX_WATCHDOG);
    }
  }
  while (!jobs.empty()) {
    // Completions are signalled in order of their cycle; ops finish out of order.
    bool any = false;
    for (auto it = jobs.begin(); it != jobs.end(); ++it) {
      Job& j = **it;
      if (j.state == JobState::kCpl && cycle >= j.t) {
        std::unique_ptr<Job> hold = std::move(*it);
        jobs.erase(it);
        by_token.erase(hold->token);
        Finish(*hold);
        any = true;
        break;
      }
    }
    if (!any) {
      break;
    }
  }
}

otma_status otma_engine::Tick(uint64_t n) {
  if (cfg.mode == OTMA_MODE_FUNCTIONAL) {
    cycle += n;
    return OTMA_OK;
  }
  if (cfg.mode == OTMA_MODE_RTL) {
    return rtl->Tick(*this, n);
  }
  while (n > 0) {
    const uint64_t ne = NextEvent();
    if (ne > 1) {
      // Nothing happens before cycle + ne: skip to the cycle before it.
      const uint64_t skip = std::min<uint64_t>(n, ne == UINT64_MAX ? n : ne - 1);
      if (skip > 0) {
        // The watchdog counts skipped cycles too.
        cycle += skip;
        n -= skip;
        agu_credit = 0;
        if (!jobs.empty() && ne == UINT64_MAX) {
          for (auto& jp : jobs) {
            if (jp->state != JobState::kCpl && cycle - jp->last_progress > cfg.watchdog_cycles) {
              Fault(*jp, OTMA_E_TX_WATCHDOG);
              jp->t = cycle + 1;
            }
          }
        }
        continue;
      }
    }
    Step();
    --n;
  }
  return OTMA_OK;
}

uint64_t otma_engine::NextEvent() const {
  if (cfg.mode == OTMA_MODE_RTL) {
    return rtl->NextEvent();
  }
  if (cfg.mode == OTMA_MODE_FUNCTIONAL || jobs.empty()) {
    return UINT64_MAX;
  }
  if (!port_queue.empty()) {
    return 1;
  }
  uint64_t best = UINT64_MAX;
  for (const auto& jp : jobs) {
    const Job& j = *jp;
    switch (j.state) {
      case JobState::kGen:
        return 1;
      case JobState::kQueued:
      case JobState::kDescReady:
      case JobState::kCpl:
        best = std::min(best, j.t > cycle ? j.t - cycle : 1);
        break;
      case JobState::kWait:
        if (j.inflight == 0) {
          return 1;
        }
        if (host.mem_req != nullptr) {
          // waiting for the host: the watchdog is the only internal event
          best = std::min(best, j.last_progress + cfg.watchdog_cycles + 1 > cycle
                                    ? j.last_progress + cfg.watchdog_cycles + 1 - cycle
                                    : 1);
        }
        break;
      default:
        break;
    }
  }
  if (!mem.empty()) {
    best = std::min(best, mem.front().ready > cycle ? mem.front().ready - cycle : 1);
  }
  return best;
}

otma_status otma_engine::MemResp(uint64_t tag, otma_status bus) {
  if (cfg.mode == OTMA_MODE_RTL) {
    return rtl->MemResp(tag, bus);
  }
  if (tags.find(tag) == tags.end()) {
    return OTMA_E_UNKNOWN_TAG;
  }
  Respond(tag, bus);
  return OTMA_OK;
}

uint64_t otma_engine::Drain() {
  const uint64_t start = cycle;
  if (cfg.mode == OTMA_MODE_RTL) {
    return rtl->Drain(*this);
  }
  while (!jobs.empty()) {
    const uint64_t ne = NextEvent();
    if (ne == UINT64_MAX && host.mem_req != nullptr) {
      break;  // only the host can make progress
    }
    Tick(ne == UINT64_MAX ? cfg.watchdog_cycles + 2 : std::max<uint64_t>(ne, 1));
  }
  return cycle - start;
}

otma_status otma_engine::Invalidate(uint64_t va) {
  if (rtl) {
    rtl->Invalidate(va);
  }
  if (va == 0) {
    desc_cache.clear();
    desc_lru.clear();
    return OTMA_OK;
  }
  desc_cache.erase(va);
  desc_lru.erase(std::remove(desc_lru.begin(), desc_lru.end(), va), desc_lru.end());
  return OTMA_OK;
}

otma_status otma_engine::Expand(const otma_op& op, std::vector<otma_mem_req>* out,
                                uint64_t* payload, uint64_t* oob) {
  m::TensorMap map;
  if (NeedsMap(op.kind)) {
    const m::Status st = ResolveMap(op, false, &map);
    if (!st.ok()) {
      return otma_impl::FromModel(st);
    }
  }
  OpEffects fx = Execute(op, 0, &map, true, true, true);
  const otma_status st = otma_impl::FromModel(fx.status);
  if (st != OTMA_OK) {
    return st;
  }
  if (payload != nullptr) {
    *payload = fx.payload;
  }
  if (oob != nullptr) {
    *oob = fx.oob;
  }
  out->clear();
  out->reserve(fx.sectors.size());
  for (size_t i = 0; i < fx.sectors.size(); ++i) {
    out->push_back(otma_mem_req{i, fx.sectors[i], req_bytes, fx.req_kind, 0});
  }
  return OTMA_OK;
}

otma_status otma_engine::Expand(const otma_op& op, otma_mem_req* out, uint32_t cap, uint32_t* n,
                                uint64_t* payload, uint64_t* oob) {
  std::vector<otma_mem_req> all;
  const otma_status st = Expand(op, &all, payload, oob);
  if (st != OTMA_OK) {
    return st;
  }
  if (n != nullptr) {
    *n = static_cast<uint32_t>(all.size());
  }
  std::copy_n(all.begin(), std::min<size_t>(cap, all.size()), out);
  return OTMA_OK;
}

otma_status otma_engine::BulkCommit(uint32_t warp) {
  groups.For(warp).CommitGroup();
  return OTMA_OK;
}

int otma_engine::BulkWait(uint32_t warp, uint32_t n, bool read_only) {
  m::BulkGroupTracker& t = groups.For(warp);
  const bool ok = t.WaitGroupSatisfied(static_cast<int>(n), read_only);
  if (ok && !read_only) {
    t.Retire();
  }
  return ok ? 1 : 0;
}
