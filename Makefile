# gridsync - top-level entry points (see README.md).
#   make test       install missing packages, build (quietly), run every test
#                   (host tests JOBS at a time); prints failures and a summary
#   make bench      install, build (quietly), run the benchmark report (needs a
#                   GPU: without one, a one-line message before anything runs)
#   make gpu-check  on a GPU machine: all GPU tests, then compute-sanitizer
#   make install    install into PREFIX (default /usr/local)
#   make research   compile every probe in research/probes/ against the current
#                   headers (build/research/probes/; run them on a GPU machine)
#   make docs       the API reference from the public headers (installs
#                   doxygen): $(BUILD_DIR)/docs/api/index.html
# Variables: BUILD_DIR (build), CUDA_ARCHS (e.g. "90" or "80;90"; default:
# the GPU present, else 70;80;90), PREFIX, JOBS.
BUILD_DIR ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=

ifneq ($(CUDA_ARCHS),)
override CMAKE_ARGS += -DCMAKE_CUDA_ARCHITECTURES="$(CUDA_ARCHS)"
endif

.PHONY: all deps configure build test bench gpu-check install clean results docs research

# The version, from include/gridsync.h (its one place).
GS_VERSION := $(shell sed -n 's/^\#define GS_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' \
                include/gridsync.h | paste -sd.)

# $(call quiet_build,GOAL): make build with its output in $(BUILD_DIR)/build.log,
# the log's tail shown if it fails.
define quiet_build
@mkdir -p $(BUILD_DIR); log=$(BUILD_DIR)/build.log; \
echo "make $(1): building (log: $$log)"; \
if ! $(MAKE) --no-print-directory build >$$log 2>&1; then \
    tail -n 40 $$log; echo "make $(1): the build failed (full log: $$log)" >&2; exit 1; \
fi
endef

# make bench without a GPU: one line, before anything is installed or built
# (nvidia-smi, or the device nodes of a GPU or of WSL's).
ifneq ($(filter bench,$(MAKECMDGOALS)),)
ifeq ($(shell nvidia-smi -L >/dev/null 2>&1 || ls /dev/nvidia[0-9]* /dev/dxg >/dev/null 2>&1 || echo none),none)
$(error make bench: no NVIDIA GPU or driver found on this machine; run it where a GPU is present)
endif
endif

all: build

deps:
	@scripts/install-deps

configure: deps
	@prefix_path=""; [ -d .deps/root/usr ] && prefix_path="-DCMAKE_PREFIX_PATH=$(CURDIR)/.deps/root/usr"; \
	cmake -S . -B $(BUILD_DIR) -DCMAKE_INSTALL_PREFIX=$(PREFIX) $$prefix_path $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Packages first (their messages shown), then the build, quietly, then every
# test (scripts/run-tests: the host tests JOBS at a time, on a GPU machine
# the GPU tests one at a time after them; the log in $(BUILD_DIR)/test.log;
# failures with their output, and a summary).
test: deps
	$(call quiet_build,test)
	@BUILD_DIR=$(BUILD_DIR) JOBS=$(JOBS) scripts/run-tests

bench:
	$(call quiet_build,bench)
	@BUILD_DIR=$(BUILD_DIR) scripts/run-bench

gpu-check:
	@scripts/gpu-check

install: build
	cmake --install $(BUILD_DIR)

# The probes: opt-in (GRIDSYNC_BUILD_RESEARCH), built only by this target.
research: override CMAKE_ARGS += -DGRIDSYNC_BUILD_RESEARCH=ON
research: configure
	cmake --build $(BUILD_DIR) --target research -j $(JOBS)

# Doxygen over the public headers (Doxyfile); never needed by make test.
docs:
	@scripts/install-deps --docs
	@mkdir -p $(BUILD_DIR)/docs
	@GS_DOCS_OUT=$(abspath $(BUILD_DIR))/docs GS_VERSION=$(GS_VERSION) doxygen Doxyfile
	@echo "API reference: $(BUILD_DIR)/docs/api/index.html" \
	      "($$(wc -l <$(BUILD_DIR)/docs/doxygen-warnings.log) warnings: $(BUILD_DIR)/docs/doxygen-warnings.log)"

clean:
	rm -rf $(BUILD_DIR) build-gpu

# Render the results files into README.md's results section and into
# docs/results/ (report.md, CSV, plots), and the suites' columns into
# docs/results-schema.md, with `gridsync report`: every bench/results/*.json,
# oldest first by the date its environment records (a checkout's file times
# say nothing), so that each suite comes from the newest file that has it
# (a run of some suites, the Python package's rows) and names that file.
results: build
	@files=$$(for f in bench/results/*.json; do \
	    day=$$(sed -n 's/^[[:space:]]*"date":[[:space:]]*"\([^"]*\)".*/\1/p' "$$f" | head -n 1); \
	    printf '%s %s\n' "$$day" "$$f"; \
	  done | sort | cut -d' ' -f2-); \
	$(BUILD_DIR)/gridsync report $$files --readme README.md && \
	$(BUILD_DIR)/gridsync report --columns --readme docs/results-schema.md && \
	rm -rf docs/results && $(BUILD_DIR)/gridsync report $$files --out docs/results
