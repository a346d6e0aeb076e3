// SPDX-License-Identifier: Apache-2.0
//
// tma_desc_cache: the descriptor cache (tags and valid bits in flops, decoded maps in LUT RAM)
// and the map register the job setup reads: the map of the current command, from the cache
// on a hit or from the descriptor check on a miss.
//
// Lookup: the tags are compared every cycle with the map address of the command the stream
// holds in the next cycle and the compares registered (tag_match_q): the stream's own address
// while its command stays (valid and not taken: the stream keeps it stable), else the address
// entering the command register in front of the stream (pre_addr_i) when pre_valid_i says that
// command is the stream's in the next cycle. The compares hold for this cycle's command
// (tag_fresh_o) when the previous cycle compared its address and wrote no tag, and the intake
// takes a command only then, so the lookup is a few LUTs of flops, and a command that enters an
// empty command register is looked up in its first cycle on the stream. A map invalidated in
// the lookup's cycle misses. Both candidate addresses are compared and registered, and a
// registered copy of the choice between them picks one, so the late handshake reaches flops
// only. The read index (kept copies, one per slice of the RAM) is registered in every cycle
// from the compares themselves (the entry that matches each candidate, picked the same way),
// and map_q takes the RAM entry at that index
// in every cycle of Idle (its load and select copies are registered from idle_next_i), so a
// lookup that hits (lookup_i with hit_o, read_o) has its map in map_q from the next cycle;
// map_q's value is don't-care after an Idle cycle without a hit.
// Fill: the check's map (fill_valid_i) enters map_q, and, unless desc_inval_i came since the
// lookup, the cache: tag and valid bit now (round-robin victim), the RAM a cycle later from
// map_q, so the RAM's write data comes from flops.
//
// map_q (tma_pkg::map_t, 1,019 bits) has this one writer. Its bits spread over the die next to
// their consumers; the load and the select of each of its NumSlices slices are kept copies
// (tma_dup_reg) formed a cycle ahead, so no decode net crosses that spread.

`default_nettype none

`include "tma_assert.svh"

