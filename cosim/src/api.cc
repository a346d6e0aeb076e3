// SPDX-License-Identifier: Apache-2.0
//
// The C entry points: argument and version checks, then the engine (engine.cc). No exception
// leaves the library: an allocation failure or a model exception becomes OTMA_E_ARGUMENT.
#include <cstddef>
#include <cstring>
#include <new>

#include "engine.h"
#include "opentma/cosim.h"
#include "rtl_backend.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"

namespace {

// The size of the first ABI version of each struct: a caller's struct_size must reach it.
constexpr uint32_t kConfigV1 = offsetof(otma_config, checker) + sizeof(otma_checker*);
constexpr uint32_t kHostV1 = offsetof(otma_host, log) + sizeof(void*);
constexpr uint32_t kOpV1 = offsetof(otma_op, replace_value) + sizeof(uint64_t);
constexpr uint32_t kParamsV1 = offsetof(otma_tensor_params, wide_mode) + sizeof(uint32_t);
constexpr uint32_t kCheckerV1 = offsetof(otma_checker_config, report) + sizeof(void*);

// Copies a caller's struct of size struct_size into a zeroed current one (fields the caller's
// version lacks stay zero = default).
template <typename T>
T Widen(const T* in) {
  T out;
  std::memset(&out, 0, sizeof out);
  std::memcpy(&out, in, in->struct_size < sizeof(T) ? in->struct_size : sizeof(T));
  return out;
}

// The caller's op (and its decoded parameters) widened to the current structs; p receives the
// parameters when the op has some.
otma_status WidenOp(const otma_op* op, otma_op* o, otma_tensor_params* p) {
  if (op->struct_size < kOpV1) {
    return OTMA_E_STRUCT_SIZE;
  }
  *o = Widen(op);
  if (o->desc != nullptr) {
    if (o->desc->struct_size < kParamsV1) {
      return OTMA_E_STRUCT_SIZE;
    }
    *p = Widen(o->desc);
    o->desc = p;
  }
  return OTMA_OK;
}

}  // namespace

