# dbverify — build, demo, tests, benchmarks.
GO    ?= go
BIN   := $(CURDIR)/bin/dbverify
ATM   := benchmarks/corpus/core

.PHONY: all deps test-deps build install demo test bench lint clean

all: build

# deps checks for what the build needs — a C compiler and Z3 (cgo) — and
# installs it on Debian/Ubuntu (apt-get); elsewhere it says how to.
# test-deps does the same for what the tests need: PostgreSQL and MariaDB
# (the groundtruth and cross-check tests start throwaway servers) and
# Microsoft's SARIF validator (npm), with which the SARIF tests check the
# output against GitHub's ingestion rules.
SARIF_MULTITOOL := $(CURDIR)/bin/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
export SARIF_MULTITOOL
deps:
	@sh scripts/deps.sh build

test-deps: deps $(SARIF_MULTITOOL)
	@sh scripts/deps.sh test

$(SARIF_MULTITOOL):
	@echo "installing @microsoft/sarif-multitool-linux (npm) into bin/tools"
	@command -v npm >/dev/null || { SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq npm >/dev/null; }
	@mkdir -p bin/tools && cd bin/tools && npm install --silent --no-audit --no-fund @microsoft/sarif-multitool-linux@5.7.0 >/dev/null
	@chmod u+x $@

build: deps
	$(GO) build -o $(BIN) ./cmd/dbverify

install: deps
	$(GO) install ./cmd/dbverify

# demo verifies the core paper's ATM withdraw: the guarded version is SAFE,
# the version without the balance check is UNSAFE with a counterexample.
demo: build
	cd $(ATM)/atm_safe && $(BIN) check --schema schema.sql --constraint "Account.balance >= 1000" ./...
	cd $(ATM)/atm_unsafe && $(BIN) check --schema schema.sql --constraint "Account.balance >= 1000" ./...; \
		test $$? -eq 1

# LONG_TESTS are the test packages that take longest (seconds of a make
# test here: 1,119, 486, 325, 209, 134), named first so that go test,
# which starts packages in the order it is given them, starts them first
# (witness/schedule, last in path order, ran alone at the end).
LONG_TESTS := ./benchmarks ./pipeline ./dbmodel ./witness/schedule ./groundtruth

# GOGC=200 for the tests, their dbverify runs and replay drivers: the go-z3
# terms are finalizer-wrapped, so the collector runs often; measured on a
# quiet machine, make test took 15 min 54 s and 19 min 42 s of user CPU with
# it, 16 min 59 s and 21 min 48 s without.
# test runs lint beside the tests (its vet and staticcheck would otherwise
# wait for nothing). (Four test packages at a time, -p 4, was measured: the
# same 86 % of two cores as -p 2, and the longest package ran longer.)
test: test-deps
	@$(MAKE) --no-print-directory lint & lint=$$!; \
	GOGC=200 $(GO) test -timeout 40m $(LONG_TESTS) ./...; tests=$$?; \
	wait $$lint; lint=$$?; \
	if [ $$lint -ne 0 ]; then echo "make test: lint failed (above)"; fi; \
	[ $$tests -eq 0 ] && [ $$lint -eq 0 ]

# bench also replays every fast corpus UNSAFE and every concurrent one with
# dbverify replay on its engine, runs the differential semantics suite (groundtruth) with a larger
# budget (100 random executions per statement form and dialect), and the
# concurrent corpus' ground truth with 200 random runs per case.
bench: build
	$(GO) run ./benchmarks/cmd/bench -bin $(BIN)
	$(GO) run ./benchmarks/cmd/progen -bin $(BIN) -n 60 -seed 1 -out benchmarks/PROGEN.md
	DBVERIFY_REPLAY_ALL=1 DBVERIFY_E2E_BIN=$(BIN) $(GO) test ./benchmarks -count=1 -run 'TestReplayAllUnsafe|TestReplayReproduces|TestReplayConcurrentUnsafe|TestReplayEmitTest|TestCorpusCoreFixpoint' -timeout 60m
	$(GO) test ./groundtruth -count=1 -run 'TestDifferential|TestKnownDivergences' -groundtruth.n=100 -v
	$(GO) test ./witness/schedule -count=1 -timeout 60m -run TestConcurrentGroundTruth -concurrent.rounds=200 -concurrent.diagnostics -v

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# lint: gofmt, go vet, staticcheck (default checks) and go mod tidy must be clean.
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff

clean:
	rm -rf bin
