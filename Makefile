# Everyday tasks. `make help` lists them.
SWIFT ?= swift
BIN_DIR = $(shell $(SWIFT) build -c release --show-bin-path)
OUT ?= out/sample
FUZZ_SECONDS ?= 600

.PHONY: help setup build release sample test tsan bench compare corpus lint format fuzz static spark-test clean

help:
	@echo "make sample      set up, build (release) and transcode the bundled Corpus/ sample into $(OUT)"
	@echo "make test        set up and run the whole test suite (swift test)"
	@echo "make tsan        the test suite under ThreadSanitizer (shared Swift runtime, .build-tsan)"
	@echo "make bench       run push-transcode-bench (release)"
	@echo "make compare     ../shared/bench/compare.sh: push-transcode vs cat and simdjson"
	@echo "make corpus      regenerate Corpus/messages/ (then UPDATE_GOLDEN=1 swift test --filter Golden)"
	@echo "make lint        swift format lint --strict (what CI checks)"
	@echo "make format      swift format in place"
	@echo "make fuzz        build and run the libFuzzer target (tokenizer, line pipeline) for FUZZ_SECONDS (600)"
	@echo "make static      release build with static Swift runtime, zlib, liblz4 and libdeflate (for Spark executors)"
	@echo "make spark-test  the Apache Spark integration test (installs pyspark in a venv)"
	@echo "make clean       remove .build, .build-* and out"

setup:
	./scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

corpus:
	python3 Corpus/make_messages.py

sample: release
	$(BIN_DIR)/push-transcode Corpus/sample.ndjson --directory Corpus/directory.ndjson -o $(OUT) --force --stats $(OUT).stats.json
	@echo "batches in $(OUT)/ (manifest: $(OUT)/manifest.json; stats: $(OUT).stats.json)"

test: setup
	$(SWIFT) build
	$(SWIFT) test

# ThreadSanitizer cannot run beside the static Swift runtime the executable links by default.
tsan: setup
	PUSH_TRANSCODE_SHARED_RUNTIME=1 $(SWIFT) test --sanitize thread --scratch-path .build-tsan

bench: setup
	$(SWIFT) run -c release push-transcode-bench

compare: setup
	../shared/bench/compare.sh

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Package.swift

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks Package.swift

fuzz: setup
	./scripts/fuzz.sh $(FUZZ_SECONDS)

static: setup
	Integrations/spark/build-static.sh

spark-test: release
	Integrations/spark/run-tests.sh

clean:
	rm -rf .build .build-* out
