# The embedded default model.  Its source is models/default/{config.json,
# model.safetensors} (F16, as `make model` writes it); the binary embeds
# its int8 form (the experts and the attention projections int8 per output
# channel: docs/PERFORMANCE.md, "Default model"), made at build time by
# `pii-redact quantize --attn` into build/default-int8--attn/ and assembled into
# ner/default_model.o with .incbin.  DEFAULT_MODEL_QUANT=none embeds the
# F16 source as it is; int4 also works; DEFAULT_MODEL_QUANT_ARGS= leaves
# the attention projections F16.
#
# The quantizer is build/release/boot/pii-redact: the release command
# linked with a default_model.o that embeds nothing.  Every variant embeds
# the same build/default-$(DEFAULT_MODEL_QUANT)$(DEFAULT_MODEL_QUANT_ARGS)/ (a sanitizer build runs a
# release sub-make for the quantizer), so every variant runs the same
# model.  It is re-made when the source model or the quantizer's sources
# change; the files are renamed into place, so two makes that race write
# the same bytes and readers never see half a file.
#
# default_model.state records what was embedded at the last build, so
# adding or removing the model directory, or changing DEFAULT_MODEL_QUANT,
# rebuilds the object.
DEFAULT_MODEL_SRC := models/default
DEFAULT_MODEL_QUANT ?= int8
DEFAULT_MODEL_QUANT_ARGS ?= --attn
DM_EMPTY :=
DEFAULT_MODEL_SRC_FILES := $(wildcard $(DEFAULT_MODEL_SRC)/config.json $(DEFAULT_MODEL_SRC)/model.safetensors)
ifeq ($(DEFAULT_MODEL_QUANT),none)
DEFAULT_MODEL_DIR := $(DEFAULT_MODEL_SRC)
else
DEFAULT_MODEL_DIR := build/default-$(DEFAULT_MODEL_QUANT)$(subst $(DM_EMPTY) $(DM_EMPTY),,$(DEFAULT_MODEL_QUANT_ARGS))
endif
DEFAULT_MODEL_FILES := $(DEFAULT_MODEL_DIR)/config.json $(DEFAULT_MODEL_DIR)/model.safetensors
DEFAULT_MODEL_STATE := $(if $(filter 2,$(words $(DEFAULT_MODEL_SRC_FILES))),embedded-$(DEFAULT_MODEL_DIR),none)
# $(B)/pic/...: the same object for the shared library.
DEFAULT_MODEL_OBJ := $(B)/ner/default_model.o $(B)/pic/ner/default_model.o
ifneq ($(DEFAULT_MODEL_STATE),none)
$(DEFAULT_MODEL_OBJ): private CFLAGS_ALL += -DPII_DEFAULT_MODEL_DIR='"$(DEFAULT_MODEL_DIR)"'
$(DEFAULT_MODEL_OBJ): $(DEFAULT_MODEL_FILES)
endif
$(DEFAULT_MODEL_OBJ): $(B)/ner/default_model.state

.PHONY: default-model-state-check
$(B)/ner/default_model.state: default-model-state-check
	@mkdir -p $(dir $@)
	@echo $(DEFAULT_MODEL_STATE) | cmp -s - $@ || echo $(DEFAULT_MODEL_STATE) > $@

BOOT_BIN := build/release/boot/pii-redact
ifneq ($(DEFAULT_MODEL_QUANT),none)
QUANT_SRC := src/cmd_quantize.c runtime/quant.c runtime/writers.c runtime/dtype.c model/model_quant.c
$(DEFAULT_MODEL_DIR)/model.safetensors: $(DEFAULT_MODEL_SRC_FILES) $(QUANT_SRC) | $(BOOT_BIN)
	@rm -rf $@.tmp && mkdir -p $(dir $@)
	$(BOOT_BIN) quantize -m $(DEFAULT_MODEL_SRC) -o $@.tmp --type $(DEFAULT_MODEL_QUANT) $(DEFAULT_MODEL_QUANT_ARGS)
	@mv -f $@.tmp/config.json $(dir $@)config.json && mv -f $@.tmp/model.safetensors $@ && rm -rf $@.tmp
$(DEFAULT_MODEL_DIR)/config.json: $(DEFAULT_MODEL_DIR)/model.safetensors
	@test -f $@ && touch $@
endif

ifeq ($(VARIANT),release)
# The quantizer: the command without an embedded model.
BOOT_LIB_OBJ = $(filter-out $(B)/ner/default_model.o,$(LIB_OBJ))
$(B)/boot/default_model.o: ner/default_model.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DPII_DEFAULT_MODEL_DIR=%,$(CFLAGS_ALL)) -c $< -o $@
.SECONDEXPANSION:
# (LIB_OBJ and CLI_OBJ are defined after mk/*.mk: expanded a second time.)
$(BOOT_BIN): $$(CLI_OBJ) $$(TOOLS_LIB) $$(BOOT_LIB_OBJ) $(B)/boot/default_model.o
	$(CC) $(CFLAGS_ALL) -o $@ $(CLI_OBJ) $(TOOLS_LIB) $(BOOT_LIB_OBJ) $(B)/boot/default_model.o $(LDLIBS_ALL)
else
$(BOOT_BIN):
	@$(MAKE) --no-print-directory SAN= FUZZ= FAULT= DEBUG= $(BOOT_BIN)
endif

# The name lexicon's word lists (ner/data/README.md), pulled into
# ner/lexicon.o with .incbin, invisible to -MMD: name them.
$(B)/ner/lexicon.o $(B)/pic/ner/lexicon.o: ner/data/first_names.txt ner/data/name_stop.txt \
    ner/data/common_words.txt ner/data/countries.txt ner/data/org_heads.txt \
    ner/data/non_person.txt ner/data/lead_words.txt ner/data/org_prefix.txt \
    ner/data/place_given.txt ner/data/kind_heads.txt \
    ner/data/honorifics.txt ner/data/titles.txt
