# The embedded default model: models/default/{config.json,model.safetensors}
# are assembled into ner/default_model.o with .incbin when they exist.
DEFAULT_MODEL_DIR := models/default
DEFAULT_MODEL_FILES := $(wildcard $(DEFAULT_MODEL_DIR)/config.json $(DEFAULT_MODEL_DIR)/model.safetensors)
ifeq ($(words $(DEFAULT_MODEL_FILES)),2)
$(B)/ner/default_model.o: CFLAGS_ALL += -DPII_DEFAULT_MODEL_DIR='"$(DEFAULT_MODEL_DIR)"'
$(B)/ner/default_model.o: $(DEFAULT_MODEL_FILES)
endif
