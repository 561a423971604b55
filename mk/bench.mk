# mk/bench.mk — `make bench`: issue 8's measurements (never part of check).
#
# Generates the full-size random model (build/bench/full-bf16, ~2.8 GB,
# `pii-redact mkmodel`), its int8 / int4 copies (`pii-redact quantize`) and
# the same model as a LocalAI-layout GGUF with Q8_0 experts (`mkmodel --gguf
# q8_0`, repacked to int8 at load),
# runs tools/bench/run.sh (bench on the default model when one is built in
# and on the three full-size models, a length/threads sweep, fidelity
# against bf16) and regenerates docs/PERFORMANCE.md's "## Bench" and
# "## Quantization" tables and docs/bench-tokens.svg.
# Knobs: BENCH_DIR, RUNS, SECS, FID_LIMIT (see tools/bench/run.sh).

BENCH_DIR ?= build/bench
BENCH_BF16 := $(BENCH_DIR)/full-bf16/model.safetensors
BENCH_INT8 := $(BENCH_DIR)/full-int8/model.safetensors
BENCH_INT4 := $(BENCH_DIR)/full-int4/model.safetensors
BENCH_GGUF := $(BENCH_DIR)/full-q8_0.gguf

$(BENCH_BF16): | $(BIN)
	@mkdir -p $(BENCH_DIR)
	./$(BIN) mkmodel -o $(BENCH_DIR)/full-bf16

$(BENCH_INT8): $(BENCH_BF16) | $(BIN)
	./$(BIN) quantize -m $(BENCH_DIR)/full-bf16 -o $(BENCH_DIR)/full-int8 --type int8

$(BENCH_INT4): $(BENCH_BF16) | $(BIN)
	./$(BIN) quantize -m $(BENCH_DIR)/full-bf16 -o $(BENCH_DIR)/full-int4 --type int4

$(BENCH_GGUF): | $(BIN)
	@mkdir -p $(BENCH_DIR)
	./$(BIN) mkmodel -o $@ --gguf q8_0

.PHONY: bench bench-models bench-report
bench-models: $(BENCH_BF16) $(BENCH_INT8) $(BENCH_INT4) $(BENCH_GGUF)

bench: $(BIN) bench-models
	PII_REDACT=./$(BIN) BENCH_DIR=$(BENCH_DIR) tools/bench/run.sh

# tables and plot again from the last results, without measuring
bench-report:
	/usr/bin/python3 tools/bench/report.py $(BENCH_DIR) docs/PERFORMANCE.md docs
