# cupitc -- the CuPit compiler and its runtime library.
#
#   make              build build/bin/cupitc and build/lib/cupit/libcupitrt.a
#   make check        run every test (unit, golden, end-to-end, sanitizer fuzz)
#   make check-asan   only the AddressSanitizer/UBSan robustness run
#   make check-tsan   data races: tests/run programs under ThreadSanitizer (clang)
#   make fuzz-diff N=100 SEED=1 JOBS=2   the differential tester on generated programs
#   make fuzz FUZZ_SECONDS=600 FUZZ_JOBS=2  coverage-guided fuzzing of the compiler (clang)
#   make install PREFIX=/dir
#   make examples     compile examples/*.nn with the just-built cupitc
#   make demo         compile examples/backprop.nn and train it on bundled data
#   make bench        benchmark harness (bench/README.md)
#   make bench-parse  parser throughput on a generated 10 MB program
#   make bench-bounds the epoch-time lower bounds the trainers' semantics set
#
# The build tree mirrors the install tree (bin/, lib/cupit/, include/cupit/),
# so the compiler finds its runtime the same way in both.

PREFIX     ?= /usr/local
BUILD      ?= build
CC         ?= cc
RE2C       ?= re2c
BISON      ?= bison
SANITIZE   ?=
OPT        ?= -O2

WARN       := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
              -Wpointer-arith -Wformat=2 -Wundef
CFLAGS_ALL := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(OPT) -g \
              -Iinclude -I$(BUILD)/gen $(SANITIZE) -MMD -MP
OWN_CFLAGS := $(CFLAGS_ALL) $(WARN) -Werror
GEN_CFLAGS := $(CFLAGS_ALL) -Wall -Wno-unused-function -Wno-unused-but-set-variable
RT_CFLAGS  := $(OWN_CFLAGS) -fopenmp
LDFLAGS_ALL := $(SANITIZE)

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

# ---- sources ----------------------------------------------------------------
COMPILER_SRC := $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c))
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/obj/%.o) \
                $(BUILD)/obj/gen/lexer.o $(BUILD)/obj/gen/parser.o
MAIN_OBJ     := $(BUILD)/obj/src/main.o
RUNTIME_SRC  := $(wildcard runtime/*.c)
RUNTIME_OBJ  := $(RUNTIME_SRC:%.c=$(BUILD)/obj/%.o)
RUNTIME_HDR  := include/cupit_rt.h $(wildcard runtime/*.h)
# what programs and EXTERNAL C code include: installed, unlike rt_internal.h
PUBLIC_HDR   := include/cupit_rt.h runtime/cupit_stdlib.h runtime/cupit_embed.h

CUPITC       := $(BUILD)/bin/cupitc
LIBRT        := $(BUILD)/lib/cupit/libcupitrt.a
# The same runtime without OpenMP, for programs built with --no-openmp.
LIBRT_SERIAL := $(BUILD)/lib/cupit/libcupitrt-serial.a
RUNTIME_SERIAL_OBJ := $(RUNTIME_SRC:runtime/%.c=$(BUILD)/obj/runtime-serial/%.o) \
                      $(BUILD)/obj/runtime-serial/omp_serial.o
LIBCOMPILER  := $(BUILD)/lib/libcupitc.a
RT_INC_DIR   := $(BUILD)/include/cupit

UNIT_SRC      := $(wildcard tests/unit/check_*.c)
UNIT_BIN      := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all clean check check-asan check-tsan install uninstall examples demo bench bench-parse bench-bounds tools fuzz-diff fuzz
.DELETE_ON_ERROR:

all: tools $(CUPITC) $(LIBRT) $(LIBRT_SERIAL) runtime-headers

tools:
	@command -v $(RE2C) >/dev/null || { echo "error: re2c is required to build cupitc (run scripts/setup.sh)" >&2; exit 1; }
	@command -v $(BISON) >/dev/null || { echo "error: bison is required to build cupitc (run scripts/setup.sh)" >&2; exit 1; }

# ---- generated front end ------------------------------------------------------
$(BUILD)/gen/lexer.c: grammar/lexer.re $(BUILD)/gen/parser.h | tools
	@mkdir -p $(dir $@)
	$(RE2C) -W -Werror --no-generation-date --no-version -o $@ $<

$(BUILD)/gen/parser.c $(BUILD)/gen/parser.h &: grammar/parser.y | tools
	@mkdir -p $(dir $@)
	$(BISON) -Wall -Werror -Wcounterexamples --defines=$(BUILD)/gen/parser.h -o $(BUILD)/gen/parser.c $<

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(CC) $(GEN_CFLAGS) -c -o $@ $<

# Every compiler object may include the generated parser header.
$(BUILD)/obj/src/%.o: src/%.c $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(CC) $(OWN_CFLAGS) -c -o $@ $<

$(BUILD)/obj/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c -o $@ $<

$(LIBCOMPILER): $(COMPILER_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CUPITC): $(MAIN_OBJ) $(LIBCOMPILER)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -o $@ $(MAIN_OBJ) $(LIBCOMPILER) -lm

$(LIBRT): $(RUNTIME_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/runtime-serial/omp_serial.o: runtime/serial/omp_serial.c
	@mkdir -p $(dir $@)
	$(CC) $(OWN_CFLAGS) -c -o $@ $<

$(BUILD)/obj/runtime-serial/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CC) $(OWN_CFLAGS) -Wno-unknown-pragmas -c -o $@ $<

$(LIBRT_SERIAL): $(RUNTIME_SERIAL_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

.PHONY: runtime-headers
runtime-headers: $(PUBLIC_HDR)
	@mkdir -p $(RT_INC_DIR)
	@for h in $(PUBLIC_HDR); do cmp -s $$h $(RT_INC_DIR)/$${h##*/} || cp -p $$h $(RT_INC_DIR)/; done

