# mk/datagen.mk — synthetic training data (tools/datagen, Node.js >= 20).
#   make datagen [DATAGEN_N=200000] [DATAGEN_SEED=1] [DATAGEN_OUT=build/data/train.jsonl]
# Installs the pinned npm dependencies (npm ci, package-lock.json) on first use.
# This fragment is included before the Makefile's first rule: keep `all` the default.
.DEFAULT_GOAL := all
DATAGEN_N    ?= 200000
DATAGEN_SEED ?= 1
DATAGEN_OUT  ?= build/data/train.jsonl

.PHONY: datagen datagen-check
tools/datagen/node_modules/.package-lock.json: tools/datagen/package.json tools/datagen/package-lock.json
	cd tools/datagen && npm ci --no-audit --no-fund

datagen: tools/datagen/node_modules/.package-lock.json
	@mkdir -p $(dir $(DATAGEN_OUT))
	node tools/datagen/gen.mjs -n $(DATAGEN_N) --seed $(DATAGEN_SEED) -o $(DATAGEN_OUT) --stats

datagen-check: datagen
	node tools/datagen/scripts/check.mjs $(DATAGEN_OUT)
