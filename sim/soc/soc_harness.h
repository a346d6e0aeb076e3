// SPDX-License-Identifier: Apache-2.0
//
// SocHarness: the Verilated tma_soc_top (sim build: DataBytes 16, 16 CTAs x 64 KiB, 4 mbarrier
// slots per CTA) with what a board puts around it, clocked from C++ (docs/soc.md):
//   * an AXI4-Lite manager on s_axil (one access at a time, Read32 / Write32 run the clock
//     until the response and report SLVERR);
//   * an AXI4 global-memory subordinate on m_axi: reads in AR order, one R beat per cycle from
//     the cycle after the AR, a beat outside the memory answers SLVERR; writes through the
//     harness library's write slave (sim::AxiWriteSlave: always ready, B at once, its protocol
//     checks count as assertion failures). Memory: sparse pages the host writes (rings,
//     tensor maps) over an optional tma::model::GlobalMemoryIf (a golden case's buffer);
//   * the irq line.
// It is a fw::Link (tma/fw/link.h), the firmware's one link interface, for the register-level
// driver (fw/src/soc/): link addresses below 2^32 are s_axil accesses, link address
// kGmemLinkBase + a is global address a (the subordinate's memory, written as host pages), and
// WaitInterrupt waits kCyclesPerUs cycles per microsecond. So tests and `tma run --engine soc`
// use the SoC top only through its CSRs, its AXI memories and irq.
// An RTL assertion failure is recorded (TakeAssertFailure), not fatal; an AXI-Lite access that
// gets no response within the timeout is a hang (hung()).
#ifndef TMA_SIM_SOC_SOC_HARNESS_H_
#define TMA_SIM_SOC_SOC_HARNESS_H_

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/axi_write_slave.h"
#include "sim/common.h"
#include "sim/pins.h"
#include "tma/fw/link.h"
#include "tma/types.h"

namespace tma::sim {

// The sim build of tma_soc_top (sim/CMakeLists.txt passes these to Verilator).
constexpr int kSocDataBytes = 16;
constexpr int kSocNumCtas = 16;
constexpr uint32_t kSocSmemBytes = 65536;

// The two builds of the sim top: tma_engine's defaults (silicon's readings), and the PTX
// text's readings where silicon differs (StoreClipElem = 1, BulkSizeStrict = 1; as
// sim::RtlBuild::PtxReadings), for the golden cases that ask for them.
enum class SocVariant { kDefault, kPtxReadings };

class SocHarness : public tma::fw::Link {
 public:
  // Link address of global address 0, and the clock the link's microseconds are counted in.
  static constexpr uint64_t kGmemLinkBase = uint64_t{1} << 56;
  static constexpr uint64_t kCyclesPerUs = 100;
  explicit SocHarness(SocVariant variant = SocVariant::kDefault);
  ~SocHarness() override;

  // Hard reset (rst_ni low for `cycles`); clears the AXI4 subordinate's queues, not memory.
  void Reset(int cycles = 4);
  void Step(int n = 1);
  uint64_t cycles() const { return cycle_; }
  bool irq() const;
  bool hung() const { return hung_; }
  bool TakeAssertFailure();

  // ---- One AXI4-Lite access (false: SLVERR or no response), waiting on irq ----
  bool AxilRead(uint32_t addr, uint32_t* value);
  bool AxilWrite(uint32_t addr, uint32_t value);
  // Waits until irq is high or `cycles` passed; true: irq is high.
  bool WaitIrq(uint64_t cycles);
  // Global memory as the engine sees it (host pages; reads fall through to the backing).
  void MemWrite(uint64_t addr, const uint8_t* src, size_t n);
  void MemRead(uint64_t addr, uint8_t* dst, size_t n);

  // ---- fw::Link ----
  tma::fw::LinkStatus Read32(uint64_t addr, uint32_t* value) override;
  tma::fw::LinkStatus Write32(uint64_t addr, uint32_t value) override;
  tma::fw::LinkStatus WaitInterrupt(uint32_t timeout_us) override;

  // ---- Global memory ----
  // Reads fall through to `g` where no host page covers the byte; writes of the engine go to
  // the host pages (the ring writer's records) or to `g`.
  void set_backing(tma::model::GlobalMemoryIf* g) { backing_ = g; }
  void ClearPages() { pages_.clear(); }
  // AXI4 subordinate knobs: R beats withheld every Nth cycle (0: never), AR accepted only
  // every Nth cycle; AXI4 bursts and beats seen.
  void set_r_stall_every(int n) { r_stall_every_ = n; }
  uint64_t ar_bursts() const { return ar_bursts_; }
  uint64_t aw_writes() const { return axw_.bursts(); }
  uint64_t axil_timeout = 20000;  // cycles an AXI-Lite access may take before it is a hang

 private:
  struct Model;  // the Verilated model (soc_harness.cc)
  // Global memory as the write slave sees it: the host pages over the backing.
  class Memory : public tma::model::GlobalMemoryIf {
   public:
    explicit Memory(SocHarness* h) : h_(h) {}
    bool Read(uint64_t addr, uint8_t* dst, size_t n) override;
    bool Write(uint64_t addr, const uint8_t* src, size_t n) override;

   private:
    SocHarness* h_;
  };
  struct Burst {
    uint32_t id;
    uint64_t addr;
    uint32_t len, size, beat;
  };
  bool ByteRead(uint64_t a, uint8_t* v);
  bool ByteWrite(uint64_t a, uint8_t v);
  void Inputs();  // drive the subordinate's outputs for this cycle
  void Edge();    // sample handshakes, clock edge, settle
  template <class Top>
  void InputsOf(Top& t);  // (on the build's Verilated model)
  template <class Top>
  void EdgeOf(Top& t);

  std::unique_ptr<Model> m_;
  uint64_t cycle_ = 0;
  bool hung_ = false;
  tma::model::GlobalMemoryIf* backing_ = nullptr;
  std::map<uint64_t, std::vector<uint8_t>> pages_;  // 4 KiB host pages
  std::deque<Burst> ar_q_;
  Memory mem_{this};
  MtRandom rng_;   // every knob at 100 %, latency 0: never drawn
  TopPins wpins_;  // the write channels as the write slave sees them
  bool axi_error_ = false;
  AxiWriteSlave axw_;
  int r_stall_every_ = 0;
  uint64_t ar_bursts_ = 0;
  // AXI-Lite manager state
  bool awv_ = false, wv_ = false, arv_ = false;
  uint32_t awaddr_ = 0, wdata_ = 0, araddr_ = 0;
};

}  // namespace tma::sim

#endif  // TMA_SIM_SOC_SOC_HARNESS_H_
