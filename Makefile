# pii-redact — top-level build.
#
#   make                 release build: ./pii-redact and libpiiredact.a
#   make check           build and run the cmocka suites and the CLI tests
#   make check SAN=1     the same under ASan+UBSan (objects in build/san)
#   make FAULT=1         the fault-injection variant (objects in build/fault):
#                        the test rig of core/include/pii_fault.h, which the
#                        release build leaves out (mk/rig.mk)
#   make fuzz            libFuzzer targets (mk/fuzz.mk, objects in build/fuzz)
#   make setup           apt-get the Debian build/test dependencies when missing
#   make demo            redact samples/ with the built-in default
#   make install PREFIX=/usr/local DESTDIR=   (make uninstall: the same files)
#
# demo and check install what is missing first and then build in a sub-make:
# the pkg-config flags below are computed when a make reads this file, which
# on a fresh machine is before `setup` has installed the packages.
#
# Module fragments in mk/*.mk add generated sources, extra test
# dependencies and module targets (bench-*, fuzz, model) without editing
# this file.  Sources are found by wildcard: every .c in a layer folder
# goes into the library (docs/DESIGN.md: the layers, bottom to top, each a
# folder with its public headers in <layer>/include/).

CC      ?= cc
PKGS    := libpcre2-8 libutf8proc json-c
# the command's own (`serve`, docs/SERVER.md); not the library's, not in piiredact.pc
CLI_PKGS := libmicrohttpd
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
DESTDIR ?=
VERSION := 0.2.0
SOMAJOR := 2

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
else ifeq ($(FAULT),1)
# The release code with the test rig compiled in (core/include/pii_fault.h):
# what `make check` runs the fault-injection tests on (mk/rig.mk).
VARIANT := fault
OPT     := -O1 -g
else ifeq ($(DEBUG),1)
VARIANT := debug
OPT     := -O0 -g
else
VARIANT := release
OPT     := -O2 -g
endif

B := build/$(VARIANT)

# The test rig (fault injection, the command's $PII_REDACT_FAULT and
# $PII_REDACT_PAUSE hooks) is compiled into these variants only; see mk/rig.mk.
FAULT_RIG := $(filter fault san fuzz,$(VARIANT))
RIG_SRC   := core/fault.c core/fault_alloc.c src/testhook.c
RIG_TESTS := $(wildcard tests/unit/test_fault_*.c) tests/unit/test_tok_fault.c

