// SPDX-License-Identifier: Apache-2.0
//
// The OpenTMA UVM-style layer in one include (docs/verification.md describes it).
#ifndef TMA_TB_UVM_UVM_H_
#define TMA_TB_UVM_UVM_H_

#include "uvm/analysis.h"
#include "uvm/component.h"
#include "uvm/config.h"
#include "uvm/coverage.h"
#include "uvm/factory.h"
#include "uvm/report.h"
#include "uvm/sequence.h"

#endif  // TMA_TB_UVM_UVM_H_
