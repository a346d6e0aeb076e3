// SPDX-License-Identifier: Apache-2.0
//
// The HAL links (tma/fw/link.h): MockLink, MmioLink over a temporary file standing in for
// /dev/mem (and a socketpair standing in for the UIO interrupt descriptor), and UartBoneLink
// over a socketpair against an in-test responder that implements LiteX's UARTBone framing
// (litex/tools/remote/comm_uart.py: cmd, length, big-endian word address, big-endian data).
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <stdlib.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "tma/fw/mmio_link.h"
#include "tma/fw/mock_link.h"
#include "tma/fw/uartbone_link.h"

namespace tma::fw {
namespace {

TEST(MockLink, RecordsScriptsAndFails) {
  MockLink l;
  EXPECT_EQ(l.Write32(0x10, 0xabcd), LinkStatus::kOk);
  uint32_t v = 0;
  EXPECT_EQ(l.Read32(0x10, &v), LinkStatus::kOk);
  EXPECT_EQ(v, 0xabcdu);
  int reads = 0;
  l.OnRead(0x20, [&](uint64_t) { return static_cast<uint32_t>(++reads); });  // a counter
  EXPECT_EQ(l.Read32(0x20, &v), LinkStatus::kOk);
  EXPECT_EQ(l.Read32(0x20, &v), LinkStatus::kOk);
  EXPECT_EQ(v, 2u);
  l.OnWrite(0x30, [](uint64_t, uint32_t) { return false; });  // write-only, not stored
  EXPECT_EQ(l.Write32(0x30, 7), LinkStatus::kOk);
  EXPECT_EQ(l.Peek(0x30), 0u);
  l.FailAt(0x40);
  EXPECT_EQ(l.Read32(0x40, &v), LinkStatus::kBusError);
  EXPECT_EQ(l.Read32(0x41, &v), LinkStatus::kBadArgument);
  ASSERT_EQ(l.log().size(), 5u);
  EXPECT_EQ(l.log()[0], (MockLink::Access{MockLink::Kind::kWrite, 0x10, 0xabcd}));
  EXPECT_EQ(l.WritesTo(0x30), std::vector<uint32_t>{7});
  // Block accesses are word loops by default.
  const uint32_t w[3] = {1, 2, 3};
  EXPECT_EQ(l.WriteBlock(0x100, w, 3), LinkStatus::kOk);
  EXPECT_EQ(l.Peek(0x108), 3u);
  EXPECT_EQ(l.WaitInterrupt(5), LinkStatus::kTimeout);
  l.SetIrq(true);
  EXPECT_EQ(l.WaitInterrupt(5), LinkStatus::kOk);
  l.SetHasIrq(false);
  EXPECT_EQ(l.WaitInterrupt(5), LinkStatus::kUnsupported);
}

// A temporary file of `bytes` zero bytes; removed by the destructor.
struct TempFile {
  explicit TempFile(size_t bytes) {
    char tmpl[] = "/tmp/tma_fw_mmio_XXXXXX";
    fd = mkstemp(tmpl);
    path = tmpl;
    EXPECT_EQ(ftruncate(fd, static_cast<off_t>(bytes)), 0);
  }
  ~TempFile() {
    close(fd);
    unlink(path.c_str());
  }
  int fd = -1;
  std::string path;
};

TEST(MmioLink, MapsAFileAtAnOffset) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  TempFile f(3 * page);
  std::string err;
  // A window that starts inside the second page (not page aligned, as a CSR block may be).
  auto l = MmioLink::Open(f.path, page + 0x40, 0x100, &err);
  ASSERT_NE(l, nullptr) << err;
  EXPECT_EQ(l->Write32(0x8, 0x11223344), LinkStatus::kOk);
  uint8_t raw[4] = {};
  ASSERT_EQ(pread(f.fd, raw, 4, static_cast<off_t>(page + 0x48)), 4);
  EXPECT_EQ(raw[0], 0x44);  // the host's little-endian word, byte for byte in the file
  EXPECT_EQ(raw[3], 0x11);
  const uint8_t in[4] = {0xef, 0xbe, 0xad, 0xde};
  ASSERT_EQ(pwrite(f.fd, in, 4, static_cast<off_t>(page + 0x40 + 0xfc)), 4);
  uint32_t v = 0;
  EXPECT_EQ(l->Read32(0xfc, &v), LinkStatus::kOk);
  EXPECT_EQ(v, 0xdeadbeefu);
  uint32_t w[2] = {};
  EXPECT_EQ(l->ReadBlock(0x8, w, 2), LinkStatus::kOk);
  EXPECT_EQ(w[0], 0x11223344u);
  EXPECT_EQ(l->Read32(0x100, &v), LinkStatus::kBadArgument);  // outside the window
  EXPECT_EQ(l->Read32(0x2, &v), LinkStatus::kBadArgument);    // misaligned
  EXPECT_EQ(l->WaitInterrupt(10), LinkStatus::kUnsupported);  // /dev/mem has no interrupt
  EXPECT_EQ(MmioLink::Open("/nonexistent/mem", 0, 4, &err), nullptr);
  EXPECT_NE(err.find("/nonexistent/mem"), std::string::npos);
}

TEST(MmioLink, UioInterruptCountAndRearm) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  TempFile f(page);
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  auto l = MmioLink::FromFds(dup(f.fd), 0, page, sv[0]);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->WaitInterrupt(1000), LinkStatus::kTimeout);  // nothing pending
  const uint32_t count = 3;  // the UIO event count the kernel hands to read()
  ASSERT_EQ(write(sv[1], &count, 4), 4);
  EXPECT_EQ(l->WaitInterrupt(1000000), LinkStatus::kOk);
  EXPECT_EQ(l->interrupts_seen(), 3u);
  uint32_t rearm = 0;  // the link writes 1 to re-enable the interrupt (UIO irqcontrol)
  ASSERT_EQ(read(sv[1], &rearm, 4), 4);
  EXPECT_EQ(rearm, 1u);
  close(sv[1]);
}

