// SPDX-License-Identifier: Apache-2.0
//
// The firmware's model-backed extras (library tma_fw_model, host side: it links the reference
// model, tma_cmodel):
//   ReplaceTensorMapField  tensormap.replace on a map in global memory: read the 128 bytes over
//                          the link, edit one field with the model's PTX semantics (Table 33,
//                          tma/tensormap_replace.h), write them back, then the descriptor-cache
//                          invalidate the engine needs before it may use the new map (the
//                          fence.proxy.tensormap::generic release/acquire pair of the seeds);
//   RunPtx                 one PTX statement through the model's front end (tma/ptx.h: Parse,
//                          Check, ToTensorInstr / ToBulk*Instr) and onto the driver's calls:
//                          the tensor and non-tensor copies, reductions and prefetches,
//                          the shared::cta -> shared::cluster bulk copy and reduction,
//                          commit_group / wait_group{.read} and tensormap.replace. Forms the
//                          engine has no command for (mbarrier.*) return kUnsupported.
#ifndef TMA_FW_PTX_RUNNER_H_
#define TMA_FW_PTX_RUNNER_H_

#include <cstdint>
#include <string>

#include "tma/fw/device.h"
#include "tma/ptx.h"
#include "tma/tensormap_replace.h"

namespace tma::fw {

// The model's verdict as a driver error (kBadArgument, or kUnsupported for an unsupported
// form; error_class and field carried over). ok stays ok.
Error FromModel(const tma::model::Status& s);

Error ReplaceTensorMapField(Device* dev, uint64_t map_addr, tma::model::ReplaceField field,
                            int ordinal, uint64_t value);

struct PtxRunOptions {
  tma::model::Target target = tma::model::Target::kSm90a;
  uint32_t wait_timeout_us = 1000000;  // cp.async.bulk.wait_group
};

// `b.values` binds every register and symbol the statement names; the tensorMap operand's
// name is bound to the map's global address. `ticket`, if given, receives the command's tag
// (tensor instructions only).
Error RunPtx(Device* dev, const std::string& text, const tma::model::PtxBindings& b,
             const PtxRunOptions& opt = {}, Ticket* ticket = nullptr);

// A block of statements separated by ';' (as the seeds' examples are written): `//` comments
// and `.reg` declarations are skipped, the rest run in order; the first failure stops the
// block and is returned with "statement N: " (1-based, counting run statements) before its
// message. *ran, if given, receives how many statements ran successfully.
Error RunPtxBlock(Device* dev, const std::string& text, const tma::model::PtxBindings& b,
                  const PtxRunOptions& opt = {}, int* ran = nullptr);

}  // namespace tma::fw

#endif  // TMA_FW_PTX_RUNNER_H_
