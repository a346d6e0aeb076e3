// SPDX-License-Identifier: Apache-2.0
//
// tma_engine: the OpenTMA tensor engine (loads, prefetches, stores and reductions): instances and
// wires only, in data-path order (docs/rtl.md has the block diagram, docs/interfaces.md every
// stream):
//   frontend  tma_frontend     commands (through a command register) -> walker jobs;
//                              descriptor fetch through the read engine
//   midend    tma_walkers      job -> box rows (N-D, gather4 and im2col::w::128 walkers)
//             tma_bulk_rows    non-tensor bulk commands (cmd_t.mode == BulkMode) -> 1-D rows
//             tma_row_merge    walker rows + bulk rows, a command at a time
//   load path tma_load_path    rows -> read bursts (row fork, burst splitter); beats ->
//                              unpacker, aligner, swizzle, shared-memory write port; its own
//                              file lists its blocks
//   backend   tma_rd_engine    AXI4 read manager: AR arbitration, credits, R routing by ID
//   finish    tma_finish       finished commands of every path -> completions (tma_cpl_unit);
//                              bulk async-groups (tma_bulk_group): stores and reductions join
//                              their issuer's open group at intake, commit_group closes it,
//                              their ends complete it; group completions in order per issuer
//   store direction  tma_store_path  rows of store and reduction commands -> shared-memory
//                              reads -> AXI4 writes (reductions read-modify-write); its own
//                              file lists its blocks
// Every row in flight (read requested, not yet written) holds a row-FIFO entry, so sustained
// throughput needs RowFifoDepth and MaxOutstanding of about memory latency / beats per row
// (docs/performance.md).

`default_nettype none

`include "tma_assert.svh"

