# dbverify — build, demo, tests, benchmarks.
GO    ?= go
BIN   := $(CURDIR)/bin/dbverify
ATM   := benchmarks/corpus/core

.PHONY: all deps build install demo test bench lint clean

all: build

# deps installs what the build and the tests need when it is missing
# (Debian): the C library go-z3 links against (libz3-dev), and the database
# engines the groundtruth tests start (postgresql, mariadb-server).
DEPS_PKGS := libz3-dev postgresql mariadb-server
deps:
	@missing=; for p in $(DEPS_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO -E apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

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

test: deps
	$(GO) vet ./...
	$(GO) test ./...

# bench also runs the differential semantics suite (groundtruth) with a
# larger budget: 100 random executions per statement form and dialect.
bench: build
	$(GO) run ./benchmarks/cmd/bench -bin $(BIN)
	$(GO) test ./groundtruth -count=1 -run 'TestDifferential|TestKnownDivergences' -groundtruth.n=100 -v

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...

clean:
	rm -rf bin
