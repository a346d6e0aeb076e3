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

  // ---- Frontend numbering (to move into the generated numbering) ----
  // LoadMode (the values after ModeTile / ModeIm2col; cmodel types.h LoadMode)
  localparam logic [2:0] ModeIm2colW      = 3'd2;
  localparam logic [2:0] ModeIm2colW128   = 3'd3;
  localparam logic [2:0] ModeTileGather4  = 3'd4;
  localparam logic [2:0] ModeTileScatter4 = 3'd5;
  localparam logic [2:0] ModeIm2colNoOffs = 3'd6;
  // RedOp
  localparam logic [2:0] RedAdd = 3'd0;
  localparam logic [2:0] RedMin = 3'd1;
  localparam logic [2:0] RedMax = 3'd2;
  localparam logic [2:0] RedInc = 3'd3;
  localparam logic [2:0] RedDec = 3'd4;
  localparam logic [2:0] RedAnd = 3'd5;
  localparam logic [2:0] RedOr  = 3'd6;
  localparam logic [2:0] RedXor = 3'd7;
  // Element format of a descriptor: the hardware code in bits 71..74 (docs/descriptor.md sec. 2;
  // tf32 is DtF32 / DtF32Ftz with the tf32 bit). Codes above DtB6x16P32 name nothing.
  localparam logic [3:0] DtU8       = 4'd0;
  localparam logic [3:0] DtU16      = 4'd1;
  localparam logic [3:0] DtU32      = 4'd2;
  localparam logic [3:0] DtS32      = 4'd3;
  localparam logic [3:0] DtU64      = 4'd4;
  localparam logic [3:0] DtS64      = 4'd5;
  localparam logic [3:0] DtF16      = 4'd6;
  localparam logic [3:0] DtF32      = 4'd7;
  localparam logic [3:0] DtF32Ftz   = 4'd8;
  localparam logic [3:0] DtF64      = 4'd9;
  localparam logic [3:0] DtBf16     = 4'd10;
  localparam logic [3:0] DtB4x16    = 4'd11;
  localparam logic [3:0] DtB4x16P64 = 4'd12;
  localparam logic [3:0] DtB6x16P32 = 4'd13;
  // Interleave (bits 75..76; 3 names nothing)
  localparam logic [1:0] IlNone = 2'd0;
  localparam logic [1:0] Il16B  = 2'd1;
  localparam logic [1:0] Il32B  = 2'd2;
  // Swizzle span (bits 77..78) and atomicity (bits 83..84) of a descriptor
  localparam logic [1:0] SpanNone = 2'd0;
  localparam logic [1:0] Span32B  = 2'd1;
  localparam logic [1:0] Span64B  = 2'd2;
  localparam logic [1:0] Span128B = 2'd3;
  localparam logic [1:0] Atom16B  = 2'd0;
  // OOB fill (bit 79)
  localparam logic FillZero = 1'b0;
  localparam logic FillNan  = 1'b1;
  // Map mode (bit 64, with the im2col-wide bit 86)
  localparam logic [1:0] MapTiled      = 2'd0;
  localparam logic [1:0] MapIm2col     = 2'd1;
  localparam logic [1:0] MapIm2colWide = 2'd2;
  // Limits: the largest box in shared-memory bytes (encoder rules 14 / 20; the check of a
  // b4x16 map counts nibbles, twice as many) and the smallest rank of an im2col map.
  localparam int unsigned MaxBoxBytes   = 233472;
  localparam int unsigned MinIm2colRank = 3;
  // Swizzle repeat (the derived field at bit 576) of each span (docs/descriptor.md sec. 3).
  localparam logic [31:0] SwzRepeatNone = 32'd16;
  localparam logic [31:0] SwzRepeat32B  = 32'd256;
  localparam logic [31:0] SwzRepeat64B  = 32'd512;
  localparam logic [31:0] SwzRepeat128B = 32'd1024;
  localparam logic [31:0] SwzRepeat96B  = 32'd256;
  // Descriptor bit positions: absolute bits of the 128-byte map (a little-endian 1024-bit
  // integer, docs/descriptor.md sec. 1; cmodel descriptor.h desc_bits). Per-index fields step
  // by their width (stride i at DescStrideLoLsb + 32 i, ...).
  localparam int unsigned DescBytes         = 128;
  localparam int unsigned DescAddrLsb       = 0;
  localparam int unsigned DescAddrW         = 64;
  localparam int unsigned DescModeLsb       = 64;
  localparam int unsigned DescVersionLsb    = 65;
  localparam int unsigned DescVersionW      = 3;
  localparam int unsigned DescRankLsb       = 68;
  localparam int unsigned DescRankW         = 3;
  localparam int unsigned DescTypeLsb       = 71;
  localparam int unsigned DescTypeW         = 4;
  localparam int unsigned DescIlLsb         = 75;
  localparam int unsigned DescIlW           = 2;
  localparam int unsigned DescSpanLsb       = 77;
  localparam int unsigned DescSpanW         = 2;
  localparam int unsigned DescFillLsb       = 79;
  localparam int unsigned DescTf32Lsb       = 80;
  localparam int unsigned DescL2Lsb         = 81;
  localparam int unsigned DescL2W           = 2;
  localparam int unsigned DescAtomLsb       = 83;
  localparam int unsigned DescAtomW         = 2;
  localparam int unsigned DescOobModeLsb    = 85;
  localparam int unsigned DescWideLsb       = 86;
  localparam int unsigned DescWideModeLsb   = 87;
  localparam int unsigned DescSwz96Lsb      = 88;
  localparam int unsigned DescStrideLoLsb   = 96;
  localparam int unsigned DescStrideLoW     = 32;
  localparam int unsigned DescStrideHiLsb   = 224;
  localparam int unsigned DescStrideHiW     = 4;
  localparam int unsigned DescDimLsb        = 256;
  localparam int unsigned DescDimW          = 32;
  localparam int unsigned DescEsLsb         = 416;
  localparam int unsigned DescEsW           = 3;
  localparam int unsigned DescBox0Lsb       = 440;
  localparam int unsigned DescBoxW          = 8;
  localparam int unsigned DescBoxLsb        = 448;   // box[1..4] (tiled), im2col corners
  localparam int unsigned DescBoxHiW        = 32;    // ... all four boxes (or corners)
  localparam int unsigned DescLowerLsb      = 448;
  localparam int unsigned DescUpperLsb      = 464;
  localparam int unsigned DescPpcLsb        = 480;
  localparam int unsigned DescPpcW          = 10;
  localparam int unsigned DescBoxBytesLsb   = 512;
  localparam int unsigned DescBoxBytesW     = 32;
  localparam int unsigned DescSwzRepeatLsb  = 576;
  localparam int unsigned DescSwzRepeatW    = 32;
  localparam int unsigned DescUsedBits      = DescSwzRepeatLsb + DescSwzRepeatW;  // above: reserved

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

  // ---- Frontend streams ----
  // Walker dim kinds of a map (tma_desc_check, stored with the map): tile: walker dim d is
  // tensor dim d; interleave: walker dim 1 walks dim 0 in chunks; im2col: spatial dims (restart
  // at their corner), then N (never wraps).
  localparam logic [2:0] WalkNone    = 3'd0;
  localparam logic [2:0] WalkTile    = 3'd1;
  localparam logic [2:0] WalkChunk   = 3'd2;
  localparam logic [2:0] WalkSpatial = 3'd3;
  localparam logic [2:0] WalkN       = 3'd4;

  // The fields of a fetched map the engine uses (tma_desc_decode -> tma_desc_check and the map),
  // docs/descriptor.md.
  typedef struct packed {
    logic [63:0]      addr;
    logic             im2col;
    logic [2:0]       rank_m1;
    logic [3:0]       dtype;      // Dt*
    logic [1:0]       il;         // Il*
    logic [2:0]       swz;        // internal swizzle code (Swz*): span, atomicity, 96B
    logic             fill_nan;
    logic             tf32;
    logic [3:0][35:0] stride;     // globalStrides[i] >> 4
    logic [4:0][31:0] dim_m1;
    logic [4:0][2:0]  es_m1;
    logic [7:0]       box0_m1;    // im2col: channels per pixel - 1
    logic [31:0]      box_hi;     // bits 448..479: boxes 1..4 - 1 (tiled) or the corners (im2col)
    logic [9:0]       ppc_m1;
  } desc_fields_t;
  localparam int unsigned DescFieldsWidth = 64 + 1 + 3 + 4 + 2 + 3 + 1 + 1 + 144 + 160 + 15 + 8 +
                                            32 + 10;

  // The fields of a fetched map only its checks read (tma_desc_decode -> tma_desc_check).
  typedef struct packed {
    logic [1:0]  span;         // Span*
    logic [1:0]  atom;
    logic        wide;         // im2col-wide bit (not supported)
    logic        swz96;
    logic        rsv;          // a reserved bit is set
    logic [31:0] box_bytes;    // the derived field at bit 512
    logic [31:0] swz_repeat;   // the derived field at bit 576
  } desc_chk_fields_t;
  localparam int unsigned DescChkFieldsWidth = 2 + 2 + 1 + 1 + 1 + 32 + 32;

  // What tma_desc_check derives from a map, stored with it: decoded flags (used from Chk cycle
  // 1 on) and the walker view (walker dims 1..4 at entry d - 1; zero / es 1 for a dim the map
  // does not walk).
  typedef struct packed {
    logic             is_il;         // interleave
    logic             is_il32;       // 32B interleave
    logic             is_b4x16;
    logic             is_b4x16p64;
    logic             is_b6x16p32;
    logic             is_rank3;
    logic             is_rank4;
    logic [1:0]       elem_log2;     // log2 E (sub-byte types: 0)
    logic [7:0]       c0_scale;      // one-hot, c0 to global bytes: x E (1, 2, 4, 8), x 16,
                                     // x 32 (interleave), / 2, x 3/4 (none: zero)
    logic             is_rank5;
    logic [4:0]       fix_dim;       // one-hot: rank - 2 (the dim an interleaved map does not walk)
    logic [3:0][2:0]  walk_kind;     // Walk*
    logic [3:0][2:0]  walk_tdim;     // the tensor dim walker dim d walks
    logic [3:0][38:0] walk_step;     // es x stride (units of 16 bytes)
    logic [3:0][31:0] walk_dim_m1;
    logic [3:0][2:0]  walk_es_m1;
    logic [3:0][7:0]  walk_box_m1;
    logic [3:0][35:0] walk_stride;   // units of 16 bytes (the chunk for dim 0)
    logic [3:0][2:0]  walk_stride_nz;  // the stride's 17-bit pieces that are not zero
    logic [35:0]      fix_stride;    // interleave: stride of the fixed dim rank - 2 ...
    logic [2:0]       fix_stride_nz; // ... and its pieces that are not zero
  } map_derived_t;
  localparam int unsigned MapDerivedWidth = 7 + 2 + 8 + 1 + 5 + 12 + 12 + 156 + 128 + 12 + 32 +
                                            144 + 12 + 36 + 3;

  // A decoded map: one descriptor cache entry (tma_desc_check -> tma_desc_cache -> job setup).
  typedef struct packed {
    logic           bad;       // breaks a descriptor rule (decode, encoder, size, derived)
    desc_fields_t   fields;
    map_derived_t   derived;
  } map_t;
  localparam int unsigned MapWidth = 1 + DescFieldsWidth + MapDerivedWidth;

  // Flags of each coordinate of a command (tma_cmd_intake, per tensor dim): c[31:16] all sign
  // bits (bit 3), c[31:17] all sign bits (bit 2: the coordinate is one signed 18-bit MAC
  // piece), its 17-bit MAC pieces that are not zero (bits 1:0; see tma_addr_mac).
  typedef struct packed { logic [MaxDims-1:0][3:0] v; } coord_flags_t;
  localparam int unsigned CoordFlagsWidth = MaxDims * 4;

  // The operands of the instruction checks' start-pixel compares (job setup -> instruction
  // check, from the cycle after the job register loads): per walker dim d, its tensor
  // coordinate, and for a spatial dim its lower corner and dim - 1 + upper corner.
  typedef struct packed {
    dim34_t             coord;
    dim34_t             lower;
    dim34_t             upper;     // dim - 1 + the upper corner
    logic [MaxDims-1:0] spatial;
  } walk_bounds_t;
  localparam int unsigned WalkBoundsWidth = 3 * MaxDims * 34 + MaxDims;

  // Address MAC (tma_addr_mac): slots 0..3 astart of walker dims 1..4 (position x stride),
  // 4..7 alo of walker dims 1..4 (lower corner x stride), 8 gaddr (+ the interleave fixed
  // dim's coordinate x stride). A slot's operand a (34-bit signed) times the stride s (36 bits)
  // is split in 17 x 18-bit partial products: bit 3 ai + sj of its piece mask is a piece ai
  // (0: a[16:0], 1: a[33:17] signed) times s piece sj (s[16:0], s[33:17], s[35:34]); a small
  // operand (a in [-2^17, 2^17)) is one signed piece a[17:0].
  localparam int unsigned MacSlots     = 9;
  localparam int unsigned MacSlotW     = 4;
  localparam logic [3:0]  MacSlotAstart = 4'd0;   // + walker dim - 1
  localparam logic [3:0]  MacSlotAlo    = 4'd4;   // + walker dim - 1
  localparam logic [3:0]  MacSlotGaddr  = 4'd8;

  // The slot list of one job (job setup -> MAC).
  typedef struct packed {
    logic [MacSlots-1:0][5:0] pieces;      // partial products of each slot (none: skipped)
    logic [MacSlots-1:0]      one_piece;   // the slot's operand is one signed piece
  } mac_req_t;
  localparam int unsigned MacReqWidth = MacSlots * 6 + MacSlots;

  // The operands of the slots, read from the job register while the MAC runs.
  typedef struct packed {
    dim34_t      coord;        // astart slots: position of walker dim d (entry d)
    dim34_t      lo;           // alo slots: restart position of walker dim d
    dim36_t      stride;       // stride of walker dim d (units of 16 bytes)
    logic [33:0] fix_coord;    // gaddr slot: coordinate of the interleave fixed dim ...
    logic [35:0] fix_stride;   // ... and its stride
    logic [63:0] gaddr;        // the gaddr slot starts from this sum
  } mac_opnd_t;
  localparam int unsigned MacOpndWidth = 2 * MaxDims * 34 + MaxDims * 36 + 34 + 36 + 64;

  // One finished slot (MAC -> job register): the product sum in bytes.
  typedef struct packed {
    logic [MacSlotW-1:0] slot;
    logic [63:0]         value;
  } mac_wb_t;
  localparam int unsigned MacWbWidth = MacSlotW + 64;

  // Corner k (0: W) of an im2col map, sign-extended: its lower (upper = 0) or upper corner
  // from the box_hi field, 16 / 8 / 5-bit fields for rank 3 / 4 / 5 (a corner the rank does not
  // have: zero). Read by the descriptor check and the job setup.
  function automatic logic [33:0] im2col_corner(input logic [31:0] box_hi, input logic is_rank3,
                                                input logic is_rank4, input int k,
                                                input logic upper);
    int base;
    base = upper ? 16 : 0;
    im2col_corner = '0;
    if (is_rank3) begin
      if (k == 0) im2col_corner = {{18{box_hi[base + 15]}}, box_hi[base +: 16]};
    end else if (is_rank4) begin
      if (k < 2) im2col_corner = {{26{box_hi[base + 8 * k + 7]}}, box_hi[base + 8 * k +: 8]};
    end else begin
      im2col_corner = {{29{box_hi[base + 5 * k + 4]}}, box_hi[base + 5 * k +: 5]};
    end
  endfunction

  // Span in bytes of a swizzle function (0: none), read by the descriptor check (row bytes <=
  // span) and the job setup (the shared-memory row pitch).
  function automatic logic [7:0] swz_span_bytes(input logic [2:0] swz);
    unique case (swz)
      SwzNone:                                      swz_span_bytes = 8'd0;
      Swz32B:                                       swz_span_bytes = 8'd32;
      Swz64B:                                       swz_span_bytes = 8'd64;
      Swz128B, Swz128BA32, Swz128BA32F8, Swz128BA64: swz_span_bytes = 8'd128;
      default:                                      swz_span_bytes = 8'd96;
    endcase
  endfunction

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
