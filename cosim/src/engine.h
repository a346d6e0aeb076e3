// SPDX-License-Identifier: Apache-2.0
//
// The engine behind the C ABI (otma_engine). The semantics are the reference model's
// (tma_cmodel): an op is converted to the model's instruction and executed through adapters
// that reach the host's memories by the otma_host callbacks. FUNCTIONAL runs it at submit;
// TIMED runs it when the op's descriptor is ready, keeps its writes and completions, and
// releases them when the approximate timing model (calibration.h) completes the op; RTL hands
// the ops the RTL claims to the Verilated engine, clocked by otma_tick (rtl_backend.cc).
#ifndef OTMA_ENGINE_H_
#define OTMA_ENGINE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "calibration.h"
#include "checker.h"
#include "opentma/cosim.h"
#include "tma/bulk_copy.h"
#include "tma/bulk_group.h"
#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/types.h"

namespace otma_impl {

otma_status FromModel(const tma::model::Status& s);
tma::model::TensorMap ParamsToMap(const otma_tensor_params& p);
void MapToParams(const tma::model::TensorMap& m, otma_tensor_params* p);
tma::model::TensorInstr ToTensorInstr(const otma_op& op);
bool IsTensorLoadIm2col(const otma_op& op);

// One shared-memory or global write kept until the op completes (TIMED).
struct PendingWrite {
  bool smem = false;
  uint32_t rank = 0;
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;
};

// What executing one op with the model produced.
struct OpEffects {
  tma::model::Status status;
  std::vector<tma::model::CompleteTx> complete_tx;
  std::vector<PendingWrite> writes;  // deferred mode only
  std::vector<uint64_t> sectors;     // distinct global sectors touched (granularity g)
  uint32_t req_kind = OTMA_REQ_READ;
  uint64_t payload = 0;     // complete_tx bytes per destination (or bytes moved)
  uint64_t oob = 0;         // out-of-bounds bytes of a load
  uint64_t smem_bytes = 0;  // bytes through the shared-memory port
  bool bulk_group = false;  // completes through the issuer's bulk async-group
};

class RtlBackend;  // rtl_backend.cc

class Job;

}  // namespace otma_impl

struct otma_engine {
  otma_engine(const otma_config& cfg, const otma_host& host);
  ~otma_engine();

  otma_status Submit(const otma_op& op, otma_token* token);
  otma_status Tick(uint64_t cycles);
  uint64_t NextEvent() const;
  otma_status MemResp(uint64_t tag, otma_status bus);
  uint64_t Drain();
  otma_status Invalidate(uint64_t va);
  otma_status Expand(const otma_op& op, otma_mem_req* out, uint32_t cap, uint32_t* n,
                     uint64_t* payload, uint64_t* oob);
  // The same expansion into a vector (every request, one model run).
  otma_status Expand(const otma_op& op, std::vector<otma_mem_req>* out, uint64_t* payload,
                     uint64_t* oob);
  otma_status BulkCommit(uint32_t warp);
  int BulkWait(uint32_t warp, uint32_t n, bool read_only);

  // Executes `op` (token `t`) with the model. deferred: writes are kept in the result instead of
  // reaching the host; record: the global sectors are collected; no_data: no host data callback
  // is made (reads see zeros). `map` is the resolved descriptor (tensor ops).
  otma_impl::OpEffects Execute(const otma_op& op, otma_token t, const tma::model::TensorMap* map,
                               bool deferred, bool record, bool no_data);
  // Resolves the descriptor of a tensor op: bytes, params, or (fetch = true) 128 bytes read at
  // desc_va through gmem_read.
  tma::model::Status ResolveMap(const otma_op& op, bool fetch, tma::model::TensorMap* m);
  void NotifyIssued(const otma_op& op, otma_token t);
  void TrackGroup(const otma_op& op, otma_token t);
  void Signal(otma_token t, const std::vector<tma::model::CompleteTx>& tx);
  void Done(otma_token t, uint32_t ev, otma_status s);
  void Log(int level, const std::string& msg);

  otma_config cfg;
  otma_host host;
  otma_impl::Calibration cal;
  tma::model::Arch arch = tma::model::Arch::kSm90;
  int num_ctas = 1;
  uint32_t req_bytes = 32;
  otma_checker* checker = nullptr;
  std::unique_ptr<otma_checker> own_checker;
  uint64_t cycle = 0;
  otma_token next_token = 1;
  tma::model::BulkGroupSet groups;
  std::map<otma_token, uint32_t> group_warp;  // bulk-group ops in flight -> issuing warp
  struct DecodedMap {
    bool valid = false;
    uint8_t bytes[128];
    tma::model::TensorMap map;
  };
  std::array<DecodedMap, 8> decoded{};
  uint32_t decoded_next = 0;

  // ---- TIMED --------------------------------------------------------------------------------
  void Step();
  void StartJob(otma_impl::Job& j);
  void Emit(otma_impl::Job& j, uint64_t addr, uint32_t size, uint32_t kind, bool desc);
  void Respond(uint64_t tag, otma_status bus);
  void Finish(otma_impl::Job& j);
  void Fault(otma_impl::Job& j, otma_status s);
  std::deque<std::unique_ptr<otma_impl::Job>> jobs;
  std::map<otma_token, otma_impl::Job*> by_token;
  struct Tag {
    otma_token op = 0;
    uint32_t size = 0;
    bool desc = false;
  };
  std::unordered_map<uint64_t, Tag> tags;
  uint64_t next_tag = 1;
  uint64_t port_free_at = 0;  // command port
  double agu_credit = 0;
  uint32_t outstanding = 0;
  uint64_t port_bytes_pending = 0;  // shared-memory port queue (bytes)
  std::deque<std::pair<otma_token, uint64_t>> port_queue;
  struct MemSlot {
    uint64_t ready;
    uint64_t tag;
  };
  std::deque<MemSlot> mem;  // the engine's own memory (no mem_req): FIFO, fixed latency
  uint64_t mem_free_at = 0;
  std::map<uint64_t, std::vector<uint8_t>> desc_cache;  // va -> 128 bytes
  std::deque<uint64_t> desc_lru;

  // ---- RTL ----------------------------------------------------------------------------------
  std::unique_ptr<otma_impl::RtlBackend> rtl;
};

#endif  // OTMA_ENGINE_H_
