// SPDX-License-Identifier: Apache-2.0
//
// tma_engine: the OpenTMA tensor engine (loads, prefetches, stores and reductions): instances and
// wires only, in data-path order (docs/rtl.md has the block diagram, docs/interfaces.md every
// stream):
//   frontend  tma_frontend     commands (through a command register) -> walker jobs;
//                              descriptor fetch through the read engine
//   midend    tma_nd_walker    job -> box rows
//             tma_gather_walker  tile::gather4 job -> its four rows
//             tma_w128_walker  im2col::w::128 job -> its four groups of 32 + wHalo rows
//             tma_bulk_rows    non-tensor bulk commands (cmd_t.mode == BulkMode) -> 1-D rows
//             tma_row_merge    walker rows + bulk rows, a command at a time
//             tma_row_fork     rows -> aligner row entries, read requests, unpack items and
//                              command completion information (with their FIFOs)
//             tma_burst_split  read requests -> AXI4 bursts
//   backend   tma_rd_engine    AXI4 read manager: AR arbitration, credits, R routing by ID
//             tma_unpack       packed sub-byte beats -> shared-memory layout (SubByte)
//             tma_row_aligner  row entries + global beats -> logical shared-memory beats
//             tma_smem_wr      swizzle, shared-memory write port, command end
//             tma_cpl_unit     finished commands -> completions
//             tma_bulk_group   bulk async-groups: stores and reductions join their issuer's
//                              open group at intake, commit_group closes it, their ends
//                              complete it; group completions in order per issuer
//   store direction (rows of store jobs leave the walker for it; docs/architecture.md):
//             tma_wr_fork      store rows -> shared reads, realignments, global writes,
//                              command completion information
//             tma_smem_rd      shared-memory read port (swizzled), the stores' source
//             tma_wr_align     shared beats -> global beats with strobes
//             tma_wr_red       write data: reductions read-modify-write through tma_red_alu
//                              (old data read back with AXI ID AxiIdRed), stores pass
//             tma_wr_engine    AXI4 write manager: bursts (tma_burst_split), AW / W / B, B
//                              accounting, command end
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
  // ~490 LUT6 at DataBytes 16, ~4k at 64); 0: no unpacker, they give `unsupported`
  parameter  int unsigned SubByte          = (DataBytes <= 32) ? 1 : 0,
  // Stores along dim 0: 0 write whole 16-byte granules holding an in-bounds element (silicon
  // D7), 1 in-bounds elements only
  parameter  int unsigned StoreClipElem    = 0,
  parameter  int unsigned MaxWrOutstanding = 64,   // write bursts waiting for B, >= 2
  // cycles a written burst waits for its B before its command ends with bus_error (0: forever)
  parameter  int unsigned WrWatchdog       = 0,
  // cycles the R channel may stay silent while a read's beats are owed before every owed beat
  // of that ID fails with bus_error (0: forever); tma_rd_watchdog
  parameter  int unsigned RdWatchdog       = 0,
  // The newest architecture whose rules the engine can apply (tma_pkg::Arch*: 0 sm_90, 1
  // sm_100, 2 sm_103); arch_i chooses one up to it at run time
  parameter  int unsigned Arch             = 2,
  // Bulk copies whose size is not a multiple of 16: 0 move size & ~15 bytes (silicon B1),
  // 1 invalid_instruction (the PTX text)
  parameter  int unsigned BulkSizeStrict   = 0,
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
  // ... -> the N-D walker, or the gather walker (gather4 jobs)
  logic                 is_gather, nd_job_valid, nd_job_ready, g_job_valid, g_job_ready;
  logic                 is_w128, w_job_valid, w_job_ready;
  // walker -> row fork (loads) or store fork (rows of store jobs)
  logic                 walk_valid, walk_ready;
  tma_pkg::row_t        walk_row;
  // bulk commands -> their rows; walker and bulk rows merged -> the forks
  logic                 is_bulk_cmd, fe_cmd_valid, fe_cmd_ready, bk_cmd_valid, bk_cmd_ready;
  logic                 bk_row_valid, bk_row_ready, bk_busy;
  tma_pkg::row_t        bk_row;
  logic                 m_row_valid, m_row_ready;
  tma_pkg::row_t        row;
  logic                 nd_row_valid, g_row_valid, w_row_valid;
  tma_pkg::row_t        nd_row, g_row, w_row;
  // bulk async-groups: a command's group request, the group of each tensor command (queued
  // from intake to its job), the frontend's job with it
  logic [31:0]          cmd_coord2;   // the command's coords[2] (commit_group flag, bit 6)
  logic                 is_commit, is_bg_op, bg_req_valid, bg_req_ready, bg_op_ready, bg_busy;
  // the command register: the command and its class (bulk, commit_group, group operation)
  localparam int unsigned CmdRegW = tma_pkg::CmdWidth + 3;
  logic                 in_bulk, in_commit, in_bg_op;
  logic                 c_valid, c_ready;
  tma_pkg::cmd_t        c_cmd;
  logic [7:0]           bg_req_seq;
  logic                 bgq_in_valid, bgq_in_ready, bgq_out_valid;
  logic [8:0]           bgq_out;
  logic [2:0]           bgq_usage;
  logic                 fe_job_valid, fe_job_ready;
  tma_pkg::job_t        fe_job;
  logic                 bg_ev_valid, bg_rd_ready, bg_wr_ready;
  logic                 row_valid, row_ready;
  logic                 st_row_valid, st_row_ready, is_store_row;
  // row fork -> aligner, burst splitter, unpacker, write port
  logic                 al_row_valid, al_row_ready;
  tma_pkg::al_row_t     al_row;
  logic                 rd_req_valid, rd_req_ready;
  tma_pkg::rd_req_t     rd_req;
  logic                 up_row_valid, up_row_ready;
  tma_pkg::up_row_t     up_row;
  logic                 info_valid, info_ready;
  tma_pkg::cpl_info_t   info;
  // burst splitter -> read engine
  logic                 data_ar_valid, data_ar_ready;
  tma_pkg::ar_t         data_ar;
  // read engine -> unpacker (data beats as read)
  logic                 rd_beat_valid, rd_beat_ready, rd_beat_err;
  logic [DW-1:0]        rd_beat_data;
  // unpacker -> aligner (data beats in the shared-memory layout)
  logic                 al_beat_valid, al_beat_ready, al_beat_err;
  logic [DW-1:0]        al_beat_data;
  // aligner -> write port
  logic                 smem_beat_valid, smem_beat_ready;
  tma_pkg::smem_beat_t  smem_beat;
  logic [DW-1:0]        smem_beat_data;
  logic [DataBytes-1:0] smem_beat_strb;
  // write port -> completion unit
  logic                 done_valid, done_ready;
  tma_pkg::cpl_info_t   done;
  // store fork -> shared read port, aligner, write engine
  logic                  st_rd_valid, st_rd_ready;
  tma_pkg::smem_rd_job_t st_rd;
  logic                  st_al_valid, st_al_ready;
  tma_pkg::wr_al_t       st_al;
  logic                  st_wr_valid, st_wr_ready;
  tma_pkg::wr_req_t      st_wr;
  logic                  st_info_valid, st_info_ready;
  tma_pkg::cpl_info_t    st_info;
  logic                  st_wd_valid, st_wd_ready;
  tma_pkg::wr_red_t      st_wd;
  logic                  st_rr_valid, st_rr_ready;
  tma_pkg::rd_req_t      st_rr;
  // reductions' old-data bursts -> read engine -> write data
  logic                  red_ar_valid, red_ar_ready;
  tma_pkg::ar_t          red_ar;
  logic                  red_beat_valid, red_beat_ready, red_beat_err;
  // shared read port -> store aligner -> write data (tma_wr_red) -> write engine
  logic                  st_beat_valid, st_beat_ready;
  logic [DW-1:0]         st_beat_data;
  logic                  st_nbeat_valid, st_nbeat_ready;
  logic [DW-1:0]         st_nbeat_data;
  logic [DataBytes-1:0]  st_nbeat_strb;
  logic                  st_wbeat_valid, st_wbeat_ready, st_wbeat_err;
  logic [DW-1:0]         st_wbeat_data;
  logic [DataBytes-1:0]  st_wbeat_strb;
  // write engine -> completion unit
  logic                  st_done_valid, st_done_ready;
  tma_pkg::cpl_info_t    st_done;
  // both directions' finished commands -> completion unit
  logic                  fin_valid, fin_ready;
  tma_pkg::cpl_info_t    fin;
  // block status
  logic ctrl_busy, walker_busy, fork_busy, split_busy, rd_busy, unpack_busy, al_busy;
  logic nd_busy, g_busy, w_busy;
  logic wr_busy, st_fork_busy, st_rd_busy, st_al_busy, st_wr_busy, st_red_busy, red_split_busy;
  logic st_idle;
  logic st_idle_q;   // st_idle of the previous cycle
  // walker -> store fork, through a spill register
  logic                  fk_row_valid, fk_row_ready;
  tma_pkg::row_t         fk_row;
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
  logic                  c_go;          // the command register's command may leave
  // the engine's own shared-memory port users, before the multiplexers
  logic                  pr_rd_valid, pr_wr_valid;
  tma_pkg::smem_rd_t     pr_rd;
  tma_pkg::smem_wr_t     pr_wr;
  logic [DW-1:0]         pr_wr_data;
  logic [DataBytes-1:0]  pr_wr_strb;
  // the architecture whose rules apply: arch_i, at most Arch
  logic [1:0] arch;
  assign arch = (32'(arch_i) > Arch) ? 2'(Arch) : arch_i;

  // ---- Commands: a command register (spill register: cmd_ready_o is a flop), then tensor
  // commands to the frontend, bulk commands to tma_bulk_rows, commit_group (a bulk command with
  // coords[2][6] set) to tma_bulk_group. The command's class is computed as it enters the
  // register, so the steering below starts at flops. A store or reduction also joins its
  // issuer's open bulk async-group as it is taken; a tensor command's group waits in a queue
  // for its job (the frontend makes one job per command).
  // coords[2] as a plain vector: Yosys 0.23 crashes on a bit select of an element of a struct
  // member's array (cmd_i.coords.v[2][6]).
  assign cmd_coord2  = cmd_i.coords.v[2];
  assign in_bulk     = cmd_i.mode == tma_pkg::BulkMode;
  assign in_commit   = in_bulk && cmd_coord2[6];
  // (a bulk store or reduction to .shared::cluster, coords[2][5], is an mbarrier operation)
  assign in_bg_op    = !in_commit && !(in_bulk && cmd_coord2[5]) &&
                       (cmd_i.op == tma_pkg::OpStore || cmd_i.op == tma_pkg::OpReduce);
  logic unused_coord2;  // its other bits are bulk_rows' (tma_bulk_rows reads the command)
  assign unused_coord2 = ^{cmd_coord2[31:7], cmd_coord2[4:0]};

  tma_spill_reg #(
    .Width  (CmdRegW),
    .Copies (2)
  ) u_cmd_reg (
    .clk_i,
    .rst_ni,
    .in_valid_i  (cmd_valid_i),
    .in_ready_o  (cmd_ready_o),
    .in_data_i   ({in_bulk, in_commit, in_bg_op, cmd_i}),
    .out_valid_o (c_valid),
    .out_ready_i (c_ready && c_go),
    .out_data_o  ({is_bulk_cmd, is_commit, is_bg_op, c_cmd})
  );

  // While a shared::cta -> shared::cluster copy is held (tma_bulk_rows or tma_s2s_copy) no
  // later command leaves the register: the copy waits for the rest of the engine to empty and
  // then borrows both shared-memory ports. An operation (not a commit) waits on the bulk-group
  // unit's bg_op_ready only: one flop.
  assign s2s_hold     = s2s_valid || s2s_busy;
  assign c_go         = !s2s_hold;
  assign fe_cmd_valid = c_valid && c_go && !is_bulk_cmd && bgq_in_ready &&
                        (!is_bg_op || bg_op_ready);
  assign bk_cmd_valid = c_valid && c_go && is_bulk_cmd && !is_commit &&
                        (!is_bg_op || bg_op_ready);
  assign c_ready      = c_go && (is_commit   ? bg_req_ready :
                                 is_bulk_cmd ? bk_cmd_ready && (!is_bg_op || bg_op_ready) :
                                               fe_cmd_ready && bgq_in_ready &&
                                               (!is_bg_op || bg_op_ready));
  assign bg_req_valid = c_valid && c_go && (is_commit || (is_bg_op &&
                        (is_bulk_cmd ? bk_cmd_ready : fe_cmd_ready && bgq_in_ready)));
  assign bgq_in_valid = fe_cmd_valid && fe_cmd_ready;

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
    .SubByte       (SubByte),
    .StoreClipElem (StoreClipElem)
  ) u_frontend (
    .clk_i,
    .rst_ni,
    .cmd_valid_i (fe_cmd_valid),
    .cmd_ready_o (fe_cmd_ready),
    .cmd_i       (c_cmd),
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

  // ---- Midend: N-D walker, gather walker, row fork, burst splitter ----
  // A gather4 job (not a marker) goes to the gather walker, an im2col::w::128 job to the W128
  // walker, every other job to the N-D walker; a job waits until the other walkers are idle
  // (their last row has left), so rows leave in job order and one walker drives the row
  // stream at a time.
  assign is_gather    = job.gather && !job.marker;
  assign is_w128      = job.w128 && !job.marker;
  assign nd_job_valid = job_valid && !is_gather && !is_w128 && !g_busy && !w_busy;
  assign g_job_valid  = job_valid && is_gather && !nd_busy && !w_busy;
  assign w_job_valid  = job_valid && is_w128 && !nd_busy && !g_busy;
  assign job_ready    = is_gather ? g_job_ready && g_job_valid :
                        is_w128   ? w_job_ready && w_job_valid : nd_job_ready && nd_job_valid;

  tma_nd_walker u_walker (
    .clk_i,
    .rst_ni,
    .job_valid_i (nd_job_valid),
    .job_ready_o (nd_job_ready),
    .job_i       (job),
    .row_valid_o (nd_row_valid),
    .row_ready_i (walk_ready),
    .row_o       (nd_row),
    .busy_o      (nd_busy)
  );

  tma_gather_walker u_gather (
    .clk_i,
    .rst_ni,
    .job_valid_i (g_job_valid),
    .job_ready_o (g_job_ready),
    .job_i       (job),
    .row_valid_o (g_row_valid),
    .row_ready_i (walk_ready),
    .row_o       (g_row),
    .busy_o      (g_busy)
  );

  tma_w128_walker u_w128 (
    .clk_i,
    .rst_ni,
    .job_valid_i (w_job_valid),
    .job_ready_o (w_job_ready),
    .job_i       (job),
    .row_valid_o (w_row_valid),
    .row_ready_i (walk_ready),
    .row_o       (w_row),
    .busy_o      (w_busy)
  );

  assign walk_valid  = nd_row_valid || g_row_valid || w_row_valid;
  assign walk_row    = g_row_valid ? g_row : w_row_valid ? w_row : nd_row;
  assign walker_busy = nd_busy || g_busy || w_busy;

  tma_bulk_rows #(
    .NumCtas    (NumCtas),
    .SizeStrict (BulkSizeStrict)
  ) u_bulk_rows (
    .clk_i,
    .rst_ni,
    .cmd_valid_i (bk_cmd_valid),
    .cmd_ready_o (bk_cmd_ready),
    .cmd_i       (c_cmd),
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

  tma_row_fork #(
    .DataBytes    (DataBytes),
    .NumCtas      (NumCtas),
    .RowFifoDepth (RowFifoDepth),
    .SubByte      (SubByte)
  ) u_fork (
    .clk_i,
    .rst_ni,
    .row_valid_i    (row_valid),
    .row_ready_o    (row_ready),
    .row_i          (row),
    .al_row_valid_o (al_row_valid),
    .al_row_ready_i (al_row_ready),
    .al_row_o       (al_row),
    .rd_req_valid_o (rd_req_valid),
    .rd_req_ready_i (rd_req_ready),
    .rd_req_o       (rd_req),
    .up_row_valid_o (up_row_valid),
    .up_row_ready_i (up_row_ready),
    .up_row_o       (up_row),
    .info_valid_o   (info_valid),
    .info_ready_i   (info_ready),
    .info_o         (info),
    .busy_o         (fork_busy)
  );

  tma_burst_split #(
    .DataBytes   (DataBytes),
    .MaxBurstLen (MaxBurstLen)
  ) u_split (
    .clk_i,
    .rst_ni,
    .req_valid_i (rd_req_valid),
    .req_ready_o (rd_req_ready),
    .req_i       (rd_req),
    .ar_valid_o  (data_ar_valid),
    .ar_ready_i  (data_ar_ready),
    .ar_o        (data_ar),
    .busy_o      (split_busy)
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

  // Sub-byte unpacker (docs/rtl-unpack.md): one unpack item per read, in read order; the data
  // beats pass through it. Without it the data beats go straight to the aligner.
  if (SubByte != 0) begin : gen_unpack
    tma_unpack #(
      .DataBytes (DataBytes)
    ) u_unpack (
      .clk_i,
      .rst_ni,
      .row_valid_i    (up_row_valid),
      .row_ready_o    (up_row_ready),
      .row_mode_i     (up_row.pk),
      .row_goff_i     (up_row.goff[$clog2(DataBytes)-1:0]),
      .row_in_beats_i (up_row.in_beats),
      .row_units_i    (up_row.units),
      .in_valid_i     (rd_beat_valid),
      .in_ready_o     (rd_beat_ready),
      .in_data_i      (rd_beat_data),
      .in_err_i       (rd_beat_err),
      .out_valid_o    (al_beat_valid),
      .out_ready_i    (al_beat_ready),
      .out_data_o     (al_beat_data),
      .out_err_o      (al_beat_err),
      .busy_o         (unpack_busy)
    );
    logic unused_up_row;
    assign unused_up_row = ^up_row.goff;   // (its bits above log2(DataBytes) are zero)
  end else begin : gen_no_unpack
    assign up_row_ready  = 1'b1;
    assign al_beat_valid = rd_beat_valid;
    assign rd_beat_ready = al_beat_ready;
    assign al_beat_data  = rd_beat_data;
    assign al_beat_err   = rd_beat_err;
    assign unpack_busy   = 1'b0;
    logic unused_up_row;
    assign unused_up_row = ^{up_row_valid, up_row};
  end

  tma_row_aligner #(
    .DataBytes (DataBytes)
  ) u_aligner (
    .clk_i,
    .rst_ni,
    .row_valid_i  (al_row_valid),
    .row_ready_o  (al_row_ready),
    .row_i        (al_row),
    .beat_valid_i (al_beat_valid),
    .beat_ready_o (al_beat_ready),
    .beat_data_i  (al_beat_data),
    .beat_err_i   (al_beat_err),
    .out_valid_o  (smem_beat_valid),
    .out_ready_i  (smem_beat_ready),
    .out_o        (smem_beat),
    .out_data_o   (smem_beat_data),
    .out_strb_o   (smem_beat_strb),
    .busy_o       (al_busy)
  );

  tma_smem_wr #(
    .DataBytes (DataBytes),
    .NumCtas   (NumCtas)
  ) u_smem_wr (
    .clk_i,
    .rst_ni,
    .beat_valid_i (smem_beat_valid),
    .beat_ready_o (smem_beat_ready),
    .beat_i       (smem_beat),
    .beat_data_i  (smem_beat_data),
    .beat_strb_i  (smem_beat_strb),
    .info_valid_i (info_valid),
    .info_ready_o (info_ready),
    .info_i       (info),
    .smem_valid_o (pr_wr_valid),
    .smem_ready_i (smem_wr_ready_i && !s2s_active),
    .smem_o       (pr_wr),
    .smem_data_o  (pr_wr_data),
    .smem_strb_o  (pr_wr_strb),
    .done_valid_o (done_valid),
    .done_ready_i (done_ready),
    .done_o       (done),
    .busy_o       (wr_busy)
  );

  // ---- Store direction: fork, shared-memory read port, aligner, write engine ----
  // The store rows enter the fork through a spill register: the walker's ready for them comes
  // from flops, and the fork's take (which enables its six queues) starts at flops beside it.
  tma_spill_reg #(
    .Width  (tma_pkg::RowWidth),
    .Copies (4)
  ) u_st_row (
    .clk_i,
    .rst_ni,
    .in_valid_i  (st_row_valid),
    .in_ready_o  (st_row_ready),
    .in_data_i   (row),
    .out_valid_o (fk_row_valid),
    .out_ready_i (fk_row_ready),
    .out_data_o  (fk_row)
  );

  tma_wr_fork #(
    .DataBytes (DataBytes)
  ) u_wr_fork (
    .clk_i,
    .rst_ni,
    .row_valid_i  (fk_row_valid),
    .row_ready_o  (fk_row_ready),
    .row_i        (fk_row),
    .rd_valid_o   (st_rd_valid),
    .rd_ready_i   (st_rd_ready),
    .rd_o         (st_rd),
    .al_valid_o   (st_al_valid),
    .al_ready_i   (st_al_ready),
    .al_o         (st_al),
    .wr_valid_o   (st_wr_valid),
    .wr_ready_i   (st_wr_ready),
    .wr_o         (st_wr),
    .wd_valid_o   (st_wd_valid),
    .wd_ready_i   (st_wd_ready),
    .wd_o         (st_wd),
    .rr_valid_o   (st_rr_valid),
    .rr_ready_i   (st_rr_ready),
    .rr_o         (st_rr),
    .idle_i       (st_idle_q),
    .info_valid_o (st_info_valid),
    .info_ready_i (st_info_ready),
    .info_o       (st_info),
    .busy_o       (st_fork_busy)
  );

  tma_smem_rd #(
    .DataBytes (DataBytes)
  ) u_smem_rd (
    .clk_i,
    .rst_ni,
    .job_valid_i   (st_rd_valid),
    .job_ready_o   (st_rd_ready),
    .job_i         (st_rd),
    .smem_valid_o  (pr_rd_valid),
    .smem_ready_i  (smem_rd_ready_i && !s2s_active),
    .smem_o        (pr_rd),
    .smem_rvalid_i (smem_rd_rvalid_i && !s2s_active),
    .smem_rdata_i  (smem_rd_rdata_i),
    .beat_valid_o  (st_beat_valid),
    .beat_ready_i  (st_beat_ready),
    .beat_data_o   (st_beat_data),
    .busy_o        (st_rd_busy)
  );

  tma_wr_align #(
    .DataBytes (DataBytes)
  ) u_wr_align (
    .clk_i,
    .rst_ni,
    .row_valid_i  (st_al_valid),
    .row_ready_o  (st_al_ready),
    .row_i        (st_al),
    .beat_valid_i (st_beat_valid),
    .beat_ready_o (st_beat_ready),
    .beat_data_i  (st_beat_data),
    .out_valid_o  (st_nbeat_valid),
    .out_ready_i  (st_nbeat_ready),
    .out_data_o   (st_nbeat_data),
    .out_strb_o   (st_nbeat_strb),
    .busy_o       (st_al_busy)
  );

  // Reductions' old data: the rows' global bytes read back in bursts (ID AxiIdRed).
  tma_burst_split #(
    .DataBytes   (DataBytes),
    .MaxBurstLen (MaxBurstLen)
  ) u_red_split (
    .clk_i,
    .rst_ni,
    .req_valid_i (st_rr_valid),
    .req_ready_o (st_rr_ready),
    .req_i       (st_rr),
    .ar_valid_o  (red_ar_valid),
    .ar_ready_i  (red_ar_ready),
    .ar_o        (red_ar),
    .busy_o      (red_split_busy)
  );

  tma_wr_red #(
    .DataBytes (DataBytes)
  ) u_wr_red (
    .clk_i,
    .rst_ni,
    .row_valid_i  (st_wd_valid),
    .row_ready_o  (st_wd_ready),
    .row_i        (st_wd),
    .new_valid_i  (st_nbeat_valid),
    .new_ready_o  (st_nbeat_ready),
    .new_data_i   (st_nbeat_data),
    .new_strb_i   (st_nbeat_strb),
    .old_valid_i  (red_beat_valid),
    .old_ready_o  (red_beat_ready),
    .old_data_i   (axi_r_data_i),
    .old_err_i    (red_beat_err),
    .out_valid_o  (st_wbeat_valid),
    .out_ready_i  (st_wbeat_ready),
    .out_data_o   (st_wbeat_data),
    .out_strb_o   (st_wbeat_strb),
    .out_err_o    (st_wbeat_err),
    .busy_o       (st_red_busy)
  );

  // The store direction behind the fork is empty (a reduction may start reading). The fork
  // reads it a cycle late, from a flop (its ordering rule: tma_wr_fork, StIdleLate_A below).
  assign st_idle = !(st_rd_busy || st_al_busy || st_red_busy || st_wr_busy || red_split_busy);

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_st_idle
    if (!rst_ni) begin
      st_idle_q <= 1'b0;
    end else begin
      st_idle_q <= st_idle;
    end
  end

  tma_wr_engine #(
    .DataBytes      (DataBytes),
    .MaxBurstLen    (MaxBurstLen),
    .MaxOutstanding (MaxWrOutstanding),
    .Watchdog       (WrWatchdog)
  ) u_wr (
    .clk_i,
    .rst_ni,
    .req_valid_i  (st_wr_valid),
    .req_ready_o  (st_wr_ready),
    .req_i        (st_wr),
    .beat_valid_i (st_wbeat_valid),
    .beat_ready_o (st_wbeat_ready),
    .beat_data_i  (st_wbeat_data),
    .beat_strb_i  (st_wbeat_strb),
    .beat_err_i   (st_wbeat_err),
    .info_valid_i (st_info_valid),
    .info_ready_o (st_info_ready),
    .info_i       (st_info),
    .axi_req_o    (axi_wr_req_o),
    .axi_rsp_i    (axi_wr_rsp_i),
    .axi_w_data_o,
    .axi_w_strb_o,
    .done_valid_o (st_done_valid),
    .done_ready_i (st_done_ready),
    .done_o       (st_done),
    .busy_o       (st_wr_busy)
  );

  // ---- shared::cta -> shared::cluster bulk copies: alone in the engine (s2s_go_q: every other
  // block was empty in the previous cycle, and no command has left the command register
  // since the copy was taken), through both shared-memory ports ----
  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_s2s_go
    if (!rst_ni) begin
      s2s_go_q <= 1'b0;
    end else begin
      s2s_go_q <= !(ctrl_busy || walker_busy || bk_busy || fork_busy || split_busy || rd_busy ||
                    unpack_busy || al_busy || wr_busy || st_fork_busy || st_rd_busy ||
                    st_al_busy || st_wr_busy || st_red_busy || red_split_busy ||
                    fk_row_valid || m_row_valid);
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

  // Finished commands of both directions and of the shared::cta -> shared::cluster copies to
  // the completion unit (round robin; no register).
  logic [1:0] unused_fin_idx;

  tma_stream_arb #(
    .NumIn  (3),
    .Width  (tma_pkg::CplInfoWidth),
    .LockIn (1)
  ) u_fin_arb (
    .clk_i,
    .rst_ni,
    .in_valid_i  ({s2s_done_valid, st_done_valid, done_valid}),
    .in_ready_o  ({s2s_done_ready, st_done_ready, done_ready}),
    .in_data_i   ({s2s_done, st_done, done}),
    .out_valid_o (fin_valid),
    .out_ready_i (fin_ready),
    .out_data_o  (fin),
    .out_idx_o   (unused_fin_idx)
  );

  // ---- Bulk async-groups: a group operation's end is both its read and its write event (its
  // sources are read before its last write is acknowledged) ----
  assign bg_ev_valid = fin_valid && fin_ready && fin.bg;

  tma_bulk_group #(
    .NumIssuers (16),
    .MaxGroups  (4),
    .CntW       (8),
    .SeqW       (8)
  ) u_bulk_group (
    .clk_i,
    .rst_ni,
    .req_valid_i  (bg_req_valid),
    .req_ready_o  (bg_req_ready),
    .req_issuer_i (c_cmd.issuer),
    .req_commit_i (is_commit),
    .req_rd_i     (1'b1),
    .req_wr_i     (1'b1),
    .req_seq_o    (bg_req_seq),
    .op_ready_o   (bg_op_ready),
    .rd_valid_i   (bg_ev_valid),
    .rd_ready_o   (bg_rd_ready),
    .rd_issuer_i  (fin.cta),
    .rd_seq_i     (fin.bg_seq),
    .rd_err_i     (fin.kind == tma_pkg::CplError),
    .wr_valid_i   (bg_ev_valid),
    .wr_ready_o   (bg_wr_ready),
    .wr_issuer_i  (fin.cta),
    .wr_seq_i     (fin.bg_seq),
    .wr_err_i     (fin.kind == tma_pkg::CplError),
    .cpl_valid_o  (bg_cpl_valid_o),
    .cpl_ready_i  (bg_cpl_ready_i),
    .cpl_issuer_o (bg_cpl_o.issuer),
    .cpl_seq_o    (bg_cpl_o.seq),
    .cpl_done_o   (bg_cpl_o.done),
    .cpl_err_o    (bg_cpl_o.err),
    .busy_o       (bg_busy)
  );

  // (the group unit's busy: open groups never committed stay; the engine's busy_o leaves it)
  logic unused_bg;
  assign unused_bg = ^{bg_busy, bgq_usage};

  tma_cpl_unit u_cpl (
    .clk_i,
    .rst_ni,
    .info_valid_i (fin_valid),
    .info_ready_o (fin_ready),
    .info_i       (fin),
    .cpl_valid_o,
    .cpl_ready_i,
    .cpl_o,
    .err_count_o
  );

  // ---- Status ----
  assign busy_o = ctrl_busy || walker_busy || bk_busy || fork_busy || split_busy || rd_busy ||
                  unpack_busy || al_busy || wr_busy || st_fork_busy || st_rd_busy ||
                  st_al_busy || st_wr_busy || st_red_busy || red_split_busy || cpl_valid_o ||
                  fk_row_valid || c_valid || m_row_valid || s2s_busy;

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
  // The blocks behind the store fork receive items only from its queues: when they were
  // empty in the previous cycle and the fork's queues held nothing then, they are empty now
  // (the one-cycle-late idle the fork's reduction ordering relies on).
  `TMA_ASSERT_IMPLY(StIdleLate_A, st_idle_q && !$past(st_fork_busy), st_idle)
  `TMA_ASSERT_INIT(ArchLegal_A, Arch <= 32'(tma_pkg::ArchSm103))
  `TMA_ASSERT_NEVER(OneWalker_A, 2'(nd_row_valid) + 2'(g_row_valid) + 2'(w_row_valid) > 2'd1)
  `TMA_ASSERT_INIT(BulkSizeStrictLegal_A, BulkSizeStrict <= 1)
  // Every job of the frontend has its command's group entry (one job per command).
  `TMA_ASSERT_IMPLY(JobHasGroup_A, job_valid, bgq_out_valid)
  // The group unit takes every event at once (no event is lost at a command's end).
  `TMA_ASSERT_IMPLY(BgEventTaken_A, bg_ev_valid, bg_rd_ready && bg_wr_ready)
  // While the copy owns the shared-memory ports the engine's own users are silent.
  `TMA_ASSERT_IMPLY(S2sAlone_A, s2s_active, !pr_rd_valid && !pr_wr_valid && !st_rd_busy &&
                                            !wr_busy)

endmodule

`default_nettype wire
