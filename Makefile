# Axonal developer entry points. A fresh machine needs Python 3.11+, make, and Node.js 20+ for
# the web UI.
PYTHON ?= python3
VENV := .venv
UV := $(VENV)/bin/uv
RUN := $(UV) run --frozen
STAMP := $(VENV)/.synced
# The Python packages' sources (services/web is the UI, not a Python package).
PY_SOURCES := $(patsubst %/pyproject.toml,%/src,$(wildcard libs/*/pyproject.toml services/*/pyproject.toml))

# The web UI (TypeScript, Vite): built into services/web/dist, which the api serves at /.
WEB := services/web
WEB_INPUTS := $(shell find $(WEB)/src $(WEB)/public -type f 2>/dev/null) \
	$(wildcard $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig*.json $(WEB)/package.json)
# Touched after `npm ci`: node_modules is as old as its last install.
WEB_MODULES := $(WEB)/node_modules/.installed

.PHONY: install up down status web test lint format bench chaos asyncapi nats-users k8s-fields k8s-smoke clean

$(UV):
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "uv>=0.8,<0.14"

$(STAMP): $(UV) pyproject.toml uv.lock $(wildcard libs/*/pyproject.toml services/*/pyproject.toml)
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --frozen --all-packages
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install the whole workspace

up: install web ## Build the UI if needed, start the embedded platform (NATS, PostgreSQL, every service) in the foreground
	$(RUN) axonal up

down: install ## Stop a detached platform
	$(RUN) axonal down

status: install ## Health of every service
	$(RUN) axonal status

web: $(if $(wildcard $(WEB)/package.json),$(WEB)/dist/index.html) ## Build the web UI when its bundle is missing or stale
	@test -f $(WEB)/package.json || echo "$(WEB) has no package.json: no web UI to build"

$(WEB_MODULES): $(WEB)/package.json $(wildcard $(WEB)/package-lock.json)
	@scripts/need-node
	cd $(WEB) && npm ci
	mkdir -p $(@D) && touch $@

$(WEB)/dist/index.html: $(WEB_MODULES) $(WEB_INPUTS)
	@scripts/need-node
	cd $(WEB) && npm run build
	touch $@

test: install web ## Build the UI, run its component tests, then the whole Python suite against real servers
	@if [ -f $(WEB)/package.json ]; then scripts/need-node && cd $(WEB) && npm test; fi
	scripts/ensure-chromium
	$(RUN) pytest --numprocesses=auto --dist=loadfile

lint: install ## ruff, mypy (strict on libs and services), import-linter
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	$(RUN) mypy $(PY_SOURCES)
	$(RUN) lint-imports

format: install
	$(RUN) ruff format .
	$(RUN) ruff check --fix .

bench: install ## Benchmarks: print figures and ratios
	@for b in bench/[!_]*.py; do echo "== $$b"; $(RUN) python $$b || exit 1; done

chaos: install ## Every fault of the chaos suite on a clustered platform under load, with its report
	$(RUN) pytest tests/chaos -m 'not k8s' -p no:cacheprovider

asyncapi: install ## Regenerate the committed AsyncAPI document
	$(RUN) python -m axonal_events.asyncapi > docs/asyncapi.json

nats-users: install ## Regenerate the NATS users and permissions of deploy/ (compose and Kubernetes)
	$(RUN) python scripts/nats-users

k8s-smoke: install ## The agent's Kubernetes executor runs a job on the cluster of KUBECONFIG (namespace AXONAL_K8S_NAMESPACE)
	$(RUN) pytest -m k8s tests/integration/agent/kubernetes

k8s-fields: install ## Regenerate the Kubernetes field names the spec library checks
	$(RUN) python libs/spec/tools/k8s_fields.py > libs/spec/src/axonal_spec/models/k8s_fields.json

clean: ## Remove the virtualenv, caches, the UI's build and node_modules, test output
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache $(WEB)/dist $(WEB)/node_modules test-output
