# Batch mode (src/batch*.c, docs/BATCH.md).
#   make bench-batch    times -j 1 against -j 2 redacting 2,000 small files
#                       on a tmpfs (figures: docs/PERFORMANCE.md, Batch)
BENCH_BATCH_TMP ?= $(if $(wildcard /dev/shm),/dev/shm,/tmp)
.PHONY: bench-batch
bench-batch: all
	TMPDIR=$(BENCH_BATCH_TMP) tools/batch/bench.sh ./$(BIN) 2000 1 2
