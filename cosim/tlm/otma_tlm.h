// SPDX-License-Identifier: Apache-2.0
//
// The SystemC TLM-2.0 skin of libopentma_cosim (docs/cosim/abi.md, "TLM skin"), loosely timed,
// after the pattern of VCML's DMA models:
//   otma::tlm::Engine   one SM's TMA as an sc_module around an otma_engine:
//     cmd   target socket: a write of one otma_op (data = the struct, length sizeof(otma_op))
//           submits it; the result comes back in a CmdExt extension (status, token)
//     gmem  initiator socket to global memory (address = global address)
//     smem  initiator socket to the cluster's shared memory (address = rank << 24 | offset);
//           complete_tx(rank, mbar, bytes) is a 4-byte write to the mbarrier's address that
//           carries a TxExt extension (the target models the mbarrier, not a memory write)
//     Data accesses try DMI first (get_direct_mem_ptr, cached per region, dropped on
//     invalidate_direct_mem_ptr), else b_transport; the delay of each access, and engine
//     clocks (Tick) at the configured period, go into a tlm_quantumkeeper that synchronises
//     (wait) at the global quantum, from the thread that drives the engine.
//   otma::tlm::Memory   a target with b_transport, transport_dbg and DMI over a Backing.
#ifndef OTMA_TLM_H_
#define OTMA_TLM_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <vector>

#include <systemc>
#include <tlm>

#include "opentma/cosim.h"

namespace otma::tlm {

// The result of a command write.
struct CmdExt : ::tlm::tlm_extension<CmdExt> {
  otma_status status = OTMA_OK;
  otma_token token = 0;
  ::tlm::tlm_extension_base* clone() const override { return new CmdExt(*this); }
  void copy_from(const ::tlm::tlm_extension_base& e) override {
    *this = static_cast<const CmdExt&>(e);
  }
};

// A complete_tx: `bytes` to the mbarrier at the write's address.
struct TxExt : ::tlm::tlm_extension<TxExt> {
  uint32_t bytes = 0;
  ::tlm::tlm_extension_base* clone() const override { return new TxExt(*this); }
  void copy_from(const ::tlm::tlm_extension_base& e) override {
    *this = static_cast<const TxExt&>(e);
  }
};

// What a Memory target stands on.
class Backing {
 public:
  virtual ~Backing() = default;
  virtual bool Read(uint64_t addr, uint8_t* dst, uint32_t n) = 0;
  virtual bool Write(uint64_t addr, const uint8_t* src, uint32_t n) = 0;
  // Raw storage around addr for DMI: [start, start + bytes) at base; false = no DMI there.
  virtual bool Region(uint64_t addr, uint8_t** base, uint64_t* start, uint64_t* bytes) = 0;
  virtual void CompleteTx(uint64_t addr, uint32_t bytes) = 0;
};

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> socket;
  Memory(sc_core::sc_module_name name, sc_core::sc_time access_delay);
  void set_backing(Backing* b) { backing_ = b; }
  // Tells every initiator that its DMI pointers are stale (the storage moved).
  void InvalidateDmi() { socket->invalidate_direct_mem_ptr(0, ~0ull); }
  uint64_t transports() const { return transports_; }
  uint64_t dmi_grants() const { return dmi_grants_; }

 private:
  void b_transport(::tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  unsigned int transport_dbg(::tlm::tlm_generic_payload& p);
  bool get_direct_mem_ptr(::tlm::tlm_generic_payload& p, ::tlm::tlm_dmi& d);
  Backing* backing_ = nullptr;
  sc_core::sc_time delay_;
  uint64_t transports_ = 0, dmi_grants_ = 0;
};

class Engine : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Engine> cmd;
  tlm_utils::simple_initiator_socket<Engine> gmem;
  tlm_utils::simple_initiator_socket<Engine> smem;

  Engine(sc_core::sc_module_name name, sc_core::sc_time clock);
  ~Engine() override;
  // (Re)creates the engine behind the sockets. cfg as for otma_create; the data and completion
  // callbacks are the skin's (sockets); mem_req, op_done and log are taken from `host`.
  otma_status Reset(const otma_config& cfg, const otma_host& host);
  otma_engine* engine() { return e_; }
  // Engine clocks; with advance_time, also as time through the quantum keeper (call from an
  // SC_THREAD). Engines driven by one thread share one keeper (set_quantum_keeper) and only
  // one of them advances time per step.
  void Tick(uint64_t cycles, bool advance_time = true);
  void set_quantum_keeper(tlm_utils::tlm_quantumkeeper* qk) { qk_ = qk; }
  uint64_t dmi_hits() const { return dmi_hits_; }
  uint64_t transports() const { return transports_; }

 private:
  void cmd_b_transport(::tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  void invalidate(bool smem_side, sc_dt::uint64 lo, sc_dt::uint64 hi);
  void invalidate_g(sc_dt::uint64 lo, sc_dt::uint64 hi) { invalidate(false, lo, hi); }
  void invalidate_s(sc_dt::uint64 lo, sc_dt::uint64 hi) { invalidate(true, lo, hi); }
  int Access(bool smem_side, bool write, uint64_t addr, uint8_t* data, uint32_t n);
  void CompleteTx(uint32_t rank, uint32_t mbar, uint32_t bytes);

  otma_engine* e_ = nullptr;
  otma_host user_{};  // the host's mem_req / op_done / log
  sc_core::sc_time clock_;
  tlm_utils::tlm_quantumkeeper own_qk_;
  tlm_utils::tlm_quantumkeeper* qk_ = &own_qk_;
  struct Dmi {
    bool valid = false;
    ::tlm::tlm_dmi d;
  };
  std::vector<Dmi> dmi_[2];  // per socket: the regions granted so far
  uint64_t dmi_hits_ = 0, transports_ = 0;
};

}  // namespace otma::tlm

#endif  // OTMA_TLM_H_
