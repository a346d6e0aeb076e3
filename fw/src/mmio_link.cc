// SPDX-License-Identifier: Apache-2.0
//
// MmioLink (tma/fw/mmio_link.h): mmap of /dev/mem, a UIO device or a file.
#include "tma/fw/mmio_link.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

namespace tma::fw {
namespace {

void SetError(std::string* error, const std::string& what) {
  if (error != nullptr)
    *error = what + ": " + std::strerror(errno);
}

}  // namespace

std::unique_ptr<MmioLink> MmioLink::FromFds(int map_fd, uint64_t offset, size_t bytes, int irq_fd,
                                            std::string* error) {
  std::unique_ptr<MmioLink> l(new MmioLink());
  l->map_fd_ = map_fd;
  l->irq_fd_ = irq_fd;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t start = offset / page * page;
  l->map_len_ = static_cast<size_t>(offset - start) + bytes;
  void* p = mmap(nullptr, l->map_len_, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd,
                 static_cast<off_t>(start));
  if (p == MAP_FAILED) {
    SetError(error, "mmap");
    return nullptr;  // the destructor closes the descriptors
  }
  l->base_ = p;
  l->window_ = static_cast<volatile uint8_t*>(p) + (offset - start);
  l->bytes_ = bytes;
  return l;
}

std::unique_ptr<MmioLink> MmioLink::Open(const std::string& path, uint64_t offset, size_t bytes,
                                         std::string* error) {
  const int fd = open(path.c_str(), O_RDWR | O_SYNC | O_CLOEXEC);
  if (fd < 0) {
    SetError(error, "open " + path);
    return nullptr;
  }
  return FromFds(fd, offset, bytes, -1, error);
}

std::unique_ptr<MmioLink> MmioLink::OpenDevMem(uint64_t phys_base, size_t bytes,
                                               std::string* error) {
  return Open("/dev/mem", phys_base, bytes, error);
}

std::unique_ptr<MmioLink> MmioLink::OpenUio(const std::string& dev, size_t bytes, int map_index,
                                            std::string* error) {
  const int fd = open(dev.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    SetError(error, "open " + dev);
    return nullptr;
  }
  const int irq = dup(fd);
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return FromFds(fd, static_cast<uint64_t>(map_index) * page, bytes, irq, error);
}

MmioLink::~MmioLink() {
  if (base_ != nullptr)
    munmap(base_, map_len_);
  if (map_fd_ >= 0)
    close(map_fd_);
  if (irq_fd_ >= 0)
    close(irq_fd_);
}

volatile uint32_t* MmioLink::Word(uint64_t addr) const {
  if (addr % 4 != 0 || addr + 4 > bytes_)
    return nullptr;
  return reinterpret_cast<volatile uint32_t*>(window_ + addr);
}

LinkStatus MmioLink::Read32(uint64_t addr, uint32_t* value) {
  volatile uint32_t* w = Word(addr);
  if (w == nullptr)
    return LinkStatus::kBadArgument;
  *value = *w;
  return LinkStatus::kOk;
}

LinkStatus MmioLink::Write32(uint64_t addr, uint32_t value) {
  volatile uint32_t* w = Word(addr);
  if (w == nullptr)
    return LinkStatus::kBadArgument;
  *w = value;
  return LinkStatus::kOk;
}

LinkStatus MmioLink::WaitInterrupt(uint32_t timeout_us) {
  if (irq_fd_ < 0)
    return LinkStatus::kUnsupported;
  pollfd p{irq_fd_, POLLIN, 0};
  const int ms = static_cast<int>((static_cast<uint64_t>(timeout_us) + 999) / 1000);
  int r;
  do {
    r = poll(&p, 1, ms);
  } while (r < 0 && errno == EINTR);
  if (r < 0)
    return LinkStatus::kIoError;
  if (r == 0)
    return LinkStatus::kTimeout;
  uint32_t count = 0;
  if (read(irq_fd_, &count, sizeof(count)) != static_cast<ssize_t>(sizeof(count)))
    return LinkStatus::kIoError;
  irq_count_ = count;
  // Re-arm (UIO irqcontrol); a UIO driver without irqcontrol fails this write, harmlessly.
  const uint32_t one = 1;
  const ssize_t w = write(irq_fd_, &one, sizeof(one));
  (void)w;
  return LinkStatus::kOk;
}

}  // namespace tma::fw
