// SPDX-License-Identifier: Apache-2.0
//
// tma_frontend: the engine's frontend, wiring only: takes one command at a time, finds its
// map (descriptor cache, or fetch, decode and check), and hands the walker one job per command
// (a tile or im2col job, a prefetch's job walked like a load's, or a completion-only marker for
// errors and, with PrefetchReads = 0, prefetches).
//
//   cmd_* -> tma_cmd_intake -> (tag compares) tma_desc_cache -hit-> map register (take cycle)
//                                   | miss
//            ar_*/r_* <-> tma_desc_fetch -> tma_desc_decode -> tma_desc_check -> map register
//   map register + command -> tma_job_setup (W1, W1B, W2) <-> tma_addr_mac (two) -> job_*
//                            tma_instr_check -> the job's error class
//   tma_frontend_seq sequences them (docs/rtl.md, "Frontend").
// Latency, from the cycle a command is taken to the first cycle its job is valid
// (tests/rtl/frontend/frontend_test.cc, walker ready, a 2-D tile with one address product):
// 9 cycles on a hit (the map enters the map register in the take's cycle; W1, W1B, W2, the
// MAC's slot, operand, copy, product and accumulate stages); on a miss 18 after the last
// descriptor beat (the check's 9 cycles, then W1 to the MAC as on a hit). The MAC takes the
// next command's products while the job register still holds the previous job (the sequencer
// moves on once the MAC has read its operands; the job setup makes the job valid when the
// MAC is idle), so back-to-back commands overlap their products with the previous job.
// Error priority: bus error, then invalid descriptor (descriptor-only, cached with the map),
// then the instruction checks in the order of the model's CheckInstruction.

`default_nettype none

`include "tma_assert.svh"

