// SPDX-License-Identifier: Apache-2.0
#include "otma_tlm.h"

#include <cstring>

namespace otma::tlm {

using ::tlm::tlm_dmi;
using ::tlm::tlm_generic_payload;

// ---- Memory ---------------------------------------------------------------------------------
Memory::Memory(sc_core::sc_module_name name, sc_core::sc_time access_delay)
    : sc_module(name), socket("socket"), delay_(access_delay) {
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
}

void Memory::b_transport(tlm_generic_payload& p, sc_core::sc_time& delay) {
  ++transports_;
  p.set_response_status(::tlm::TLM_ADDRESS_ERROR_RESPONSE);
  if (backing_ == nullptr)
    return;
  const uint64_t a = p.get_address();
  TxExt* tx = nullptr;
  p.get_extension(tx);
  if (tx != nullptr) {
    backing_->CompleteTx(a, tx->bytes);
    p.set_response_status(::tlm::TLM_OK_RESPONSE);
    delay += delay_;
    return;
  }
  const uint32_t n = p.get_data_length();
  const bool ok = p.is_read() ? backing_->Read(a, p.get_data_ptr(), n)
                              : backing_->Write(a, p.get_data_ptr(), n);
  if (ok) {
    p.set_response_status(::tlm::TLM_OK_RESPONSE);
    uint8_t* base;
    uint64_t start, bytes;
    p.set_dmi_allowed(backing_->Region(a, &base, &start, &bytes));
  }
  delay += delay_;
}

unsigned int Memory::transport_dbg(tlm_generic_payload& p) {
  if (backing_ == nullptr)
    return 0;
  const uint32_t n = p.get_data_length();
  const bool ok = p.is_read() ? backing_->Read(p.get_address(), p.get_data_ptr(), n)
                              : backing_->Write(p.get_address(), p.get_data_ptr(), n);
  return ok ? n : 0;
}

bool Memory::get_direct_mem_ptr(tlm_generic_payload& p, tlm_dmi& d) {
  uint8_t* base;
  uint64_t start, bytes;
  if (backing_ == nullptr || !backing_->Region(p.get_address(), &base, &start, &bytes)) {
    d.allow_none();
    return false;
  }
  ++dmi_grants_;
  d.set_dmi_ptr(base);
  d.set_start_address(start);
  d.set_end_address(start + bytes - 1);
  d.allow_read_write();
  d.set_read_latency(delay_);
  d.set_write_latency(delay_);
  return true;
}

// ---- Engine ---------------------------------------------------------------------------------
Engine::Engine(sc_core::sc_module_name name, sc_core::sc_time clock)
    : sc_module(name), cmd("cmd"), gmem("gmem"), smem("smem"), clock_(clock) {
  cmd.register_b_transport(this, &Engine::cmd_b_transport);
  gmem.register_invalidate_direct_mem_ptr(this, &Engine::invalidate_g);
  smem.register_invalidate_direct_mem_ptr(this, &Engine::invalidate_s);
  own_qk_.reset();
}

Engine::~Engine() {
  if (e_ != nullptr)
    otma_destroy(e_);
}

void Engine::invalidate(bool smem_side, sc_dt::uint64 lo, sc_dt::uint64 hi) {
  for (Dmi& r : dmi_[smem_side ? 1 : 0]) {
    if (r.valid && r.d.get_start_address() <= hi && r.d.get_end_address() >= lo)
      r.valid = false;
  }
}

int Engine::Access(bool smem_side, bool write, uint64_t addr, uint8_t* data, uint32_t n) {
  for (Dmi& r : dmi_[smem_side ? 1 : 0]) {
    if (r.valid && addr >= r.d.get_start_address() && addr + n - 1 <= r.d.get_end_address() &&
        (write ? r.d.is_write_allowed() : r.d.is_read_allowed())) {
      uint8_t* p = r.d.get_dmi_ptr() + (addr - r.d.get_start_address());
      if (write) {
        std::memcpy(p, data, n);
      } else {
        std::memcpy(data, p, n);
      }
      qk_->inc(write ? r.d.get_write_latency() : r.d.get_read_latency());
      ++dmi_hits_;
      return 0;
    }
  }
  tlm_generic_payload p;
  p.set_command(write ? ::tlm::TLM_WRITE_COMMAND : ::tlm::TLM_READ_COMMAND);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(n);
  p.set_streaming_width(n);
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(::tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = qk_->get_local_time();
  auto& sock = smem_side ? smem : gmem;
  sock->b_transport(p, delay);
  qk_->set(delay);
  ++transports_;
  if (p.get_response_status() != ::tlm::TLM_OK_RESPONSE)
    return 1;
  if (p.is_dmi_allowed()) {
    tlm_dmi d;
    p.set_address(addr);
    if (sock->get_direct_mem_ptr(p, d)) {
      dmi_[smem_side ? 1 : 0].push_back(Dmi{true, d});
    }
  }
  return 0;
}

void Engine::CompleteTx(uint32_t rank, uint32_t mbar, uint32_t bytes) {
  uint32_t word = bytes;
  tlm_generic_payload p;
  TxExt ext;
  ext.bytes = bytes;
  p.set_command(::tlm::TLM_WRITE_COMMAND);
  p.set_address((static_cast<uint64_t>(rank) << 24) | mbar);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
  p.set_data_length(4);
  p.set_streaming_width(4);
  p.set_extension(&ext);
  sc_core::sc_time delay = qk_->get_local_time();
  smem->b_transport(p, delay);
  qk_->set(delay);
  p.clear_extension(&ext);
}

otma_status Engine::Reset(const otma_config& cfg, const otma_host& host) {
  if (e_ != nullptr)
    otma_destroy(e_);
  e_ = nullptr;
  dmi_[0].clear();
  dmi_[1].clear();
  user_ = host;
  otma_host h;
  std::memset(&h, 0, sizeof h);
  h.struct_size = sizeof h;
  h.user = this;
  h.gmem_read = [](void* u, uint64_t a, void* d, uint32_t n) {
    return static_cast<Engine*>(u)->Access(false, false, a, static_cast<uint8_t*>(d), n);
  };
  h.gmem_write = [](void* u, uint64_t a, const void* s, uint32_t n) {
    return static_cast<Engine*>(u)->Access(false, true, a,
                                           const_cast<uint8_t*>(static_cast<const uint8_t*>(s)), n);
  };
  h.smem_read = [](void* u, uint32_t r, uint32_t a, void* d, uint32_t n) {
    return static_cast<Engine*>(u)->Access(true, false, (static_cast<uint64_t>(r) << 24) | a,
                                           static_cast<uint8_t*>(d), n);
  };
  h.smem_write = [](void* u, uint32_t r, uint32_t a, const void* s, uint32_t n) {
    return static_cast<Engine*>(u)->Access(true, true, (static_cast<uint64_t>(r) << 24) | a,
                                           const_cast<uint8_t*>(static_cast<const uint8_t*>(s)), n);
  };
  h.complete_tx = [](void* u, uint32_t r, uint32_t m, uint32_t b) {
    static_cast<Engine*>(u)->CompleteTx(r, m, b);
  };
  h.op_done = [](void* u, otma_token t, uint32_t ev, otma_status s) {
    Engine* e = static_cast<Engine*>(u);
    if (e->user_.op_done != nullptr)
      e->user_.op_done(e->user_.user, t, ev, s);
  };
  if (host.mem_req != nullptr) {
    h.mem_req = [](void* u, const otma_mem_req* q) {
      Engine* e = static_cast<Engine*>(u);
      return e->user_.mem_req(e->user_.user, q);
    };
  }
  h.log = [](void* u, int level, const char* msg) {
    Engine* e = static_cast<Engine*>(u);
    if (e->user_.log != nullptr)
      e->user_.log(e->user_.user, level, msg);
  };
  return otma_create(&cfg, &h, &e_);
}

void Engine::cmd_b_transport(tlm_generic_payload& p, sc_core::sc_time& delay) {
  CmdExt* ext = nullptr;
  p.get_extension(ext);
  if (e_ == nullptr || !p.is_write() || p.get_data_length() < sizeof(uint32_t)) {
    p.set_response_status(::tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  otma_op op;
  std::memset(&op, 0, sizeof op);
  std::memcpy(&op, p.get_data_ptr(),
              p.get_data_length() < sizeof op ? p.get_data_length() : sizeof op);
  qk_->set(delay);
  otma_token t = 0;
  const otma_status st = otma_submit(e_, &op, &t);
  delay = qk_->get_local_time();
  if (ext != nullptr) {
    ext->status = st;
    ext->token = t;
  }
  p.set_response_status(::tlm::TLM_OK_RESPONSE);
}

void Engine::Tick(uint64_t cycles, bool advance_time) {
  if (e_ != nullptr)
    otma_tick(e_, cycles);
  if (!advance_time)
    return;
  qk_->inc(clock_ * static_cast<double>(cycles));
  if (qk_->need_sync())
    qk_->sync();
}

}  // namespace otma::tlm
