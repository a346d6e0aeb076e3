// SPDX-License-Identifier: Apache-2.0
// The library without the RTL mode (configured without TMA_BUILD_TB).
#include "rtl_backend.h"

namespace otma_impl {

std::unique_ptr<RtlBackend> MakeRtlBackend(const otma_config&) {
  return nullptr;
}

}  // namespace otma_impl
