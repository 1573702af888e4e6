PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: venv run test test-core test-sqlite check bench migrate

# The stamps make the venv re-install only when a requirements file changes: the runtime
# set (requirements.txt) for `make run`, the development set on top of it for the rest.
venv: $(VENV)/.installed-dev

$(VENV)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

migrate: $(VENV)/.installed
	$(BIN)/python manage.py migrate --no-input

# Debug on: the development key and plain HTTP on this machine, served by uvicorn as in
# production (HTTP and websockets, through `manage.py runserver`). A port taken (carambole
# serving there already) is refused before anything is loaded; SIGTERM stops it.
# `make run PORT=8001`: set on the command line only (a shell's own HOST or PORT is ignored).
HOST = 127.0.0.1
PORT = 8000
run: migrate
	DJANGO_DEBUG=1 exec $(BIN)/python manage.py run_demo --host $(HOST) --port $(PORT)

# The whole suite, in one process per core (pytest-xdist), browser, Redis and worker tests
# included wherever Chromium and redis-server are installed. The few long journeys marked
# `journey` are left to CI (CI=true) and to `make test-all`.
JOURNEYS = $(if $(filter true,$(CI)),,-m "not journey")
test: venv
	$(BIN)/python -m pytest -n auto --maxprocesses 4 --dist worksteal $(JOURNEYS)

# The whole suite with the long journeys, as CI runs it.
test-all: venv
	$(BIN)/python -m pytest -n auto --maxprocesses 4 --dist worksteal

# The pure core alone (rules, notation, the fold, the simulator): no server, no browser.
test-core: venv
	$(BIN)/python -m pytest -p no:xdist -q tests/matches tests/test_simulator.py tests/test_purity.py

# The store, the projector and the standings on the embedded database too (what `make run`
# serves; CI's `make test` runs on PostgreSQL).
test-sqlite: venv
	env -u DATABASE_URL -u REDIS_URL $(BIN)/python -m pytest -n auto --maxprocesses 4 --dist worksteal -q \
		tests/store tests/matches/test_ranking.py tests/replay/projections tests/replay/test_tasks.py \
		tests/replay/test_tasks_worker.py tests/replay/api/test_competitions.py \
		tests/replay/web/test_competitions.py tests/replay/live/test_standings_consumer.py

# stubtest: the stubs in stubs/ have the names and signatures of the installed libraries
# (a stub that drifted after an upgrade would let a wrong call pass mypy); the libraries
# are imported as at run time, Django set up, since channels reads settings.
STUBBED := $(patsubst stubs/%/,%,$(wildcard stubs/*/))
check: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo
	MYPYPATH=stubs DJANGO_SETTINGS_MODULE=carambole.settings $(BIN)/python -c \
		'import sys, django; django.setup(); from mypy.stubtest import main; sys.exit(main())' \
		--concise --ignore-missing-stub --allowlist stubs/stubtest-allowlist.txt \
		--mypy-config-file pyproject.toml $(STUBBED)

bench: venv
	$(BIN)/python -m bench
