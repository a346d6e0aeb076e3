# SPDX-License-Identifier: Apache-2.0
#
# package_ip.tcl: packages rtl/soc/opentma_axi.v and the OpenTMA RTL as a Vivado IP (user-run:
# CI has no Vivado; docs/soc.md, "Vivado"). The packager infers the interfaces from the port
# names: s_axil (AXI4-Lite subordinate), m_axi (AXI4 manager), aclk, aresetn, irq.
#   vivado -mode batch -source synth/vivado/package_ip.tcl -tclargs <out_dir> [<part>]
# Writes <out_dir>/opentma_axi (component.xml and the sources) and checks that the five
# interfaces were inferred (exit 1 otherwise).

set repo [file normalize [file join [file dirname [info script]] .. ..]]
set out  [file normalize [lindex $argv 0]]
set part [expr {[llength $argv] > 1 ? [lindex $argv 1] : "xczu9eg-ffvb1156-2-e"}]

create_project -in_memory -part $part
# The RTL file list, in order (rtl/tma.f), then the wrapper.
set fl [open [file join $repo rtl tma.f]]
foreach line [split [read $fl] "\n"] {
  set line [string trim $line]
  if {$line eq "" || [string index $line 0] eq "#"} { continue }
  read_verilog -sv [file join $repo rtl $line]
}
close $fl
read_verilog [file join $repo rtl soc opentma_axi.v]
set_property include_dirs [list [file join $repo rtl include]] [current_fileset]
set_property top opentma_axi [current_fileset]
update_compile_order -fileset sources_1

ipx::package_project -root_dir [file join $out opentma_axi] -vendor opentma.org -library ip \
  -taxonomy /UserIP -import_files -set_current true
set core [ipx::current_core]
set_property name opentma_axi $core
set_property display_name "OpenTMA tensor memory accelerator" $core
ipx::infer_bus_interfaces xilinx.com:interface:aximm_rtl:1.0 $core
ipx::associate_bus_interfaces -busif s_axil -clock aclk $core
ipx::associate_bus_interfaces -busif m_axi -clock aclk $core
set missing {}
foreach busif {s_axil m_axi aclk aresetn irq} {
  if {[ipx::get_bus_interfaces $busif -of_objects $core] eq ""} { lappend missing $busif }
}
ipx::create_xgui_files $core
ipx::update_checksums $core
ipx::save_core $core
if {[llength $missing] > 0} {
  puts "package_ip: interfaces not inferred: $missing"
  exit 1
}
puts "package_ip: OK ([file join $out opentma_axi])"
