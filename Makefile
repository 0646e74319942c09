# Axonal developer entry points. A fresh machine needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
UV := $(VENV)/bin/uv
RUN := $(UV) run --frozen
STAMP := $(VENV)/.synced

.PHONY: install up down status test lint format bench asyncapi k8s-fields clean

$(UV):
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "uv>=0.8,<0.14"

$(STAMP): $(UV) pyproject.toml uv.lock $(wildcard libs/*/pyproject.toml services/*/pyproject.toml)
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --frozen --all-packages
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install the whole workspace

up: install ## Start the embedded platform (NATS, PostgreSQL, every service) in the foreground
	$(RUN) axonal up

down: install ## Stop a detached platform
	$(RUN) axonal down

status: install ## Health of every service
	$(RUN) axonal status

test: install ## Run the whole test suite against real servers
	$(RUN) pytest

lint: install ## ruff, mypy (strict on libs and services), import-linter
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	$(RUN) mypy libs/*/src services/*/src
	$(RUN) lint-imports

format: install
	$(RUN) ruff format .
	$(RUN) ruff check --fix .

bench: install ## Benchmarks: print figures and ratios
	@for b in bench/[!_]*.py; do echo "== $$b"; $(RUN) python $$b || exit 1; done

asyncapi: install ## Regenerate the committed AsyncAPI document
	$(RUN) python -m axonal_events.asyncapi > docs/asyncapi.json

k8s-fields: install ## Regenerate the Kubernetes field names the spec library checks
	$(RUN) python libs/spec/tools/k8s_fields.py > libs/spec/src/axonal_spec/models/k8s_fields.json

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
