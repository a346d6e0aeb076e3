// SPDX-License-Identifier: Apache-2.0
//
// MmioLink: the engine's registers (and any other bus window) mapped into this process with
// mmap, for Linux hosts and SoCs:
//   - /dev/mem: OpenDevMem(phys_base, bytes) maps the physical window; no interrupt
//     (WaitInterrupt returns kUnsupported, the driver polls);
//   - UIO: OpenUio("/dev/uioN", bytes, map_index) maps the device's map N (mmap offset
//     N x page size, the UIO convention) and uses the same descriptor for the interrupt:
//     WaitInterrupt poll()s it for the 4-byte event count, then writes 1 to re-enable the
//     interrupt (UIO irqcontrol; drivers without it reject the write, which is ignored);
//   - any file (Open) mapped at a byte offset, the way the unit tests stand in for /dev/mem.
// Link addresses are offsets from the start of the mapped window. Accesses are volatile
// 32-bit loads and stores; block transfers are word loops (no memcpy: device memory).
#ifndef TMA_FW_MMIO_LINK_H_
#define TMA_FW_MMIO_LINK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "tma/fw/link.h"

namespace tma::fw {

class MmioLink : public Link {
 public:
  // nullptr (and *error set) when the file cannot be opened or mapped.
  static std::unique_ptr<MmioLink> Open(const std::string& path, uint64_t offset, size_t bytes,
                                        std::string* error = nullptr);
  static std::unique_ptr<MmioLink> OpenDevMem(uint64_t phys_base, size_t bytes,
                                              std::string* error = nullptr);
  static std::unique_ptr<MmioLink> OpenUio(const std::string& dev, size_t bytes, int map_index = 0,
                                           std::string* error = nullptr);
  // Adopts an already-open mapping descriptor; irq_fd (-1: none) is poll()ed for the UIO event
  // count and written to re-enable. The link closes both.
  static std::unique_ptr<MmioLink> FromFds(int map_fd, uint64_t offset, size_t bytes, int irq_fd,
                                           std::string* error = nullptr);
  ~MmioLink() override;
  MmioLink(const MmioLink&) = delete;
  MmioLink& operator=(const MmioLink&) = delete;

  LinkStatus Read32(uint64_t addr, uint32_t* value) override;
  LinkStatus Write32(uint64_t addr, uint32_t value) override;
  LinkStatus WaitInterrupt(uint32_t timeout_us) override;

  size_t size() const { return bytes_; }
  uint32_t interrupts_seen() const { return irq_count_; }  // the last UIO event count read

 private:
  MmioLink() = default;
  volatile uint32_t* Word(uint64_t addr) const;
  int map_fd_ = -1;
  int irq_fd_ = -1;
  void* base_ = nullptr;  // the mapping (page aligned)
  size_t map_len_ = 0;
  volatile uint8_t* window_ = nullptr;  // the requested offset inside the mapping
  size_t bytes_ = 0;
  uint32_t irq_count_ = 0;
};

}  // namespace tma::fw

#endif  // TMA_FW_MMIO_LINK_H_
