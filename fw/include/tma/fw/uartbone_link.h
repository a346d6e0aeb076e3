// SPDX-License-Identifier: Apache-2.0
//
// UartBoneLink: bus accesses over a serial line with LiteX's UARTBone framing, the
// "wishbone over UART" bridge of LiteX SoCs (litex/soc/cores/uart.py Stream2Wishbone; host side
// litex/tools/remote/comm_uart.py, https://github.com/enjoy-digital/litex). Written from that
// description; the wire format, all multi-byte fields big-endian:
//
//   write:  0x01 (burst, incrementing address)  len  addr[4]  data[4] x len    (no reply)
//   read:   0x02 (burst, incrementing address)  len  addr[4]                   reply data[4] x len
//           (0x03 / 0x04: the same with a fixed address; not used here)
//
// `len` is the number of 32-bit words (1..255) and `addr` is the WORD address (byte address / 4),
// so the link reaches byte addresses below 2^34. Writes are sent in frames of at most 8 words
// as comm_uart.py does; reads in frames of at most 255. A write gets no acknowledgement: a bus
// error on the far side is invisible (the driver checks the engine's error registers). The
// serial line has no interrupt: WaitInterrupt returns kUnsupported and the driver polls.
// Works on a tty (Open: raw mode, the given baud rate) or any connected descriptor (FromFd: a
// pty exported by a Verilated board top, a socket).
#ifndef TMA_FW_UARTBONE_LINK_H_
#define TMA_FW_UARTBONE_LINK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "tma/fw/link.h"

namespace tma::fw {

namespace uartbone {
inline constexpr uint8_t kCmdWriteBurstIncr = 0x01;
inline constexpr uint8_t kCmdReadBurstIncr = 0x02;
inline constexpr uint8_t kCmdWriteBurstFixed = 0x03;
inline constexpr uint8_t kCmdReadBurstFixed = 0x04;
inline constexpr size_t kMaxWriteWords = 8;
inline constexpr size_t kMaxReadWords = 255;
}  // namespace uartbone

// The runner's link argument `uart:PATH[@BAUD]` (`tma run --link`): the tty and the baud rate
// (kDefaultBaud without @BAUD). False, and a sentence in *error, when it is not of that form.
inline constexpr uint32_t kDefaultBaud = 3000000;
bool ParseUartSpec(const std::string& spec, std::string* path, uint32_t* baud,
                   std::string* error = nullptr);

class UartBoneLink : public Link {
 public:
  // A serial device in raw 8N1 mode at `baud` (e.g. 3000000); nullptr (and *error) on failure.
  static std::unique_ptr<UartBoneLink> Open(const std::string& tty, uint32_t baud,
                                            std::string* error = nullptr);
  // Adopts a connected descriptor (closed by the link); no terminal settings are changed.
  static std::unique_ptr<UartBoneLink> FromFd(int fd);
  ~UartBoneLink() override;
  UartBoneLink(const UartBoneLink&) = delete;
  UartBoneLink& operator=(const UartBoneLink&) = delete;

  LinkStatus Read32(uint64_t addr, uint32_t* value) override;
  LinkStatus Write32(uint64_t addr, uint32_t value) override;
  LinkStatus ReadBlock(uint64_t addr, uint32_t* words, size_t n) override;
  LinkStatus WriteBlock(uint64_t addr, const uint32_t* words, size_t n) override;
  LinkStatus WaitInterrupt(uint32_t timeout_us) override;

  // How long a read waits for each reply byte before kTimeout (default 1 s).
  void set_reply_timeout_ms(int ms) { reply_timeout_ms_ = ms; }

 private:
  explicit UartBoneLink(int fd) : fd_(fd) {}
  LinkStatus Send(const uint8_t* p, size_t n);
  LinkStatus Receive(uint8_t* p, size_t n);
  int fd_;
  int reply_timeout_ms_ = 1000;
};

}  // namespace tma::fw

#endif  // TMA_FW_UARTBONE_LINK_H_
