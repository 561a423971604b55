# mk/rig.mk — the release build without the test rig (docs/HARDENING.md,
# "Fault injection").
#
# The rig — fault injection (core/include/pii_fault.h, core/fault.c,
# core/fault_alloc.c and the -Wl,--wrap=malloc,... link flags) and the
# command's $PII_REDACT_FAULT / $PII_REDACT_PAUSE hooks (src/testhook.c) —
# is compiled only into the fault, san and fuzz variants (FAULT_RIG, set
# in the Makefile).  In release and debug builds the hooks are macros that
# do nothing.  So `make check` in a release tree
#   - builds the fault variant (build/fault, -O1) in a sub-make and runs the
#     suites that inject faults (RIG_TESTS) there (rig-unit);
#   - runs the CLI tests that use the hooks on build/fault/pii-redact
#     (tests/cli/run.sh picks them by the variables they set), the others
#     on the release binary;
#   - checks that the release library and binary hold none of the rig
#     and that libpiiredact.a defines only pii_-prefixed globals (rig-nm,
#     tests/rig/nm.sh).
# `make check SAN=1` has the rig in its own build: everything runs there.
ifeq ($(FAULT_RIG),)
RIG_BIN      := $(abspath build/fault/pii-redact)
RIG_TEST_BIN := $(patsubst tests/unit/%.c,build/fault/tests/%,$(RIG_TESTS))
RIG_DEPS     := rig-build
RIG_CHECK    := rig-unit rig-nm
.PHONY: rig-build rig-unit rig-nm
rig-build:
	@$(MAKE) --no-print-directory FAULT=1 build/fault/pii-redact $(RIG_TEST_BIN)
rig-unit: rig-build
	@tests/run-unit.sh $(RIG_TEST_BIN)
rig-nm: $$(LIB) $$(BIN)
	@tests/rig/nm.sh $(LIB) $(BIN)
else
RIG_BIN       = $(abspath $(BIN))
RIG_DEPS     :=
RIG_CHECK    :=
endif