// The far end of a UARTBone line: a word-addressed memory answering LiteX frames.
class Responder {
 public:
  explicit Responder(int fd) : fd_(fd), t_([this] { Run(); }) {}
  ~Responder() {
    shutdown(fd_, SHUT_RDWR);
    t_.join();
    close(fd_);
  }
  std::map<uint32_t, uint32_t> mem;  // word address -> value
  std::vector<uint8_t> wire;         // every byte received, in order

 private:
  bool Get(uint8_t* p, size_t n) {
    while (n > 0) {
      const ssize_t r = read(fd_, p, n);
      if (r <= 0)
        return false;
      wire.insert(wire.end(), p, p + r);
      p += r;
      n -= static_cast<size_t>(r);
    }
    return true;
  }
  void Run() {
    for (;;) {
      uint8_t h[6];
      if (!Get(h, 6))
        return;
      const uint32_t len = h[1];
      uint32_t a = (uint32_t{h[2]} << 24) | (uint32_t{h[3]} << 16) | (uint32_t{h[4]} << 8) | h[5];
      for (uint32_t i = 0; i < len; ++i) {
        uint8_t d[4];
        if (h[0] == 0x01) {  // write burst, incrementing
          if (!Get(d, 4))
            return;
          mem[a++] = (uint32_t{d[0]} << 24) | (uint32_t{d[1]} << 16) | (uint32_t{d[2]} << 8) | d[3];
        } else if (h[0] == 0x02) {  // read burst, incrementing
          const uint32_t v = mem[a++];
          d[0] = static_cast<uint8_t>(v >> 24);
          d[1] = static_cast<uint8_t>(v >> 16);
          d[2] = static_cast<uint8_t>(v >> 8);
          d[3] = static_cast<uint8_t>(v);
          if (write(fd_, d, 4) != 4)
            return;
        } else {
          return;
        }
      }
    }
  }
  int fd_;
  std::thread t_;
};

