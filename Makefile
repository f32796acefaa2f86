# Two entry points: `make run` serves the site, `make test` runs every check, browser tests included.
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# PROCESSES=2 (or more): that many processes sharing the SQLite file behind nginx (zerogames/front.py);
# on two cores they carry about a thousand tables, which one cannot (README: One machine, both cores).
PROCESSES ?= 1

.PHONY: run test lint bench chromium servers

# Served as zerogames/serving.py says: one gevent worker (see README for several behind a proxy).
run: $(VENV)/.installed
ifeq ($(PROCESSES),1)
	$(BIN)/gunicorn -c python:zerogames.serving --bind 127.0.0.1:$(PORT) 'app:create_app()'
else
	@$(MAKE) --no-print-directory servers
	$(BIN)/python -m zerogames.front --port $(PORT) --processes $(PROCESSES)
endif

# Two workers, one per core; a test file stays on one worker (each browser test has its own server).
test: $(VENV)/.dev-installed chromium servers
	$(BIN)/ruff check .
	$(BIN)/pytest -n 2 --dist loadfile

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/engine.py

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml
	test -x $(BIN)/python || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(VENV)/.installed $@

# Playwright's own browser download cannot reach its host everywhere: Debian's Chromium is used
# where it is (or can be) installed, Playwright's download elsewhere.
chromium: $(VENV)/.dev-installed
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else $(BIN)/python -m playwright install chromium; fi

# PostgreSQL and nginx for the tests of several processes (each test starts its own, on free ports):
# Debian's packages where they can be installed, else those tests skip.
servers:
	@if { command -v initdb || ls /usr/lib/postgresql/*/bin/initdb; } >/dev/null 2>&1 \
		&& { command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql nginx; \
	fi
