# The two commands a new user needs: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD := build/release
ASAN_BUILD := build/asan
FUZZ_BUILD := build/fuzz
FUZZ_SECONDS ?= 15
FUZZ_JOBS ?= $(JOBS)
STAGE := scripts/stage.sh
PORT ?= 8080
# ccache (when installed) hits across checkouts: paths below the repo are hashed relative to it.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: run test deps test-deps build server client build-asan test-cpp test-asan test-fuzz test-client test-e2e stage-reset bench clean image image-test

## run: install what is missing, build in release mode, serve on 127.0.0.1:$(PORT)
run: deps server client
	@mkdir -p data
	$(BUILD)/hschool-server --address 127.0.0.1 --port $(PORT) --data data/hschool.db --mods mods --web-root client/dist

## test: install what is missing, build, run every test (C++, sanitizers, fuzzers, client, browser)
test: stage-reset test-deps test-cpp test-asan test-fuzz test-client test-e2e
	@scripts/stage-summary.sh
	@echo "make test: all suites passed"

stage-reset:
	@rm -f build/stage-times.txt

deps:
	@$(STAGE) install scripts/install-deps.sh build

test-deps:
	@$(STAGE) install scripts/install-deps.sh test

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

server: $(BUILD)/CMakeCache.txt
	@$(STAGE) build-server cmake --build $(BUILD) -j$(JOBS) --target hschool-server

build: $(BUILD)/CMakeCache.txt
	@$(STAGE) build-release cmake --build $(BUILD) -j$(JOBS)

client:
	@if [ -f client/package.json ]; then $(STAGE) build-client bash -c 'cd client && npm run build --silent'; fi

test-cpp: build
	@$(STAGE) test-release ctest --test-dir $(BUILD) --output-on-failure --timeout 300 -j$(JOBS)

$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DHSCHOOL_SANITIZE=ON -DCMAKE_CXX_FLAGS="-O1"

build-asan: $(ASAN_BUILD)/CMakeCache.txt
	@$(STAGE) build-asan cmake --build $(ASAN_BUILD) -j$(JOBS)

test-asan: build-asan
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(STAGE) test-asan ctest --test-dir $(ASAN_BUILD) --output-on-failure --timeout 600 -j$(JOBS)

$(FUZZ_BUILD)/CMakeCache.txt:
	CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -DHSCHOOL_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo

test-fuzz: $(FUZZ_BUILD)/CMakeCache.txt
	@$(STAGE) build-fuzz cmake --build $(FUZZ_BUILD) -j$(JOBS)
	@$(STAGE) fuzz scripts/run-fuzzers.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_JOBS)

test-client:
	@if [ -f client/package.json ]; then $(STAGE) vitest bash -c 'cd client && npm test --silent'; else echo "no client yet"; fi

test-e2e: server
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
