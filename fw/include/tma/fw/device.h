// SPDX-License-Identifier: Apache-2.0
//
// The OpenTMA driver: submission calls shaped like the PTX instructions, completion and error
// handling, bulk groups, tensor maps in global memory. Written against two interfaces:
//
//   Link         (tma/fw/link.h)  32-bit and block accesses, wait for interrupt: the HAL;
//   EngineQueue  (below)          the engine's command and completion queues as the SoC's
//                                 registers present them (command ring or register window,
//                                 completion ring or FIFO, descriptor-cache invalidate,
//                                 interrupt acknowledge). The SoC top's register-level glue
//                                 implements it over a Link (fw/src/soc/); MockEngine
//                                 (tma/fw/mock_engine.h) implements it for unit tests.
//
// A command is tma_pkg's cmd_t (sim/autogen/tma_structs.h, generated from rtl/pkg/tma_pkg.sv);
// a completion is its cpl_t. The driver numbers commands with the 8-bit tag the engine returns
// in every completion of the command, so at most 256 commands are outstanding.
//
// Completion rules of the engine (docs/interfaces.md, cpl_t): a load signals complete-tx
// (CplTx) once per destination CTA (one for a unicast load, one per mask bit for multicast);
// a store, reduce or prefetch signals CplDone once; any command that fails signals one CplError
// with the error class instead, and nothing else. A commit_group command (CommitGroup with
// DeviceConfig::engine_groups) has no completion of its own; the engine then reports the bulk
// async-group it closed twice, in group order per issuer: read-done, then done. The queue
// hands such a group completion over as a cpl_t of kind CplGroup with cta = the issuer, tag =
// the group's sequence number (0, 1, ... per issuer since the engine's reset, mod 256) and
// bytes = kGroupDoneBit (done; clear: read-done) | kGroupErrBit (an operation failed): the SoC
// glue builds it from the completion record's grp_done / grp_err fields.
#ifndef TMA_FW_DEVICE_H_
#define TMA_FW_DEVICE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "tma/fw/encoder.h"
#include "tma/fw/link.h"

#include "sim/autogen/tma_structs.h"

