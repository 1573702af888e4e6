PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PURE_MODULES := matches/rules.py matches/notation.py matches/state.py

.PHONY: venv run test test-sqlite check bench migrate

# The stamp makes `venv` re-install only when requirements.txt changes.
venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

migrate: venv
	$(BIN)/python manage.py migrate --no-input

run: migrate
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: venv
	$(BIN)/python -m pytest

# The store's guarantees on the embedded database too (CI's `make test` runs on PostgreSQL).
test-sqlite: venv
	env -u DATABASE_URL -u REDIS_URL -u CI $(BIN)/python -m pytest tests/store -q

check: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(PURE_MODULES)

bench: venv
	$(BIN)/python manage.py bench