module tma_frontend #(
  parameter  int unsigned DataBytes     = 16,
  parameter  int unsigned CacheEntries  = 4,
  parameter  int unsigned NumCtas       = 16,
  parameter  int unsigned SubByte       = 1,   // 0: b4x16_p64 / b6x16_p32 give `unsupported`
  // stores along dim 0: 0 write whole 16-byte granules (silicon D7), 1 in-bounds elements only
  parameter  int unsigned StoreClipElem = 0,
  // 1: tensor prefetches walk their box and read it (data dropped); 0: check-only
  parameter  int unsigned PrefetchReads = 1,
  // 0: no write direction in the engine: stores and reductions give `unsupported`
  parameter  int unsigned StorePath     = 1,
  localparam int unsigned SizeLog2      = $clog2(DataBytes),
  localparam int unsigned NumChunks     = DataBytes / 16,
  localparam int unsigned CacheIdxW     = (CacheEntries > 1) ? $clog2(CacheEntries) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // Commands
  input  logic              cmd_valid_i,
  output logic              cmd_ready_o,
  input  tma_pkg::cmd_t     cmd_i,
  // The command register in front of cmd_*: a command it takes now that is on cmd_* in the
  // next cycle, and its map address (its cache lookup starts a cycle early; 0: none)
  input  logic              pre_valid_i,
  input  logic [63:0]       pre_addr_i,
  input  logic              desc_inval_i,
  // Target architecture (tma_pkg::Arch*): the rules the instruction checks apply; a setting,
  // changed only while the engine is idle
  input  logic [1:0]        arch_i,
  // CTAs in the cluster (0: 16; at most NumCtas): F6 and the CTA operands are checked against it
  input  logic [3:0]        cluster_i,
  // Descriptor reads (AXI4 AR with ID AxiIdDesc; R beats of that ID, always accepted)
  output logic              ar_valid_o,
  input  logic              ar_ready_i,
  output tma_pkg::ar_t      ar_o,
  input  logic              r_valid_i,
  input  logic [DataBytes*8-1:0] r_data_i,
  input  logic              r_err_i,
  // Jobs (to the walker)
  output logic              job_valid_o,
  input  logic              job_ready_i,
  output tma_pkg::job_t     job_o,
  // Status
  output logic              busy_o
);

  // ---- Sequencer ----
  logic       idle, idle_next, lookup, fetch_start, fetching, w1_go, w1b, w2, in_mac, in_err;
  logic       seq_busy;
  logic [3:0] err_code;
  // ---- Intake ----
  logic                  tag_fresh, take;
  logic [3:0]            take_err;
  tma_pkg::cmd_t         cmd;
  tma_pkg::coord_flags_t coord_flags;
  logic                  gat, wmode, w128, i2c;
  logic [37:0]           c0_3q;
  // ---- Fetch, decode, check ----
  logic [3:0]                 beat_idx;
  logic [2:0]                 chunk_off;
  logic [7:0]                 chunk_wait;
  logic                       fetch_end, fetch_bad, fetch_ok;
  tma_pkg::desc_fields_t      fields;
  tma_pkg::desc_chk_fields_t  chk_fields;
  logic                       chk_busy, chk_valid, chk_valid_next;
  tma_pkg::map_t              chk_map;
  // ---- Cache, map register ----
  logic          hit, cache_read, map_load, map_load_bad;
  tma_pkg::map_t map;
  // ---- Job setup, instruction check, MAC ----
  tma_pkg::walk_bounds_t bounds;
  logic [3:0]            instr_err;
  logic                  instr_abort;
  tma_pkg::mac_req_t     mac_req;
  tma_pkg::mac_opnd_t    mac_opnd;
  tma_pkg::mac_wb_t      mac_wb;
  logic                  mac_go, mac_req_ready, mac_wb_valid, mac_idle, mac_opnd_done;
  logic                  mac_own_next, mac_wb_next;
  logic [2*tma_pkg::MacSlots-1:0] mac_wb_en;
  // The second MAC (gather4 / scatter4 rows 3 and 4: their row products beside rows 1 and 2's)
  localparam int unsigned Mac2Slots = 32'b1100 << tma_pkg::MacSlotAstart;
  tma_pkg::mac_req_t     mac2_req;
  tma_pkg::mac_wb_t      mac2_wb;
  logic                  mac2_req_ready, mac2_wb_valid, mac1_idle, mac2_idle;
  logic                  mac1_opnd_done, mac2_opnd_done;
  logic [2*tma_pkg::MacSlots-1:0] mac2_wb_en;
  logic                  job_free, job_stall;

  tma_cmd_intake u_intake (
    .clk_i, .rst_ni,
    .cmd_valid_i, .cmd_ready_o, .cmd_i,
    .idle_i        (idle),
    .tag_fresh_i   (tag_fresh),
    .take_o        (take),
    .take_err_o    (take_err),
    .cmd_o         (cmd),
    .coord_flags_o (coord_flags),
    .gat_o         (gat),
    .wmode_o       (wmode),
    .w128_o        (w128),
    .i2c_o         (i2c),
    .c0_3q_o       (c0_3q)
  );

  tma_desc_cache #(.CacheEntries (CacheEntries)) u_cache (
    .clk_i, .rst_ni,
    .cmd_valid_i,
    .cmd_ready_i       (cmd_ready_o),
    .cmd_addr_i        (cmd_i.desc_addr),
    .pre_valid_i,
    .pre_addr_i,
    .desc_inval_i,
    .tag_fresh_o       (tag_fresh),
    .hit_o             (hit),
    .lookup_i          (lookup),
    .idle_i            (idle),
    .idle_next_i       (idle_next),
    .fill_valid_i      (chk_valid),
    .fill_valid_next_i (chk_valid_next),
    .fill_i            (chk_map),
    .fill_addr_i       (cmd.desc_addr),
    .read_o            (cache_read),
    .map_load_o        (map_load),
    .map_load_bad_o    (map_load_bad),
    .map_o             (map)
  );

  tma_desc_fetch #(.DataBytes (DataBytes)) u_fetch (
    .clk_i, .rst_ni,
    .start_i      (fetch_start),
    .start_addr_i (cmd_i.desc_addr[63:4]),
    .fetching_i   (fetching),
    .ar_valid_o, .ar_ready_i, .ar_o,
    .r_valid_i, .r_err_i,
    .beat_idx_o   (beat_idx),
    .chunk_off_o  (chunk_off),
    .chunk_wait_o (chunk_wait),
    .end_o        (fetch_end),
    .bad_o        (fetch_bad),
    .ok_o         (fetch_ok)
  );

  tma_desc_decode #(.DataBytes (DataBytes)) u_decode (
    .clk_i, .rst_ni,
    .start_i      (fetch_start),
    .fetching_i   (fetching),
    .r_valid_i, .r_data_i,
    .beat_idx_i   (beat_idx),
    .chunk_off_i  (chunk_off),
    .chunk_wait_i (chunk_wait),
    .fields_o     (fields),
    .chk_o        (chk_fields)
  );

  tma_desc_check u_check (
    .clk_i, .rst_ni,
    .start_i          (fetch_ok),
    .fields_i         (fields),
    .chk_i            (chk_fields),
    .busy_o           (chk_busy),
    .map_valid_o      (chk_valid),
    .map_valid_next_o (chk_valid_next),
    .map_o            (chk_map)
  );

  tma_frontend_seq u_seq (
    .clk_i, .rst_ni,
    .take_i         (take),
    .take_err_i     (take_err),
    .hit_i          (hit),
    .idle_o         (idle),
    .idle_next_o    (idle_next),
    .lookup_o       (lookup),
    .fetch_start_o  (fetch_start),
    .fetching_o     (fetching),
    .fetch_end_i    (fetch_end),
    .fetch_bad_i    (fetch_bad),
    .chk_last_i     (chk_valid),
    .map_load_i     (map_load),
    .map_load_bad_i (map_load_bad),
    .map_bad_i      (map.bad),
    .job_free_i     (job_free),
    .job_stall_i    (job_stall),
    .mac_idle_i      (mac_idle),
    .mac_opnd_done_i (mac_opnd_done),
    .abort_i        (instr_abort),
    .mac_req_o      (mac_go),
    .w1_go_o        (w1_go),
    .w1b_o          (w1b),
    .w2_o           (w2),
    .mac_o          (in_mac),
    .err_o          (in_err),
    .err_code_o     (err_code),
    .busy_o         (seq_busy)
  );

  tma_instr_check #(
    .NumCtas       (NumCtas),
    .SubByte       (SubByte),
    .PrefetchReads (PrefetchReads),
    .StorePath     (StorePath)
  ) u_instr_check (
    .clk_i, .rst_ni,
    .cmd_i    (cmd),
    .arch_i,
    .cluster_i,
    .map_i    (map),
    .bounds_i (bounds),
    .w1b_i    (w1b),
    .w2_i     (w2),
    .err_o    (instr_err),
    .abort_o  (instr_abort)
  );

  tma_job_setup #(
    .StoreClipElem (StoreClipElem),
    .PrefetchReads (PrefetchReads),
    .DataBytes     (DataBytes)
  ) u_job_setup (
    .clk_i, .rst_ni,
    .cmd_i          (cmd),
    .coord_flags_i  (coord_flags),
    .gat_i          (gat),
    .wmode_i        (wmode),
    .w128_i         (w128),
    .i2c_i          (i2c),
    .c0_3q_i        (c0_3q),
    .map_i          (map),
    .w1_go_i        (w1_go),
    .w1b_i          (w1b),
    .w2_i           (w2),
    .mac_i          (in_mac),
    .err_i          (in_err),
    .err_code_i     (err_code),
    .instr_err_i    (instr_err),
    .bounds_o       (bounds),
    .mac_req_o      (mac_req),
    .mac_opnd_o     (mac_opnd),
    .mac_wb_valid_i (mac_wb_valid),
    .mac_wb_i       (mac_wb),
    .mac_wb_en_i    (mac_wb_en),
    .mac2_req_o     (mac2_req),
    .mac2_wb_valid_i (mac2_wb_valid),
    .mac2_wb_i      (mac2_wb),
    .mac2_wb_en_i   (mac2_wb_en),
    .mac_idle_i     (mac_idle),
    .job_valid_o, .job_ready_i, .job_o,
    .job_free_o     (job_free),
    .job_stall_o    (job_stall),
    .own_next_o     (mac_own_next),
    .wb_next_o      (mac_wb_next)
  );

  tma_addr_mac u_mac (
    .clk_i, .rst_ni,
    .clr_i       (in_mac && instr_abort),
    .wb_next_i   (mac_wb_next),
    .own_next_i  (mac_own_next),
    .req_valid_i (mac_go),
    .req_ready_o (mac_req_ready),
    .req_i       (mac_req),
    .opnd_i      (mac_opnd),
    .wb_valid_o  (mac_wb_valid),
    .wb_o        (mac_wb),
    .wb_en_o     (mac_wb_en),
    .idle_o      (mac1_idle),
    .opnd_done_o (mac1_opnd_done)
  );

  tma_addr_mac #(.SlotMask (Mac2Slots)) u_mac2 (
    .clk_i, .rst_ni,
    .clr_i       (in_mac && instr_abort),
    .wb_next_i   (mac_wb_next),
    .own_next_i  (mac_own_next),
    .req_valid_i (mac_go),
    .req_ready_o (mac2_req_ready),
    .req_i       (mac2_req),
    .opnd_i      (mac_opnd),
    .wb_valid_o  (mac2_wb_valid),
    .wb_o        (mac2_wb),
    .wb_en_o     (mac2_wb_en),
    .idle_o      (mac2_idle),
    .opnd_done_o (mac2_opnd_done)
  );
  assign mac_idle      = mac1_idle && mac2_idle;
  assign mac_opnd_done = mac1_opnd_done && mac2_opnd_done;

  assign busy_o = seq_busy || !job_free;

  logic unused_bits;
  assign unused_bits = ^{mac_req_ready, mac2_req_ready, cache_read, chk_busy};

  // ---- Assertions ----
  `TMA_ASSERT_INIT(DataBytesLegal_A, DataBytes == 16 || DataBytes == 32 || DataBytes == 64 ||
                                     DataBytes == 128)
  `TMA_ASSERT_INIT(SizeLog2Chunks_A, NumChunks == (1 << (SizeLog2 - 4)) && CacheIdxW >= 1)
  `TMA_ASSERT_NEVER(MacReqReady_A, mac_go && !(mac_req_ready && mac2_req_ready))
  `TMA_ASSERT_INIT(PrefetchReadsLegal_A, PrefetchReads <= 1)
  `TMA_ASSERT_NEVER(MacAbortFlag_A, in_mac &&
                    instr_abort != (instr_err != tma_pkg::ErrNone ||
                                    (PrefetchReads == 0 && cmd.op == tma_pkg::OpPrefetch)))

endmodule

`default_nettype wire
