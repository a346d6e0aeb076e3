// SPDX-License-Identifier: Apache-2.0
//
// The C API of the driver and its links (tma/tma_fw.h, section "Driver") over tma::fw::Device.
#include <cstring>
#include <memory>
#include <string>

#include "tma/fw/device.h"
#include "tma/fw/mmio_link.h"
#include "tma/fw/uartbone_link.h"
#include "tma/tma_fw.h"

namespace {

namespace fw = tma::fw;
namespace pkg = tma::pkg;

static_assert(TMA_FW_LINK_BAD_ARGUMENT == static_cast<int>(fw::LinkStatus::kBadArgument));
static_assert(TMA_FW_ENGINE_ERROR == static_cast<int>(fw::Status::kEngineError));

// A Link whose operations are C callbacks.
class OpsLink : public fw::Link {
 public:
  OpsLink(const tma_fw_link_ops_t& ops, void* ctx) : ops_(ops), ctx_(ctx) {}
  fw::LinkStatus Read32(uint64_t addr, uint32_t* value) override {
    return static_cast<fw::LinkStatus>(ops_.read32(ctx_, addr, value));
  }
  fw::LinkStatus Write32(uint64_t addr, uint32_t value) override {
    return static_cast<fw::LinkStatus>(ops_.write32(ctx_, addr, value));
  }
  fw::LinkStatus WaitInterrupt(uint32_t timeout_us) override {
    if (ops_.wait_interrupt == nullptr)
      return fw::LinkStatus::kUnsupported;
    return static_cast<fw::LinkStatus>(ops_.wait_interrupt(ctx_, timeout_us));
  }

 private:
  tma_fw_link_ops_t ops_;
  void* ctx_;
};

fw::Error FromC(tma_fw_status_t s, const char* what) {
  fw::Error e;
  e.status = static_cast<fw::Status>(s);
  if (s != TMA_FW_OK)
    e.message = what;
  return e;
}

// The EngineQueue over C callbacks; commands and completions converted field by field.
class OpsQueue : public fw::EngineQueue {
 public:
  OpsQueue(const tma_fw_queue_ops_t& ops, void* ctx) : ops_(ops), ctx_(ctx) {}
  fw::Error Push(const pkg::cmd_t& c) override {
    tma_fw_cmd_t r{};
    r.op = c.op;
    r.mode = c.mode;
    r.redop = c.redop;
    r.dim = c.dim;
    r.desc_addr = c.desc_addr;
    for (int i = 0; i < 5; ++i)
      r.coords[i] = c.coords.v[i];
    for (int i = 0; i < 3; ++i)
      r.im2col[i] = c.im2col.v[i];
    r.smem_addr = c.smem_addr;
    r.mbar_addr = c.mbar_addr;
    r.multicast = c.multicast ? 1 : 0;
    r.cta_mask = c.cta_mask;
    r.issuer = c.issuer;
    r.dst_cta = c.dst_cta;
    r.cta_group = c.cta_group;
    r.tag = c.tag;
    return FromC(ops_.push(ctx_, &r), "queue push");
  }
  fw::Error Pop(pkg::cpl_t* out, bool* got) override {
    tma_fw_cpl_t r{};
    int g = 0;
    const fw::Error e = FromC(ops_.pop(ctx_, &r, &g), "queue pop");
    *got = e.ok() && g != 0;
    if (*got) {
      out->kind = r.kind;
      out->cta = r.cta;
      out->mbar_addr = r.mbar_addr;
      out->bytes = r.bytes;
      out->err = r.err;
      out->tag = r.tag;
    }
    return e;
  }
  fw::Error InvalidateDescriptors() override {
    return FromC(ops_.invalidate_descriptors(ctx_), "descriptor-cache invalidate");
  }
  fw::Error AcknowledgeInterrupt() override {
    return FromC(ops_.acknowledge_interrupt(ctx_), "interrupt acknowledge");
  }

 private:
  tma_fw_queue_ops_t ops_;
  void* ctx_;
};

void CopyCut(char* dst, size_t cap, const std::string& s) {
  const size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
}

tma_fw_status_t Report(const fw::Error& e, tma_fw_error_t* err) {
  if (err != nullptr) {
    err->status = static_cast<tma_fw_status_t>(e.status);
    err->error_class = static_cast<int>(e.error_class);
    err->tag = e.tag;
    err->link_status = static_cast<tma_fw_link_status_t>(e.link_status);
    CopyCut(err->field, sizeof(err->field), e.field);
    CopyCut(err->message, sizeof(err->message), e.message);
  }
  return static_cast<tma_fw_status_t>(e.status);
}

fw::TensorOperands Operands(const tma_fw_tensor_operands_t* t) {
  fw::TensorOperands o;
  o.tensor_map = t->tensor_map;
  o.dim = t->dim;
  o.mode = static_cast<fw::TensorMode>(t->mode);
  for (int i = 0; i < t->num_coords && i < 5; ++i)
    o.coords.push_back(t->coords[i]);
  for (int i = 0; i < t->num_im2col && i < 3; ++i)
    o.im2col.push_back(t->im2col[i]);
  o.smem = t->smem;
  o.cta = t->cta;
  return o;
}

tma_fw_status_t Submitted(const fw::Error& e, const fw::Ticket& k, uint8_t* tag,
                          tma_fw_error_t* err) {
  if (tag != nullptr && k.ok)
    *tag = k.tag;
  return Report(e, err);
}

}  // namespace