# ---- tests --------------------------------------------------------------------
$(BUILD)/tests/check_rt_%: tests/unit/check_rt_%.c $(LIBRT)
	@mkdir -p $(dir $@)
	$(CC) $(OWN_CFLAGS) -fopenmp $(CHECK_CFLAGS) -o $@ $< $(LIBRT) $(CHECK_LIBS) -lm

$(BUILD)/tests/check_%: tests/unit/check_%.c $(LIBCOMPILER)
	@mkdir -p $(dir $@)
	$(CC) $(OWN_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(LIBCOMPILER) $(CHECK_LIBS) -lm

# The random program generator of the differential tester (tests/gen/).
CUPITGEN := $(BUILD)/tests/cupitgen
$(CUPITGEN): tests/gen/cupitgen.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<

# Every test checks the IR after lowering and after every pass.
check: all $(UNIT_BIN) $(CUPITGEN)
	@CUPITC_VERIFY_IR=1 BUILD=$(BUILD) CUPITC=$(CUPITC) UNIT_BIN="$(UNIT_BIN)" CHECK_JOBS=$(CHECK_JOBS) sh tests/run-all.sh

# The robustness run: a sanitizer build in its own tree, then the fuzz suite.
check-asan:
	$(MAKE) BUILD=build/asan OPT=-O1 \
	  SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all
	@CUPITC=build/asan/bin/cupitc sh tests/fuzz/run-fuzz.sh

# Data races: the runtime and every tests/run program built with
# ThreadSanitizer (clang, LLVM's libomp with archer), every loop parallel.
check-tsan: all
	@CUPITC=$(CUPITC) BUILD=$(BUILD) sh tests/tsan/run-tsan.sh

# Coverage-guided fuzzing (libFuzzer, clang): the whole compiler without the
# C compiler, and a second harness that also compiles the generated C.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_FLAGS   := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
                -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -Iinclude -I$(BUILD)/gen
FUZZ_SRC     := tests/fuzz/fuzz_compile.c $(COMPILER_SRC) $(BUILD)/gen/lexer.c $(BUILD)/gen/parser.c
$(BUILD)/fuzz/fuzz_compile: $(FUZZ_SRC) $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SRC)
$(BUILD)/fuzz/fuzz_compile_cc: $(FUZZ_SRC) $(BUILD)/gen/parser.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_WITH_CC -o $@ $(FUZZ_SRC)

