# shellcheck shell=bash
# The one instrumented build that both the suite under ASan and UBSan
# (scripts/test --sanitize address,undefined) and the libFuzzer targets
# (scripts/fuzz) run from, so CI compiles the tree instrumented once: clang-14
# (GCC took 3 to 7 times as long per file with these sanitizers, see
# docs/build.md), AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's
# coverage counters (fuzzer-no-link; the fuzz targets add the fuzzer's main),
# in build-asan/. Source it, then run scripts/build.
export CC=clang-14 CXX=clang++-14
export SVC_BUILD_DIR=build-asan SVC_BUILD_TYPE=RelWithDebInfo
export SVC_CMAKE_ARGS="-DSVC_SANITIZE=fuzzer-no-link,address,undefined -DSVC_FUZZ=ON -DSVC_USE_JEMALLOC=OFF -DSVC_BUILD_BENCH=OFF"
