# The two commands a new user needs: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD := build/release
ASAN_BUILD := build/asan
FUZZ_BUILD := build/fuzz
FUZZ_SECONDS ?= 15
PORT ?= 8080
# ccache (when installed) hits across checkouts: paths below the repo are hashed relative to it.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: run test deps test-deps build server client test-cpp test-asan test-fuzz test-client test-e2e bench clean image image-test

## run: install what is missing, build in release mode, serve on 127.0.0.1:$(PORT)
run: deps server client
	@mkdir -p data
	$(BUILD)/hschool-server --address 127.0.0.1 --port $(PORT) --data data/hschool.db --mods mods --web-root client/dist

## test: install what is missing, build, run every test (C++, sanitizers, fuzzers, client, browser)
test: test-deps test-cpp test-asan test-fuzz test-client test-e2e
	@echo "make test: all suites passed"

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

server: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS) --target hschool-server

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

client:
	@if [ -f client/package.json ]; then cd client && npm run build --silent; fi

test-cpp: build
	ctest --test-dir $(BUILD) --output-on-failure --timeout 300 -j$(JOBS)

test-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DHSCHOOL_SANITIZE=ON -DCMAKE_CXX_FLAGS="-O1"
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure --timeout 600 -j$(JOBS)

test-fuzz:
	CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -DHSCHOOL_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(FUZZ_BUILD) -j$(JOBS)
	scripts/run-fuzzers.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS)

test-client:
	@if [ -f client/package.json ]; then cd client && npm test --silent; else echo "no client yet"; fi

test-e2e: server
	@if [ -f client/package.json ] && [ -d tests/e2e ]; then scripts/run-e2e.sh $(BUILD)/hschool-server; else echo "no browser tests yet"; fi

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