fuzz: all $(BUILD)/fuzz/fuzz_compile $(BUILD)/fuzz/fuzz_compile_cc
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) sh tests/fuzz/run-libfuzzer.sh

# ---- install ------------------------------------------------------------------
# Installs the compiler, the runtime with its public headers and a
# pkg-config file, the man page, the documentation and examples, and the
# editor support; `make uninstall` removes exactly these files.
SHARE := $(DESTDIR)$(PREFIX)/share
INSTALLED := bin/cupitc bin/cupit-plot lib/cupit/libcupitrt.a lib/cupit/libcupitrt-serial.a \
             include/cupit/cupit_rt.h include/cupit/cupit_stdlib.h include/cupit/cupit_embed.h \
             lib/pkgconfig/cupit.pc \
             share/man/man1/cupitc.1
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/cupit $(DESTDIR)$(PREFIX)/include/cupit \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(SHARE)/man/man1 $(SHARE)/doc/cupit \
	  $(SHARE)/cupit/examples/data $(SHARE)/cupit/examples/embed $(SHARE)/cupit/editors/vim/syntax \
	  $(SHARE)/cupit/editors/vim/ftdetect $(SHARE)/cupit/editors/vscode/syntaxes
	install -m 755 $(CUPITC) $(DESTDIR)$(PREFIX)/bin/cupitc
	install -m 755 scripts/cupit-plot $(DESTDIR)$(PREFIX)/bin/cupit-plot
	install -m 644 $(LIBRT) $(DESTDIR)$(PREFIX)/lib/cupit/libcupitrt.a
	install -m 644 $(LIBRT_SERIAL) $(DESTDIR)$(PREFIX)/lib/cupit/libcupitrt-serial.a
	install -m 644 $(PUBLIC_HDR) $(DESTDIR)$(PREFIX)/include/cupit/
	sed -e 's|@PREFIX@|$(PREFIX)|' scripts/cupit.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/cupit.pc
	install -m 644 docs/cupitc.1 $(SHARE)/man/man1/cupitc.1
	install -m 644 README.md docs/*.md $(SHARE)/doc/cupit/
	install -m 644 examples/*.nn $(SHARE)/cupit/examples/
	install -m 644 examples/data/* $(SHARE)/cupit/examples/data/
	install -m 644 examples/embed/* $(SHARE)/cupit/examples/embed/
	install -m 644 editors/vim/syntax/cupit.vim $(SHARE)/cupit/editors/vim/syntax/
	install -m 644 editors/vim/ftdetect/cupit.vim $(SHARE)/cupit/editors/vim/ftdetect/
	install -m 644 editors/vscode/package.json editors/vscode/language-configuration.json \
	  $(SHARE)/cupit/editors/vscode/
	install -m 644 editors/vscode/syntaxes/cupit.tmLanguage.json $(SHARE)/cupit/editors/vscode/syntaxes/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	rm -rf $(SHARE)/doc/cupit $(SHARE)/cupit
	-rmdir $(DESTDIR)$(PREFIX)/lib/cupit $(DESTDIR)$(PREFIX)/include/cupit 2>/dev/null

# ---- examples and benchmarks --------------------------------------------------
examples: all
	@sh scripts/build-examples.sh $(CUPITC) $(BUILD)/examples

# The main job: compile the RPROP trainer and train it on the bundled data.
demo: examples
	$(BUILD)/examples/backprop --data examples/data/circle.train \
	  --data Test=examples/data/circle.test --param hidden=8 --param epochs=150 --seed 3

# The differential tester on N generated programs from seed SEED (tests/gen/README.md).
N ?= 100
SEED ?= 1
JOBS ?= 2
fuzz-diff: all $(CUPITGEN)
	@BUILD=$(BUILD) CUPITC=$(CUPITC) sh tests/gen/diff-run.sh -n $(N) -s $(SEED) -j $(JOBS)

bench: all
	@sh bench/run.sh

bench-parse: all
	@sh bench/parse/run.sh $(CUPITC)

bench-bounds:
	@BUILD=$(BUILD) sh bench/bounds/run.sh

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
