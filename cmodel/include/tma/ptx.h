// SPDX-License-Identifier: Apache-2.0
//
// PTX front end for the instructions of the seeds (docs/ptx-frontend.md): cp.async.bulk.tensor,
// cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor, cp.async.bulk (+ .cp_mask),
// cp.reduce.async.bulk, cp.async.bulk.prefetch, cp.async.bulk.commit_group,
// cp.async.bulk.wait_group{.read}, tensormap.replace, and the mbarrier forms of
// tensor-semantics §11.4.
//
//   Parse(text)          one statement -> PtxInstr, or an error naming the offending token.
//                        Qualifiers may come in any order (the seeds' own examples mix them);
//                        Parse checks only spelling, duplicates and conflicts.
//   Print(instr)         canonical text (qualifiers in the order of the seeds' Syntax blocks);
//                        Parse(Print(i)) == i for every parsed i.
//   Check(instr, target) legality: qualifier combinations, operand lists, target-only forms.
//   ToTensorInstr / ToBulk*Instr   instruction + register values -> the model's instruction.
#ifndef TMA_PTX_H_
#define TMA_PTX_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tma/bulk_copy.h"
#include "tma/types.h"

namespace tma::model {

// Targets the legality check knows. sm_100a admits every form of the seeds except
// tensormap.replace .swizzle_mode 4 (sm_103a only).
enum class Target : uint8_t { kSm90a = 0, kSm100a };
const char* ToString(Target t);  // "sm_90a", "sm_100a"
std::optional<Target> ParseTarget(const std::string& s);

enum class PtxOpcode : uint8_t {
  kBulkTensor = 0,    // cp.async.bulk.tensor
  kReduceBulkTensor,  // cp.reduce.async.bulk.tensor
  kPrefetchTensor,    // cp.async.bulk.prefetch.tensor
  kBulk,              // cp.async.bulk
  kReduceBulk,        // cp.reduce.async.bulk
  kPrefetch,          // cp.async.bulk.prefetch
  kCommitGroup,       // cp.async.bulk.commit_group
  kWaitGroup,         // cp.async.bulk.wait_group
  kTensormapReplace,  // tensormap.replace
  kMbarInit,          // mbarrier.init
  kMbarArrive,        // mbarrier.arrive (and .expect_tx)
  kMbarExpectTx,      // mbarrier.expect_tx
  kMbarCompleteTx,    // mbarrier.complete_tx
  kMbarTestWait,      // mbarrier.test_wait
  kMbarTryWait,       // mbarrier.try_wait
  kMbarInval,         // mbarrier.inval
};
const char* ToString(PtxOpcode op);  // "cp.async.bulk.tensor", ...

enum class StateSpace : uint8_t { kNone = 0, kGlobal, kSharedCta, kSharedCluster, kShared };
const char* ToString(StateSpace s);  // "", "global", "shared::cta", "shared::cluster", "shared"

enum class Completion : uint8_t { kNone = 0, kMbarrier, kBulkGroup };

enum class TmapField : uint8_t {
  kNone = 0,
  kGlobalAddress,  // field1
  kRank,
  kBoxDim,  // field2 (take an ordinal)
  kGlobalDim,
  kGlobalStride,
  kElementStride,
  kElemtype,  // field3 (immediate new_val, Table 33)
  kInterleaveLayout,
  kSwizzleMode,
  kSwizzleAtomicity,
  kFillMode,
};
const char* ToString(TmapField f);  // "global_address", ...

struct PtxOperand {
  enum class Kind : uint8_t {
    kReg = 0,     // a register or symbol name: %r1, sMem0, ctaMask
    kImm,         // an integer immediate: 16, -4, 0x80
    kAddr,        // [name], [name+imm], [name-imm], [imm]
    kTensorAddr,  // [tensorMap, {c0, ..}]
    kVector,      // {a, b, ..}
    kSink,        // _
  };
  Kind kind = Kind::kReg;
  std::string name;               // kReg; base of kAddr (empty for [imm]); map of kTensorAddr
  int64_t value = 0;              // kImm; offset of kAddr
  std::vector<PtxOperand> elems;  // kVector, kTensorAddr: the vector's elements (kReg / kImm)