module tma_desc_cache #(
  parameter  int unsigned CacheEntries = 4,
  localparam int unsigned CacheIdxW    = (CacheEntries > 1) ? $clog2(CacheEntries) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // The command stream (its map address), observed
  input  logic                cmd_valid_i,
  input  logic                cmd_ready_i,
  input  logic [63:0]         cmd_addr_i,
  // The command register's input: a command taken into it now that is the stream's command in
  // the next cycle, and its map address
  input  logic                pre_valid_i,
  input  logic [63:0]         pre_addr_i,
  input  logic                desc_inval_i,
  output logic                tag_fresh_o,     // the registered compares hold for cmd_addr_i
  output logic                hit_o,           // cmd_addr_i's map is cached
  input  logic                lookup_i,        // the command is taken and needs its map
  input  logic                idle_i,          // the frontend waits for a command ...
  input  logic                idle_next_i,     // ... in the next cycle
  // Fill from the descriptor check (the tag is the current command's map address)
  input  logic                fill_valid_i,
  input  logic                fill_valid_next_i,
  input  tma_pkg::map_t       fill_i,
  input  logic [63:0]         fill_addr_i,
  // The current command's map
  output logic                read_o,          // the entry that hit enters map_q now
  output logic                map_load_o,      // map_q takes a map now ...
  output logic                map_load_bad_o,  // ... a bad one
  output tma_pkg::map_t       map_o
);

  localparam int unsigned MapW      = tma_pkg::MapWidth;
  localparam int unsigned NumSlices = 8;
  localparam int unsigned SliceW    = (MapW + NumSlices - 1) / NumSlices;

  logic                 valid_d [CacheEntries];
  logic                 valid_q [CacheEntries];
  logic [63:0]          tag_q   [CacheEntries];
  logic [CacheIdxW-1:0] victim_d, victim_q;       // round-robin victim
  logic                 fill;                     // fill entry victim_q (tag and valid now)
  logic                 wr_q;                     // ... and its data, map_q, a cycle later
  logic [CacheIdxW-1:0] wr_idx_q;
  logic                 stale_q;                  // invalidated since the lookup: do not cache
  tma_pkg::map_t        ram_rd;                   // the entry that hit (RAM read)
  tma_pkg::map_t        map_d, map_q;

  // ---- Lookup ----
  // The tags are compared with both candidate addresses of the next cycle's command (the
  // stream's own, cmd_addr_i, and the command register's input, pre_addr_i), each result is
  // registered, and the registered stay flag picks one: stay comes from the command
  // register's and the intake's handshake late in the cycle and only reaches flops (its
  // kept copies), not the compares, the read index or the RAM's read address.
  logic [CacheEntries-1:0] tag_match_cmd, tag_match_pre;   // the compares, this cycle
  logic [CacheEntries-1:0] match_cmd_q, match_pre_q;       // ... registered
  logic [CacheEntries-1:0] tag_match_q;                    // the next-cycle command's
  logic [CacheEntries-1:0] hit;
  logic                    tag_fresh_q;
  logic                    stay;          // the stream's command is there in the next cycle too
  logic [NumSlices:0]      stay_q;        // kept copies: one per RAM slice, one for the tags
  assign stay = cmd_valid_i && !cmd_ready_i;
  always_comb begin : proc_lookup
    for (int e = 0; e < CacheEntries; e++) begin
      tag_match_cmd[e] = tag_q[e] == cmd_addr_i;
      tag_match_pre[e] = tag_q[e] == pre_addr_i;
      tag_match_q[e]   = stay_q[NumSlices] ? match_cmd_q[e] : match_pre_q[e];
      hit[e]           = valid_q[e] && !desc_inval_i && tag_match_q[e];
    end
  end
  tma_dup_reg #(.Copies (NumSlices + 1)) u_stay (
    .clk_i, .rst_ni, .d_i (stay), .q_o (stay_q)
  );
  assign hit_o       = hit != '0;
  assign tag_fresh_o = tag_fresh_q;
  assign fill        = fill_valid_i && !stale_q && !desc_inval_i;

  // ---- map_q: one writer, the selected source per slice ----
  logic [NumSlices-1:0] load_q, read_sel_q;
  // The entry that matches each candidate address, one copy per slice's RAM: registered in
  // every cycle from this cycle's compares, and picked by that slice's copy of stay_q, so in
  // the cycle of a lookup it is the index of the entry that hits, and the RAM read does not
  // wait for the intake's take
  logic [NumSlices*CacheIdxW-1:0] idx_cmd_q, idx_pre_q;
  logic [CacheIdxW-1:0]           idx_cmd_d, idx_pre_d;
  logic [CacheIdxW-1:0]           rd_idx [NumSlices];
  logic [CacheEntries-1:0]        rd_match_q;     // (assertion) the entries the index matched
  always_comb begin : proc_rd_idx
    idx_cmd_d = '0;
    idx_pre_d = '0;
    for (int e = 0; e < CacheEntries; e++) begin
      if (valid_q[e] && tag_match_cmd[e]) idx_cmd_d = CacheIdxW'(e);
      if (valid_q[e] && tag_match_pre[e]) idx_pre_d = CacheIdxW'(e);
    end
  end
  tma_dup_reg #(.Width (CacheIdxW), .Copies (NumSlices)) u_idx_cmd (
    .clk_i, .rst_ni, .d_i (idx_cmd_d), .q_o (idx_cmd_q)
  );
  tma_dup_reg #(.Width (CacheIdxW), .Copies (NumSlices)) u_idx_pre (
    .clk_i, .rst_ni, .d_i (idx_pre_d), .q_o (idx_pre_q)
  );
  for (genvar g = 0; g < NumSlices; g++) begin : gen_rd_idx
    assign rd_idx[g] = stay_q[g] ? idx_cmd_q[g*CacheIdxW +: CacheIdxW] :
                                   idx_pre_q[g*CacheIdxW +: CacheIdxW];
  end
  always_ff @(posedge clk_i) begin : proc_rd_match
    for (int e = 0; e < CacheEntries; e++) begin
      rd_match_q[e] <= valid_q[e] && (stay ? tag_match_cmd[e] : tag_match_pre[e]);
    end
  end
  `TMA_ASSERT_NEVER(RdIdx_A, lookup_i && hit_o && !rd_match_q[rd_idx[0]])
  // map_q loads the RAM entry in every cycle of Idle (and the check's map when it ends); the
  // sequencer starts in Idle
  tma_dup_reg #(.Copies (NumSlices), .ResetVal (1)) u_load (
    .clk_i, .rst_ni, .d_i (idle_next_i || fill_valid_next_i), .q_o (load_q)
  );
  tma_dup_reg #(.Copies (NumSlices), .ResetVal (1)) u_read_sel (
    .clk_i, .rst_ni, .d_i (idle_next_i), .q_o (read_sel_q)
  );
  `TMA_ASSERT_COPY(MapLoad_A, load_q, {NumSlices{idle_i || fill_valid_i}})
  `TMA_ASSERT_COPY(MapReadSel_A, read_sel_q, {NumSlices{idle_i}})
  // Per slice, as whole-slice selects (a per-bit loop would simulate bit by bit); each slice
  // of the cache RAM is read at its own copy of the index, so no read-address net crosses
  // the spread of map_q.
  for (genvar g = 0; g < NumSlices; g++) begin : gen_map_slice
    localparam int unsigned Lo = g * SliceW;
    localparam int unsigned W  = (Lo + SliceW <= MapW) ? SliceW : MapW - Lo;
    logic [W-1:0] ram_q [CacheEntries];
    always_ff @(posedge clk_i) begin : proc_ram
      if (wr_q) ram_q[wr_idx_q] <= map_q[Lo +: W];
    end
    assign ram_rd[Lo +: W] = ram_q[rd_idx[g]];
    assign map_d[Lo +: W] = !load_q[g]    ? map_q[Lo +: W] :
                            read_sel_q[g] ? ram_rd[Lo +: W] : fill_i[Lo +: W];
  end
  assign read_o         = lookup_i && hit_o;
  assign map_load_o     = read_o || fill_valid_i;
  assign map_load_bad_o = read_o ? ram_rd.bad : fill_i.bad;
  assign map_o          = map_q;

  // ---- Cache update ----
  always_comb begin : proc_cache
    victim_d = victim_q;
    for (int e = 0; e < CacheEntries; e++) valid_d[e] = desc_inval_i ? 1'b0 : valid_q[e];
    if (fill) begin
      valid_d[victim_q] = 1'b1;
      victim_d = (32'(victim_q) == CacheEntries - 1) ? '0 : victim_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin : proc_tag_match
    match_cmd_q <= tag_match_cmd;
    match_pre_q <= tag_match_pre;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : proc_regs
    if (!rst_ni) begin
      for (int e = 0; e < CacheEntries; e++) begin
        valid_q[e] <= 1'b0;
        tag_q[e]   <= '0;
      end
      victim_q    <= '0;
      wr_q        <= 1'b0;
      wr_idx_q    <= '0;
      stale_q     <= 1'b0;
      tag_fresh_q <= 1'b0;
      map_q       <= '0;
    end else begin
      for (int e = 0; e < CacheEntries; e++) valid_q[e] <= valid_d[e];
      if (fill) tag_q[victim_q] <= fill_addr_i;
      victim_q    <= victim_d;
      wr_q        <= fill;
      wr_idx_q    <= victim_q;
      stale_q     <= lookup_i ? 1'b0 : (stale_q || desc_inval_i);
      tag_fresh_q <= (stay || pre_valid_i) && !fill;
      map_q       <= map_d;
    end
  end

  // ---- Assertions ----
  `TMA_ASSERT_INIT(CacheEntriesLegal_A, CacheEntries >= 1 && CacheEntries <= 16)
`ifndef SYNTHESIS
  // The registered compares that hold for the stream's command equal its compares now.
  `TMA_ASSERT_NEVER(PreWhileStay_A, stay && pre_valid_i)
  `TMA_ASSERT_NEVER(TagCmpFresh_A, tag_fresh_q && cmd_valid_i && tag_match_q != tag_match_cmd)
`endif
  `TMA_ASSERT_NEVER(ReadBeforeWrite_A, wr_q && idle_i)
  `TMA_ASSERT_NEVER(ReadAndFill_A, idle_i && fill_valid_i)
  `TMA_ASSERT_NEVER(LookupInIdle_A, lookup_i && !idle_i)

endmodule

`default_nettype wire