namespace tma::fw {

// ---- Results ------------------------------------------------------------------------------------
enum class Status : uint8_t {
  kOk = 0,
  kBadArgument,  // the call's arguments break an instruction rule (field names the operand)
  kUnsupported,  // the engine has no such command
  kQueueFull,    // no room for the command now (the caller may retry after a wait)
  kTimeout,      // a wait ran out (completion, interrupt, invalidate)
  kLinkError,    // the link failed (link_status says how)
  kEngineError,  // the engine completed a command with an error (error_class, tag)
};
const char* ToString(Status s);  // "ok", "bad_argument", ...

// The engine's error classes (tma_pkg Err*, the golden cases' spellings).
enum class ErrorClass : uint8_t {
  kNone = 0,
  kInvalidDescriptor = 1,
  kMisaligned = 2,
  kMisalignedCoordinate = 3,
  kInvalidCoordinate = 4,
  kUnsupportedReduction = 5,
  kInvalidInstruction = 6,
  kUnsupported = 7,
  kBusError = 8,
};
const char* ToString(ErrorClass c);  // "ok", "invalid_descriptor", ...

// What went wrong, with enough to act on: the status, the engine's error class and the tag of
// the failing command (kEngineError), the link's status (kLinkError), the argument concerned
// (kBadArgument: "coords", "cta_mask", ...) and a sentence.
struct Error {
  Status status = Status::kOk;
  ErrorClass error_class = ErrorClass::kNone;
  int tag = -1;
  LinkStatus link_status = LinkStatus::kOk;
  std::string field;
  std::string message;
  bool ok() const { return status == Status::kOk; }
  std::string ToString() const;
  static Error Make(Status s, std::string field, std::string message);
};

inline constexpr uint32_t kGroupDoneBit = 1u;  // cpl_t.bytes of a CplGroup completion
inline constexpr uint32_t kGroupErrBit = 2u;

// ---- The queue interface the SoC glue implements ------------------------------------------------
class EngineQueue {
 public:
  virtual ~EngineQueue() = default;
  // Hands one command to the engine; kQueueFull when there is no room now.
  virtual Error Push(const tma::pkg::cmd_t& cmd) = 0;
  // The next completion, if one is waiting (*got = false when none).
  virtual Error Pop(tma::pkg::cpl_t* out, bool* got) = 0;
  // Invalidates the engine's descriptor cache and returns once later commands see the maps in
  // global memory as they are now (CTRL.DESC_INVAL, then its self-clear).
  virtual Error InvalidateDescriptors() = 0;
  // Clears the interrupt state the driver has handled (INTR_STATE, write 1 to clear).
  virtual Error AcknowledgeInterrupt() = 0;
};

// ---- Commands -----------------------------------------------------------------------------------
enum class TensorMode : uint8_t {  // tma_pkg Mode*
  kTile = 0,
  kIm2col = 1,
  kIm2colW = 2,
  kIm2colW128 = 3,
  kTileGather4 = 4,
  kTileScatter4 = 5,
  kIm2colNoOffs = 6,
};
enum class RedOp : uint8_t { kAdd = 0, kMin, kMax, kInc, kDec, kAnd, kOr, kXor };  // tma_pkg Red*
// The .type of cp.reduce.async.bulk (tma_pkg BulkT*).
enum class BulkType : uint8_t { kB32 = 0, kU32, kS32, kB64, kU64, kS64, kF16, kBF16, kF32, kF64 };

// The operands of cp{.reduce}.async.bulk{.prefetch}.tensor, as the instruction has them.
struct TensorOperands {
  uint64_t tensor_map = 0;  // global address of the 128-byte map (tensorMap operand)
  int dim = 1;              // the .Nd qualifier, 1..5
  TensorMode mode = TensorMode::kTile;
  std::vector<int32_t> coords;   // tensorCoords (gather4 / scatter4: col, row0..row3)
  std::vector<uint16_t> im2col;  // im2colInfo: offsets (im2col), {wHalo, wOffset} (im2col::w*)
  uint32_t smem = 0;             // dstMem (load) / srcMem (store, reduce): shared offset
  int cta = 0;                   // the issuing CTA (%cluster_ctarank)
};

struct LoadOptions {
  uint32_t mbar = 0;      // [mbar]: shared offset of the mbarrier
  int dst_cta = -1;       // shared::cluster destination without multicast; -1: the issuer
  uint16_t cta_mask = 0;  // .multicast::cluster ctaMask; 0: no multicast
  int cta_group = 0;      // .cta_group::1 / ::2; 0: not given
};

// cp.async.bulk global -> shared: .shared::cta (the issuer's own window) or .shared::cluster
// (dst_cta, or every CTA of cta_mask with .multicast::cluster).
struct BulkLoadOptions {
  int cta = 0;              // the issuing CTA
  bool to_cluster = false;  // .shared::cluster destination
  int dst_cta = -1;         // .shared::cluster destination CTA without multicast; -1: the issuer
  uint16_t cta_mask = 0;    // .multicast::cluster ctaMask; 0: no multicast
};

// One submitted command: its tag and what completes it.
struct Ticket {
  uint8_t tag = 0;
  bool ok = false;  // false: the submission failed and nothing was queued
};

// ---- The driver ---------------------------------------------------------------------------------
struct DeviceConfig {
  // Link address of global address 0 (the SoC's global-memory window as the link sees it).
  uint64_t gmem_link_base = 0;
  Arch arch = Arch::kSm90;
  int num_ctas = 4;           // CTAs of the cluster shell
  bool use_interrupt = true;  // wait on the link's interrupt; false: poll
  // The queue reports the engine's bulk async-group completions (the SoC top does): CommitGroup
  // also sends commit_group commands and the group waits use the engine's read-done / done.
  bool engine_groups = false;
  uint32_t poll_interval_us = 0;  // WaitInterrupt timeout slice while polling
  uint32_t default_timeout_us = 1000000;
};

class Device {
 public:
  Device(Link* link, EngineQueue* queue, DeviceConfig cfg = {});

