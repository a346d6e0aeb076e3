// SPDX-License-Identifier: Apache-2.0
//
// A small host for the cosim tests: one flat global buffer, the shared windows of a cluster,
// and logs of every complete_tx and op_done the engine signals. Engines are made through the
// C ABI only.
#ifndef TESTS_COSIM_TEST_HOST_H_
#define TESTS_COSIM_TEST_HOST_H_

#include <cstdint>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "opentma/cosim.h"

namespace cosim_test {

// A config of the current ABI version.
inline otma_config Config(uint32_t mode, uint32_t flags = 0, uint32_t cluster_size = 1) {
  otma_config c;
  std::memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.abi_version = OTMA_ABI_VERSION;
  c.mode = mode;
  c.flags = flags;
  c.cluster_size = cluster_size;
  return c;
}

struct Tx {
  uint32_t rank, mbar, bytes;
  uint64_t cycle;
};
struct Ev {
  otma_token op;
  uint32_t event;
  otma_status status;
  uint64_t cycle;
};

class TestHost {
 public:
  TestHost(uint64_t gbase, size_t gbytes, int ctas, uint32_t window)
      : gbase_(gbase), g_(gbytes), s_(static_cast<size_t>(ctas), std::vector<uint8_t>(window)) {
    std::memset(&h_, 0, sizeof h_);
    h_.struct_size = sizeof h_;
    h_.user = this;
    h_.gmem_read = [](void* u, uint64_t a, void* d, uint32_t n) {
      auto* t = static_cast<TestHost*>(u);
      if (a < t->gbase_ || a + n > t->gbase_ + t->g_.size())
        return 1;
      std::memcpy(d, t->g_.data() + (a - t->gbase_), n);
      if (t->record_global)
        t->greads.emplace_back(a, n);
      return 0;
    };
    h_.gmem_write = [](void* u, uint64_t a, const void* s, uint32_t n) {
      auto* t = static_cast<TestHost*>(u);
      if (a < t->gbase_ || a + n > t->gbase_ + t->g_.size())
        return 1;
      std::memcpy(t->g_.data() + (a - t->gbase_), s, n);
      if (t->record_global)
        t->gwrites.emplace_back(a, n);
      return 0;
    };
    h_.smem_read = [](void* u, uint32_t r, uint32_t a, void* d, uint32_t n) {
      auto* t = static_cast<TestHost*>(u);
      if (r >= t->s_.size() || a + n > t->s_[r].size())
        return 1;
      std::memcpy(d, t->s_[r].data() + a, n);
      return 0;
    };
    h_.smem_write = [](void* u, uint32_t r, uint32_t a, const void* s, uint32_t n) {
      auto* t = static_cast<TestHost*>(u);
      if (r >= t->s_.size() || a + n > t->s_[r].size())
        return 1;
      std::memcpy(t->s_[r].data() + a, s, n);
      return 0;
    };
    h_.complete_tx = [](void* u, uint32_t r, uint32_t m, uint32_t b) {
      auto* t = static_cast<TestHost*>(u);
      t->tx.push_back({r, m, b, t->e_ ? otma_cycle(t->e_) : 0});
      t->tx_sum[{r, m}] += b;
    };
    h_.op_done = [](void* u, otma_token op, uint32_t ev, otma_status st) {
      auto* t = static_cast<TestHost*>(u);
      t->events.push_back({op, ev, st, t->e_ ? otma_cycle(t->e_) : 0});
    };
  }
  ~TestHost() {
    if (e_)
      otma_destroy(e_);
  }
  otma_status Create(uint32_t mode, uint32_t flags = 0, otma_checker* ck = nullptr,
                     uint32_t arch = OTMA_ARCH_SM90) {
    otma_config c = Config(mode, flags, static_cast<uint32_t>(s_.size()));
    c.checker = ck;
    c.arch = arch;
    return otma_create(&c, &h_, &e_);
  }
  otma_engine* e() { return e_; }
  otma_host& host() { return h_; }
  std::vector<uint8_t>& g() { return g_; }
  std::vector<uint8_t>& s(int r) { return s_[static_cast<size_t>(r)]; }
  uint64_t gbase() const { return gbase_; }
  uint64_t Sum(uint32_t rank, uint32_t mbar) const {
    auto it = tx_sum.find({rank, mbar});
    return it == tx_sum.end() ? 0 : it->second;
  }
  // The events of op t.
  const Ev* Find(otma_token t, uint32_t ev) const {
    for (const Ev& x : events) {
      if (x.op == t && x.event == ev)
        return &x;
    }
    return nullptr;
  }

  std::vector<Tx> tx;
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> tx_sum;
  std::vector<Ev> events;
  // With record_global: every successful gmem_read / gmem_write (address, bytes).
  bool record_global = false;
  std::vector<std::pair<uint64_t, uint32_t>> greads, gwrites;

 private:
  uint64_t gbase_;
  std::vector<uint8_t> g_;
  std::vector<std::vector<uint8_t>> s_;
  otma_host h_;
  otma_engine* e_ = nullptr;
};

// Tensor-map parameters of the current ABI version: element strides and box 1, the rest 0.
inline otma_tensor_params Params(uint32_t dtype, uint32_t rank, uint64_t addr) {
  otma_tensor_params p;
  std::memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  p.dtype = dtype;
  p.rank = rank;
  p.global_address = addr;
  for (int i = 0; i < 5; ++i)
    p.box[i] = p.elem_strides[i] = 1;
  return p;
}

// The 128 descriptor bytes of `p` (sm_90 rules); empty when the encoder refuses it.
inline std::vector<uint8_t> Encode(const otma_tensor_params& p) {
  std::vector<uint8_t> out(128);
  if (otma_encode_tensor_map(&p, OTMA_ARCH_SM90, out.data()) != OTMA_OK)
    out.clear();
  return out;
}

// A tiled 2-D descriptor through the library's encoder.
inline std::vector<uint8_t> Map2D(uint64_t addr, uint32_t dtype, uint64_t d0, uint64_t d1,
                                  uint64_t stride, uint32_t b0, uint32_t b1, uint32_t swizzle = 0) {
  otma_tensor_params p = Params(dtype, 2, addr);
  p.dims[0] = d0;
  p.dims[1] = d1;
  p.strides[0] = stride;
  p.box[0] = b0;
  p.box[1] = b1;
  p.swizzle = swizzle;
  return Encode(p);
}

inline otma_op Load2D(const std::vector<uint8_t>& map, int32_t c0, int32_t c1, uint32_t smem,
                      uint32_t mbar, uint32_t issuer = 0) {
  otma_op op;
  std::memset(&op, 0, sizeof op);
  op.struct_size = sizeof op;
  op.kind = OTMA_OP_TENSOR_LOAD;
  op.dim = 2;
  op.coords[0] = c0;
  op.coords[1] = c1;
  op.desc_bytes = map.data();
  op.smem_addr = smem;
  op.mbar_addr = mbar;
  op.dst_rank = -1;
  op.mbar_rank = -1;
  op.issuer_rank = issuer;
  return op;
}

// otma_submit, ticking while the command port is busy (TIMED).
inline otma_status SubmitRetry(otma_engine* e, const otma_op* op, otma_token* t) {
  otma_status st;
  while ((st = otma_submit(e, op, t)) == OTMA_E_BUSY)
    otma_tick(e, 1);
  return st;
}

}  // namespace cosim_test

#endif  // TESTS_COSIM_TEST_HOST_H_
