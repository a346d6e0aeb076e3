// SPDX-License-Identifier: Apache-2.0
//
// The firmware's HAL: one small link interface between the driver (tma/fw/device.h) and the
// bus the engine sits on. Every link offers the same five operations, so the driver is the
// same on a board, in simulation and in unit tests:
//
//   Read32 / Write32        one 32-bit access at a byte address (4-byte aligned)
//   ReadBlock / WriteBlock  n 32-bit words at consecutive addresses (bursts where the link
//                           has them; the default is a loop of single accesses)
//   WaitInterrupt           block until the engine's interrupt line is asserted, or a timeout
//
// Addresses are bus addresses as the link sees them (the SoC top's AXI4-Lite CSR window, its
// global-memory window, ...); tma/fw/device.h says which window the driver uses for what.
// Links: MockLink (tma/fw/mock_link.h, records and scripts accesses), MmioLink
// (tma/fw/mmio_link.h: Linux /dev/mem or UIO, mmap), UartBoneLink (tma/fw/uartbone_link.h:
// LiteX UARTBone framing over a serial port or pty: the ULX3S board or its Verilated board top)
// and the in-process Verilated SoC top (sim/soc/soc_harness.h); the SoC's register-level
// driver (fw/src/soc/) runs over any of them. Contract for every implementation:
//   - no timing assumptions: a link never sleeps except inside WaitInterrupt;
//   - WaitInterrupt returns kOk when the line is (or becomes) asserted, kTimeout after
//     timeout_us without it, kUnsupported when the link has no interrupt (the driver then
//     polls); it does not acknowledge the interrupt (the driver clears INTR_STATE);
//   - a failed access returns kBusError (the bus answered with an error) or kIoError (the
//     transport failed) and leaves *value / words unspecified.
#ifndef TMA_FW_LINK_H_
#define TMA_FW_LINK_H_

#include <cstddef>
#include <cstdint>

namespace tma::fw {

enum class LinkStatus : uint8_t {
  kOk = 0,
  kTimeout = 1,      // WaitInterrupt: no interrupt within the timeout; a transport read timed out
  kBusError = 2,     // the bus answered the access with an error (SLVERR / DECERR)
  kIoError = 3,      // the transport failed (file, serial port, framing)
  kUnsupported = 4,  // the link lacks the operation (WaitInterrupt without an interrupt line)
  kBadArgument = 5,  // misaligned address, address outside the mapped window
};
const char* ToString(LinkStatus s);  // "ok", "timeout", "bus_error", ...

class Link {
 public:
  virtual ~Link() = default;
  virtual LinkStatus Read32(uint64_t addr, uint32_t* value) = 0;
  virtual LinkStatus Write32(uint64_t addr, uint32_t value) = 0;
  // Word i at addr + 4 i. The defaults loop over Read32 / Write32 and stop at the first failure.
  virtual LinkStatus ReadBlock(uint64_t addr, uint32_t* words, size_t n);
  virtual LinkStatus WriteBlock(uint64_t addr, const uint32_t* words, size_t n);
  virtual LinkStatus WaitInterrupt(uint32_t timeout_us) = 0;
};

}  // namespace tma::fw

#endif  // TMA_FW_LINK_H_