# The library's layers, bottom to top, as mk/layers.txt lists them with the
# arrows between them (docs/DESIGN.md; checked by mk/layers.mk); src/ is the
# command.
LAYERS    := $(filter-out src,$(shell awk '{ sub(/\#.*/, "") } NF { print $$1 }' mk/layers.txt))
LAYER_INC := $(addsuffix /include,$(LAYERS))

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(CLI_PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CLI_LIBS   := $(shell pkg-config --libs $(CLI_PKGS) 2>/dev/null)

# -std=c11 with POSIX 2008 for mmap/getline/fsync; no -march: SIMD kernels
# use function-level target attributes and are chosen at run time.
# Include paths are the layer rule for the compiler: an object of a layer
# sees the include/ folders of the layers it may use (mk/layers.txt) and its
# own folder, nothing else (no -I.); the clients on top (tests, tools, fuzz
# targets, benches) see every layer's include/ (INC_ALL) and, for the unit
# suites of internals, the tree (tests/unit's rule; the layer check says
# which private headers each suite may use).
INC_ALL    := $(addprefix -I,$(LAYER_INC))
LAYER_CFLAGS = $(INC_ALL)
CFLAGS_ALL = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
              $(OPT) -Wall -Wextra -Werror -pthread \
              $(LAYER_CFLAGS) -DPII_VERSION='"$(VERSION)"' \
              $(if $(FAULT_RIG),-DPII_FAULT_INJECTION) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL := $(PKG_LIBS) $(CLI_LIBS) -lm -pthread $(LDLIBS)
layer_uses = $(shell awk -v l=$(1) '{ sub(/\#.*/, "") } $$1 == l { for (i = 1; i <= NF; i++) print $$i }' mk/layers.txt)
$(foreach l,$(LAYERS) src,$(eval $(B)/$(l)/%.o $(B)/pic/$(l)/%.o: private LAYER_CFLAGS = $(addprefix -I,$(addsuffix /include,$(call layer_uses,$(l))))))
# Headers of include/ folders that are not the installed API: the tools
# library's writers and random models, the hash the command shares, the word
# lists the name heuristics and the url rules share, the loaders' file
# reader and the command's JSON string writer.
NOINST_HDR := runtime/include/pii_rt_write.h model/include/pii_model_synth.h redact/include/pii_sha256.h \
              core/include/pii_wordlist.h core/include/pii_file.h core/include/pii_json_write.h
INSTALL_HDR = $(filter-out $(NOINST_HDR),$(wildcard $(addsuffix /*.h,$(LAYER_INC))))

# The model writers (safetensors/GGUF writers, random-weight models) serve
# mkmodel, quantize and the tests only: they go into libpiitools.a, which
# the command and the tests link, not into the library.
TOOLS_SRC := runtime/writers.c model/synth.c
LIB_SRC := $(filter-out $(TOOLS_SRC) $(if $(FAULT_RIG),,$(RIG_SRC)),$(wildcard $(addsuffix /*.c,$(LAYERS))))
CLI_SRC := $(filter-out $(if $(FAULT_RIG),,$(RIG_SRC)),$(wildcard src/*.c))
TEST_SRC := $(filter-out $(if $(FAULT_RIG),,$(RIG_TESTS)),$(wildcard tests/unit/test_*.c))
GEN_SRC :=
GEN_DEPS :=
CHECK_DEPS :=

-include $(sort $(wildcard mk/*.mk))

LIB_OBJ  := $(patsubst %.c,$(B)/%.o,$(LIB_SRC) $(GEN_SRC))
CLI_OBJ  := $(patsubst %.c,$(B)/%.o,$(CLI_SRC))
TEST_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(TEST_SRC))
TOOLS_OBJ := $(patsubst %.c,$(B)/%.o,$(TOOLS_SRC))
TOOLS_LIB := $(B)/libpiitools.a

# The shared library: position-independent objects compiled with hidden
# visibility (the public headers mark their declarations default), linked
# with a version script that exports pii_* only, and without the test rig
# (core/fault_alloc.c, the --wrap allocation wrappers, which only the rig
# variants compile at all).  docs/LIBRARY.md.
SO_OBJ   := $(patsubst %.c,$(B)/pic/%.o,$(filter-out core/fault_alloc.c,$(LIB_SRC)) $(GEN_SRC))
SONAME   := libpiiredact.so.$(SOMAJOR)
SO       := $(B)/lib/libpiiredact.so.$(VERSION)
SO_DEFS  := -Wl,--no-undefined # not with the sanitizers: their run time comes with the program

ifeq ($(VARIANT),release)
BIN := pii-redact
LIB := libpiiredact.a
else
BIN := $(B)/pii-redact
LIB := $(B)/libpiiredact.a
endif

.PHONY: all check unit cli-test lib-test setup deps demo demo-run install uninstall clean distclean format format-check
all: $(BIN) $(LIB) $(SO)

$(B)/%.o: %.c | $(GEN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/pic/%.o: %.c | $(GEN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(SO): $(SO_OBJ) mk/libpiiredact.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -shared -fPIC -Wl,-soname,$(SONAME) -Wl,--version-script=mk/libpiiredact.map \
	    $(if $(filter release debug,$(VARIANT)),$(SO_DEFS)) -o $@ $(SO_OBJ) $(PKG_LIBS) -lm -pthread
	ln -sf $(notdir $@) $(B)/lib/$(SONAME)
	ln -sf $(SONAME) $(B)/lib/libpiiredact.so

$(TOOLS_LIB): $(TOOLS_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(TOOLS_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $(CLI_OBJ) $(TOOLS_LIB) $(LIB) $(LDLIBS_ALL)

$(B)/tests/%: private LAYER_CFLAGS = $(INC_ALL) -I.
$(B)/tests/%: tests/unit/%.c $(TOOLS_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -o $@ $< $(TOOLS_LIB) $(LIB) -lcmocka $(LDLIBS_ALL)

# The dependency stamp: a quick dpkg check, apt-get only when something is missing.
deps setup:
	@tools/setup-deps.sh

unit: deps $(TEST_BIN) $(CHECK_DEPS)
	@tests/run-unit.sh $(TEST_BIN)

# The CLI tests that use the test hooks run on $(RIG_BIN) (mk/rig.mk).
cli-test: deps $(BIN) $(CHECK_DEPS) $(RIG_DEPS)
	@PII_REDACT=$(abspath $(BIN)) PII_REDACT_RIG=$(RIG_BIN) tests/cli/run.sh

# The examples built against an installed tree (tests/lib/run.sh).
LIB_STAGE := $(abspath $(B))/stage
lib-test: deps all
	@rm -rf $(LIB_STAGE)
	@$(MAKE) --no-print-directory install DESTDIR=$(LIB_STAGE) PREFIX=/usr/local >/dev/null
	@LIB_TEST_CFLAGS="$(if $(filter san,$(VARIANT)),$(OPT))" tests/lib/run.sh $(LIB_STAGE) /usr/local

check: deps
	@$(MAKE) --no-print-directory unit cli-test lib-test $(RIG_CHECK)

DEMO_FILES := samples/support-ticket.txt samples/chat.txt samples/app-log.txt
demo: deps
	@$(MAKE) --no-print-directory demo-run
demo-run: $(BIN)
	@for f in $(DEMO_FILES); do printf '==> %s\n' "$$f"; ./$(BIN) "$$f"; done

# bench's default corpus goes to share/pii-redact/, where the command looks
# for it next to its own bin/ (src/cmd_bench.c); the licence (LICENSE,
# Apache-2.0) and every third-party notice of what the binary embeds
# (the tiktoken vocabulary, the default model, the name lexicons) beside it.
INSTALL_DIRS := $(PREFIX)/bin $(LIBDIR)/pkgconfig $(PREFIX)/include/piiredact \
                $(PREFIX)/share/man/man1 $(PREFIX)/share/man/man3 $(PREFIX)/share/pii-redact
install: $(BIN) $(LIB) $(SO)
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/pii-redact
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libpiiredact.a
	install -m 755 $(SO) $(DESTDIR)$(LIBDIR)/libpiiredact.so.$(VERSION)
	ln -sf libpiiredact.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libpiiredact.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@PKGS@|$(PKGS)|' piiredact.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/piiredact.pc
	install -m 644 $(INSTALL_HDR) $(DESTDIR)$(PREFIX)/include/piiredact/
	install -m 644 man/pii-redact.1 $(DESTDIR)$(PREFIX)/share/man/man1/pii-redact.1
	install -m 644 man/piiredact.3 $(DESTDIR)$(PREFIX)/share/man/man3/piiredact.3
	install -m 644 samples/sentences.txt $(DESTDIR)$(PREFIX)/share/pii-redact/sentences.txt
	install -m 644 models/default/NOTICE $(DESTDIR)$(PREFIX)/share/pii-redact/MODEL-NOTICE
	install -m 644 ner/data/LICENSE.faker-js $(DESTDIR)$(PREFIX)/share/pii-redact/LEXICON-NOTICE.faker-js
	install -m 644 ner/data/LICENSE.scowl $(DESTDIR)$(PREFIX)/share/pii-redact/LEXICON-NOTICE.scowl
	install -m 644 tokenizer/data/LICENSE.tiktoken $(DESTDIR)$(PREFIX)/share/pii-redact/TOKENIZER-NOTICE.tiktoken
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/pii-redact/LICENSE

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pii-redact $(DESTDIR)$(LIBDIR)/libpiiredact.a \
	    $(DESTDIR)$(LIBDIR)/libpiiredact.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libpiiredact.so $(DESTDIR)$(LIBDIR)/pkgconfig/piiredact.pc \
	    $(addprefix $(DESTDIR)$(PREFIX)/include/piiredact/,$(notdir $(INSTALL_HDR))) \
	    $(DESTDIR)$(PREFIX)/share/man/man1/pii-redact.1 $(DESTDIR)$(PREFIX)/share/man/man3/piiredact.3 \
	    $(DESTDIR)$(PREFIX)/share/pii-redact/sentences.txt $(DESTDIR)$(PREFIX)/share/pii-redact/MODEL-NOTICE \
	    $(DESTDIR)$(PREFIX)/share/pii-redact/LEXICON-NOTICE.faker-js \
	    $(DESTDIR)$(PREFIX)/share/pii-redact/LEXICON-NOTICE.scowl \
	    $(DESTDIR)$(PREFIX)/share/pii-redact/TOKENIZER-NOTICE.tiktoken \
	    $(DESTDIR)$(PREFIX)/share/pii-redact/LICENSE
	-rmdir $(DESTDIR)$(PREFIX)/include/piiredact $(DESTDIR)$(PREFIX)/share/pii-redact 2>/dev/null

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

-include $(LIB_OBJ:.o=.d) $(TOOLS_OBJ:.o=.d) $(SO_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d)