  // -- Tensor maps in global memory (the map is written as 32 little-endian words).
  Error WriteTensorMap(uint64_t global_addr, const TensorMap& map);
  Error ReadTensorMap(uint64_t global_addr, TensorMap* map);
  // Global memory through the link: byte-exact (whole words are read and merged at the ends).
  Error WriteGlobal(uint64_t global_addr, const uint8_t* src, size_t n);
  Error ReadGlobal(uint64_t global_addr, uint8_t* dst, size_t n);
  // The proxy fence after a map in global memory changed (fence.proxy.tensormap::generic):
  // the engine's descriptor cache forgets every map.
  Error InvalidateDescriptors();

  // -- Submission: cp.async.bulk.tensor (load, global -> shared::cluster, mbarrier
  // complete_tx), cp.async.bulk.tensor (store, shared::cta -> global, bulk_group),
  // cp.reduce.async.bulk.tensor (bulk_group), cp.async.bulk.prefetch.tensor (L2).
  // Stores, reductions and prefetches join the open bulk group (CommitGroup closes it).
  Error LoadTensor(const TensorOperands& t, const LoadOptions& o, Ticket* ticket = nullptr);
  Error StoreTensor(const TensorOperands& t, Ticket* ticket = nullptr);
  Error ReduceTensor(RedOp op, const TensorOperands& t, Ticket* ticket = nullptr);
  Error PrefetchTensor(const TensorOperands& t, Ticket* ticket = nullptr);
  // cp.async.bulk / cp.reduce.async.bulk / cp.async.bulk.prefetch.L2 (non-tensor): the
  // engine's bulk commands (cmd_t.mode == BulkMode; docs/interfaces.md "Bulk commands"). The
  // engine checks them as the model does (alignment, size, the reduction table); the driver
  // checks only what the command cannot carry. A store or reduction joins the open bulk group
  // (and its issuer's group in the engine); .noftz is set exactly for .add.f16 / .add.bf16.
  Error LoadBulk(uint32_t smem, uint64_t global_addr, uint32_t bytes, uint32_t mbar,
                 const BulkLoadOptions& o = {}, Ticket* ticket = nullptr);
  // cp_mask: .cp_mask (16 bits, one per byte of each 16-byte chunk); -1: not given.
  Error StoreBulk(uint64_t global_addr, uint32_t smem, uint32_t bytes, int cta = 0,
                  int cp_mask = -1, Ticket* ticket = nullptr);
  Error ReduceBulk(RedOp op, BulkType type, uint64_t global_addr, uint32_t smem, uint32_t bytes,
                   int cta = 0, Ticket* ticket = nullptr);
  Error PrefetchBulk(uint64_t global_addr, uint32_t bytes, Ticket* ticket = nullptr);
  // cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dstMem], [srcMem],
  // size, [mbar] and cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::
  // bytes.redOp.type (the same operands): `bytes` from offset `src` of the issuer's window to
  // (or reduced into) offset `dst` of CTA dst_cta's window; the mbarrier at offset `mbar` of
  // dst_cta's window gets one complete-tx of the moved bytes. Such an operation is an mbarrier
  // operation: it joins no bulk group and completes with that one complete-tx. The engine checks
  // the rest as the model does (a destination CTA other than the issuer, alignment, size, the
  // shared::cluster reduction table: .noftz does not exist on this form).
  Error CopyBulkToCluster(uint32_t dst, uint32_t src, uint32_t bytes, uint32_t mbar, int dst_cta,
                          int cta = 0, Ticket* ticket = nullptr);
  Error ReduceBulkToCluster(RedOp op, BulkType type, uint32_t dst, uint32_t src, uint32_t bytes,
                            uint32_t mbar, int dst_cta, int cta = 0, Ticket* ticket = nullptr);
  // Any command as the engine's record (the PTX front end's path); tag assigned here.
  Error SubmitCommand(tma::pkg::cmd_t cmd, Ticket* ticket = nullptr);

