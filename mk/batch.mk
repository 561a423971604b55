# Batch mode (src/batch*.c, docs/BATCH.md).
#   make bench-batch    times -j 1 against -j 2 redacting 2,000 small files
#                       (figures go to docs/PERFORMANCE.md, section Batch)
.PHONY: bench-batch
bench-batch: all
	tools/batch/bench.sh ./$(BIN) 2000 1 2
