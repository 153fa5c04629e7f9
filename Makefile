# Two commands on a fresh machine: `make start` (install, migrate, seed, build, serve) and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := start
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

PORT ?= 3000
SIDECAR_PORT ?= 50051
# root needs no sudo; others use it when present.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APP_SOURCES := $(shell find app lib public -type f 2>/dev/null) vite.config.ts tsconfig.json

.PHONY: start install build migrate seed serve test validate typecheck lint format-check proto check-proto test-unit test-integration test-e2e debian-runtime debian-test import-baselines doc-video dam-model gpu-check clean

# `npm install` rather than `npm ci`: it installs the locked versions too, but npm 11 with
# omit-lockfile-registry-resolved leaves other platforms' optional packages (rollup, esbuild,
# msgpackr) out of the lock, and `npm ci` then refuses the lock as out of sync.
node_modules/.installed: package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $@

install: node_modules/.installed

build/.built: node_modules/.installed $(APP_SOURCES)
	remix vite:build
	@touch $@

build: build/.built

# Fashion-MNIST comes from Debian; without apt (or root) the platform still runs on its generated data.
debian-runtime:
	@dpkg -s dataset-fashion-mnist >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq dataset-fashion-mnist >/dev/null; } || echo "warning: dataset-fashion-mnist could not be installed"

debian-test:
	@dpkg -s chromium >/dev/null 2>&1 && dpkg -s dataset-fashion-mnist >/dev/null 2>&1 && dpkg -s python3-numpy >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium dataset-fashion-mnist python3-numpy >/dev/null; }

migrate: node_modules/.installed
	node --import tsx models/migrate.ts

seed: migrate
	node --import tsx seeds/seed.ts

# The sidecar and the web app side by side; Ctrl-C stops both. The sidecar registers with the
# app using the server entry `make seed` created (LOCAL_SIDECAR_NAME, default "local"; password
# LOCAL_SIDECAR_PASSWORD or the one seeding generated into var/local-sidecar.secret), so a fresh
# install shows one online server. Its first heartbeats may come before the app listens: it retries.
# No SIDECAR_CALL_KEY is needed: the sidecar makes a key at each start and its heartbeat hands it
# to the app (docs/grpc.md "Authentication"); one exported in the caller's shell is used by both.
# A port already taken stops here with a message; the sidecar runs under a supervisor that
# restarts it when it crashes (docs/architecture.md "Supervision"); when either process ends for
# good, the other is stopped too, so the app never serves on without its compute server. The
# shell stops its own two jobs and waits for them: `trap 'kill 0'` signalled the shell itself from
# its own trap, over and over, until bash died of a segmentation fault on Ctrl-C or SIGTERM.
serve: build
	@node --import tsx scripts/checkPorts.ts PORT=$(PORT) SIDECAR_PORT=$(SIDECAR_PORT)@$${SIDECAR_HOST:-127.0.0.1}
	@stop() { trap - EXIT INT TERM; kill $$(jobs -p) 2>/dev/null; wait; }; \
	trap 'stop; exit 0' INT TERM; trap stop EXIT; \
	APP_URL=http://127.0.0.1:$(PORT) SIDECAR_NAME="$${LOCAL_SIDECAR_NAME:-local}" \
	SIDECAR_PASSWORD="$${LOCAL_SIDECAR_PASSWORD:-$$(cat var/local-sidecar.secret 2>/dev/null)}" \
	SIDECAR_ADVERTISE_ADDRESS="$${SIDECAR_ADVERTISE_ADDRESS:-127.0.0.1:$(SIDECAR_PORT)}" \
	SIDECAR_PORT=$(SIDECAR_PORT) node --import tsx scripts/superviseSidecar.ts & \
	NODE_ENV=production PORT=$(PORT) SIDECAR_PORT=$(SIDECAR_PORT) node --import tsx server.ts & \
	wait -n; status=$$?; \
	echo "make start: the $$(jobs -r | grep -q superviseSidecar && echo web app || echo sidecar) stopped (status $$status); stopping the rest" >&2; \
	exit $$status

start: install debian-runtime build seed serve

# Loads a folder in the suite layout (suite.json + one folder per method) into the database.
import-baselines: seed
	@test -n "$(DIR)" || { echo "usage: make import-baselines DIR=path/to/suite-folder"; exit 2; }
	node --import tsx seeds/importSuite.ts "$(DIR)"

test: install debian-test build validate test-unit test-integration test-e2e

# The contract's TypeScript types, generated from proto/ (docs/grpc.md). Both sides import them.
PROTO_FILES := metarank/v1/concepts.proto metarank/v1/evaluation.proto metarank/v1/inference.proto metarank/v1/inspection.proto metarank/v1/kit.proto metarank/v1/metascore.proto metarank/v1/multilabel.proto metarank/v1/sebow.proto metarank/v1/segmentation.proto metarank/v1/telemetry.proto metarank/v1/tree.proto metarank/v1/vqa.proto
PROTO_GEN := proto-loader-gen-types --longs Number --enums String --defaults --oneofs --grpcLib @grpc/grpc-js --importFileExtension .ts -I proto

proto: node_modules/.installed
	rm -rf proto/generated
	$(PROTO_GEN) -O proto/generated $(PROTO_FILES)

# Fails when proto/generated is not what the .proto files generate today.
check-proto: node_modules/.installed
	@tmp=$$(mktemp -d); $(PROTO_GEN) -O $$tmp $(PROTO_FILES) >/dev/null && \
	  diff -r $$tmp proto/generated >/dev/null || { echo "proto/generated is stale: run 'make proto' and commit the result"; rm -rf $$tmp; exit 1; }; rm -rf $$tmp

# Which onnxruntime execution providers run here, with logits and Saliency parity against the CPU
# provider and timings (docs/engine.md "GPU hosts"); exits 1 when no GPU provider ran.
gpu-check: node_modules/.installed
	node --import tsx scripts/gpuCheck.ts

# The /dam3d viewer's model (committed; tests/inspection/damModel.test.ts checks it is what this writes).
dam-model: node_modules/.installed
	node --import tsx scripts/buildDam.ts

# Type check, lint, formatting and the generated contract, before any test runs.
validate: typecheck lint format-check check-proto

typecheck: node_modules/.installed
	tsc --noEmit -p .

lint: node_modules/.installed
	eslint --max-warnings 0 .

format-check: node_modules/.installed
	prettier --check . >/dev/null || { prettier --check . ; exit 1; }

test-unit:
	vitest run

test-integration:
	TEST_DB=sqlite vitest run
	TEST_DB=mariadb vitest run

test-e2e:
	vitest run --config tests/e2e/vitest.config.ts

# The documentation video from real screens (scripts/recordDocVideo.ts); needs Debian's ffmpeg.
doc-video: build
	@command -v ffmpeg >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq ffmpeg >/dev/null; }
	node --import tsx scripts/recordDocVideo.ts

clean:
	rm -rf build node_modules/.installed