TEST(UartBoneLink, LiteXFramingOverASocket) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  auto l = UartBoneLink::FromFd(sv[0]);
  {
    Responder r(sv[1]);
    ASSERT_EQ(l->Write32(0x1004, 0xdeadbeef), LinkStatus::kOk);
    uint32_t v = 0;
    ASSERT_EQ(l->Read32(0x1004, &v), LinkStatus::kOk);  // also orders the write before it
    EXPECT_EQ(v, 0xdeadbeefu);
    // Byte for byte: write frame 01 01 | word address 0x401 | data; read frame 02 01 | 0x401.
    const std::vector<uint8_t> want = {0x01, 0x01, 0x00, 0x00, 0x04, 0x01, 0xde, 0xad,
                                       0xbe, 0xef, 0x02, 0x01, 0x00, 0x00, 0x04, 0x01};
    EXPECT_EQ(r.wire, want);
    EXPECT_EQ(r.mem[0x401], 0xdeadbeefu);
    // 20 words: writes in frames of 8, 8, 4; the read in one frame of 20.
    std::vector<uint32_t> out(20), back(20);
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = 0x01000000u * static_cast<uint32_t>(i) + 7;
    r.wire.clear();
    ASSERT_EQ(l->WriteBlock(0x2000, out.data(), out.size()), LinkStatus::kOk);
    ASSERT_EQ(l->ReadBlock(0x2000, back.data(), back.size()), LinkStatus::kOk);
    EXPECT_EQ(back, out);
    ASSERT_EQ(r.wire.size(), (6 + 32) * 2 + (6 + 16) + 6u);
    EXPECT_EQ(r.wire[1], 8);
    EXPECT_EQ(r.wire[6 + 32 + 1], 8);
    EXPECT_EQ(r.wire[2 * (6 + 32) + 1], 4);
    EXPECT_EQ(r.wire[2 * (6 + 32) + 6 + 16 + 1], 20);
    EXPECT_EQ(r.wire[2 * (6 + 32) + 4], 0x08);  // third frame's word address: 0x800 + 16
    EXPECT_EQ(r.wire[2 * (6 + 32) + 5], 0x10);
    EXPECT_EQ(l->Read32(0x2, &v), LinkStatus::kBadArgument);
    EXPECT_EQ(l->Read32(uint64_t{1} << 34, &v), LinkStatus::kBadArgument);
    EXPECT_EQ(l->WaitInterrupt(10), LinkStatus::kUnsupported);
  }
  // The far end is gone: a read times out or fails, it does not hang.
  l->set_reply_timeout_ms(50);
  uint32_t v = 0;
  const LinkStatus s = l->Read32(0x0, &v);
  EXPECT_TRUE(s == LinkStatus::kTimeout || s == LinkStatus::kIoError) << ToString(s);
}

// The same framing through a pseudo-terminal opened as a tty (UartBoneLink::Open: raw 8N1 at
// 3 Mbaud), the way a Verilated board top exports its UART.
TEST(UartBoneLink, OverAPty) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  std::string err;
  auto l = UartBoneLink::Open(ptsname(master), 3000000, &err);
  ASSERT_NE(l, nullptr) << err;
  Responder r(master);
  r.mem[0x10] = 0x0badf00d;
  uint32_t v = 0;
  ASSERT_EQ(l->Read32(0x40, &v), LinkStatus::kOk);
  EXPECT_EQ(v, 0x0badf00du);
  const uint32_t w[2] = {0x80ff0a0d, 0x11};  // bytes a tty in cooked mode would alter
  ASSERT_EQ(l->WriteBlock(0x44, w, 2), LinkStatus::kOk);
  uint32_t back[2] = {};
  ASSERT_EQ(l->ReadBlock(0x44, back, 2), LinkStatus::kOk);
  EXPECT_EQ(back[0], 0x80ff0a0du);
  EXPECT_EQ(back[1], 0x11u);
  EXPECT_EQ(UartBoneLink::Open("/dev/null", 1234, &err), nullptr);  // no such baud rate
  l.reset();  // closing the slave ends the responder's read on the master
}

// The runner's `--link uart:PATH[@BAUD]` argument.
TEST(UartBoneLink, ParseUartSpec) {
  std::string path, err;
  uint32_t baud = 0;
  ASSERT_TRUE(ParseUartSpec("uart:/dev/ttyUSB0", &path, &baud, &err)) << err;
  EXPECT_EQ(path, "/dev/ttyUSB0");
  EXPECT_EQ(baud, 3000000u);
  ASSERT_TRUE(ParseUartSpec("uart:/dev/pts/7@115200", &path, &baud, &err)) << err;
  EXPECT_EQ(path, "/dev/pts/7");
  EXPECT_EQ(baud, 115200u);
  EXPECT_FALSE(ParseUartSpec("tty:/dev/ttyUSB0", &path, &baud, &err));
  EXPECT_FALSE(ParseUartSpec("uart:", &path, &baud, &err));
  EXPECT_FALSE(ParseUartSpec("uart:/dev/ttyUSB0@", &path, &baud, &err));
  EXPECT_FALSE(ParseUartSpec("uart:/dev/ttyUSB0@3M", &path, &baud, &err));
  EXPECT_NE(err.find("uart:PATH[@BAUD]"), std::string::npos) << err;
}

}  // namespace
}  // namespace tma::fw
