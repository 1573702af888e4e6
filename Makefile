PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PURE_MODULES := matches/rules.py matches/notation.py matches/state.py

.PHONY: venv run test check bench migrate

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

check: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(PURE_MODULES)

bench: venv
	$(BIN)/python manage.py bench
