# The assertion-macro equivalence module (paths relative to rtl/).
../tests/rtl/assert_macros/tma_assert_eqv.sv
