# The two commands a new user needs: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
# The C++ tests mostly wait (timeouts, peers that stall on purpose): three per core keep the cores busy.
TEST_JOBS ?= $(shell echo $$(( $(JOBS) * 3 )))
BUILD := build/release
# The sanitizer tree is clang's: it compiles the tree in 2/3 of GCC's time (bench/README, issue 22).
ASAN_BUILD := build/clang-asan
# The fuzzers are built in the sanitizer tree (clang, coverage hooks on): one compile serves both (issue 38).
FUZZ_BUILD := $(ASAN_BUILD)
# Ninja when installed (install-deps.sh adds it): it keeps both cores busy where make's recursion idles.
GENERATOR = $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
FUZZ_SECONDS ?= 15
FUZZ_JOBS ?= $(JOBS)
STAGE := scripts/stage.sh
PORT ?= 8080
# ccache (when installed) hits across checkouts: paths below the repo are hashed relative to it.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: run test test-in-order check-layers deps test-deps build tools server client client-bundle build-asan build-fuzz test-cpp test-release-only test-asan test-asan-only test-e2e-only test-fuzz run-fuzzers test-client test-e2e stage-reset bench clean image image-test

## run: install what is missing, build in release mode, serve on 127.0.0.1:$(PORT)
run: deps
	@$(MAKE) --no-print-directory -j2 server client-bundle
	@mkdir -p data
	$(BUILD)/hschool-server --address 127.0.0.1 --port $(PORT) --data data/hschool.db --mods mods --web-root client/dist

## test: install what is missing, build, run every test (C++, sanitizers, fuzzers, client, browser);
## the sanitizer build and the fuzzers run at idle priority beside the tests, which mostly wait
test:
	@JOBS=$(JOBS) scripts/test-all.sh

## test-in-order: the same stages one after another, nothing side by side (slower; for a quiet machine)
test-in-order: stage-reset test-deps check-layers test-cpp test-asan test-fuzz test-client test-e2e
	@scripts/stage-summary.sh
	@echo "make test-in-order: all suites passed"

## check-layers: every #include goes a way src/layers.txt allows (seconds); its own tests plant violations
check-layers:
	@$(STAGE) check-layers bash -c 'python3 scripts/check-layers.py && python3 -m unittest discover -s tests/layers -q'

stage-reset:
	@rm -f build/stage-times.txt

deps:
	@$(STAGE) install scripts/install-deps.sh build

test-deps:
	@$(STAGE) install scripts/install-deps.sh test

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Release

server: $(BUILD)/CMakeCache.txt
	@$(STAGE) build-server cmake --build $(BUILD) -j$(JOBS) --target hschool-server

build: $(BUILD)/CMakeCache.txt
	@$(STAGE) build-release cmake --build $(BUILD) -j$(JOBS)

## tools: the hide-and-seek command line (run, verify, info, seat, league, bridge) without the tests
tools: deps $(BUILD)/CMakeCache.txt
	@$(STAGE) build-tools cmake --build $(BUILD) -j$(JOBS) --target hschool-hns hschool-server

client:
	@if [ -f client/package.json ]; then $(STAGE) build-client bash -c 'cd client && npm run build --silent'; fi

# make run's client, built beside the server: the bundle alone (the type check is make client's and
# make test's, scripts/run-e2e.sh), so a newcomer waits for the C++ build only (issue 38).
client-bundle:
	@if [ -f client/package.json ]; then $(STAGE) build-client bash -c 'cd client && npx --no-install vite build --logLevel warn'; fi

test-cpp: build
	@$(MAKE) --no-print-directory test-release-only

# The tests alone, on a tree already built (scripts/test-all.sh builds first, then runs these), with a
# throwaway PostgreSQL cluster for the store's second backend (scripts/with-postgres.sh).
test-release-only:
	@$(STAGE) test-release scripts/with-postgres.sh ctest --test-dir $(BUILD) --output-on-failure --timeout 300 -j$(TEST_JOBS)

$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) $(GENERATOR) -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Debug -DHSCHOOL_SANITIZE=ON -DCMAKE_CXX_FLAGS="-O1"

build-asan: $(ASAN_BUILD)/CMakeCache.txt
	@$(STAGE) build-asan cmake --build $(ASAN_BUILD) -j$(JOBS)

test-asan: build-asan
	@$(MAKE) --no-print-directory test-asan-only

# A 16 MiB quarantine (256 by default) still keeps recently freed memory poisoned, but lets the
# allocator reuse pages: with the default every large buffer was fresh pages from the kernel, half
# of a whole-match render test's time (437 s against 239 s on a busy box, issue 38).
test-asan-only:
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=16 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(STAGE) test-asan scripts/with-postgres.sh ctest --test-dir $(ASAN_BUILD) --output-on-failure --timeout 600 -j$(TEST_JOBS)

build-fuzz: $(ASAN_BUILD)/CMakeCache.txt
	@$(STAGE) build-fuzz cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzzers

test-fuzz: build-fuzz
	@$(MAKE) --no-print-directory run-fuzzers

run-fuzzers:
	@$(STAGE) fuzz scripts/run-fuzzers.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_JOBS)

test-client:
	@if [ -f client/package.json ]; then $(STAGE) vitest bash -c 'cd client && npm test --silent'; else echo "no client yet"; fi

test-e2e: server
	@$(MAKE) --no-print-directory test-e2e-only

test-e2e-only:
	@if [ -f client/package.json ] && [ -d tests/e2e ]; then $(STAGE) e2e scripts/run-e2e.sh $(BUILD)/hschool-server; else echo "no browser tests yet"; fi

bench: deps
	@scripts/bench.sh

## image: the league container image (podman or docker; README "The container image"). IMAGE=name:tag
image: client
	@scripts/build-image.sh

## image-test: start the image as a league runner does (drop-in with six seats, then replay mode); not part of `make test`
image-test: image
	@scripts/image-test.sh

clean:
	rm -rf build client/dist
