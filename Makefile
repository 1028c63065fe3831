# The commands the README and docs/ name. Everything runs from the checkout inside .venv.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
UV_VERSION := 0.13.9
# The `icu` extra of pyproject.toml: built from source, so installed where it builds.
PYICU := pyicu==2.17
# uv must never fetch a Python of its own: the system's python3 is the only one.
export UV_PYTHON_DOWNLOADS := never

.PHONY: venv run test lint bench format lock serve-prod docs messages

venv: $(VENV)/.requirements-installed

# Re-installs only when requirements.lock changes. Bytecode is compiled at install time
# because PYTHONDONTWRITEBYTECODE would otherwise make every start compile Django anew.
$(VENV)/.requirements-installed: requirements.lock
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv pip install --python $(PY) --compile-bytecode -r requirements.lock
	$(BIN)/uv pip install --python $(PY) --compile-bytecode "$(PYICU)" \
	  || echo "make venv: $(PYICU) did not build (apt install libicu-dev pkg-config g++);" \
	     "names sort in the built-in order"
	touch $@

# Serves every interface (HOST) on PORT: `make run PORT=8123 HOST=127.0.0.1`. The links it
# hands out carry this computer's address on the local network (LAN_URL, found and printed
# by scripts/lan_url.py; empty without a network) when the page was opened at 127.0.0.1 or
# localhost, unless LAN_URL or SITE_URL is already set.
PORT ?= 8000
HOST ?= 0.0.0.0
run: venv
	@case "$(PORT)" in ''|*[!0-9]*) echo "make run: PORT=$(PORT) is not a port number" >&2; exit 2;; esac
	$(PY) manage.py migrate
	LAN_URL="$${LAN_URL:-$$($(PY) scripts/lan_url.py $(PORT))}" $(PY) manage.py runserver $(HOST):$(PORT)

# The tests run on every core (pytest-xdist), each worker with a test database of its own;
# a file's tests stay on one worker (--dist loadfile), so a file may share a server or a
# Redis state among its own tests. (pytest-xdist 3.8's xdist_group marks do nothing under
# pytest 9: the group never reaches the node id it is read from.)
test: lint
	$(PY) -m pytest -n auto --dist loadfile

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/djlint templates --check
	$(BIN)/djlint templates --lint
	$(BIN)/mypy --strict games/engine
	$(BIN)/mypy
	$(PY) manage.py makemigrations --check --dry-run

bench: venv
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/ledger.py
	$(PY) benchmarks/api.py
	$(PY) benchmarks/arrange.py
	$(PY) benchmarks/review_batch.py
	$(PY) benchmarks/sheets.py
	$(PY) benchmarks/growth.py
	$(PY) benchmarks/payments.py
	$(PY) benchmarks/live_table.py

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	$(BIN)/djlint templates --reformat

# Re-resolves requirements.lock after a change to pyproject.toml.
lock: venv
	$(BIN)/uv pip compile pyproject.toml --extra dev -o requirements.lock --python-version 3.11

# The catalogues (Vietnamese, Simplified and Traditional Chinese): collects the marked
# strings into locale/<lang>/LC_MESSAGES/django.po, then compiles django.mo (both committed;
# docs/contributing.md). Django names the Chinese folders zh_Hans and zh_Hant. Needs GNU
# gettext (`apt install gettext`) for this target only: running the site reads the .mo.
CATALOGUES := vi zh_Hans zh_Hant
MESSAGES_IGNORE := --ignore=.venv --ignore=site --ignore=benchmarks --ignore=docs
messages: venv
	$(PY) manage.py makemessages $(CATALOGUES:%=-l %) --no-obsolete --no-location $(MESSAGES_IGNORE)
	$(PY) manage.py compilemessages $(CATALOGUES:%=-l %) $(MESSAGES_IGNORE)

# The documentation site (mkdocs.yml, docs/) into site/. --strict turns every warning, a
# broken link or a page missing from the nav, into a failure. NO_MKDOCS_2_WARNING only
# silences Material's notice about its own end of life, which is no warning about the docs.
docs: venv
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# Screenshots of the table-side pages for the docs (headless /usr/bin/chromium).
.PHONY: screenshots
screenshots: venv
	$(PY) docs/screenshots.py

# Production mode as plain processes: migrate, collectstatic, gunicorn and a Celery worker
# against the local PostgreSQL and Redis (scripts/serve_prod.sh; docs/operations.md).
serve-prod: venv
	scripts/serve_prod.sh
