# chargeops: `make run` starts the console on SQLite in ./data; `make test` runs every test.
GO        ?= go
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X chargeops/internal/app.Version=$(VERSION)
PG_URL    ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
ADDR      ?= 127.0.0.1:8080
FUZZTIME  ?= 10s

.PHONY: build web web-deps run test test-lane-go test-ui test-go test-web test-e2e e2e fuzz openapi lint clean bench

build: web
	@echo "== go build starts $$(date +%T)"
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/chargeops ./cmd/chargeops

web-deps:
	scripts/ensure-node-deps.sh web

web: web-deps
	cd web && npm run build

run: build
	bin/chargeops demo --data-dir ./data --addr $(ADDR)

# Two lanes, as two make jobs (each job's output is printed when it ends): the Go suite, which
# waits on sockets and timers more than it computes, then Vitest; beside them the console's
# build and the browser tests, the longest part, started as soon as the binary is built
# (docs/benchmarks.md, "CI on a fresh clone in two lanes").
test:
	@echo "== test starts $$(date +%T)"
	$(MAKE) --no-print-directory -j2 --output-sync=target test-lane-go test-ui
	@echo "== test ends $$(date +%T)"

# The Go suite, then Vitest (which needs the console's dependencies, installed by then).
test-lane-go:
	$(MAKE) --no-print-directory test-go
	$(MAKE) --no-print-directory test-web

# The console's build, then the browser tests.
test-ui: build
	$(MAKE) --no-print-directory e2e

# Test binaries are linked without symbol table and DWARF (-s -w: stack traces keep file and line;
# about 18 CPU-s less per run).
test-go:
	@echo "== test-go starts $$(date +%T)"
	scripts/ensure-postgres.sh
	scripts/ensure-mosquitto.sh
	CHARGEOPS_TEST_PG="$(PG_URL)" $(GO) test -tags noui -count=1 -timeout 30m -ldflags='-s -w' ./...

test-web: web-deps
	@echo "== test-web starts $$(date +%T)"
	cd web && npm run gen:api && git diff --exit-code -- src/services/api.gen.d.ts src/permissions.gen.ts
	cd web && npm test

test-e2e: build
	$(MAKE) --no-print-directory e2e

# The browser tests on the binary already built (test-e2e builds it first).
e2e:
	@echo "== test-e2e starts $$(date +%T)"
	scripts/ensure-chromium.sh
	scripts/ensure-node-deps.sh e2e
	cd e2e && npm test

# Runs every fuzz target (func FuzzX in a *_fuzz_test.go) for FUZZTIME each, one after the other;
# `make test` runs their seed corpora only. A failing input is written to the package's
# testdata/fuzz/FuzzX/: commit it as a seed with the fix.
fuzz:
	@for f in $$(grep -rl --include='*_fuzz_test.go' '^func Fuzz' internal); do \
	  for t in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "== $$t ./$$(dirname $$f)"; \
	    $(GO) test -tags noui -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) ./$$(dirname $$f) || exit 1; \
	  done; \
	done

# Regenerates the OpenAPI document and the console's types from the route table.
openapi:
	$(GO) run -tags noui ./cmd/chargeops openapi > api/openapi.json
	cd web && npm run gen:api

lint:
	$(GO) vet -tags noui ./...
	cd web && npx tsc --noEmit

clean:
	rm -rf bin web/dist

# The 1M-device list benchmark on SQLite and PostgreSQL (several minutes; see docs/benchmarks.md).
bench:
	scripts/ensure-postgres.sh
	CHARGEOPS_TEST_PG="$(PG_URL)" $(GO) test -run '^$$' -bench DeviceList -benchtime 200x -timeout 60m ./internal/device

# The edge agent for site gateways (`chargeops agent --config FILE`, internal/agent): the same
# binary without the console, static (no cgo), for Linux on amd64, arm64 and 32-bit ARMv7.
.PHONY: agent
agent:
	CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -tags noui -ldflags "$(LDFLAGS) -s -w" -o bin/chargeops-agent-linux-amd64 ./cmd/chargeops
	CGO_ENABLED=0 GOOS=linux GOARCH=arm64 $(GO) build -tags noui -ldflags "$(LDFLAGS) -s -w" -o bin/chargeops-agent-linux-arm64 ./cmd/chargeops
	CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=7 $(GO) build -tags noui -ldflags "$(LDFLAGS) -s -w" -o bin/chargeops-agent-linux-armv7 ./cmd/chargeops
