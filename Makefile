# pii-redact — top-level build.
#
#   make                 release build: ./pii-redact and libpiiredact.a
#   make check           build and run the cmocka suites and the CLI tests
#   make check SAN=1     the same under ASan+UBSan (objects in build/san)
#   make fuzz            libFuzzer targets (mk/fuzz.mk, objects in build/fuzz)
#   make setup           apt-get the Debian build/test dependencies when missing
#   make demo            redact samples/ with the built-in default
#   make install PREFIX=/usr/local DESTDIR=
#
# Module fragments in mk/*.mk add generated sources, extra test
# dependencies and module targets (bench-*, fuzz, model) without editing
# this file.  Sources are found by wildcard: every .c in a module folder
# goes into the library.

CC      ?= cc
PKGS    := libpcre2-8 libutf8proc json-c
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0

# Build variants by name; each has its own object tree so they never mix.
ifeq ($(SAN),1)
VARIANT := san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
else ifeq ($(FUZZ),1)
# libFuzzer variant (mk/fuzz.mk): clang-14; the library gets coverage
# instrumentation without libFuzzer's main (fuzzer-no-link), ASan and UBSan.
VARIANT := fuzz
CC      := clang-14
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
else ifeq ($(DEBUG),1)
VARIANT := debug
OPT     := -O0 -g
else
VARIANT := release
OPT     := -O2 -g
endif

B := build/$(VARIANT)

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# -std=c11 with POSIX 2008 for mmap/getline/fsync; no -march: SIMD kernels
# use function-level target attributes and are chosen at run time.
CFLAGS_ALL := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
              $(OPT) -Wall -Wextra -Werror -pthread \
              -Iinclude -I. -DPII_VERSION='"$(VERSION)"' $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL := $(PKG_LIBS) -lm -pthread $(LDLIBS)

LIB_SRC := $(wildcard src/runtime/*.c tokenizer/*.c ner/*.c redact/*.c)
CLI_SRC := $(wildcard src/*.c)
TEST_SRC := $(wildcard tests/unit/test_*.c)
GEN_SRC :=
GEN_DEPS :=
CHECK_DEPS :=

-include $(sort $(wildcard mk/*.mk))

LIB_OBJ  := $(patsubst %.c,$(B)/%.o,$(LIB_SRC) $(GEN_SRC))
CLI_OBJ  := $(patsubst %.c,$(B)/%.o,$(CLI_SRC))
TEST_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(TEST_SRC))

ifeq ($(VARIANT),release)
BIN := pii-redact
LIB := libpiiredact.a
else
BIN := $(B)/pii-redact
LIB := $(B)/libpiiredact.a
endif

.PHONY: all check unit cli-test setup deps demo install clean distclean format format-check
all: $(BIN) $(LIB)

$(B)/%.o: %.c | $(GEN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS_ALL)

$(B)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -o $@ $< $(LIB) -lcmocka $(LDLIBS_ALL)

# The dependency stamp: a quick dpkg check, apt-get only when something is missing.
deps setup:
	@tools/setup-deps.sh

unit: deps $(TEST_BIN) $(CHECK_DEPS)
	@tests/run-unit.sh $(TEST_BIN)

cli-test: deps $(BIN) $(CHECK_DEPS)
	@PII_REDACT=$(abspath $(BIN)) tests/cli/run.sh

check: deps
	@$(MAKE) --no-print-directory unit cli-test

DEMO_FILES := samples/support-ticket.txt samples/chat.txt samples/app-log.txt
demo: deps $(BIN)
	@for f in $(DEMO_FILES); do printf '==> %s\n' "$$f"; ./$(BIN) "$$f"; done

install: $(BIN) $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/piiredact $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/pii-redact
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libpiiredact.a
	install -m 644 include/*.h $(DESTDIR)$(PREFIX)/include/piiredact/
	install -m 644 man/pii-redact.1 $(DESTDIR)$(PREFIX)/share/man/man1/pii-redact.1

# clang-format (.clang-format) over every tracked C file; generated tables
# carry "clang-format off" markers.
FORMAT_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	@tools/setup-deps.sh clang-format
	clang-format -i $(FORMAT_FILES)
format-check:
	@tools/setup-deps.sh clang-format
	@clang-format --dry-run -Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files clean"

clean:
	rm -rf build pii-redact libpiiredact.a

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d)