  // -- Bulk groups: cp.async.bulk.commit_group / cp.async.bulk.wait_group{.read} N. A group is
  // done when every command of it completed and, with engine_groups, when the engine reported
  // done for it (each issuer of its stores and reductions got a commit_group command);
  // WaitGroupRead waits for the engine's read-done only (without engine_groups: WaitGroup).
  // CommitGroup fails only when a commit_group command cannot be queued (kQueueFull).
  Error CommitGroup();
  Error WaitGroup(int n, uint32_t timeout_us);
  Error WaitGroupRead(int n, uint32_t timeout_us);
  int pending_groups() const { return static_cast<int>(groups_.size()); }

  // -- Completion.
  // Drains every completion the engine has now (no waiting).
  Error Poll();
  // Waits until the command of `tag` has completed (or failed): kOk, kEngineError (its error
  // class), kTimeout. Interrupt-driven (Link::WaitInterrupt) when enabled and the link has one,
  // else polling.
  Error Wait(uint8_t tag, uint32_t timeout_us);
  Error WaitAll(uint32_t timeout_us);
  bool Done(uint8_t tag) const { return !slots_[tag].busy; }
  int outstanding() const { return outstanding_; }
  // complete-tx bytes the engine signalled to CTA `cta` so far (all loads).
  uint64_t tx_bytes(int cta) const { return cta >= 0 && cta < 16 ? tx_bytes_[cta] : 0; }
  // Errors of finished commands not yet returned by Wait (oldest first); cleared by the call.
  std::vector<Error> TakeErrors();

  Link* link() { return link_; }
  const DeviceConfig& config() const { return cfg_; }

 private:
  struct Slot {
    bool busy = false;
    int completions_left = 0;
    Error error;
  };
  Error Submit(tma::pkg::cmd_t cmd, int completions, bool in_group, Ticket* ticket);
  Error SubmitBulk(tma::pkg::cmd_t cmd, int completions, Ticket* ticket);
  Error SubmitToCluster(tma::pkg::cmd_t cmd, int cta, int dst_cta, Ticket* ticket);
  // One group: its commands' tags and the engine groups (issuer, sequence) it committed.
  struct Group {
    std::vector<uint8_t> tags;
    std::vector<std::pair<uint8_t, uint8_t>> engine;
  };
  bool GroupDone(const Group& g, bool read_only) const;
  Error WaitGroups(int n, uint32_t timeout_us, bool read_only);
  Error CheckOperands(const TensorOperands& t, bool load) const;
  tma::pkg::cmd_t Command(uint8_t op, const TensorOperands& t) const;
  void Absorb(const tma::pkg::cpl_t& c);
  Error WaitUntil(uint32_t timeout_us, const std::function<bool()>& done);
  Error LinkFailure(LinkStatus s, const char* what) const;

  Link* link_;
  EngineQueue* queue_;
  DeviceConfig cfg_;
  std::array<Slot, 256> slots_{};
  uint8_t next_tag_ = 0;
  int outstanding_ = 0;
  Group open_group_;
  std::array<bool, 16> open_issuers_{};  // issuers with a store / reduction in the open group
  std::deque<Group> groups_;
  std::array<uint8_t, 16> engine_seq_{};  // next engine group sequence number per issuer
  // Engine group completions seen, by (issuer << 8 | sequence): bit 0 read-done, bit 1 done,
  // bit 2 error.
  std::array<uint8_t, 16 * 256> engine_group_{};
  std::array<uint64_t, 16> tx_bytes_{};
  std::vector<Error> errors_;
};

}  // namespace tma::fw

#endif  // TMA_FW_DEVICE_H_
