# Targets a newcomer can guess. Every target installs what it needs from this repo's own files.
PY      ?= python3.11
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: install serve test test-fast bench lint typecheck fmt tf-check localstack-up localstack-down local-stack image coldstart clean

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null || { echo "need $(PY) (Python 3.11+)"; exit 1; }
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## serve: the MCP gateway in embedded mode on http://127.0.0.1:8765/mcp (data in ~/.hindsight/data)
serve: $(STAMP)
	$(BIN)/hindsight serve

## test: the whole suite, starting the services it needs (LocalStack on the host, no Docker)
test: $(STAMP)
	bash scripts/test.sh

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow" tests

bench: $(STAMP)
	$(BIN)/hindsight bench

lint: $(STAMP)
	$(BIN)/ruff check shared functions tests
	$(BIN)/ruff format --check shared functions tests

## typecheck: mypy, strict, on the core library (configured in pyproject.toml)
typecheck: $(STAMP)
	$(BIN)/mypy

fmt: $(STAMP)
	$(BIN)/ruff format shared functions tests

## tf-check: terraform fmt + validate, offline (provider from the machine's mirror)
TFRC := $(CURDIR)/infra/terraformrc
tf-check:
	TF_CLI_CONFIG_FILE=$(TFRC) terraform fmt -check -recursive infra
	for e in local aws; do (cd infra/envs/$$e && TF_CLI_CONFIG_FILE=$(TFRC) terraform init -input=false -backend=false >/dev/null && TF_CLI_CONFIG_FILE=$(TFRC) terraform validate) || exit 1; done

localstack-up:
	bash localstack/install.sh && bash localstack/start.sh

localstack-down:
	bash localstack/stop.sh

## local-stack: the serverless topology without Docker (LocalStack on the host + SQS/schedule runner + gateway)
local-stack: $(STAMP)
	bash localstack/install.sh
	$(BIN)/python -m hindsight_memory.serverless.local_stack

## image: the one container image for every function (needs a Docker engine)
image:
	docker build -t hindsight:latest .

coldstart: $(STAMP)
	$(BIN)/python -m hindsight_memory.serverless.coldstart

clean:
	rm -rf $(VENV) .venv-localstack .localstack-data .pytest_cache
