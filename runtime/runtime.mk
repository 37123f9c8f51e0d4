# runtime.mk - extra targets of the runtime (included by the Makefile).
# test-exhaustive: the e4m3/e2m1 encoders, tcvt f32 -> f16/bf16/i16/i32 and trsqrt f32 against
#                  the references on all 2^32 fp32 patterns, f16 -> i8/u8 on all f16 patterns
#                  in every rmode, the tcvt sweeps on each kernel set (AVX-512, AVX2, portable);
#                  the f16/bf16 binary ops on all 2^32 operand pairs against the portable kernels;
#                  also the long sweeps `make check` samples (sweep-exhaustive in the Makefile).
# bench_runtime:   kernel throughput against memcpy (`make bench`), same flags as the library.

$(BUILD)/unit/exhaustive: test/unit/exhaustive.c test/unit/ref_fp.h test/unit/ref_vec.h test/unit/cvt_sweep.h $(BUILD)/libptort.a
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) -O2 $(INC) -Itest/unit -o $@ $< $(BUILD)/libptort.a $(LDLIBS)

test-exhaustive: $(BUILD)/unit/exhaustive
	time $(BUILD)/unit/exhaustive --stride 1

$(BUILD)/bench_runtime: bench/bench_runtime.c $(BUILD)/libptort.a
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(OPT) $(INC) -o $@ $< $(BUILD)/libptort.a $(LDLIBS)

# vec.c: sqrt without errno (results unchanged) so that its sqrt loops vectorize.
$(BUILD)/obj/runtime/vec.o $(BUILD)/asan/runtime/vec.o: CFLAGS += -fno-math-errno

# bench_matmul:    the cube's products against OpenBLAS's cblas_sgemm (`make bench`; bench-deps
#                  installs libopenblas-dev when its header is missing).
OPENBLAS_INC := /usr/include/x86_64-linux-gnu/openblas-pthread
$(BUILD)/bench_matmul: bench/bench_matmul.c $(BUILD)/libptort.a
	@mkdir -p $(@D)
	$(CC) $(BASEFLAGS) $(OPT) $(INC) -I$(OPENBLAS_INC) -o $@ $< $(BUILD)/libptort.a -lopenblas $(LDLIBS)

bench-deps:
	@if [ ! -f $(OPENBLAS_INC)/cblas.h ]; then \
	  if [ "$$(id -u)" != 0 ]; then \
	    echo "ptoas: missing package: libopenblas-dev; install it as root: apt-get install -y libopenblas-dev" >&2; exit 1; \
	  fi; \
	  echo "ptoas: installing libopenblas-dev with apt-get"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas-dev >/dev/null || exit 1; \
	fi