extern "C" {

uint32_t otma_abi_version(void) {
  return OTMA_ABI_VERSION;
}

const char* otma_status_str(otma_status s) {
  switch (s) {
    case OTMA_OK:
      return "ok";
    case OTMA_E_INVALID_DESCRIPTOR:
      return "invalid_descriptor";
    case OTMA_E_MISALIGNED:
      return "misaligned";
    case OTMA_E_MISALIGNED_COORDINATE:
      return "misaligned_coordinate";
    case OTMA_E_INVALID_COORDINATE:
      return "invalid_coordinate";
    case OTMA_E_UNSUPPORTED_REDUCTION:
      return "unsupported_reduction";
    case OTMA_E_INVALID_INSTRUCTION:
      return "invalid_instruction";
    case OTMA_E_UNSUPPORTED:
      return "unsupported";
    case OTMA_E_BUS_ERROR:
      return "bus_error";
    case OTMA_E_BUSY:
      return "busy";
    case OTMA_E_TX_WATCHDOG:
      return "tx_watchdog";
    case OTMA_E_VERSION:
      return "abi_version_mismatch";
    case OTMA_E_STRUCT_SIZE:
      return "struct_size_too_small";
    case OTMA_E_ARGUMENT:
      return "bad_argument";
    case OTMA_E_NO_BACKEND:
      return "no_backend";
    case OTMA_E_UNKNOWN_TAG:
      return "unknown_tag";
    default:
      return "unknown_status";
  }
}

otma_status otma_create(const otma_config* cfg, const otma_host* host, otma_engine** out) {
  if (cfg == nullptr || host == nullptr || out == nullptr) {
    return OTMA_E_ARGUMENT;
  }
  *out = nullptr;
  if ((cfg->abi_version >> 16) != OTMA_ABI_MAJOR) {
    return OTMA_E_VERSION;
  }
  if (cfg->struct_size < kConfigV1 || host->struct_size < kHostV1) {
    return OTMA_E_STRUCT_SIZE;
  }
  const otma_config c = Widen(cfg);
  const otma_host h = Widen(host);
  if (c.mode > OTMA_MODE_RTL || c.arch > OTMA_ARCH_SM103 || c.cluster_size > 16 ||
      (c.req_bytes != 0 && c.req_bytes != 32 && c.req_bytes != 64 && c.req_bytes != 128)) {
    return OTMA_E_ARGUMENT;
  }
  if (c.mode == OTMA_MODE_FUNCTIONAL && (h.gmem_read == nullptr || h.smem_write == nullptr ||
                                         h.smem_read == nullptr || h.gmem_write == nullptr)) {
    return OTMA_E_ARGUMENT;  // FUNCTIONAL moves data: every data callback is needed
  }
  try {
    auto e = new otma_engine(c, h);
    if (c.mode == OTMA_MODE_RTL) {
      e->rtl = otma_impl::MakeRtlBackend(c);
      if (!e->rtl) {
        delete e;
        return OTMA_E_NO_BACKEND;
      }
    }
    *out = e;
    return OTMA_OK;
  } catch (...) {
    return OTMA_E_ARGUMENT;
  }
}

void otma_destroy(otma_engine* e) {
  delete e;
}

otma_status otma_submit(otma_engine* e, const otma_op* op, otma_token* token) {
  if (e == nullptr || op == nullptr) {
    return OTMA_E_ARGUMENT;
  }
  otma_op o;
  otma_tensor_params p;
  if (const otma_status st = WidenOp(op, &o, &p); st != OTMA_OK) {
    return st;
  }
  try {
    return e->Submit(o, token);
  } catch (...) {
    return OTMA_E_ARGUMENT;
  }
}

otma_status otma_tick(otma_engine* e, uint64_t cycles) {
  if (e == nullptr) {
    return OTMA_E_ARGUMENT;
  }
  try {
    return e->Tick(cycles);
  } catch (...) {
    return OTMA_E_ARGUMENT;
  }
}

uint64_t otma_next_event(const otma_engine* e) {
  return e == nullptr ? UINT64_MAX : e->NextEvent();
}

otma_status otma_mem_resp(otma_engine* e, uint64_t tag, otma_status bus_status) {
  if (e == nullptr) {
    return OTMA_E_ARGUMENT;
  }
  try {
    return e->MemResp(tag, bus_status);
  } catch (...) {
    return OTMA_E_ARGUMENT;
  }
}

uint64_t otma_drain(otma_engine* e) {
  if (e == nullptr) {
    return 0;
  }
  try {
    return e->Drain();
  } catch (...) {
    return 0;
  }
}

otma_status otma_invalidate_desc(otma_engine* e, uint64_t desc_va) {
  return e == nullptr ? OTMA_E_ARGUMENT : e->Invalidate(desc_va);
}

uint64_t otma_cycle(const otma_engine* e) {
  return e == nullptr ? 0 : e->cycle;
}

uint32_t otma_in_flight(const otma_engine* e) {
  if (e == nullptr) {
    return 0;
  }
  if (e->cfg.mode == OTMA_MODE_RTL) {
    return e->rtl->InFlightOps();
  }
  return static_cast<uint32_t>(e->jobs.size());
}

otma_status otma_expand(otma_engine* e, const otma_op* op, otma_mem_req* out, uint32_t cap,
                        uint32_t* n, uint64_t* payload_bytes, uint64_t* oob_bytes) {
  if (e == nullptr || op == nullptr || (out == nullptr && cap > 0)) {
    return OTMA_E_ARGUMENT;
  }
  otma_op o;
  otma_tensor_params p;
  if (const otma_status st = WidenOp(op, &o, &p); st != OTMA_OK) {
    return st;
  }
  try {
    return e->Expand(o, out, cap, n, payload_bytes, oob_bytes);
  } catch (...) {
    return OTMA_E_ARGUMENT;
  }
}

otma_status otma_bulk_commit(otma_engine* e, uint32_t warp) {
  return e == nullptr ? OTMA_E_ARGUMENT : e->BulkCommit(warp);
}

int otma_bulk_wait(otma_engine* e, uint32_t warp, uint32_t n, int read_only) {
  return e == nullptr ? 0 : e->BulkWait(warp, n, read_only != 0);
}

otma_status otma_encode_tensor_map(const otma_tensor_params* p, uint32_t arch, uint8_t out[128]) {
  if (p == nullptr || out == nullptr || arch > OTMA_ARCH_SM103) {
    return OTMA_E_ARGUMENT;
  }
  if (p->struct_size < kParamsV1) {
    return OTMA_E_STRUCT_SIZE;
  }
  const otma_tensor_params q = Widen(p);
  const tma::model::TensorMap m = otma_impl::ParamsToMap(q);
  const tma::model::Status st =
      tma::model::ValidateTensorMap(m, static_cast<tma::model::Arch>(arch));
  if (!st.ok()) {
    return otma_impl::FromModel(st);
  }
  const tma::model::DescriptorBytes b = tma::model::EncodeDescriptor(m);
  std::memcpy(out, b.data(), 128);
  return OTMA_OK;
}

otma_status otma_decode_tensor_map(const uint8_t map[128], otma_tensor_params* out) {
  if (map == nullptr || out == nullptr) {
    return OTMA_E_ARGUMENT;
  }
  if (out->struct_size < kParamsV1) {
    return OTMA_E_STRUCT_SIZE;
  }
  tma::model::TensorMap m;
  const tma::model::Status st = tma::model::DecodeDescriptor(map, &m);
  if (!st.ok()) {
    return otma_impl::FromModel(st);
  }
  const uint32_t size = out->struct_size;
  otma_tensor_params full;
  otma_impl::MapToParams(m, &full);
  std::memcpy(out, &full, size < sizeof full ? size : sizeof full);
  out->struct_size = size;
  return OTMA_OK;
}

otma_status otma_checker_create(const otma_checker_config* cfg, otma_checker** out) {
  if (cfg == nullptr || out == nullptr) {
    return OTMA_E_ARGUMENT;
  }
  if (cfg->struct_size < kCheckerV1) {
    return OTMA_E_STRUCT_SIZE;
  }
  try {
    *out = new otma_checker(Widen(cfg));
    return OTMA_OK;
  } catch (...) {
    return OTMA_E_ARGUMENT;
  }
}

void otma_checker_destroy(otma_checker* c) {
  delete c;
}

void otma_checker_mbar_init(otma_checker* c, uint32_t rank, uint32_t mbar, uint32_t count) {
  if (c != nullptr) {
    c->MbarInit(rank, mbar, count);
  }
}

void otma_checker_arrive_expect_tx(otma_checker* c, uint32_t rank, uint32_t mbar, uint32_t tx) {
  if (c != nullptr) {
    c->ArriveExpectTx(rank, mbar, tx);
  }
}

void otma_checker_expect_tx(otma_checker* c, uint32_t rank, uint32_t mbar, uint32_t tx) {
  if (c != nullptr) {
    c->ExpectTx(rank, mbar, tx);
  }
}

void otma_checker_release(otma_checker* c, uint32_t rank, uint32_t addr, uint32_t n) {
  if (c != nullptr) {
    c->Release(rank, addr, n);
  }
}

void otma_checker_finish(otma_checker* c) {
  if (c != nullptr) {
    c->Finish(0);
  }
}

uint32_t otma_checker_count(const otma_checker* c, uint32_t cls) {
  return c == nullptr ? 0 : c->Count(cls);
}

otma_checker* otma_engine_checker(otma_engine* e) {
  return e == nullptr ? nullptr : e->checker;
}

}  // extern "C"
