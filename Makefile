# Hexkeep's commands. `make run` sets up and serves the demo; `make test` runs the whole suite.
# Both install what they need into .venv from requirements*.txt; the browser tests also need
# Debian's chromium, which `make test` installs when it is missing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test deps test-deps system-test-deps check-deploy bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.deps: requirements.txt $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.test-deps: requirements.txt requirements-dev.txt $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.deps

deps: $(VENV)/.deps
test-deps: $(VENV)/.test-deps

# Browser tests drive Debian's chromium; PDF checks use poppler's pdftoppm.
system-test-deps:
	@if ! command -v chromium >/dev/null || ! command -v pdftoppm >/dev/null; then \
		echo "Installing chromium and poppler-utils from Debian's packages"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium poppler-utils >/dev/null; \
	fi

## Set up and serve the demo site on http://127.0.0.1:8000 (SQLite, demo campaigns loaded).
run: deps
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

## Install everything the tests need, lint with ruff, and run the whole suite, browser tests included.
test: test-deps system-test-deps
	$(BIN)/ruff check .
	DEBUG=1 $(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: deps
	DEBUG=1 $(BIN)/python bench/map_page.py

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-* media staticfiles test-output