  bool operator==(const PtxOperand& o) const {
    return kind == o.kind && name == o.name && value == o.value && elems == o.elems;
  }
};

struct PtxInstr {
  PtxOpcode opcode = PtxOpcode::kBulkTensor;
  std::string guard;  // predicate of "@p" / "@!p"; empty = unguarded
  bool guard_negated = false;
  // cp{.reduce}.async.bulk{.prefetch}{.tensor}
  int dim = 0;                         // .1d .. .5d; 0 = absent
  StateSpace dst = StateSpace::kNone;  // first state space (not for the prefetch forms)
  StateSpace src = StateSpace::kNone;  // second state space; the prefetch forms' .global
  bool l2 = false;                     // the .L2 of the prefetch forms
  std::optional<LoadMode> load_mode;   // absent = .tile by default
  Completion completion = Completion::kNone;
  bool multicast = false;   // .multicast::cluster
  int cta_group = 0;        // .cta_group::1 / ::2; 0 = absent
  bool cache_hint = false;  // .L2::cache_hint
  bool cp_mask = false;     // .cp_mask
  std::optional<RedOp> redop;
  bool noftz = false;
  std::optional<BulkType> type;  // cp.reduce.async.bulk .type; tensormap.replace .b32/.b64
  bool read = false;             // wait_group.read
  // tensormap.replace
  bool mode_tile = false;  // .tile
  TmapField field = TmapField::kNone;
  bool b1024 = false;
  // tensormap.replace .ss and the mbarrier state space
  StateSpace space = StateSpace::kNone;
  // mbarrier
  bool expect_tx = false;  // mbarrier.arrive.expect_tx
  bool parity = false;     // test_wait / try_wait .parity
  std::string sem;         // "release", "relaxed", "acquire" or empty
  std::string scope;       // "cta", "cluster" or empty
  bool b64 = false;

  std::vector<PtxOperand> operands;

  bool operator==(const PtxInstr& o) const;
  bool operator!=(const PtxInstr& o) const { return !(*this == o); }
};

struct PtxParseResult {
  Status status;  // kInvalidInstruction; field = the offending token, e.g. ".im2col::x"
  PtxInstr instr;
  bool ok() const { return status.ok(); }
};

// One statement (a trailing ';' and "//" comments are optional).
PtxParseResult Parse(const std::string& text);
// Canonical text, ending in ';'.
std::string Print(const PtxInstr& instr);
// Legality on `target`: kInvalidInstruction for illegal qualifier combinations and operand
// lists, kUnsupportedReduction for a cp.reduce.async.bulk redOp/type pair outside the seed's
// table, kUnsupported for a form `target` lacks. `field` names the qualifier or operand.
Status Check(const PtxInstr& instr, Target target);

// A `.reg .type a, b, c;` declaration (the seeds' example blocks open with some).
struct PtxRegDecl {
  std::string type;  // "b16", "u16", "b64", ...
  std::vector<std::string> names;
};
std::optional<PtxRegDecl> ParseRegDecl(const std::string& text);

// ---- Conversion to the model's instructions -------------------------------------------------
// Register / symbol values, supplied by the caller. A shared::cluster address A names CTA
// A / cluster_window_bytes at offset A % cluster_window_bytes when cluster_window_bytes != 0;
// when it is 0, shared addresses are offsets in the issuer's window (dst_cta = -1).
struct PtxBindings {
  std::map<std::string, int64_t> values;
  int issuer_cta = 0;
  uint32_t cluster_window_bytes = 0;
};

struct TensorConversion {
  Status status;
  TensorInstr instr;
  int mbar_cta = -1;  // the CTA holding mbar (loads; -1 = the destination CTA / issuer);
                      // also in instr.mbar_cta, by which ExecuteTensor routes complete-tx
};
// cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, cp.async.bulk.prefetch.tensor. Runs
// Check(instr, target) first. Also checks that mbar sits where .cta_group allows (seed 001
// lines 107-113) when the window map locates both.
TensorConversion ToTensorInstr(const PtxInstr& instr, const PtxBindings& b,
                               Target target = Target::kSm100a);

struct BulkCopyConversion {
  Status status;
  BulkCopyInstr instr;
};
struct BulkReduceConversion {
  Status status;
  BulkReduceInstr instr;
};
struct BulkPrefetchConversion {
  Status status;
  BulkPrefetchInstr instr;
};
BulkCopyConversion ToBulkCopyInstr(const PtxInstr& instr, const PtxBindings& b,
                                   Target target = Target::kSm100a);
BulkReduceConversion ToBulkReduceInstr(const PtxInstr& instr, const PtxBindings& b,
                                       Target target = Target::kSm100a);
BulkPrefetchConversion ToBulkPrefetchInstr(const PtxInstr& instr, const PtxBindings& b,
                                           Target target = Target::kSm100a);

}  // namespace tma::model

#endif  // TMA_PTX_H_
