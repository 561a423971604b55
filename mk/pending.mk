# Temporary stand-ins for the rule tier, dropped file by file as the real
# modules land (see redact/pending/README).
ifeq ($(wildcard redact/ops.c),)
GEN_SRC += redact/pending/ops_stub.c
endif
ifeq ($(wildcard redact/rules.c),)
GEN_SRC += redact/pending/rules_stub.c
endif
ifeq ($(wildcard redact/lists.c),)
GEN_SRC += redact/pending/lists_stub.c
endif
