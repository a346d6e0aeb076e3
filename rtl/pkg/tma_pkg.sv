// SPDX-License-Identifier: Apache-2.0
//
// tma_pkg: types and constants shared by the OpenTMA RTL blocks.
// Widths of every struct are given as integer parameters next to it (Yosys 0.23 cannot take
// $bits of a type in a package); modules check them with TMA_ASSERT_INIT. docs/interfaces.md
// describes every struct field by field.

package tma_pkg;

  // Largest tensor rank the engine supports (PTX .1d .. .5d).
  localparam int unsigned MaxDims = 5;

  // ---- Numbering shared with the C++ model (tma::model, cmodel/include/tma/types.h) ----
  // Op
  localparam logic [1:0] OpLoad     = 2'd0;
  localparam logic [1:0] OpStore    = 2'd1;
  localparam logic [1:0] OpReduce   = 2'd2;
  localparam logic [1:0] OpPrefetch = 2'd3;
  // LoadMode
  localparam logic [2:0] ModeTile   = 3'd0;
  localparam logic [2:0] ModeIm2col = 3'd1;
  // ErrorClass
  localparam logic [3:0] ErrNone              = 4'd0;
  localparam logic [3:0] ErrInvalidDescriptor = 4'd1;
  localparam logic [3:0] ErrMisaligned        = 4'd2;
  localparam logic [3:0] ErrMisalignedCoord   = 4'd3;
  localparam logic [3:0] ErrInvalidCoord      = 4'd4;
  localparam logic [3:0] ErrUnsupportedRed    = 4'd5;
  localparam logic [3:0] ErrInvalidInstr      = 4'd6;
  localparam logic [3:0] ErrUnsupported       = 4'd7;
  localparam logic [3:0] ErrBusError          = 4'd8;
  // Completion kinds (cpl_kind_o)
  localparam logic [1:0] CplTx    = 2'd0;
  localparam logic [1:0] CplError = 2'd1;
  localparam logic [1:0] CplDone  = 2'd2;

  // Internal swizzle function code (tma_swizzle): the Swizzle enum of the model.
  localparam logic [2:0] SwzNone      = 3'd0;
  localparam logic [2:0] Swz32B       = 3'd1;
  localparam logic [2:0] Swz64B       = 3'd2;
  localparam logic [2:0] Swz128B      = 3'd3;
  localparam logic [2:0] Swz128BA32   = 3'd4;
  localparam logic [2:0] Swz128BA32F8 = 3'd5;
  localparam logic [2:0] Swz128BA64   = 3'd6;
  localparam logic [2:0] Swz96B       = 3'd7;

  // Packed sub-byte layout of a job / row (tma_unpack row_mode_i, docs/rtl-unpack.md): PkNone
  // for every type whose global and shared layouts are the same (b4x16 included), PkG8 for
  // b4x16_p64 (8 global bytes per 16-byte unit), PkG12 for b6x16_p32 (12 bytes).
  localparam logic [1:0] PkNone = 2'd0;
  localparam logic [1:0] PkG8   = 2'd1;
  localparam logic [1:0] PkG12  = 2'd2;

  // AXI IDs used on the read channel.
  localparam logic [3:0] AxiIdData = 4'd0;  // tensor data reads (in order)
  localparam logic [3:0] AxiIdDesc = 4'd1;  // descriptor fetches

  // Largest row (box[0] x E = 256 x 8 bytes) and the field widths derived from it.
  localparam int unsigned RowBytesW = 12;  // 0 .. 2048
  localparam int unsigned BeatCntW  = 10;  // beats of one row, signed arithmetic margin

  // ---- Per-dimension vectors (packed 2-D only inside structs, house style sec. 11) ----
  typedef struct packed { logic [MaxDims-1:0][31:0] v; } dim32_t;
  typedef struct packed { logic [2:0][15:0] v; } im2col_t;

  // ---- Command stream: one decoded tensor instruction (DUT_INTERFACE.md) ----
  typedef struct packed {
    logic [1:0]  op;
    logic [2:0]  mode;
    logic [2:0]  redop;
    logic [2:0]  dim;
    logic [63:0] desc_addr;
    dim32_t      coords;
    im2col_t     im2col;
    logic [31:0] smem_addr;
    logic [31:0] mbar_addr;
    logic        multicast;
    logic [15:0] cta_mask;
    logic [3:0]  issuer;
    logic [3:0]  dst_cta;
    logic [1:0]  cta_group;
    logic [7:0]  tag;
  } cmd_t;
  localparam int unsigned CmdWidth = 2 + 3 + 3 + 3 + 64 + 160 + 48 + 32 + 32 + 1 + 16 + 4 + 4
                                     + 2 + 8;

  // ---- Completion information carried with a command to its end ----
  typedef struct packed {
    logic [1:0]  kind;      // CplTx / CplError / CplDone
    logic [3:0]  err;       // error class when kind == CplError
    logic [15:0] cta_mask;  // destinations of the complete-tx (kind CplTx)
    logic [3:0]  cta;       // CTA named by an error / done completion (the issuer)
    logic [31:0] mbar_addr;
    logic [31:0] bytes;     // complete-tx bytes (full box, silicon D1)
    logic [7:0]  tag;
  } cpl_info_t;
  localparam int unsigned CplInfoWidth = 2 + 4 + 16 + 4 + 32 + 32 + 8;

  // One completion on the completion port.
  typedef struct packed {
    logic [1:0]  kind;
    logic [3:0]  cta;
    logic [31:0] mbar_addr;
    logic [31:0] bytes;
    logic [3:0]  err;
    logic [7:0]  tag;
  } cpl_t;
  localparam int unsigned CplWidth = 2 + 4 + 32 + 32 + 4 + 8;

  // ---- Walker job: everything the N-D walker needs, computed once at issue ----
  // Index d = 1..4 of the per-dimension vectors is a *walker dimension* (entry 0 is unused:
  // the row is not iterated). Tile: walker dim d is tensor dim d. im2col: walker dims
  // 1 .. rank-2 are the spatial dims (tensor dims 1 .. rank-2, innermost first) and walker dim
  // rank-1 is N (it never wraps; the walk ends after nrows_m1 + 1 rows). Every walker dim
  // holds a position running from `coord`, stepping `es`, restarting at `lo` after passing
  // `hi`; its address contribution runs from `astart`, stepping `step`, restarting at `alo`.
  // Entries beyond the rank hold neutral values (position 0, es 1, lo = hi = 0, no address).
  typedef struct packed { logic [MaxDims-1:0][63:0] v; } dim64_t;
  typedef struct packed { logic [MaxDims-1:0][33:0] v; } dim34_t;
  typedef struct packed { logic [MaxDims-1:0][35:0] v; } dim36_t;
  typedef struct packed { logic [MaxDims-1:0][3:0] v; } dim4_t;

  typedef struct packed {
    logic                 marker;     // 1: no data; emit one row entry that only completes
    logic                 i2c;        // 1: the walk ends after nrows_m1 + 1 rows (im2col)
    logic [9:0]           nrows_m1;   // im2col: pixels per column - 1
    logic [63:0]          gaddr;      // global address of row byte 0, address contributions 0
    dim64_t               step;       // address step of walker dim d (es[d] x its stride)
    dim64_t               astart;     // address contribution of walker dim d at `coord`
    dim64_t               alo;        // address contribution of walker dim d at `lo`
    dim34_t               coord;      // start position of walker dim d (signed, offsets added)
    dim34_t               lo;         // restart position after a wrap (signed)
    dim34_t               hi;         // last position before a wrap (signed)
    dim32_t               dim_m1;     // bound of the position: in bounds iff 0 <= pos <= dim_m1
    dim4_t                es;         // position step of walker dim d, 1 .. 8
    logic [RowBytesW-1:0] row_bytes;  // L = box[0] x E (im2col: cpp x E)
    logic [RowBytesW-1:0] head;       // in-bounds bytes of a row start here ...
    logic [RowBytesW-1:0] dend;       // ... and end here (head == dend: none)
    logic [RowBytesW-1:0] pitch;      // shared-memory row pitch (row bytes or swizzle span)
    logic [31:0]          smem_addr;  // shared address of the first row
    logic                 fill_nan;   // OOB fill 0x7FF7 per 16 bits (else zero)
    logic                 tf32;       // round 4-byte elements to tf32 (silicon D3)
    logic [2:0]           swz;        // swizzle function (Swz*)
    logic [1:0]           pk;         // packed sub-byte type: Pk* (global != shared layout)
    cpl_info_t            cpl;        // completion of the command
  } job_t;

  // ---- Row segment: one box row (walker -> burst splitter and aligner) ----
  typedef struct packed {
    logic                 has_data;   // 1: the row writes shared memory; 0: completion only
    logic                 last;       // last entry of its command: completes it
    logic [63:0]          gaddr;      // global address of the first in-bounds byte (row byte head)
    logic [31:0]          smem_addr;  // logical (unswizzled) shared address of row byte 0
    logic [RowBytesW-1:0] row_bytes;  // L
    logic [RowBytesW-1:0] head;       // in-bounds bytes [head, dend); head == dend: no read
    logic [RowBytesW-1:0] dend;
    logic                 fill_nan;
    logic                 tf32;
    logic [2:0]           swz;
    logic [1:0]           pk;         // Pk*: how the row's global beats are unpacked
    cpl_info_t            cpl;        // valid with last
  } row_t;
  localparam int unsigned RowWidth = 1 + 1 + 64 + 32 + 3 * RowBytesW + 1 + 1 + 3 + 2 +
                                     CplInfoWidth;

  // ---- Compact row entry of the engine's row FIFO (row fork -> row aligner) ----
  // Positions x count bytes of a row's shared-memory window from the DataBytes-aligned beat
  // that holds row byte 0: x = row byte + s, s = smem_addr mod DataBytes (a multiple of 16).
  // Output beat k of the row covers x in [k * DataBytes, (k + 1) * DataBytes). The fields
  // depending on DataBytes are computed by the fork (tma_engine) for the engine's DataBytes.
  // cta_mask is the last field (the engine stores only its NumCtas low bits).
  typedef struct packed {
    logic        has_data;   // 1: the row writes shared memory; 0: completion-only item
    logic        last;       // last entry of its command
    logic        has_read;   // in-bounds bytes exist (dend > head): global beats follow
    logic [27:0] beat;       // smem_addr[31:4] (the beat address is its DataBytes-aligned part)
    logic [7:0]  xh16;       // (head + s) / 16: first in-bounds position in 16-byte units
    logic [11:0] xd1;        // dend + s - 1: last in-bounds position
    logic [11:0] xl1;        // row_bytes + s - 1: last position of the row
    logic [2:0]  s16;        // s / 16
    logic [2:0]  rot16;      // realignment rotation: (gaddr - head - s) mod DataBytes, / 16
    logic        lo_ok;      // the first in-bounds beat takes lanes from its lower global beat
    logic        hi_ok;      // the last in-bounds beat takes lanes from its upper global beat
    logic        h_at0;      // beat 0 holds the first in-bounds position (xh16 / (DB/16) == 0)
    logic        d_at0;      // beat 0 holds the last in-bounds position (xd1 / DB == 0)
    logic        l_at0;      // beat 0 is the row's last beat (xl1 / DB == 0)
    logic        fill_nan;
    logic        tf32;
    logic [2:0]  swz;
    logic [15:0] cta_mask;   // destinations of the row's shared-memory writes
  } al_row_t;
  localparam int unsigned AlRowWidth = 1 + 1 + 1 + 28 + 8 + 12 + 12 + 3 + 3 + 1 + 1 + 3 + 1 + 1
                                       + 3 + 16;

  // ---- Read request of one row (splitter input) and one AXI4 burst (splitter output) ----
  typedef struct packed {
    logic [63:0]         addr;    // DataBytes-aligned
    logic [BeatCntW-1:0] nbeats;  // >= 1
  } rd_req_t;
  localparam int unsigned RdReqWidth = 64 + BeatCntW;

  typedef struct packed {
    logic [63:0] addr;
    logic [7:0]  len;   // beats - 1
  } ar_t;
  localparam int unsigned ArWidth = 64 + 8;

  // ---- Data path streams ----
  // Payload fields whose width depends on DataBytes (beat data, byte strobes) travel as
  // vectors beside their stream's struct, named <stream>_data / <stream>_strb: Yosys 0.23 has
  // no type parameters, and a struct sized for the widest bus would carry dead bits through
  // every simulation cycle. docs/interfaces.md lists each stream.

  // AXI4 read channels (AR, R) of the engine's manager port as a request / response pair.
  // R data is the vector beside the response (axi_r_data, DataBytes x 8 bits).
  typedef struct packed {
    logic        ar_valid;
    logic [3:0]  ar_id;     // AxiIdData or AxiIdDesc
    logic [63:0] ar_addr;
    logic [7:0]  ar_len;    // beats - 1
    logic [2:0]  ar_size;   // log2(DataBytes)
    logic [1:0]  ar_burst;  // AxiBurstIncr
    logic        r_ready;
  } axi_rd_req_t;
  localparam int unsigned AxiRdReqWidth = 1 + 4 + 64 + 8 + 3 + 2 + 1;

  typedef struct packed {
    logic        ar_ready;
    logic        r_valid;
    logic [3:0]  r_id;
    logic [1:0]  r_resp;    // AxiRespOkay .. AxiRespDecErr
    logic        r_last;
  } axi_rd_rsp_t;
  localparam int unsigned AxiRdRspWidth = 1 + 1 + 4 + 2 + 1;

  localparam logic [1:0] AxiBurstIncr  = 2'b01;
  localparam logic [1:0] AxiRespOkay   = 2'b00;
  localparam logic [1:0] AxiRespSlvErr = 2'b10;
  localparam logic [1:0] AxiRespDecErr = 2'b11;

  // Sub-byte unpack item of one read row (row fork -> tma_unpack), in the order of the reads.
  typedef struct packed {
    logic [1:0]          pk;        // Pk* (row_mode_i)
    logic [6:0]          goff;      // gaddr mod DataBytes (the low log2(DataBytes) bits used)
    logic [BeatCntW-1:0] in_beats;  // global beats of the row's read
    logic [3:0]          units;     // 16-byte units of the row's shared-memory span
  } up_row_t;
  localparam int unsigned UpRowWidth = 2 + 7 + BeatCntW + 4;

  // Logical (unswizzled) shared-memory beat (tma_row_aligner -> tma_smem_wr), beside its
  // data and strobe vectors; completion-only items have wr = 0.
  typedef struct packed {
    logic        wr;        // 1: write the beat; 0: no write (completion-only item)
    logic        last;      // last item of a command: completes it
    logic        err;       // with last: a read of the command failed
    logic [2:0]  swz;       // swizzle function (Swz*)
    logic [3:0]  lane;      // the beat's 8-byte granule permutation: swz_lanes(swz, addr[9:7])
    logic [31:0] addr;      // logical beat address, DataBytes aligned
    logic [15:0] cta_mask;  // destination CTAs
  } smem_beat_t;
  localparam int unsigned SmemBeatWidth = 1 + 1 + 1 + 3 + 4 + 32 + 16;

  // Shared-memory write (tma_smem_wr -> engine port), beside its data and strobe vectors.
  typedef struct packed {
    logic [31:0] addr;      // swizzled beat address, DataBytes aligned
    logic [15:0] cta_mask;  // destination CTAs (multicast: several)
  } smem_wr_t;
  localparam int unsigned SmemWrWidth = 32 + 16;

  // ---- Swizzle mask ----
  // The shared-address bits [6:3] a swizzle mode XORs, as a function of the 128-byte line bits
  // [9:7] of the absolute address (silicon D6; cmodel SwizzleAddress). Used by tma_swizzle and
  // by the row aligner, which computes a beat's granule permutation a stage ahead.
  function automatic logic [6:0] swz_xmask(input logic [2:0] mode, input logic [2:0] line);
    swz_xmask = '0;
    unique case (mode)
      Swz32B, Swz96B: swz_xmask[4]   = line[0];
      Swz64B:         swz_xmask[5:4] = line[1:0];
`ifdef TMA_BROKEN_DUT
      // Deliberate bug for the bench's self-check: bit 6 also takes line bit 1 (still lint
      // clean: every line bit stays in use).
      Swz128B:        swz_xmask[6:4] = {line[2] ^ line[1], line[1:0]};
`else
      Swz128B:        swz_xmask[6:4] = line;
`endif
      Swz128BA32:     swz_xmask[6:5] = line[1:0];
      Swz128BA32F8: begin
        swz_xmask[6:5] = line[1:0];
        swz_xmask[3]   = line[0];
      end
      Swz128BA64:     swz_xmask[6]   = line[0];
      default:        swz_xmask = '0;
    endcase
  endfunction

  // The mask's bits below a beat of data_bytes bytes: the 8-byte granule permutation inside it
  // (the bits at or above log2(data_bytes) move the beat instead).
  function automatic logic [6:3] swz_lanes(input logic [2:0] mode, input logic [2:0] line,
                                           input int unsigned data_bytes);
    swz_lanes = 4'(swz_xmask(mode, line) >> 3) & 4'((data_bytes - 1) >> 3);
  endfunction

endpackage
