# SPDX-License-Identifier: Apache-2.0
#
# ooc_timing.tcl: out-of-context synthesis, place and route of opentma_axi with a clock
# constraint, and its timing summary (user-run: CI has no Vivado; docs/soc.md, "Vivado").
#   vivado -mode batch -source synth/vivado/ooc_timing.tcl \
#     -tclargs <out_dir> [<part> [<MHz> [<DATA_BYTES> [<NUM_CTAS> [<SMEM_BYTES>]]]]]
# Defaults: xczu9eg-ffvb1156-2-e, 250 MHz, DATA_BYTES 16, 4 CTAs x 16 KiB. Writes
# <out_dir>/timing.rpt and utilization.rpt and prints WNS; exit 1 when WNS < 0.

set repo [file normalize [file join [file dirname [info script]] .. ..]]
set out  [file normalize [lindex $argv 0]]
set part [expr {[llength $argv] > 1 ? [lindex $argv 1] : "xczu9eg-ffvb1156-2-e"}]
set mhz  [expr {[llength $argv] > 2 ? [lindex $argv 2] : 250}]
set db   [expr {[llength $argv] > 3 ? [lindex $argv 3] : 16}]
set ctas [expr {[llength $argv] > 4 ? [lindex $argv 4] : 4}]
set smem [expr {[llength $argv] > 5 ? [lindex $argv 5] : 16384}]
file mkdir $out

create_project -in_memory -part $part
set fl [open [file join $repo rtl tma.f]]
foreach line [split [read $fl] "\n"] {
  set line [string trim $line]
  if {$line eq "" || [string index $line 0] eq "#"} { continue }
  read_verilog -sv [file join $repo rtl $line]
}
close $fl
read_verilog [file join $repo rtl soc opentma_axi.v]

synth_design -top opentma_axi -part $part -mode out_of_context \
  -include_dirs [file join $repo rtl include] \
  -generic DATA_BYTES=$db -generic NUM_CTAS=$ctas -generic SMEM_BYTES=$smem
create_clock -name aclk -period [expr {1000.0 / $mhz}] [get_ports aclk]
# Out of context: the ports are registered by the surrounding design.
set_input_delay  -clock aclk 0 [get_ports -filter {DIRECTION == IN && NAME != aclk}]
set_output_delay -clock aclk 0 [get_ports -filter {DIRECTION == OUT}]
opt_design
place_design
route_design
report_timing_summary -file [file join $out timing.rpt]
report_utilization -file [file join $out utilization.rpt]
set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
puts "ooc_timing: $part at $mhz MHz: WNS $wns ns"
if {$wns < 0} { exit 1 }
