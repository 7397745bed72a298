# Hexkeep's commands. `make run` sets up and serves the demo; `make test` runs the whole suite.
# Both install what they need into .venv from requirements*.txt, with every package (the pins'
# own dependencies too) held to the version in requirements.lock; the browser tests also need
# Debian's chromium, which `make test` installs when it is missing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

LOCK := requirements.lock

.PHONY: run test deps test-deps lock system-test-deps check-deploy bench bench-serve clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade -c $(LOCK) pip

$(VENV)/.deps: requirements.txt $(LOCK) $(BIN)/python
	$(BIN)/pip install --quiet -c $(LOCK) -r requirements.txt
	touch $@

$(VENV)/.test-deps: requirements.txt requirements-dev.txt $(LOCK) $(BIN)/python
	$(BIN)/pip install --quiet -c $(LOCK) -r requirements-dev.txt
	touch $@ $(VENV)/.deps

deps: $(VENV)/.deps
test-deps: $(VENV)/.test-deps

## Write requirements.lock again from a fresh virtual environment with requirements-dev.txt
## installed (after changing a pin in requirements*.txt).
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet -r requirements-dev.txt
	{ sed -n '1,/^[^#]/{/^#/p}' $(LOCK); \
	  .lock-venv/bin/pip freeze --all --exclude-editable | grep -v '^setuptools=='; } > $(LOCK).new
	mv $(LOCK).new $(LOCK)
	rm -rf .lock-venv

# Browser tests drive Debian's chromium; PDF checks use poppler's pdftoppm.
system-test-deps:
	@if ! command -v chromium >/dev/null || ! command -v pdftoppm >/dev/null; then \
		echo "Installing chromium and poppler-utils from Debian's packages"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium poppler-utils >/dev/null; \
	fi

## Set up and serve the demo site on http://127.0.0.1:8000 (SQLite, demo campaigns loaded), with
## the background worker (campaign books, notifications) running beside the web server; Ctrl-C
## stops both.
run: deps
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo
	DEBUG=1 $(BIN)/python manage.py db_worker --no-startup-delay & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

## Install everything the tests need, lint with ruff, and run the whole suite, browser tests included.
test: test-deps system-test-deps
	$(BIN)/ruff check .
	DEBUG=1 $(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

## Print the benchmark figures: every script in bench/ but the server's (bench-serve), each
## explained at its top.
bench: deps
	DEBUG=1 $(BIN)/python bench/map_page.py
	DEBUG=1 $(BIN)/python bench/mk_year.py
	DEBUG=1 $(BIN)/python bench/simple_battles.py
	DEBUG=1 $(BIN)/python bench/sheets.py
	DEBUG=1 $(BIN)/python bench/sns_campaign.py
	DEBUG=1 $(BIN)/python bench/sns_turn.py
	DEBUG=1 $(BIN)/python bench/wok_economy.py
	DEBUG=1 $(BIN)/python bench/wok_battles.py
	DEBUG=1 $(BIN)/python bench/ms_game.py

## The real server set-up (gunicorn, 2 workers, PostgreSQL on 127.0.0.1, DEBUG off): requests/s
## and answer times of the phone play page beside the sign-in page and a static file; then every
## demo player's four phone pages, rendered and kept, at 1x and 16x.
bench-serve: deps
	$(BIN)/python bench/serve.py
	$(BIN)/python bench/phone_pages.py

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-* media staticfiles test-output
