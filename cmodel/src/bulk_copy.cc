// SPDX-License-Identifier: Apache-2.0
#include "tma/bulk_copy.h"

#include <string>

#include "tma/reduce.h"

namespace tma::model {

const char* ToString(BulkDir d) {
  switch (d) {
    case BulkDir::kGlobalToSharedCta:
      return "shared::cta.global";
    case BulkDir::kGlobalToSharedCluster:
      return "shared::cluster.global";
    case BulkDir::kSharedCtaToSharedCluster:
      return "shared::cluster.shared::cta";
    case BulkDir::kSharedCtaToGlobal:
      return "global.shared::cta";
  }
  return "?";
}

namespace {

constexpr const char* kBulkTypeNames[kNumBulkTypes] = {"b32", "u32", "s32",  "b64", "u64",
                                                       "s64", "f16", "bf16", "f32", "f64"};

std::string Hex(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}

Status Err(ErrorClass c, const std::string& field, const std::string& msg) {
  return Status::Error(c, field, msg);
}

bool IsMbarrierDir(BulkDir d) {
  return d != BulkDir::kSharedCtaToGlobal;
}

Status CheckSizeAndAlign(uint32_t size, bool ptx_size_check, uint64_t dst, uint64_t src,
                         bool has_dst, bool has_src) {
  if (ptx_size_check && size % 16 != 0) {
    return Err(ErrorClass::kInvalidInstruction, "size",
               "size must be a multiple of 16 bytes (got " + std::to_string(size) + ")");
  }
  if (has_dst && dst % 16 != 0) {
    return Err(ErrorClass::kMisaligned, "dstMem",
               "dstMem must be 16-byte aligned (got " + Hex(dst) + ")");
  }
  if (has_src && src % 16 != 0) {
    return Err(ErrorClass::kMisaligned, "srcMem",
               "srcMem must be 16-byte aligned (got " + Hex(src) + ")");
  }
  return Status::Ok();
}

Status CheckSharedRange(const char* field, uint64_t off, uint32_t size) {
  if (off + size > (uint64_t{1} << 32)) {
    return Err(ErrorClass::kInvalidInstruction, field,
               std::string(field) + " + size overflows the 32-bit shared window");
  }
  return Status::Ok();
}

Status CheckCta(const char* field, int cta, int num_ctas) {
  if (cta < 0 || cta >= num_ctas) {
    return Err(ErrorClass::kInvalidInstruction, field,
               std::string(field) + " names CTA " + std::to_string(cta) +
                   ", outside the cluster of " + std::to_string(num_ctas));
  }
  return Status::Ok();
}

// Resolved destination CTA of a non-multicast shared::cluster destination.
int DstCta(int dst_cta, int issuer) {
  return dst_cta < 0 ? issuer : dst_cta;
}

// Probe that [addr, addr+n) is inside CTA `cta`'s window without changing it.
bool SharedRangeOk(SharedMemoryIf& smem, int cta, uint32_t addr, uint32_t n) {
  if (n == 0) {
    return true;
  }
  std::vector<uint8_t> tmp(n);
  return smem.Read(cta, addr, tmp.data(), n);
}

Status BusError(const char* field, const std::string& what) {
  return Err(ErrorClass::kBusError, field, what);
}

DType ElementDType(RedOp op, BulkType t) {
  switch (t) {
    case BulkType::kB32:
    case BulkType::kU32:
      return DType::kU32;
    case BulkType::kS32:
      return DType::kS32;
    case BulkType::kB64:
    case BulkType::kU64:
      return DType::kU64;
    case BulkType::kS64:
      return DType::kS64;
    case BulkType::kF16:
      return DType::kF16;
    case BulkType::kBF16:
      return DType::kBF16;
    case BulkType::kF32:
      // Seed 004 line 334: the f32 add flushes subnormal inputs and results.
      return op == RedOp::kAdd ? DType::kF32Ftz : DType::kF32;
    case BulkType::kF64:
      return DType::kF64;
  }
  return DType::kU32;
}

}  // namespace

uint32_t BulkMovedBytes(uint32_t size, bool ptx_size_check) {
  return ptx_size_check ? size : size & ~uint32_t{15};
}

const char* ToString(BulkType t) {
  return kBulkTypeNames[static_cast<int>(t)];
}

std::optional<BulkType> ParseBulkType(const std::string& s) {
  for (int i = 0; i < kNumBulkTypes; ++i) {
    if (s == kBulkTypeNames[i]) {
      return static_cast<BulkType>(i);
    }
  }
  return std::nullopt;
}

int BulkTypeBytes(BulkType t) {
  switch (t) {
    case BulkType::kF16:
    case BulkType::kBF16:
      return 2;
    case BulkType::kB64:
    case BulkType::kU64:
    case BulkType::kS64:
    case BulkType::kF64:
      return 8;
    default:
      return 4;
  }
}

Status BulkReduceSupported(BulkDir dir, RedOp op, BulkType t, bool noftz) {
  using B = BulkType;
  const bool global = dir == BulkDir::kSharedCtaToGlobal;
  if (dir != BulkDir::kSharedCtaToGlobal && dir != BulkDir::kSharedCtaToSharedCluster) {
    return Err(ErrorClass::kInvalidInstruction, ".dst",
               std::string("cp.reduce.async.bulk has no direction .") + ToString(dir));
  }
  auto in = [t](std::initializer_list<B> l) {
    for (B b : l) {
      if (b == t) {
        return true;
      }
    }
    return false;
  };
  bool ok = false;
  switch (op) {
    case RedOp::kAdd:
      ok = global ? in({B::kU32, B::kS32, B::kU64, B::kF32, B::kF64, B::kF16, B::kBF16})
                  : in({B::kU32, B::kS32, B::kU64});
      break;
    case RedOp::kMin:
    case RedOp::kMax:
      ok = global ? in({B::kU32, B::kS32, B::kU64, B::kS64, B::kF16, B::kBF16})
                  : in({B::kU32, B::kS32});
      break;
    case RedOp::kInc:
    case RedOp::kDec:
      ok = in({B::kU32});
      break;
    case RedOp::kAnd:
    case RedOp::kOr:
    case RedOp::kXor:
      ok = global ? in({B::kB32, B::kB64}) : in({B::kB32});
      break;
  }
  const std::string pair = std::string(".") + model::ToString(op) + "." + ToString(t);
  if (!ok) {
    return Err(ErrorClass::kUnsupportedReduction, "redOp.type",
               pair + " is not in the cp.reduce.async.bulk table for ." +
                   (global ? "global" : "shared::cluster") + " (seed 004 lines 340-349)");
  }
  const bool half = t == B::kF16 || t == B::kBF16;
  if (noftz && !(global && op == RedOp::kAdd && half)) {
    return Err(ErrorClass::kInvalidInstruction, ".noftz",
               ".noftz is only defined for .add.f16 / .add.bf16 to .global (got " + pair + ")");
  }
  if (op == RedOp::kAdd && half && !noftz) {
    return Err(ErrorClass::kInvalidInstruction, ".noftz",
               pair + " requires the .noftz qualifier (seed 004 line 335)");
  }
  return Status::Ok();
}

Status CheckBulkCopy(const BulkCopyInstr& in, int num_ctas) {
  const BulkDir d = in.dir;
  Status s = CheckCta("issuer", in.issuer_cta, num_ctas);
  if (!s.ok()) {
    return s;
  }
  if (in.multicast && d != BulkDir::kGlobalToSharedCluster) {
    return Err(
        ErrorClass::kInvalidInstruction, ".multicast::cluster",
        std::string(".multicast::cluster is only allowed on .shared::cluster.global, not .") +
            ToString(d));
  }
  if (in.byte_mask && d != BulkDir::kSharedCtaToGlobal) {
    return Err(ErrorClass::kInvalidInstruction, ".cp_mask",
               std::string(".cp_mask is only allowed on .global.shared::cta, not .") + ToString(d));
  }
  if (in.cache_policy && d == BulkDir::kSharedCtaToSharedCluster) {
    return Err(ErrorClass::kInvalidInstruction, ".L2::cache_hint",
               ".L2::cache_hint needs .global as .src or .dst (seed 004 line 142)");
  }
  s = CheckSizeAndAlign(in.size, in.ptx_size_check, in.dst, in.src, true, true);
  if (!s.ok()) {
    return s;
  }
  if (IsMbarrierDir(d) && in.mbar_addr % 8 != 0) {
    return Err(ErrorClass::kMisaligned, "mbar",
               "the mbarrier must be 8-byte aligned (got " + Hex(in.mbar_addr) + ")");
  }
  switch (d) {
    case BulkDir::kGlobalToSharedCta:
      if (in.dst_cta >= 0 && in.dst_cta != in.issuer_cta) {
        return Err(ErrorClass::kInvalidInstruction, "dstMem",
                   "a .shared::cta destination must be in the executing CTA " +
                       std::to_string(in.issuer_cta) + " (got CTA " + std::to_string(in.dst_cta) +
                       ")");
      }
      return CheckSharedRange("dstMem", in.dst, BulkMovedBytes(in.size, in.ptx_size_check));
    case BulkDir::kGlobalToSharedCluster:
      if (in.multicast) {
        if (num_ctas < 16 && (in.cta_mask >> num_ctas) != 0) {
          return Err(ErrorClass::kInvalidInstruction, "ctaMask",
                     "ctaMask " + Hex(in.cta_mask) + " names CTAs beyond the cluster of " +
                         std::to_string(num_ctas) + " (silicon F6: launch failure)");
        }
      } else {
        s = CheckCta("dstMem", DstCta(in.dst_cta, in.issuer_cta), num_ctas);
        if (!s.ok()) {
          return s;
        }
      }
      return CheckSharedRange("dstMem", in.dst, BulkMovedBytes(in.size, in.ptx_size_check));
    case BulkDir::kSharedCtaToSharedCluster: {
      const int dc = DstCta(in.dst_cta, in.issuer_cta);
      s = CheckCta("dstMem", dc, num_ctas);
      if (!s.ok()) {
        return s;
      }
      if (dc == in.issuer_cta) {
        return Err(ErrorClass::kInvalidInstruction, "dstMem",
                   ".shared::cluster.shared::cta needs a destination in a different CTA than the "
                   "executing one (seed 004 line 106)");
      }
      s = CheckSharedRange("srcMem", in.src, BulkMovedBytes(in.size, in.ptx_size_check));
      if (!s.ok()) {
        return s;
      }
      return CheckSharedRange("dstMem", in.dst, BulkMovedBytes(in.size, in.ptx_size_check));
    }
    case BulkDir::kSharedCtaToGlobal:
      return CheckSharedRange("srcMem", in.src, BulkMovedBytes(in.size, in.ptx_size_check));
  }
  return Status::Ok();
}

Status CheckBulkReduce(const BulkReduceInstr& in, int num_ctas) {
  Status s = CheckCta("issuer", in.issuer_cta, num_ctas);
  if (!s.ok()) {
    return s;
  }
  s = BulkReduceSupported(in.dir, in.redop, in.type, in.noftz);
  if (!s.ok()) {
    return s;
  }
  if (in.cache_policy && in.dir != BulkDir::kSharedCtaToGlobal) {
    return Err(ErrorClass::kInvalidInstruction, ".L2::cache_hint",
               ".L2::cache_hint needs .global as .src or .dst (seed 004 line 376)");
  }
  s = CheckSizeAndAlign(in.size, in.ptx_size_check, in.dst, in.src, true, true);
  if (!s.ok()) {
    return s;
  }
  s = CheckSharedRange("srcMem", in.src, BulkMovedBytes(in.size, in.ptx_size_check));
  if (!s.ok()) {
    return s;
  }
  if (in.dir == BulkDir::kSharedCtaToSharedCluster) {
    if (in.mbar_addr % 8 != 0) {
      return Err(ErrorClass::kMisaligned, "mbar",
                 "the mbarrier must be 8-byte aligned (got " + Hex(in.mbar_addr) + ")");
    }
    s = CheckCta("dstMem", DstCta(in.dst_cta, in.issuer_cta), num_ctas);
    if (!s.ok()) {
      return s;
    }
    return CheckSharedRange("dstMem", in.dst, BulkMovedBytes(in.size, in.ptx_size_check));
  }
  return Status::Ok();
}

Status CheckBulkPrefetch(const BulkPrefetchInstr& in) {
  return CheckSizeAndAlign(in.size, in.ptx_size_check, 0, in.src, false, true);
}

BulkResult ExecuteBulkCopy(const BulkCopyInstr& in, GlobalMemoryIf& gmem, SharedMemoryIf& smem) {
  BulkResult r;
  r.status = CheckBulkCopy(in, smem.NumCtas());
  if (!r.status.ok()) {
    return r;
  }
  const uint32_t n = BulkMovedBytes(in.size, in.ptx_size_check);
  std::vector<uint8_t> data(n);
  // Source.
  if (in.dir == BulkDir::kGlobalToSharedCta || in.dir == BulkDir::kGlobalToSharedCluster) {
    if (n != 0 && !gmem.Read(in.src, data.data(), n)) {
      r.status = BusError(
          "srcMem", "global read of " + std::to_string(n) + " bytes at " + Hex(in.src) + " failed");
      return r;
    }
  } else if (n != 0 && !smem.Read(in.issuer_cta, static_cast<uint32_t>(in.src), data.data(), n)) {
    r.status = BusError("srcMem", "srcMem range " + Hex(in.src) + " + " + std::to_string(n) +
                                      " is outside CTA " + std::to_string(in.issuer_cta) +
                                      "'s shared window");
    return r;
  }
  // Destination(s).
  if (in.dir == BulkDir::kSharedCtaToGlobal) {
    r.bulk_group = true;
    if (!in.byte_mask) {
      if (n != 0 && !gmem.Write(in.dst, data.data(), n)) {
        r.status = BusError("dstMem", "global write at " + Hex(in.dst) + " failed");
      }
      return r;
    }
    // .cp_mask: byte i of each 16-byte chunk is written iff bit i is set; runs of set bits
    // are written as one access, clear bytes are left untouched.
    const uint16_t mask = *in.byte_mask;
    for (uint32_t chunk = 0; chunk < n; chunk += 16) {
      int i = 0;
      while (i < 16) {
        if (((mask >> i) & 1) == 0) {
          ++i;
          continue;
        }
        int j = i;
        while (j < 16 && ((mask >> j) & 1) != 0) {
          ++j;
        }
        if (!gmem.Write(in.dst + chunk + i, data.data() + chunk + i, j - i)) {
          r.status = BusError("dstMem", "global write at " + Hex(in.dst + chunk + i) + " failed");
          return r;
        }
        i = j;
      }
    }
    return r;
  }
  std::vector<int> ctas;
  if (in.multicast) {
    for (int c = 0; c < smem.NumCtas() && c < kMaxCtas; ++c) {
      if ((in.cta_mask >> c) & 1) {
        ctas.push_back(c);
      }
    }
  } else {
    ctas.push_back(in.dir == BulkDir::kGlobalToSharedCta ? in.issuer_cta
                                                         : DstCta(in.dst_cta, in.issuer_cta));
  }
  const uint32_t dst = static_cast<uint32_t>(in.dst);
  for (int c : ctas) {
    if (!SharedRangeOk(smem, c, dst, n)) {
      r.status =
          BusError("dstMem", "dstMem range " + Hex(dst) + " + " + std::to_string(n) +
                                 " is outside CTA " + std::to_string(c) + "'s shared window");
      return r;
    }
  }
  for (int c : ctas) {
    if (n != 0) {
      smem.Write(c, dst, data.data(), n);
    }
    r.complete_tx.push_back(CompleteTx{c, in.mbar_addr, n});
  }
  return r;
}

BulkResult ExecuteBulkReduce(const BulkReduceInstr& in, GlobalMemoryIf& gmem,
                             SharedMemoryIf& smem) {
  BulkResult r;
  r.status = CheckBulkReduce(in, smem.NumCtas());
  if (!r.status.ok()) {
    return r;
  }
  const uint32_t n = BulkMovedBytes(in.size, in.ptx_size_check);
  const DType et = ElementDType(in.redop, in.type);
  if (!ReductionSupported(in.redop, et)) {
    // The seed's table allows it but the element arithmetic does not implement it.
    r.status = Err(ErrorClass::kUnsupported, "redOp.type",
                   std::string("no element arithmetic for .") + model::ToString(in.redop) + "." +
                       ToString(in.type));
    return r;
  }
  std::vector<uint8_t> src(n);
  std::vector<uint8_t> dst(n);
  if (n != 0 && !smem.Read(in.issuer_cta, in.src, src.data(), n)) {
    r.status = BusError("srcMem", "srcMem range " + Hex(in.src) + " + " + std::to_string(n) +
                                      " is outside CTA " + std::to_string(in.issuer_cta) +
                                      "'s shared window");
    return r;
  }
  const bool global = in.dir == BulkDir::kSharedCtaToGlobal;
  const int dc = DstCta(in.dst_cta, in.issuer_cta);
  const uint32_t dst_off = static_cast<uint32_t>(in.dst);
  bool read_ok =
      n == 0 || (global ? gmem.Read(in.dst, dst.data(), n) : smem.Read(dc, dst_off, dst.data(), n));
  if (!read_ok) {
    r.status = BusError(
        "dstMem", "reading the destination " + Hex(in.dst) + " + " + std::to_string(n) + " failed");
    return r;
  }
  const int eb = BulkTypeBytes(in.type);
  for (uint32_t i = 0; i + eb <= n; i += eb) {
    ReduceElement(in.redop, et, dst.data() + i, src.data() + i);
  }
  bool write_ok = n == 0 || (global ? gmem.Write(in.dst, dst.data(), n)
                                    : smem.Write(dc, dst_off, dst.data(), n));
  if (!write_ok) {
    r.status = BusError("dstMem", "writing the destination " + Hex(in.dst) + " failed");
    return r;
  }
  if (global) {
    r.bulk_group = true;
  } else {
    r.complete_tx.push_back(CompleteTx{dc, in.mbar_addr, n});
  }
  return r;
}

BulkResult ExecuteBulkPrefetch(const BulkPrefetchInstr& in) {
  BulkResult r;
  r.status = CheckBulkPrefetch(in);
  r.bulk_group = false;
  return r;
}

}  // namespace tma::model
