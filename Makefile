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
# SARIF_MULTITOOL is Microsoft's SARIF validator (the one GitHub's docs
# name), from npm; the SARIF tests validate the output with its GitHub
# ingestion rules.
SARIF_MULTITOOL := $(CURDIR)/bin/tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
export SARIF_MULTITOOL
deps: $(SARIF_MULTITOOL)
$(SARIF_MULTITOOL):
	@echo "installing @microsoft/sarif-multitool-linux (npm) into bin/tools"
	@command -v npm >/dev/null || { SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq npm >/dev/null; }
	@mkdir -p bin/tools && cd bin/tools && npm install --silent --no-audit --no-fund @microsoft/sarif-multitool-linux@5.7.0 >/dev/null
	@chmod u+x $@
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

test: deps lint
	$(GO) test ./...

bench: build
	$(GO) run ./benchmarks/cmd/bench -bin $(BIN)

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# lint: gofmt, go vet, staticcheck (default checks) and go mod tidy must be clean.
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff

clean:
	rm -rf bin
