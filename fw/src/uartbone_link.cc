// SPDX-License-Identifier: Apache-2.0
//
// UartBoneLink (tma/fw/uartbone_link.h): LiteX UARTBone framing over a descriptor.
#include "tma/fw/uartbone_link.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>
#include <vector>

namespace tma::fw {
namespace {

void PutBe32(std::vector<uint8_t>* v, uint32_t x) {
  v->push_back(static_cast<uint8_t>(x >> 24));
  v->push_back(static_cast<uint8_t>(x >> 16));
  v->push_back(static_cast<uint8_t>(x >> 8));
  v->push_back(static_cast<uint8_t>(x));
}

// The termios speed constant of a baud rate, or B0 for one the platform lacks.
speed_t Speed(uint32_t baud) {
  switch (baud) {
    case 9600:
      return B9600;
    case 19200:
      return B19200;
    case 38400:
      return B38400;
    case 57600:
      return B57600;
    case 115200:
      return B115200;
    case 230400:
      return B230400;
    case 460800:
      return B460800;
    case 921600:
      return B921600;
    case 1000000:
      return B1000000;
    case 2000000:
      return B2000000;
    case 3000000:
      return B3000000;
    default:
      return B0;
  }
}

// The frame header: command, word count, word address.
LinkStatus Header(std::vector<uint8_t>* v, uint8_t cmd, size_t n, uint64_t addr) {
  if (addr % 4 != 0 || (addr >> 2) + n > (uint64_t{1} << 32))
    return LinkStatus::kBadArgument;
  v->push_back(cmd);
  v->push_back(static_cast<uint8_t>(n));
  PutBe32(v, static_cast<uint32_t>(addr >> 2));
  return LinkStatus::kOk;
}

}  // namespace

bool ParseUartSpec(const std::string& spec, std::string* path, uint32_t* baud, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error != nullptr)
      *error = "link '" + spec + "': " + why + " (want uart:PATH[@BAUD])";
    return false;
  };
  const std::string kPrefix = "uart:";
  if (spec.compare(0, kPrefix.size(), kPrefix) != 0)
    return fail("not a uart: link");
  std::string rest = spec.substr(kPrefix.size());
  uint32_t b = kDefaultBaud;
  const size_t at = rest.rfind('@');
  if (at != std::string::npos) {
    const std::string digits = rest.substr(at + 1);
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return fail("the baud rate is not a number");
    b = static_cast<uint32_t>(std::stoul(digits));
    rest.resize(at);
  }
  if (rest.empty())
    return fail("no device path");
  *path = rest;
  *baud = b;
  return true;
}

std::unique_ptr<UartBoneLink> UartBoneLink::Open(const std::string& tty, uint32_t baud,
                                                 std::string* error) {
  const speed_t sp = Speed(baud);
  if (sp == B0) {
    if (error != nullptr)
      *error = "unsupported baud rate " + std::to_string(baud);
    return nullptr;
  }
  const int fd = open(tty.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (error != nullptr)
      *error = "open " + tty + ": " + std::strerror(errno);
    return nullptr;
  }
  termios t{};
  if (tcgetattr(fd, &t) != 0) {
    if (error != nullptr)
      *error = "tcgetattr " + tty + ": " + std::strerror(errno);
    close(fd);
    return nullptr;
  }
  cfmakeraw(&t);
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | CRTSCTS);
  cfsetispeed(&t, sp);
  cfsetospeed(&t, sp);
  if (tcsetattr(fd, TCSANOW, &t) != 0) {
    if (error != nullptr)
      *error = "tcsetattr " + tty + ": " + std::strerror(errno);
    close(fd);
    return nullptr;
  }
  tcflush(fd, TCIOFLUSH);
  return FromFd(fd);
}

std::unique_ptr<UartBoneLink> UartBoneLink::FromFd(int fd) {
  return std::unique_ptr<UartBoneLink>(new UartBoneLink(fd));
}

UartBoneLink::~UartBoneLink() {
  if (fd_ >= 0)
    close(fd_);
}

LinkStatus UartBoneLink::Send(const uint8_t* p, size_t n) {
  while (n > 0) {
    // send() without SIGPIPE on a socket whose far end is gone; write() on a tty or pty.
    ssize_t w = send(fd_, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == ENOTSOCK)
      w = write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return LinkStatus::kIoError;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return LinkStatus::kOk;
}

LinkStatus UartBoneLink::Receive(uint8_t* p, size_t n) {
  while (n > 0) {
    pollfd pf{fd_, POLLIN, 0};
    const int r = poll(&pf, 1, reply_timeout_ms_);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return LinkStatus::kIoError;
    if (r == 0)
      return LinkStatus::kTimeout;
    const ssize_t got = read(fd_, p, n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return LinkStatus::kIoError;
    p += got;
    n -= static_cast<size_t>(got);
  }
  return LinkStatus::kOk;
}

LinkStatus UartBoneLink::ReadBlock(uint64_t addr, uint32_t* words, size_t n) {
  while (n > 0) {
    const size_t k = std::min(n, uartbone::kMaxReadWords);
    std::vector<uint8_t> f;
    LinkStatus s = Header(&f, uartbone::kCmdReadBurstIncr, k, addr);
    if (s == LinkStatus::kOk)
      s = Send(f.data(), f.size());
    std::vector<uint8_t> reply(4 * k);
    if (s == LinkStatus::kOk)
      s = Receive(reply.data(), reply.size());
    if (s != LinkStatus::kOk)
      return s;
    for (size_t i = 0; i < k; ++i) {
      const uint8_t* b = &reply[4 * i];
      words[i] = (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
    }
    addr += 4 * k;
    words += k;
    n -= k;
  }
  return LinkStatus::kOk;
}

LinkStatus UartBoneLink::WriteBlock(uint64_t addr, const uint32_t* words, size_t n) {
  while (n > 0) {
    const size_t k = std::min(n, uartbone::kMaxWriteWords);
    std::vector<uint8_t> f;
    const LinkStatus s = Header(&f, uartbone::kCmdWriteBurstIncr, k, addr);
    if (s != LinkStatus::kOk)
      return s;
    for (size_t i = 0; i < k; ++i)
      PutBe32(&f, words[i]);
    const LinkStatus w = Send(f.data(), f.size());
    if (w != LinkStatus::kOk)
      return w;
    addr += 4 * k;
    words += k;
    n -= k;
  }
  return LinkStatus::kOk;
}

LinkStatus UartBoneLink::Read32(uint64_t addr, uint32_t* value) {
  return ReadBlock(addr, value, 1);
}

LinkStatus UartBoneLink::Write32(uint64_t addr, uint32_t value) {
  return WriteBlock(addr, &value, 1);
}

LinkStatus UartBoneLink::WaitInterrupt(uint32_t /*timeout_us*/) {
  return LinkStatus::kUnsupported;
}

}  // namespace tma::fw
