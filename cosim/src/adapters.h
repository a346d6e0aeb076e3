// SPDX-License-Identifier: Apache-2.0
//
// The model's memory interfaces (GlobalMemoryIf, SharedMemoryIf) over the host callbacks of
// an engine, with the TIMED mode's options: writes kept instead of made (deferred), global
// sectors recorded (the requests an op makes), no data at all (OTMA_FLAG_NO_DATA).
#ifndef OTMA_ADAPTERS_H_
#define OTMA_ADAPTERS_H_

#include <cstring>
#include <vector>

#include "engine.h"

namespace otma_impl {

namespace m = tma::model;

struct Recorder {
  bool on = false;
  uint32_t g = 32;
  std::vector<uint64_t> reads;  // sector addresses
  std::vector<uint64_t> writes;
  static void Add(std::vector<uint64_t>& v, uint32_t g, uint64_t a, size_t n) {
    if (n == 0) {
      return;
    }
    const uint64_t first = a / g * g;
    const uint64_t last = (a + n - 1) / g * g;
    for (uint64_t s = first; s <= last; s += g) {
      if (v.empty() || v.back() != s) {
        v.push_back(s);
      }
    }
  }
};

class HostGlobal : public m::GlobalMemoryIf {
 public:
  HostGlobal(otma_engine& e, bool deferred, bool no_data, Recorder& rec,
             std::vector<PendingWrite>& pend)
      : e_(e), deferred_(deferred), no_data_(no_data), rec_(rec), pend_(pend) {}
  bool Read(uint64_t addr, uint8_t* dst, size_t n) override {
    if (rec_.on) {
      Recorder::Add(rec_.reads, rec_.g, addr, n);
    }
    if (no_data_ || e_.host.gmem_read == nullptr) {
      std::memset(dst, 0, n);
      return true;
    }
    return e_.host.gmem_read(e_.host.user, addr, dst, static_cast<uint32_t>(n)) == 0;
  }
  bool Write(uint64_t addr, const uint8_t* src, size_t n) override {
    if (rec_.on) {
      Recorder::Add(rec_.writes, rec_.g, addr, n);
    }
    if (no_data_) {
      return true;
    }
    if (deferred_) {
      pend_.push_back(PendingWrite{false, 0, addr, std::vector<uint8_t>(src, src + n)});
      return true;
    }
    if (e_.host.gmem_write == nullptr) {
      return true;
    }
    return e_.host.gmem_write(e_.host.user, addr, src, static_cast<uint32_t>(n)) == 0;
  }

 private:
  otma_engine& e_;
  bool deferred_;
  bool no_data_;
  Recorder& rec_;
  std::vector<PendingWrite>& pend_;
};

class HostShared : public m::SharedMemoryIf {
 public:
  HostShared(otma_engine& e, otma_token t, bool deferred, bool no_data,
             std::vector<PendingWrite>& pend, uint64_t& smem_bytes)
      : e_(e), t_(t), deferred_(deferred), no_data_(no_data), pend_(pend), bytes_(smem_bytes) {}
  int NumCtas() const override { return e_.num_ctas; }
  bool Read(int cta, uint32_t addr, uint8_t* dst, size_t n) override {
    bytes_ += n;
    if (no_data_ || e_.host.smem_read == nullptr) {
      std::memset(dst, 0, n);
      return true;
    }
    return e_.host.smem_read(e_.host.user, static_cast<uint32_t>(cta), addr, dst,
                             static_cast<uint32_t>(n)) == 0;
  }
  bool Write(int cta, uint32_t addr, const uint8_t* src, size_t n) override {
    bytes_ += n;
    if (deferred_) {
      pend_.push_back(
          PendingWrite{true, static_cast<uint32_t>(cta), addr,
                       no_data_ ? std::vector<uint8_t>(n) : std::vector<uint8_t>(src, src + n)});
      return true;
    }
    if (e_.checker != nullptr) {
      e_.checker->TmaSmemWrite(t_, static_cast<uint32_t>(cta), addr, static_cast<uint32_t>(n),
                               e_.cycle);
    }
    if (no_data_ || e_.host.smem_write == nullptr) {
      return true;
    }
    return e_.host.smem_write(e_.host.user, static_cast<uint32_t>(cta), addr, src,
                              static_cast<uint32_t>(n)) == 0;
  }

 private:
  otma_engine& e_;
  otma_token t_;
  bool deferred_;
  bool no_data_;
  std::vector<PendingWrite>& pend_;
  uint64_t& bytes_;
};

}  // namespace otma_impl

#endif  // OTMA_ADAPTERS_H_
