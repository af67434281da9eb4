# Two user-facing targets (quoted in the README):
#   make lab   - a .venv with the package (editable) and JupyterLab, then open examples/
#   make test  - install everything the tests need on a fresh Debian machine (as root),
#                then ruff, mypy and the whole pytest suite, browser tests included.
# The JavaScript bundle is built by the package build (hatch-jupyter-builder runs
# `npm install` + `npm run build`), so every pip install below also builds it.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CHROMIUM := /usr/bin/chromium

.PHONY: lab test

lab:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e . jupyterlab
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) examples/

test:
	if [ ! -x $(CHROMIUM) ]; then \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi
	test -x $(CHROMIUM) || { echo "$(CHROMIUM) is missing: the browser tests need it" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e '.[test]'
	test -s tenleave_widget/static/widget.js || { echo "the JS build did not run" >&2; exit 1; }
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest
