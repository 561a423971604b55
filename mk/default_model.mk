# The embedded default model: models/default/{config.json,model.safetensors}
# are assembled into ner/default_model.o with .incbin when they exist.
# default_model.state records whether they did at the last build, so adding
# or removing the model directory rebuilds the object (its content changes
# only then, and only then is it newer than the object).
DEFAULT_MODEL_DIR := models/default
DEFAULT_MODEL_FILES := $(wildcard $(DEFAULT_MODEL_DIR)/config.json $(DEFAULT_MODEL_DIR)/model.safetensors)
DEFAULT_MODEL_STATE := $(if $(filter 2,$(words $(DEFAULT_MODEL_FILES))),embedded,none)
# $(B)/pic/...: the same object for the shared library.
DEFAULT_MODEL_OBJ := $(B)/ner/default_model.o $(B)/pic/ner/default_model.o
ifeq ($(DEFAULT_MODEL_STATE),embedded)
$(DEFAULT_MODEL_OBJ): CFLAGS_ALL += -DPII_DEFAULT_MODEL_DIR='"$(DEFAULT_MODEL_DIR)"'
$(DEFAULT_MODEL_OBJ): $(DEFAULT_MODEL_FILES)
endif
$(DEFAULT_MODEL_OBJ): $(B)/ner/default_model.state

.PHONY: default-model-state-check
$(B)/ner/default_model.state: default-model-state-check
	@mkdir -p $(dir $@)
	@echo $(DEFAULT_MODEL_STATE) | cmp -s - $@ || echo $(DEFAULT_MODEL_STATE) > $@

# The name lexicon's word lists (ner/data/README.md), pulled into
# ner/lexicon.o with .incbin, invisible to -MMD: name them.
$(B)/ner/lexicon.o $(B)/pic/ner/lexicon.o: ner/data/first_names.txt ner/data/name_stop.txt \
    ner/data/common_words.txt ner/data/countries.txt
