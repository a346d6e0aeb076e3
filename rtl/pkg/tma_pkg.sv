// SPDX-License-Identifier: Apache-2.0
//
// tma_pkg: types and constants shared by the OpenTMA RTL blocks.

package tma_pkg;

  // Largest tensor rank the engine supports (PTX .1d .. .5d).
  localparam int unsigned MaxDims = 5;

endpackage