struct tma_fw_link {
  std::unique_ptr<fw::Link> link;
};

struct tma_fw_device {
  tma_fw_device(fw::Link* l, const tma_fw_queue_ops_t& q, void* ctx, const fw::DeviceConfig& c)
      : queue(q, ctx), dev(l, &queue, c) {}
  OpsQueue queue;
  fw::Device dev;
  fw::Error commit_error;  // a commit_group that found no room, for the next group wait
};

extern "C" {

tma_fw_link_t* tma_fw_link_from_ops(const tma_fw_link_ops_t* ops, void* ctx) {
  if (ops == nullptr || ops->read32 == nullptr || ops->write32 == nullptr)
    return nullptr;
  return new tma_fw_link{std::make_unique<OpsLink>(*ops, ctx)};
}

tma_fw_link_t* tma_fw_link_open_devmem(uint64_t phys_base, size_t bytes) {
  auto l = fw::MmioLink::OpenDevMem(phys_base, bytes);
  return l ? new tma_fw_link{std::move(l)} : nullptr;
}

tma_fw_link_t* tma_fw_link_open_uio(const char* dev, size_t bytes, int map_index) {
  auto l = fw::MmioLink::OpenUio(dev, bytes, map_index);
  return l ? new tma_fw_link{std::move(l)} : nullptr;
}

tma_fw_link_t* tma_fw_link_open_uartbone(const char* tty, uint32_t baud) {
  auto l = fw::UartBoneLink::Open(tty, baud);
  return l ? new tma_fw_link{std::move(l)} : nullptr;
}

void tma_fw_link_close(tma_fw_link_t* link) {
  delete link;
}

tma_fw_link_status_t tma_fw_link_read32(tma_fw_link_t* link, uint64_t addr, uint32_t* value) {
  return static_cast<tma_fw_link_status_t>(link->link->Read32(addr, value));
}

tma_fw_link_status_t tma_fw_link_write32(tma_fw_link_t* link, uint64_t addr, uint32_t value) {
  return static_cast<tma_fw_link_status_t>(link->link->Write32(addr, value));
}

tma_fw_device_t* tma_fw_device_create(tma_fw_link_t* link, const tma_fw_queue_ops_t* queue,
                                      void* queue_ctx, const tma_fw_device_config_t* cfg) {
  if (link == nullptr || queue == nullptr || queue->push == nullptr || queue->pop == nullptr ||
      queue->invalidate_descriptors == nullptr || queue->acknowledge_interrupt == nullptr) {
    return nullptr;
  }
  fw::DeviceConfig c;
  if (cfg != nullptr) {
    c.gmem_link_base = cfg->gmem_link_base;
    c.arch = static_cast<fw::Arch>(cfg->arch);
    c.num_ctas = cfg->num_ctas;
    c.use_interrupt = cfg->use_interrupt != 0;
    c.poll_interval_us = cfg->poll_interval_us;
    c.engine_groups = cfg->engine_groups != 0;
  }
  return new tma_fw_device(link->link.get(), *queue, queue_ctx, c);
}

void tma_fw_device_destroy(tma_fw_device_t* dev) {
  delete dev;
}

tma_fw_status_t tma_fw_load_tensor(tma_fw_device_t* dev, const tma_fw_tensor_operands_t* t,
                                   const tma_fw_load_options_t* o, uint8_t* tag,
                                   tma_fw_error_t* err) {
  fw::LoadOptions lo;
  if (o != nullptr) {
    lo.mbar = o->mbar;
    lo.dst_cta = o->dst_cta;
    lo.cta_mask = o->cta_mask;
    lo.cta_group = o->cta_group;
  }
  fw::Ticket k;
  const fw::Error e = dev->dev.LoadTensor(Operands(t), lo, &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_store_tensor(tma_fw_device_t* dev, const tma_fw_tensor_operands_t* t,
                                    uint8_t* tag, tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e = dev->dev.StoreTensor(Operands(t), &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_reduce_tensor(tma_fw_device_t* dev, int redop,
                                     const tma_fw_tensor_operands_t* t, uint8_t* tag,
                                     tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e = dev->dev.ReduceTensor(static_cast<fw::RedOp>(redop), Operands(t), &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_prefetch_tensor(tma_fw_device_t* dev, const tma_fw_tensor_operands_t* t,
                                       uint8_t* tag, tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e = dev->dev.PrefetchTensor(Operands(t), &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_load_bulk(tma_fw_device_t* dev, uint32_t smem, uint64_t global_addr,
                                 uint32_t bytes, uint32_t mbar, int cta, int to_cluster,
                                 int dst_cta, uint16_t cta_mask, uint8_t* tag,
                                 tma_fw_error_t* err) {
  fw::BulkLoadOptions o;
  o.cta = cta;
  o.to_cluster = to_cluster != 0;
  o.dst_cta = dst_cta;
  o.cta_mask = cta_mask;
  fw::Ticket k;
  const fw::Error e = dev->dev.LoadBulk(smem, global_addr, bytes, mbar, o, &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_store_bulk(tma_fw_device_t* dev, uint64_t global_addr, uint32_t smem,
                                  uint32_t bytes, int cta, int cp_mask, uint8_t* tag,
                                  tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e = dev->dev.StoreBulk(global_addr, smem, bytes, cta, cp_mask, &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_reduce_bulk(tma_fw_device_t* dev, int redop, int type, uint64_t global_addr,
                                   uint32_t smem, uint32_t bytes, int cta, uint8_t* tag,
                                   tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e =
      dev->dev.ReduceBulk(static_cast<fw::RedOp>(redop), static_cast<fw::BulkType>(type),
                          global_addr, smem, bytes, cta, &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_prefetch_bulk(tma_fw_device_t* dev, uint64_t global_addr, uint32_t bytes,
                                     uint8_t* tag, tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e = dev->dev.PrefetchBulk(global_addr, bytes, &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_copy_bulk_to_cluster(tma_fw_device_t* dev, uint32_t dst, uint32_t src,
                                            uint32_t bytes, uint32_t mbar, int dst_cta, int cta,
                                            uint8_t* tag, tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e = dev->dev.CopyBulkToCluster(dst, src, bytes, mbar, dst_cta, cta, &k);
  return Submitted(e, k, tag, err);
}

tma_fw_status_t tma_fw_reduce_bulk_to_cluster(tma_fw_device_t* dev, int redop, int type,
                                              uint32_t dst, uint32_t src, uint32_t bytes,
                                              uint32_t mbar, int dst_cta, int cta, uint8_t* tag,
                                              tma_fw_error_t* err) {
  fw::Ticket k;
  const fw::Error e =
      dev->dev.ReduceBulkToCluster(static_cast<fw::RedOp>(redop), static_cast<fw::BulkType>(type),
                                   dst, src, bytes, mbar, dst_cta, cta, &k);
  return Submitted(e, k, tag, err);
}

void tma_fw_commit_group(tma_fw_device_t* dev) {
  if (fw::Error e = dev->dev.CommitGroup(); !e.ok() && dev->commit_error.ok())
    dev->commit_error = e;
}

namespace {
// A group wait reports a commit_group that found no room first.
tma_fw_status_t GroupWait(tma_fw_device_t* dev, const fw::Error& e, tma_fw_error_t* err) {
  if (!dev->commit_error.ok()) {
    const fw::Error c = dev->commit_error;
    dev->commit_error = fw::Error{};
    return Report(c, err);
  }
  return Report(e, err);
}
}  // namespace

tma_fw_status_t tma_fw_wait_group(tma_fw_device_t* dev, int n, uint32_t timeout_us,
                                  tma_fw_error_t* err) {
  return GroupWait(dev, dev->dev.WaitGroup(n, timeout_us), err);
}

tma_fw_status_t tma_fw_wait_group_read(tma_fw_device_t* dev, int n, uint32_t timeout_us,
                                       tma_fw_error_t* err) {
  return GroupWait(dev, dev->dev.WaitGroupRead(n, timeout_us), err);
}

tma_fw_status_t tma_fw_wait(tma_fw_device_t* dev, uint8_t tag, uint32_t timeout_us,
                            tma_fw_error_t* err) {
  return Report(dev->dev.Wait(tag, timeout_us), err);
}

tma_fw_status_t tma_fw_poll(tma_fw_device_t* dev, tma_fw_error_t* err) {
  return Report(dev->dev.Poll(), err);
}

tma_fw_status_t tma_fw_write_tensor_map(tma_fw_device_t* dev, uint64_t global_addr,
                                        const tma_fw_tensor_map_t* map, tma_fw_error_t* err) {
  fw::TensorMap m;
  std::memcpy(m.bytes.data(), map->opaque, m.bytes.size());
  return Report(dev->dev.WriteTensorMap(global_addr, m), err);
}

tma_fw_status_t tma_fw_invalidate_descriptors(tma_fw_device_t* dev, tma_fw_error_t* err) {
  return Report(dev->dev.InvalidateDescriptors(), err);
}

uint64_t tma_fw_tx_bytes(const tma_fw_device_t* dev, int cta) {
  return dev->dev.tx_bytes(cta);
}

}  // extern "C"
