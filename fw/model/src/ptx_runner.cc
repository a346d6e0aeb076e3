// SPDX-License-Identifier: Apache-2.0
//
// tensormap.replace in global memory and PTX statements on the driver (tma/fw/ptx_runner.h).
#include "tma/fw/ptx_runner.h"

#include <utility>

namespace tma::fw {
namespace {

namespace m = tma::model;

static_assert(static_cast<int>(m::ErrorClass::kBusError) ==
              static_cast<int>(ErrorClass::kBusError));
static_assert(static_cast<int>(m::BulkType::kF64) == static_cast<int>(BulkType::kF64));
static_assert(static_cast<int>(m::RedOp::kXor) == static_cast<int>(RedOp::kXor));

Error Bad(Status s, std::string field, std::string msg) {
  return Error::Make(s, std::move(field), std::move(msg));
}

// The value of an operand: an immediate, or a bound register / symbol.
bool Value(const m::PtxOperand& o, const m::PtxBindings& b, int64_t* v) {
  if (o.kind == m::PtxOperand::Kind::kImm) {
    *v = o.value;
    return true;
  }
  if (o.kind == m::PtxOperand::Kind::kReg || o.kind == m::PtxOperand::Kind::kAddr) {
    int64_t base = 0;
    if (!o.name.empty()) {
      const auto it = b.values.find(o.name);
      if (it == b.values.end())
        return false;
      base = it->second;
    }
    *v = base + (o.kind == m::PtxOperand::Kind::kAddr ? o.value : 0);
    return true;
  }
  return false;
}

// cp.async.bulk (non-tensor) as the engine's bulk command.
Error RunBulkCopy(Device* dev, const m::PtxInstr& in, const m::PtxBindings& b,
                  const PtxRunOptions& opt, Ticket* ticket) {
  const m::BulkCopyConversion conv = m::ToBulkCopyInstr(in, b, opt.target);
  if (!conv.status.ok())
    return FromModel(conv.status);
  const m::BulkCopyInstr& k = conv.instr;
  switch (k.dir) {
    case m::BulkDir::kGlobalToSharedCta:
    case m::BulkDir::kGlobalToSharedCluster: {
      BulkLoadOptions o;
      o.cta = k.issuer_cta;
      o.to_cluster = k.dir == m::BulkDir::kGlobalToSharedCluster;
      o.dst_cta = k.dst_cta;
      o.cta_mask = k.multicast ? k.cta_mask : 0;
      return dev->LoadBulk(static_cast<uint32_t>(k.dst), k.src, k.size, k.mbar_addr, o, ticket);
    }
    case m::BulkDir::kSharedCtaToGlobal:
      return dev->StoreBulk(k.dst, static_cast<uint32_t>(k.src), k.size, k.issuer_cta,
                            k.byte_mask ? *k.byte_mask : -1, ticket);
    case m::BulkDir::kSharedCtaToSharedCluster:
      // dstMem and mbar lie in the destination CTA's window (-1: the issuer's, which the engine
      // refuses as the model does).
      return dev->CopyBulkToCluster(static_cast<uint32_t>(k.dst), static_cast<uint32_t>(k.src),
                                    k.size, k.mbar_addr, k.dst_cta >= 0 ? k.dst_cta : k.issuer_cta,
                                    k.issuer_cta, ticket);
  }
  return Bad(Status::kUnsupported, "dst", "unknown cp.async.bulk direction");
}

Error RunTensor(Device* dev, const m::PtxInstr& in, const m::PtxBindings& b,
                const PtxRunOptions& opt, Ticket* ticket) {
  const m::TensorConversion conv = m::ToTensorInstr(in, b, opt.target);
  if (!conv.status.ok())
    return FromModel(conv.status);
  const m::TensorInstr& ti = conv.instr;
  // The tensorMap operand: [tensorMap, {coords}].
  int64_t map_addr = -1;
  for (const m::PtxOperand& o : in.operands) {
    if (o.kind == m::PtxOperand::Kind::kTensorAddr) {
      const auto it = b.values.find(o.name);
      if (it == b.values.end())
        return Bad(Status::kBadArgument, o.name, "the tensorMap operand is not bound");
      map_addr = it->second;
    }
  }
  if (map_addr < 0)
    return Bad(Status::kBadArgument, "tensorMap", "no [tensorMap, {...}] operand");
  TensorOperands t;
  t.tensor_map = static_cast<uint64_t>(map_addr);
  t.dim = ti.dim;
  t.mode = static_cast<TensorMode>(ti.mode);
  t.coords = ti.coords;
  t.im2col = ti.im2col_info;
  t.smem = ti.smem_addr;
  t.cta = ti.issuer_cta;
  switch (ti.op) {
    case m::Op::kLoad: {
      LoadOptions lo;
      lo.mbar = ti.mbar_addr;
      lo.dst_cta = ti.dst_cta;
      lo.cta_mask = ti.multicast ? ti.cta_mask : 0;
      lo.cta_group = ti.cta_group;
      return dev->LoadTensor(t, lo, ticket);
    }
    case m::Op::kStore:
      return dev->StoreTensor(t, ticket);
    case m::Op::kReduce:
      return dev->ReduceTensor(static_cast<RedOp>(ti.redop), t, ticket);
    case m::Op::kPrefetch:
      return dev->PrefetchTensor(t, ticket);
  }
  return Bad(Status::kUnsupported, "op", "unknown tensor operation");
}

Error RunReplace(Device* dev, const m::PtxInstr& in, const m::PtxBindings& b) {
  const std::optional<m::ReplaceField> f = m::ParseReplaceField(m::ToString(in.field));
  if (!f)
    return Bad(Status::kBadArgument, "field", "unknown tensormap.replace field");
  const bool has_ord = m::ReplaceFieldHasOrdinal(*f);
  if (in.operands.size() != (has_ord ? 3u : 2u))
    return Bad(Status::kBadArgument, "operands", "tensormap.replace operand count");
  int64_t addr = 0, ord = 0, val = 0;
  if (!Value(in.operands[0], b, &addr))
    return Bad(Status::kBadArgument, "addr", "the map address is not bound");
  if (has_ord && !Value(in.operands[1], b, &ord))
    return Bad(Status::kBadArgument, "ord", "the ordinal is not bound");
  if (!Value(in.operands.back(), b, &val))
    return Bad(Status::kBadArgument, "new_val", "the new value is not bound");
  return ReplaceTensorMapField(dev, static_cast<uint64_t>(addr), *f, static_cast<int>(ord),
                               static_cast<uint64_t>(val));
}

}  // namespace

Error FromModel(const m::Status& s) {
  if (s.ok())
    return {};
  Error e;
  e.status = s.cls == m::ErrorClass::kUnsupported ? Status::kUnsupported : Status::kBadArgument;
  e.error_class = static_cast<ErrorClass>(s.cls);
  e.field = s.field;
  e.message = s.message;
  return e;
}

Error ReplaceTensorMapField(Device* dev, uint64_t map_addr, m::ReplaceField field, int ordinal,
                            uint64_t value) {
  TensorMap map;
  if (Error e = dev->ReadTensorMap(map_addr, &map); !e.ok())
    return e;
  if (Error e = FromModel(
          m::TensormapReplace(map.bytes.data(), field, ordinal, value, dev->config().arch));
      !e.ok()) {
    return e;
  }
  if (Error e = dev->WriteTensorMap(map_addr, map); !e.ok())
    return e;
  return dev->InvalidateDescriptors();
}

Error RunPtx(Device* dev, const std::string& text, const m::PtxBindings& b,
             const PtxRunOptions& opt, Ticket* ticket) {
  const m::PtxParseResult p = m::Parse(text);
  if (!p.ok())
    return FromModel(p.status);
  const m::PtxInstr& in = p.instr;
  if (m::Status c = m::Check(in, opt.target); !c.ok())
    return FromModel(c);
  switch (in.opcode) {
    case m::PtxOpcode::kBulkTensor:
    case m::PtxOpcode::kReduceBulkTensor:
    case m::PtxOpcode::kPrefetchTensor:
      return RunTensor(dev, in, b, opt, ticket);
    case m::PtxOpcode::kCommitGroup:
      return dev->CommitGroup();
    case m::PtxOpcode::kWaitGroup: {
      int64_t n = 0;
      if (in.operands.empty() || !Value(in.operands[0], b, &n))
        return Bad(Status::kBadArgument, "N", "wait_group needs N");
      return in.read ? dev->WaitGroupRead(static_cast<int>(n), opt.wait_timeout_us)
                     : dev->WaitGroup(static_cast<int>(n), opt.wait_timeout_us);
    }
    case m::PtxOpcode::kTensormapReplace:
      return RunReplace(dev, in, b);
    case m::PtxOpcode::kBulk:
      return RunBulkCopy(dev, in, b, opt, ticket);
    case m::PtxOpcode::kReduceBulk: {
      const m::BulkReduceConversion conv = m::ToBulkReduceInstr(in, b, opt.target);
      if (!conv.status.ok())
        return FromModel(conv.status);
      const m::BulkReduceInstr& r = conv.instr;
      if (r.dir == m::BulkDir::kSharedCtaToSharedCluster)
        return dev->ReduceBulkToCluster(static_cast<RedOp>(r.redop), static_cast<BulkType>(r.type),
                                        static_cast<uint32_t>(r.dst), r.src, r.size, r.mbar_addr,
                                        r.dst_cta >= 0 ? r.dst_cta : r.issuer_cta, r.issuer_cta,
                                        ticket);
      return dev->ReduceBulk(static_cast<RedOp>(r.redop), static_cast<BulkType>(r.type), r.dst,
                             r.src, r.size, r.issuer_cta, ticket);
    }
    case m::PtxOpcode::kPrefetch: {
      const m::BulkPrefetchConversion conv = m::ToBulkPrefetchInstr(in, b, opt.target);
      if (!conv.status.ok())
        return FromModel(conv.status);
      return dev->PrefetchBulk(conv.instr.src, conv.instr.size, ticket);
    }
    default:
      return Bad(Status::kUnsupported, m::ToString(in.opcode),
                 "mbarrier instructions act on the cluster shell's barriers, not the engine");
  }
}

Error RunPtxBlock(Device* dev, const std::string& text, const m::PtxBindings& b,
                  const PtxRunOptions& opt, int* ran) {
  // Comments go first: a ';' inside one must not split a statement.
  std::string code;
  for (size_t pos = 0; pos < text.size();) {
    const size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    const size_t c = line.find("//");
    if (c != std::string::npos)
      line.erase(c);
    code += line + "\n";
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  int n = 0;
  if (ran != nullptr)
    *ran = 0;
  for (size_t pos = 0; pos < code.size();) {
    const size_t semi = code.find(';', pos);
    const std::string stmt =
        code.substr(pos, semi == std::string::npos ? std::string::npos : semi - pos);
    pos = semi == std::string::npos ? code.size() : semi + 1;
    if (stmt.find_first_not_of(" \t\r\n") == std::string::npos || m::ParseRegDecl(stmt + ";"))
      continue;
    Error e = RunPtx(dev, stmt + ";", b, opt);
    ++n;
    if (!e.ok()) {
      e.message = "statement " + std::to_string(n) + ": " + e.message;
      return e;
    }
    if (ran != nullptr)
      *ran = n;
  }
  return {};
}

}  // namespace tma::fw
