# mk/fuzz.mk — hardening: libFuzzer targets, corpus replay, fault injection,
# valgrind.  See docs/HARDENING.md.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="stream opts"]
#       builds every tests/fuzz/fuzz_<target>.c with clang-14 and
#       -fsanitize=fuzzer,address,undefined (the FUZZ=1 variant, objects in
#       build/fuzz) and runs the targets one after another, each for
#       FUZZ_SECONDS on one core, starting from its committed corpus
#       tests/fuzz/<target>/.  New inputs go to build/fuzz/corpus/<target>/,
#       crashes to build/fuzz/artifacts/, logs to build/fuzz/logs/; one
#       summary line per target (executions, coverage) is printed and
#       appended to build/fuzz/summary.txt.  Fails if any target fails.
#   make fuzz-smoke
#       the same for FUZZ_SMOKE_SECONDS (default 20) per target: what CI runs.
#   make fuzz-replay
#       replays every committed corpus (seeds and regression inputs) through
#       the targets built with the normal compiler and replay.c instead of
#       libFuzzer.  Part of `make check`, so `make check SAN=1` replays them
#       under ASan+UBSan.
#   make fuzz-seeds
#       regenerates the tiny random-model seeds (tests/fuzz/mkseeds.c).
#   make valgrind
#       the unit suites and the corpus replays under
#       valgrind --error-exitcode=1 (definite leaks are errors).

FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_ALL           := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS       ?= $(FUZZ_ALL)

# Fault injection (core/include/pii_fault.h): in the rig variants (fault,
# san, fuzz; mk/rig.mk) binaries linked with these flags send their own and
# libpiiredact.a's allocation calls through core/fault_alloc.c.  The command
# and the tests/unit/test_fault_* suites are; the cost is one relaxed atomic
# load per allocation.  Release binaries are never linked with them.
FAULT_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,--wrap=posix_memalign,--wrap=aligned_alloc
ifneq ($(FAULT_RIG),)
$(B)/pii-redact: LDLIBS_ALL += $(FAULT_WRAP)
$(B)/tests/test_fault_%: LDLIBS_ALL += $(FAULT_WRAP)
endif

# The CLI sources a target may link (option parsing, output, pipeline):
# everything in src/ but main() and the subcommand table, as an archive so
# a target pulls in only what it uses.
FUZZ_CLI_OBJ := $(patsubst %.c,$(B)/%.o,$(filter-out src/main.c src/commands.c,$(CLI_SRC)))
FUZZ_OBJ     := $(patsubst %,$(B)/tests/fuzz/fuzz_%.o,$(FUZZ_ALL)) $(B)/tests/fuzz/replay.o
FUZZ_REPLAY  := $(patsubst %,$(B)/fuzz/replay_%,$(FUZZ_ALL))

$(B)/fuzz/libcli.a: $(FUZZ_CLI_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

# $(LIB) is set after the mk/ fragments are read: expand it late.
.SECONDEXPANSION:

$(B)/fuzz/replay_%: $(B)/tests/fuzz/fuzz_%.o $(B)/tests/fuzz/replay.o $(B)/fuzz/libcli.a $$(TOOLS_LIB) $$(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $(filter %.o %.a,$^) $(LDLIBS_ALL)

.PHONY: fuzz fuzz-build fuzz-smoke fuzz-replay fuzz-seeds valgrind

# Regenerates the tiny-model seeds (tests/fuzz/mkseeds.c) in place.
$(B)/fuzz/mkseeds: $(B)/tests/fuzz/mkseeds.o $$(TOOLS_LIB) $$(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $(filter %.o %.a,$^) $(LDLIBS_ALL)
fuzz-seeds: $(B)/fuzz/mkseeds
	$(B)/fuzz/mkseeds tests/fuzz

fuzz-replay: $(FUZZ_REPLAY)
	@for t in $(FUZZ_ALL); do $(B)/fuzz/replay_$$t tests/fuzz/$$t || exit 1; done

CHECK_DEPS += fuzz-replay
.SECONDARY: $(FUZZ_OBJ) $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_ALL))

ifeq ($(VARIANT),fuzz)
# Warnings are gcc -Werror's job; a new clang warning must not stop fuzzing.
CFLAGS_ALL += -Wno-error
$(B)/fuzz/fuzz_%: $(B)/tests/fuzz/fuzz_%.o $(B)/fuzz/libcli.a $$(TOOLS_LIB) $$(LIB)
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer -o $@ $(filter %.o %.a,$^) $(LDLIBS_ALL)

fuzz-build: $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_TARGETS))
else
fuzz:
	@tools/setup-deps.sh clang-14 libclang-rt-14-dev
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-build FUZZ_TARGETS="$(FUZZ_TARGETS)"
	@tests/fuzz/run.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) FUZZ_TARGETS="$(FUZZ_TARGETS)"
endif

# Valgrind runs the release build (-O2 -g): the unit suites, the corpus
# replays and the command on the samples.
# VALGRIND_SKIP: suites left out by default — the model parity runs (18 min
# under valgrind) and test_ner_model (about an hour: valgrind emulates the
# AVX2 kernels ~1,000x slower than they run) are pure arithmetic that ASan
# (make check SAN=1) already covers; `make valgrind VALGRIND_SKIP=` runs all.
VALGRIND_SKIP ?= test_model_parity test_ner_model
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
            --track-origins=yes
valgrind:
	@tools/setup-deps.sh valgrind
	@$(MAKE) --no-print-directory $(TEST_BIN) $(FUZZ_REPLAY) $(BIN)
	@fail=0; for t in $(filter-out $(addprefix %/,$(VALGRIND_SKIP)),$(TEST_BIN)); do \
	    t0=$$(date +%s); \
	    if $(VALGRIND) $$t >$(B)/valgrind.log 2>&1; then echo "ok   $$t ($$(( $$(date +%s) - t0 )) s)"; \
	    else fail=1; echo "FAIL: valgrind $$t"; cat $(B)/valgrind.log; fi; \
	done; \
	for t in $(FUZZ_ALL); do \
	    $(VALGRIND) $(B)/fuzz/replay_$$t -q tests/fuzz/$$t || { fail=1; echo "FAIL: valgrind replay $$t"; }; \
	done; \
	for f in samples/*.txt; do \
	    $(VALGRIND) ./$(BIN) --rules-only --format json $$f >/dev/null || { fail=1; echo "FAIL: valgrind $(BIN) $$f"; }; \
	done; \
	[ $$fail -eq 0 ] && echo "valgrind: $(words $(filter-out $(addprefix %/,$(VALGRIND_SKIP)),$(TEST_BIN))) suites, $(words $(FUZZ_ALL)) corpora, samples clean"

-include $(FUZZ_OBJ:.o=.d) $(FUZZ_CLI_OBJ:.o=.d)