module tma_engine #(
  parameter  int unsigned DataBytes        = 16,   // 16, 32, 64 or 128
  parameter  int unsigned NumCtas          = 16,   // 1 .. 16
  parameter  int unsigned MaxOutstanding   = 512,  // data read bursts in flight, 1 .. 1024
  parameter  int unsigned DescCacheEntries = 4,    // 1 .. 16
  parameter  int unsigned MaxBurstLen      = 16,   // beats per AXI4 burst, 1 .. 256
  parameter  int unsigned RowFifoDepth     = 512,  // rows between walker and aligner, >= 2
  // 1: the packed sub-byte types b4x16_p64 / b6x16_p32 (sm_100) are unpacked (tma_unpack:
  // ~490 LUT6 at DataBytes 16, ~4k at 64); 0: no unpacker, they give `unsupported`. Taken as
  // 0 when Arch is sm_90 (those types are then an invalid_descriptor of the encoder rules)
  parameter  int unsigned SubByte          = (DataBytes <= 32) ? 1 : 0,
  // Stores along dim 0: 0 write whole 16-byte granules holding an in-bounds element (silicon
  // D7), 1 in-bounds elements only
  parameter  int unsigned StoreClipElem    = 0,
  parameter  int unsigned MaxWrOutstanding = 512,  // write bursts waiting for B, >= 2
  // cycles a written burst waits for its B before its command ends with bus_error (0: forever)
  parameter  int unsigned WrWatchdog       = 0,
  // cycles the R channel may stay silent while a read's beats are owed before every owed beat
  // of that ID fails with bus_error (0: forever); tma_rd_watchdog
  parameter  int unsigned RdWatchdog       = 0,
  // The newest architecture whose rules the engine can apply (tma_pkg::Arch*: 0 sm_90, 1
  // sm_100, 2 sm_103); arch_i chooses one up to it at run time. 0 also leaves out the
  // Blackwell-only blocks: the gather4 and im2col::w::128 walkers and the unpacker
  parameter  int unsigned Arch             = 2,
  // Bulk copies whose size is not a multiple of 16: 0 move size & ~15 bytes (silicon B1),
  // 1 invalid_instruction (the PTX text)
  parameter  int unsigned BulkSizeStrict   = 0,
  // Prefetches (cp.async.bulk.prefetch.tensor, cp.async.bulk.prefetch.L2): 1 walk and read
  // their bytes like the matching load, the data dropped (no shared-memory write), and end
  // with a done completion; 0 check-only: the checks, then the done completion, no reads
  parameter  int unsigned PrefetchReads    = 1,
  // Reductions whose pair has an AXI5 AtomicStore form (add/min/max/and/or/xor on the integer
  // types, tma_red_atop): 0 read-modify-write in the engine; 1 AtomicStore transactions, one
  // per element (tma_atop_split), done at the memory (an ATOP-capable interconnect)
  parameter  int unsigned AtomicReduce     = 0,
  // 1: the write direction (tma_store_path: tensor and bulk stores and reductions to global
  // memory); 0: none is built, those commands end `unsupported` (tma_instr_check,
  // tma_bulk_rows) and the AXI write channels stay idle
  parameter  int unsigned StorePath        = 1,
  localparam int unsigned DW               = DataBytes * 8
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Commands
  input  logic                  cmd_valid_i,
  output logic                  cmd_ready_o,
  input  tma_pkg::cmd_t         cmd_i,
  input  logic                  desc_inval_i,
  // Target architecture (tma_pkg::Arch*; above Arch counts as Arch): sub-byte types,
  // 128B-atom / 96B swizzles, gather4 and .cta_group::2 are checked against it. A setting
  // (strap or register field), changed only while the engine is idle.
  input  logic [1:0]            arch_i,
  // CTAs in the cluster (0: 16; at most NumCtas): the multicast mask (F6), the issuer, the
  // destination and mbar CTAs must lie in it. A setting like arch_i.
  input  logic [3:0]            cluster_i,
  // AXI4 read channels (global memory); R data beside the response
  output tma_pkg::axi_rd_req_t  axi_rd_req_o,
  input  tma_pkg::axi_rd_rsp_t  axi_rd_rsp_i,
  input  logic [DW-1:0]         axi_r_data_i,
  // AXI4 write channels (global memory); W data and strobes beside the request
  output tma_pkg::axi_wr_req_t  axi_wr_req_o,
  input  tma_pkg::axi_wr_rsp_t  axi_wr_rsp_i,
  output logic [DW-1:0]         axi_w_data_o,
  output logic [DataBytes-1:0]  axi_w_strb_o,
  // Shared-memory write port
  output logic                  smem_wr_valid_o,
  input  logic                  smem_wr_ready_i,
  output tma_pkg::smem_wr_t     smem_wr_o,
  output logic [DW-1:0]         smem_wr_data_o,
  output logic [DataBytes-1:0]  smem_wr_strb_o,
  // Shared-memory read port (the stores' source): requests; one data beat per request, in
  // order, a cycle or more later, no back-pressure
  output logic                  smem_rd_valid_o,
  input  logic                  smem_rd_ready_i,
  output tma_pkg::smem_rd_t     smem_rd_o,
  input  logic                  smem_rd_rvalid_i,
  input  logic [DW-1:0]         smem_rd_rdata_i,
  // Completions
  output logic                  cpl_valid_o,
  input  logic                  cpl_ready_i,
  output tma_pkg::cpl_t         cpl_o,
  // Bulk async-group completions (read-done, then done, of each committed group, in group
  // order per issuer)
  output logic                  bg_cpl_valid_o,
  input  logic                  bg_cpl_ready_i,
  output tma_pkg::bg_cpl_t      bg_cpl_o,
  // Status
  output logic                  busy_o,
  output logic [15:0]           err_count_o
);

  // ---- Streams between the blocks (declared in data-path order) ----
  // command controller -> read engine: descriptor fetches; read engine -> controller: beats
  logic                 desc_ar_valid, desc_ar_ready;
  tma_pkg::ar_t         desc_ar;
  logic                 desc_r_valid_q, desc_r_err_q;   // registered in the read engine
  logic [DW-1:0]        desc_r_data_q;
  // command controller -> walker
  logic                 job_valid, job_ready;
  tma_pkg::job_t        job;
  // walker -> row fork (loads) or store fork (rows of store jobs)
  logic                 walk_valid, walk_ready;
  tma_pkg::row_t        walk_row;
  // bulk commands -> their rows; walker and bulk rows merged -> the forks
  logic                 fe_cmd_valid, fe_cmd_ready, bk_cmd_valid, bk_cmd_ready;
  logic                 bk_row_valid, bk_row_ready, bk_busy;
  tma_pkg::row_t        bk_row;
  logic                 m_row_valid, m_row_ready;
  tma_pkg::row_t        row;
  // bulk async-groups: a command's group request, the group of each tensor command (queued
  // from intake to its job), the frontend's job with it
  logic                 is_commit, is_bg_op, bg_req_valid, bg_req_ready, bg_op_ready;
  // the command register: the command and its class (bulk, commit_group, group operation)
  logic                 c_valid;
  logic                 fe_pre_valid;   // the command entering the register leaves it next
  tma_pkg::cmd_t        c_cmd;
  tma_pkg::cmd_t        c_cmd_bk;       // the same command from a copy beside tma_bulk_rows
  logic [7:0]           bg_req_seq;
  logic                 bgq_in_valid, bgq_in_ready, bgq_out_valid;
  logic [8:0]           bgq_out;
  logic [2:0]           bgq_usage;
  logic                 fe_job_valid, fe_job_ready;
  tma_pkg::job_t        fe_job;
  logic                 row_valid, row_ready;
  logic                 st_row_valid, st_row_ready, is_store_row;
  // load direction -> read engine: data bursts; read engine -> load direction: their beats
  logic                 data_ar_valid, data_ar_ready;
  tma_pkg::ar_t         data_ar;
  logic                 rd_beat_valid, rd_beat_ready, rd_beat_err;
  logic [DW-1:0]        rd_beat_data;
  // load direction -> completion unit
  logic                 done_valid, done_ready;
  tma_pkg::cpl_info_t   done;
  // reductions' old-data bursts -> read engine -> write data
  logic                  red_ar_valid, red_ar_ready;
  tma_pkg::ar_t          red_ar;
  logic                  red_beat_valid, red_beat_ready, red_beat_err;
  // store direction -> completion unit
  logic                  st_done_valid, st_done_ready;
  tma_pkg::cpl_info_t    st_done;
  // a finished command in tma_finish's register slice
  logic                  fin_busy;
  // block status
  logic ctrl_busy, walker_busy, ld_busy, rd_busy;
  logic st_busy;
  // shared::cta -> shared::cluster bulk copies (tma_s2s_copy): the command, the hold on later
  // commands, the rest of the engine empty, and the ports it borrows
  logic                  s2s_valid, s2s_ready, s2s_busy, s2s_active, s2s_hold, s2s_go_q;
  logic [31:0]           s2s_src, s2s_dst;
  tma_pkg::cpl_info_t    s2s_cpl;
  logic                  s2s_rd_valid, s2s_wr_valid, s2s_done_valid, s2s_done_ready;
  tma_pkg::smem_rd_t     s2s_rd;
  tma_pkg::smem_wr_t     s2s_wr;
  logic [DW-1:0]         s2s_wr_data;
  logic [DataBytes-1:0]  s2s_wr_strb;
  tma_pkg::cpl_info_t    s2s_done;
  // the engine's own shared-memory port users, before the multiplexers
  logic                  pr_rd_valid, pr_wr_valid;
  tma_pkg::smem_rd_t     pr_rd;
  tma_pkg::smem_wr_t     pr_wr;
  logic [DW-1:0]         pr_wr_data;
  logic [DataBytes-1:0]  pr_wr_strb;
  // the architecture whose rules apply: arch_i, at most Arch
  logic [1:0] arch;
  assign arch = (32'(arch_i) > Arch) ? 2'(Arch) : arch_i;
  // Built for sm_90 only (Arch == ArchSm90): no Blackwell-only hardware (the gather4 and
  // im2col::w::128 walkers, the sub-byte unpacker); the frontend's sm_90 checks refuse every
  // command that would need it, whatever SubByte says.
  localparam int unsigned Blackwell  = (Arch != 32'(tma_pkg::ArchSm90)) ? 1 : 0;
  localparam int unsigned SubByteHw  = (Blackwell != 0) ? SubByte : 0;

  // ---- Commands: the command register (tma_cmd_reg: the command and its class, from flops),
  // then tensor commands to the frontend, bulk commands to tma_bulk_rows, commit_group to
  // tma_bulk_group. A store or reduction also joins its issuer's open bulk async-group as it is
  // taken; a tensor command's group waits in a queue for its job (one job per command). The
  // frontend's descriptor-cache lookup starts at the register's input (fe_pre_valid).
  // While a shared::cta -> shared::cluster copy is held (tma_bulk_rows or tma_s2s_copy) no
  // later command leaves the register: the copy waits for the rest of the engine to empty and
  // then borrows both shared-memory ports.
  assign s2s_hold = s2s_valid || s2s_busy;
  tma_cmd_reg #(
    .NumIssuers (NumCtas)
  ) u_cmd_reg (
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_i,
    .pre_valid_o    (fe_pre_valid),
    .out_valid_o    (c_valid),
    .out_o          (c_cmd),
    .out_commit_o   (is_commit),
    .out_bg_op_o    (is_bg_op),
    .out_bk_o       (c_cmd_bk),
    .hold_i         (s2s_hold),
    .fe_valid_o     (fe_cmd_valid),
    .fe_ready_i     (fe_cmd_ready),
    .bk_valid_o     (bk_cmd_valid),
    .bk_ready_i     (bk_cmd_ready),
    .bg_req_valid_o (bg_req_valid),
    .bg_req_ready_i (bg_req_ready),
    .bg_op_ready_i  (bg_op_ready),
    .bgq_valid_o    (bgq_in_valid),
    .bgq_ready_i    (bgq_in_ready)
  );

  tma_fifo #(
    .Width (9),
    .Depth (4)
  ) u_bg_q (
    .clk_i,
    .rst_ni,
    .clr_i       (1'b0),
    .in_valid_i  (bgq_in_valid),
    .in_ready_o  (bgq_in_ready),
    .in_data_i   ({is_bg_op, bg_req_seq}),
    .out_valid_o (bgq_out_valid),
    .out_ready_i (job_valid && job_ready),
    .out_data_o  (bgq_out),
    .usage_o     (bgq_usage)
  );

  // The frontend's job with its command's group.
  always_comb begin : proc_job_bg
    job            = fe_job;
    job.cpl.bg     = bgq_out[8];
    job.cpl.bg_seq = bgq_out[7:0];
  end
  assign job_valid    = fe_job_valid;
  assign fe_job_ready = job_ready;

  // ---- Frontend: command to job ----
  tma_frontend #(
    .DataBytes    (DataBytes),
    .CacheEntries (DescCacheEntries),
    .NumCtas      (NumCtas),
    .SubByte       (SubByteHw),
    .StoreClipElem (StoreClipElem),
    .PrefetchReads (PrefetchReads),
    .StorePath     (StorePath)
  ) u_frontend (
    .clk_i,
    .rst_ni,
    .cmd_valid_i (fe_cmd_valid),
    .cmd_ready_o (fe_cmd_ready),
    .cmd_i       (c_cmd),
    .pre_valid_i (fe_pre_valid),
    .pre_addr_i  (cmd_i.desc_addr),
    .desc_inval_i,
    .arch_i      (arch),
    .cluster_i,
    .ar_valid_o  (desc_ar_valid),
    .ar_ready_i  (desc_ar_ready),
    .ar_o        (desc_ar),
    .r_valid_i   (desc_r_valid_q),
    .r_data_i    (desc_r_data_q),
    .r_err_i     (desc_r_err_q),
    .job_valid_o (fe_job_valid),
    .job_ready_i (fe_job_ready),
    .job_o       (fe_job),
    .busy_o      (ctrl_busy)
  );

  // ---- Midend: the walkers (tma_walkers), bulk rows, the merge and the class split ----
  tma_walkers #(
    .Blackwell (Blackwell)
  ) u_walkers (
    .clk_i,
    .rst_ni,
    .job_valid_i (job_valid),
    .job_ready_o (job_ready),
    .job_i       (job),
    .row_valid_o (walk_valid),
    .row_ready_i (walk_ready),
    .row_o       (walk_row),
    .busy_o      (walker_busy)
  );

  tma_bulk_rows #(
    .NumCtas       (NumCtas),
    .SizeStrict    (BulkSizeStrict),
    .PrefetchReads (PrefetchReads),
    .StorePath     (StorePath)
  ) u_bulk_rows (
    .clk_i,
    .rst_ni,
    .cmd_valid_i (bk_cmd_valid),
    .cmd_ready_o (bk_cmd_ready),
    .cmd_i       (c_cmd_bk),
    .bg_i        (is_bg_op),
    .bg_seq_i    (bg_req_seq),
    .row_valid_o (bk_row_valid),
    .row_ready_i (bk_row_ready),
    .row_o       (bk_row),
    .s2s_valid_o (s2s_valid),
    .s2s_ready_i (s2s_ready),
    .s2s_src_o   (s2s_src),
    .s2s_dst_o   (s2s_dst),
    .s2s_cpl_o   (s2s_cpl),
    .busy_o      (bk_busy)
  );

  tma_row_merge u_row_merge (
    .clk_i,
    .rst_ni,
    .a_valid_i   (walk_valid),
    .a_ready_o   (walk_ready),
    .a_i         (walk_row),
    .b_valid_i   (bk_row_valid),
    .b_ready_o   (bk_row_ready),
    .b_i         (bk_row),
    .row_valid_o (m_row_valid),
    .row_ready_i (m_row_ready),
    .row_o       (row)
  );

  // Rows of store and reduction commands (their completion is a done, not a complete-tx, and
  // they name a CTA) go to the store direction; every other row (loads, completion-only
  // markers, a bulk prefetch's reads: a done with no CTA) to the row fork.
  assign is_store_row = row.has_data && row.cpl.kind == tma_pkg::CplDone &&
                        row.cpl.cta_mask != '0;
  assign row_valid    = m_row_valid && !is_store_row;
  assign st_row_valid = m_row_valid && is_store_row;
  assign m_row_ready  = is_store_row ? st_row_ready : row_ready;

  // ---- Load direction (tma_load_path): rows -> read bursts; beats -> shared memory ----
  tma_load_path #(
    .DataBytes    (DataBytes),
    .NumCtas      (NumCtas),
    .MaxBurstLen  (MaxBurstLen),
    .RowFifoDepth (RowFifoDepth),
    .SubByte      (SubByteHw)
  ) u_load (
    .clk_i,
    .rst_ni,
    .row_valid_i  (row_valid),
    .row_ready_o  (row_ready),
    .row_i        (row),
    .ar_valid_o   (data_ar_valid),
    .ar_ready_i   (data_ar_ready),
    .ar_o         (data_ar),
    .beat_valid_i (rd_beat_valid),
    .beat_ready_o (rd_beat_ready),
    .beat_data_i  (rd_beat_data),
    .beat_err_i   (rd_beat_err),
    .smem_valid_o (pr_wr_valid),
    .smem_ready_i (smem_wr_ready_i && !s2s_active),
    .smem_o       (pr_wr),
    .smem_data_o  (pr_wr_data),
    .smem_strb_o  (pr_wr_strb),
    .done_valid_o (done_valid),
    .done_ready_i (done_ready),
    .done_o       (done),
    .busy_o       (ld_busy)
  );

  // ---- Backend: read engine, unpacker, aligner, write port, completion unit ----
  tma_rd_engine #(
    .DataBytes      (DataBytes),
    .MaxOutstanding (MaxOutstanding),
    .Watchdog       (RdWatchdog)
  ) u_rd (
    .clk_i,
    .rst_ni,
    .desc_ar_valid_i (desc_ar_valid),
    .desc_ar_ready_o (desc_ar_ready),
    .desc_ar_i       (desc_ar),
    .data_ar_valid_i (data_ar_valid),
    .data_ar_ready_o (data_ar_ready),
    .data_ar_i       (data_ar),
    .red_ar_valid_i  (red_ar_valid),
    .red_ar_ready_o  (red_ar_ready),
    .red_ar_i        (red_ar),
    .axi_req_o       (axi_rd_req_o),
    .axi_rsp_i       (axi_rd_rsp_i),
    .axi_r_data_i,
    .desc_r_valid_o  (desc_r_valid_q),
    .desc_r_data_o   (desc_r_data_q),
    .desc_r_err_o    (desc_r_err_q),
    .beat_valid_o    (rd_beat_valid),
    .beat_ready_i    (rd_beat_ready),
    .beat_data_o     (rd_beat_data),
    .beat_err_o      (rd_beat_err),
    .red_valid_o     (red_beat_valid),
    .red_ready_i     (red_beat_ready),
    .red_err_o       (red_beat_err),
    .busy_o          (rd_busy)
  );

  // ---- Store direction (tma_store_path): store rows -> shared reads -> global writes; with
  // StorePath = 0 none is built (the frontend and tma_bulk_rows refuse its commands)
  tma_store_path #(
    .DataBytes        (DataBytes),
    .MaxBurstLen      (MaxBurstLen),
    .MaxWrOutstanding (MaxWrOutstanding),
    .WrWatchdog       (WrWatchdog),
    .AtomicReduce     (AtomicReduce),
    .Present          (StorePath)
  ) u_store (
    .clk_i,
    .rst_ni,
    .row_valid_i      (st_row_valid),
    .row_ready_o      (st_row_ready),
    .row_i            (row),
    .smem_rd_valid_o  (pr_rd_valid),
    .smem_rd_ready_i  (smem_rd_ready_i && !s2s_active),
    .smem_rd_o        (pr_rd),
    .smem_rd_rvalid_i (smem_rd_rvalid_i && !s2s_active),
    .smem_rd_rdata_i,
    .red_ar_valid_o   (red_ar_valid),
    .red_ar_ready_i   (red_ar_ready),
    .red_ar_o         (red_ar),
    .red_valid_i      (red_beat_valid),
    .red_ready_o      (red_beat_ready),
    .red_data_i       (axi_r_data_i),
    .red_err_i        (red_beat_err),
    .axi_wr_req_o,
    .axi_wr_rsp_i,
    .axi_w_data_o,
    .axi_w_strb_o,
    .done_valid_o     (st_done_valid),
    .done_ready_i     (st_done_ready),
    .done_o           (st_done),
    .busy_o           (st_busy)
  );

  // ---- shared::cta -> shared::cluster bulk copies: alone in the engine (s2s_go_q: every other
  // block was empty in the previous cycle, and no command has left the command register
  // since the copy was taken), through both shared-memory ports ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_s2s_go
    if (!rst_ni) begin
      s2s_go_q <= 1'b0;
    end else begin
      s2s_go_q <= !(ctrl_busy || walker_busy || bk_busy || ld_busy || rd_busy || st_busy ||
                    m_row_valid);
    end
  end

  tma_s2s_copy #(
    .DataBytes (DataBytes)
  ) u_s2s (
    .clk_i,
    .rst_ni,
    .cmd_valid_i  (s2s_valid),
    .cmd_ready_o  (s2s_ready),
    .cmd_src_i    (s2s_src),
    .cmd_dst_i    (s2s_dst),
    .cmd_cpl_i    (s2s_cpl),
    .go_i         (s2s_go_q),
    .active_o     (s2s_active),
    .rd_valid_o   (s2s_rd_valid),
    .rd_ready_i   (smem_rd_ready_i),
    .rd_o         (s2s_rd),
    .rvalid_i     (smem_rd_rvalid_i),
    .rdata_i      (smem_rd_rdata_i),
    .wr_valid_o   (s2s_wr_valid),
    .wr_ready_i   (smem_wr_ready_i),
    .wr_o         (s2s_wr),
    .wr_data_o    (s2s_wr_data),
    .wr_strb_o    (s2s_wr_strb),
    .done_valid_o (s2s_done_valid),
    .done_ready_i (s2s_done_ready),
    .done_o       (s2s_done),
    .busy_o       (s2s_busy)
  );

  assign smem_rd_valid_o = s2s_active ? s2s_rd_valid : pr_rd_valid;
  assign smem_rd_o       = s2s_active ? s2s_rd       : pr_rd;
  assign smem_wr_valid_o = s2s_active ? s2s_wr_valid : pr_wr_valid;
  assign smem_wr_o       = s2s_active ? s2s_wr       : pr_wr;
  assign smem_wr_data_o  = s2s_active ? s2s_wr_data  : pr_wr_data;
  assign smem_wr_strb_o  = s2s_active ? s2s_wr_strb  : pr_wr_strb;

  // ---- Finish: finished commands -> completions and bulk async-group events ----
  tma_finish #(
    .NumCtas (NumCtas)
  ) u_finish (
    .clk_i,
    .rst_ni,
    .ld_valid_i      (done_valid),
    .ld_ready_o      (done_ready),
    .ld_i            (done),
    .st_valid_i      (st_done_valid),
    .st_ready_o      (st_done_ready),
    .st_i            (st_done),
    .s2s_valid_i     (s2s_done_valid),
    .s2s_ready_o     (s2s_done_ready),
    .s2s_i           (s2s_done),
    .bg_req_valid_i  (bg_req_valid),
    .bg_req_ready_o  (bg_req_ready),
    .bg_req_issuer_i (c_cmd.issuer),
    .bg_req_commit_i (is_commit),
    .bg_req_seq_o    (bg_req_seq),
    .bg_op_ready_o   (bg_op_ready),
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_o,
    .bg_cpl_valid_o,
    .bg_cpl_ready_i,
    .bg_cpl_o,
    .busy_o          (fin_busy),
    .err_count_o
  );

  logic unused_bgq;
  assign unused_bgq = ^bgq_usage;

  // ---- Status ----
  assign busy_o = ctrl_busy || walker_busy || bk_busy || ld_busy || rd_busy || st_busy ||
                  cpl_valid_o || c_valid || m_row_valid || s2s_busy || fin_busy;

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(NumCtasLegal_A, NumCtas >= 1 && NumCtas <= 16)
  `TMA_ASSERT_INIT(MaxOutstandingLegal_A, MaxOutstanding >= 1 && MaxOutstanding <= 1024)
  `TMA_ASSERT_INIT(DescCacheEntriesLegal_A, DescCacheEntries >= 1 && DescCacheEntries <= 16)
  `TMA_ASSERT_INIT(MaxBurstLenLegal_A, MaxBurstLen >= 1 && MaxBurstLen <= 256)
  `TMA_ASSERT_INIT(RowFifoDepthLegal_A, RowFifoDepth >= 2)
  `TMA_ASSERT_INIT(SubByteLegal_A, SubByte <= 1)
  `TMA_ASSERT_INIT(StoreClipElemLegal_A, StoreClipElem <= 1)
  `TMA_ASSERT_INIT(MaxWrOutstandingLegal_A, MaxWrOutstanding >= 2)
  `TMA_ASSERT_INIT(WrWatchdogLegal_A, WrWatchdog == 0 || WrWatchdog >= 2)
  `TMA_ASSERT_INIT(RdWatchdogLegal_A, RdWatchdog == 0 || RdWatchdog >= 2)
  `TMA_ASSERT_INIT(ArchLegal_A, Arch <= 32'(tma_pkg::ArchSm103))
  `TMA_ASSERT_INIT(BulkSizeStrictLegal_A, BulkSizeStrict <= 1)
  `TMA_ASSERT_INIT(PrefetchReadsLegal_A, PrefetchReads <= 1)
  `TMA_ASSERT_INIT(StorePathLegal_A, StorePath <= 1)
  // Every job of the frontend has its command's group entry (one job per command).
  `TMA_ASSERT_IMPLY(JobHasGroup_A, job_valid, bgq_out_valid)
  // While the copy owns the shared-memory ports the engine's own users are silent.
  `TMA_ASSERT_IMPLY(S2sAlone_A, s2s_active, !pr_rd_valid && !pr_wr_valid && !st_busy &&
                                            !ld_busy)

endmodule

`default_nettype wire
