# ptoas - build, check, demo, bench, fuzz, install.
# Generated files (re2c, Bison, objects, binaries) all go to build/.
# `make check` and `make demo` first install missing tools with apt-get.

CC       ?= cc
BUILD    := build
PREFIX   ?= /usr/local
DOCDIR   ?= $(PREFIX)/share/doc/ptoas
MANDIR   ?= $(PREFIX)/share/man
LLVM_BIN := /usr/lib/llvm-19/bin
LIT      := python3 /usr/lib/llvm-19/build/utils/lit/lit.py

WARN     := -std=c11 -Wall -Wextra -Wpedantic -Werror
# -ffp-contract=off: no fused multiply-add unless the source says fmaf (docs/numerics.md).
# -fno-trapping-math does not change IEEE results; it lets GCC vectorize float loops.
BASEFLAGS:= $(WARN) -g -ffp-contract=off -fno-trapping-math -D_POSIX_C_SOURCE=200809L
OPT      := -O2
SAN      := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DPTOAS_DEBUG
INC      := -Ilexer -Iparser -Isupport -Iir -Ipasses -Icodegen -Idriver -Ilsp -Iruntime -I$(BUILD)
CFLAGS   ?=
LDLIBS   := -lm -pthread

FRONT_SRC := $(wildcard support/*.c ir/*.c parser/*.c passes/*.c codegen/*.c lsp/*.c)
DRIVER_SRC:= $(wildcard driver/*.c)
GEN_SRC   := $(BUILD)/lexer.c $(BUILD)/parser.c
RT_SRC    := $(wildcard runtime/*.c)
UNIT_SRC  := $(wildcard test/unit/test_*.c)
UNIT_NAMES:= $(patsubst test/unit/%.c,%,$(UNIT_SRC))

# Object lists for the two flavours: optimized (build/obj) and sanitized (build/asan).
obj = $(patsubst %.c,$(1)/%.o,$(2))
FRONT_OBJ     := $(call obj,$(BUILD)/obj,$(FRONT_SRC) $(GEN_SRC))
FRONT_OBJ_SAN := $(call obj,$(BUILD)/asan,$(FRONT_SRC) $(GEN_SRC))
DRIVER_OBJ    := $(call obj,$(BUILD)/obj,$(DRIVER_SRC))
DRIVER_OBJ_SAN:= $(call obj,$(BUILD)/asan,$(DRIVER_SRC))
RT_OBJ        := $(call obj,$(BUILD)/obj,$(RT_SRC))
RT_OBJ_SAN    := $(call obj,$(BUILD)/asan,$(RT_SRC))

.PHONY: all check demo bench bench-deps fuzz install deps clean test-exhaustive asan
.DEFAULT_GOAL := all

all: $(BUILD)/ptoas $(BUILD)/libptort.a

# ---- tools -------------------------------------------------------------------
# Installs re2c, bison, llvm-19-tools (lit, FileCheck) and mlir-19-tools (mlir-opt,
# the reference for the scf/arith/func dialects and the generic form) when missing,
# and for the editor tests neovim, node and npm.
deps:
	@missing=""; \
	command -v re2c >/dev/null 2>&1 || missing="$$missing re2c"; \
	command -v bison >/dev/null 2>&1 || missing="$$missing bison"; \
	[ -x $(LLVM_BIN)/FileCheck ] || missing="$$missing llvm-19-tools"; \
	[ -x $(LLVM_BIN)/mlir-opt ] || missing="$$missing mlir-19-tools"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	command -v nvim >/dev/null 2>&1 || missing="$$missing neovim"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	command -v strace >/dev/null 2>&1 || missing="$$missing strace"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then \
	    echo "ptoas: missing packages:$$missing; install them as root: apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	  echo "ptoas: installing$$missing with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null || exit 1; \
	fi

# ---- generated sources -------------------------------------------------------
$(BUILD)/lexer.c: lexer/lexer.re $(BUILD)/parser.c
	@mkdir -p $(@D)
	re2c -W -Werror --no-generation-date -o $@ $<

$(BUILD)/parser.c: parser/parser.y
	@mkdir -p $(@D)
	bison -Wall -Werror --defines=$(BUILD)/parser.h -o $@ $<

$(BUILD)/parser.h: $(BUILD)/parser.c

# ---- compilation -------------------------------------------------------------
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(OPT) $(INC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(BUILD)/asan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(SAN) $(INC) $(CFLAGS) -MMD -MP -c -o $@ $<

# Every object may include the generated parser header.
$(FRONT_OBJ) $(FRONT_OBJ_SAN) $(DRIVER_OBJ) $(DRIVER_OBJ_SAN): $(BUILD)/parser.h

$(BUILD)/libptort.a: $(RT_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/asan/libptort.a: $(RT_OBJ_SAN)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/ptoas: $(FRONT_OBJ) $(DRIVER_OBJ) $(BUILD)/libptort.a
	$(CC) $(OPT) -o $@ $(FRONT_OBJ) $(DRIVER_OBJ) $(BUILD)/libptort.a $(LDLIBS)
$(BUILD)/asan/ptoas: $(FRONT_OBJ_SAN) $(DRIVER_OBJ_SAN) $(BUILD)/asan/libptort.a
	$(CC) $(SAN) -o $@ $(FRONT_OBJ_SAN) $(DRIVER_OBJ_SAN) $(BUILD)/asan/libptort.a $(LDLIBS)

# ---- unit tests (test/unit/test_*.c: one program each, last line "N passed, M failed")
$(BUILD)/unit/%: test/unit/%.c $(BUILD)/libptort.a $(wildcard test/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(OPT) $(INC) -Itest/unit -o $@ $< $(BUILD)/libptort.a $(LDLIBS)
$(BUILD)/asan/unit/%: test/unit/%.c $(BUILD)/asan/libptort.a $(wildcard test/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(SAN) $(INC) -Itest/unit -o $@ $< $(BUILD)/asan/libptort.a $(LDLIBS)
# test_target compares the runtime's target facts with ir/target.c, test_oprecord the op
# record (ir/ops.def) with the runtime's op list: they link ir/ too.
IR_OBJ     := $(call obj,$(BUILD)/obj,$(wildcard support/*.c ir/*.c))
IR_OBJ_SAN := $(call obj,$(BUILD)/asan,$(wildcard support/*.c ir/*.c))
UNIT_IR    := test_target test_oprecord
$(addprefix $(BUILD)/unit/,$(UNIT_IR)): $(BUILD)/unit/%: test/unit/%.c $(IR_OBJ) $(BUILD)/libptort.a $(wildcard test/unit/*.h) ir/ops.def runtime/ptort_vops.def
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(OPT) $(INC) -Itest/unit -o $@ $< $(IR_OBJ) $(BUILD)/libptort.a $(LDLIBS)
$(addprefix $(BUILD)/asan/unit/,$(UNIT_IR)): $(BUILD)/asan/unit/%: test/unit/%.c $(IR_OBJ_SAN) $(BUILD)/asan/libptort.a $(wildcard test/unit/*.h) ir/ops.def runtime/ptort_vops.def
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(SAN) $(INC) -Itest/unit -o $@ $< $(IR_OBJ_SAN) $(BUILD)/asan/libptort.a $(LDLIBS)

UNIT_SAN := $(addprefix $(BUILD)/asan/unit/,$(UNIT_NAMES))
# test/unit/vecdrv.c runs the runtime's vector ops for test/run/vecdiff.py (a lit test)
VECDRV := $(BUILD)/asan/unit/vecdrv

# ---- fuzzing -----------------------------------------------------------------
FUZZ_CORPUS := test/fuzz/corpus
FUZZ_LSP_CORPUS := test/fuzz/lsp_corpus
# The replay driver runs the fuzz target over saved inputs without libFuzzer.
$(BUILD)/asan/fuzz_replay: test/fuzz/fuzz_parse.c test/fuzz/replay_main.c $(FRONT_OBJ_SAN)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(SAN) $(INC) -o $@ test/fuzz/fuzz_parse.c test/fuzz/replay_main.c $(FRONT_OBJ_SAN) $(LDLIBS)

$(BUILD)/asan/fuzz_lsp_replay: test/fuzz/fuzz_lsp.c test/fuzz/replay_main.c $(FRONT_OBJ_SAN)
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(SAN) $(INC) -o $@ test/fuzz/fuzz_lsp.c test/fuzz/replay_main.c $(FRONT_OBJ_SAN) $(LDLIBS)

# FUZZ_TIME seconds in all: two thirds to the assembler (fuzz_parse), one third
# to the language server's message handling (fuzz_lsp), which runs the same
# frontend on the documents its messages build.
FUZZ_TIME ?= 600
FUZZ_PARSE_TIME = $(shell expr $(FUZZ_TIME) \* 2 / 3)
FUZZ_LSP_TIME = $(shell expr $(FUZZ_TIME) - $(FUZZ_PARSE_TIME))
fuzz: deps $(GEN_SRC)
	@command -v clang >/dev/null 2>&1 && [ -n "$$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] || \
	  { [ "$$(id -u)" = 0 ] && echo "ptoas: installing clang with apt-get" && apt-get install -y -qq clang >/dev/null; } || \
	  { echo "ptoas: 'make fuzz' needs clang with libFuzzer (apt-get install -y clang)" >&2; exit 1; }
	@mkdir -p $(BUILD)/fuzz $(BUILD)/fuzz/new
	clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L $(INC) \
	  -o $(BUILD)/fuzz/fuzz_parse test/fuzz/fuzz_parse.c $(FRONT_SRC) $(GEN_SRC) $(LDLIBS)
	$(BUILD)/fuzz/fuzz_parse -max_total_time=$(FUZZ_PARSE_TIME) -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
	  -dict=test/fuzz/pto.dict -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/new $(FUZZ_CORPUS)
	@mkdir -p $(BUILD)/fuzz/lsp_new
	clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L $(INC) \
	  -o $(BUILD)/fuzz/fuzz_lsp test/fuzz/fuzz_lsp.c $(FRONT_SRC) $(GEN_SRC) $(LDLIBS)
	$(BUILD)/fuzz/fuzz_lsp -max_total_time=$(FUZZ_LSP_TIME) -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	  -dict=test/fuzz/lsp.dict -artifact_prefix=$(BUILD)/fuzz/lsp- $(BUILD)/fuzz/lsp_new $(FUZZ_LSP_CORPUS)

# ---- editor tests --------------------------------------------------------------
# The grammar test runs the real TextMate engine; its npm packages go to build/npm,
# installed once (later runs, offline too, use them as they are).
NPM_MODS := $(BUILD)/npm/node_modules
$(NPM_MODS)/vscode-textmate/package.json $(NPM_MODS)/vscode-oniguruma/package.json &:
	@mkdir -p $(BUILD)/npm
	npm install --prefix $(BUILD)/npm --no-audit --no-fund --no-save --loglevel=error \
	  vscode-textmate@9.3.2 vscode-oniguruma@2.0.1
EDITOR_DEPS := $(NPM_MODS)/vscode-textmate/package.json $(NPM_MODS)/vscode-oniguruma/package.json

# ---- the test suite ----------------------------------------------------------
check: deps all $(BUILD)/asan/ptoas $(UNIT_SAN) $(VECDRV) $(BUILD)/asan/fuzz_replay $(BUILD)/asan/fuzz_lsp_replay $(EDITOR_DEPS)
	@BUILD=$(BUILD) LIT="$(LIT)" LLVM_BIN=$(LLVM_BIN) sh test/run_checks.sh $(UNIT_SAN)

asan: $(BUILD)/asan/ptoas $(UNIT_SAN)

# The long sweeps `make check` runs a sample of; test-exhaustive (runtime/runtime.mk)
# runs them in full.
test-exhaustive: sweep-exhaustive
.PHONY: sweep-exhaustive
sweep-exhaustive: $(BUILD)/asan/ptoas
	python3 test/tassign/random_loops.py $(BUILD)/asan/ptoas --count 520 --run-every 1

# ---- demo, bench, install ----------------------------------------------------
demo: deps all
	@sh examples/demo.sh $(BUILD)/ptoas

bench: deps bench-deps all
	@sh bench/run.sh $(BUILD)

# The docs go to $(DOCDIR) and the man page, made of the --help texts
# (driver/help2man.sh), to $(MANDIR)/man1; test/install_test.sh checks it all.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib \
	  $(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/ptoas $(DESTDIR)$(PREFIX)/bin/ptoas
	install -m 644 runtime/ptort.h $(DESTDIR)$(PREFIX)/include/ptort.h
	install -m 644 runtime/ptort_vops.def $(DESTDIR)$(PREFIX)/include/ptort_vops.def
	install -m 644 $(BUILD)/libptort.a $(DESTDIR)$(PREFIX)/lib/libptort.a
	install -m 644 README.md LICENSE docs/*.md $(DESTDIR)$(DOCDIR)/
	sh driver/help2man.sh $(BUILD)/ptoas $(DOCDIR) > $(BUILD)/ptoas.1.tmp
	mv $(BUILD)/ptoas.1.tmp $(BUILD)/ptoas.1
	install -m 644 $(BUILD)/ptoas.1 $(DESTDIR)$(MANDIR)/man1/ptoas.1

clean:
	rm -rf $(BUILD)

-include runtime/runtime.mk
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
