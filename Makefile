# Two user-facing targets (quoted in the README):
#   make lab   - a .venv with the package (editable, with the Dask extra the analysis
#                notebook uses) and JupyterLab, then open my-examples/, a working copy
#                of examples/ (made on first use; git ignores it), so that running and
#                autosaving the notebooks never modifies the tracked examples.
#   make test  - install everything the tests need on a fresh Debian machine (as root),
#                then ruff, Biome, mypy and the whole pytest suite, browser tests included
#                (with the optional Dask extra, which the simulate tests exercise): the
#                fast lane's tests in JOBS processes, then the example notebooks (the
#                notebook lane, which writes their executed copies), then the
#                documentation site in strict mode (make docs: it shows those copies, with
#                their outputs), then the browser and slow tests in one process.
#   make docs  - the documentation site, site/ (mkdocs.yml, the docs extra), from docs/ in
#                strict mode: a broken link, a dangling cross-reference or any warning
#                fails it. The example notebooks are shown as the test suite last ran them
#                (test-artifacts/notebooks/), and lite/ is copied in when make lite built it.
# For developers:
#   make check - the fast lane, in an installed .venv: ruff, Biome (js/), mypy and every
#                test but those marked browser, notebook or slow (tests/conftest.py), in
#                JOBS processes; no install step.
# An extra:
#   make lite  - lite/: a static JupyterLite site of the examples, the package and Python
#                in the browser (tools/lite/build.py), built in .venv-lite (the lite
#                extra) from PyPI and npm packages; a teacher serves the folder with any
#                static server (python3 -m http.server -d lite 8000).
# The JavaScript bundle is built by the package build (hatch-jupyter-builder runs
# `npm install` + `npm run build`), so every pip install below also builds it.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CHROMIUM := /usr/bin/chromium
# The TypeScript's linter and formatter (biome.json; `npm run format` rewrites js/), from
# node_modules (package.json's devDependencies): `biome ci` fails on a lint finding or a
# file not formatted.
BIOME := node_modules/.bin/biome

# The fast lane (FAST) runs in JOBS processes (pytest-xdist, the test extra; worksteal: a
# worker whose tests are done takes some of the other's); make test then runs the notebook
# tests, and the browser and slow tests, in one process each (each test starts a Jupyter
# server or Chromium, or a Dask cluster). The notebook lane runs before the docs build so
# that CI's site shows the notebooks with their outputs; the two -m expressions together
# select every test the fast lane does not (a test both notebook and slow runs once).
FAST := not browser and not notebook and not slow
# Every lane keeps the bytecode and pytest's rewritten test modules in __pycache__/ (git
# ignores it) even where the environment says PYTHONDONTWRITEBYTECODE: collecting the
# suite again from source costs each process 3.6 s more CPU (8.1 s against 4.5 s), and
# each tenleave command a test starts would compile the package again (the CLI tests of
# test_cli, test_cli_input and test_infer: 40.3 CPU s from source, 31.9 s cached).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest
JOBS ?= 2
PARALLEL := -n $(JOBS) --dist worksteal

LAB_DIR ?= my-examples
LAB_FLAGS ?=

.PHONY: lab lab-open test lite check docs

lab:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e '.[examples,distributed]' jupyterlab
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -c "$$COMPILE_KERNEL"
	$(MAKE) --no-print-directory lab-open

# numba compiles the play-out kernel once per install (about 8 s of CPU, then under 1 s
# from its cache): here, not at the first table's first analysis nor in each test worker.
define COMPILE_KERNEL
from tenleave_widget.analysis.playouts import default_kernel
if default_kernel() == "compiled":
    from tenleave_widget.analysis.playout_numba import compile_kernel
    compile_kernel()
endef
export COMPILE_KERNEL

# The working copy: every file of examples/ that it does not hold yet is copied in; a
# notebook you have changed is kept (a note says when examples/ has a newer version;
# delete your copy to get it). tests/widget/test_lab.py starts JupyterLab through this target.
lab-open:
	$(BIN)/python -c "$$COPY_EXAMPLES" examples $(LAB_DIR)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_FLAGS) $(LAB_DIR)/

define COPY_EXAMPLES
import filecmp, shutil, sys
from pathlib import Path
src, dst = Path(sys.argv[1]), Path(sys.argv[2])
for f in sorted(src.rglob("*")):
    if f.is_dir() or {"__pycache__", ".ipynb_checkpoints"} & set(f.parts):
        continue
    to = dst / f.relative_to(src)
    if not to.exists():
        to.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, to)
    elif not filecmp.cmp(f, to, shallow=False) and f.stat().st_mtime > to.stat().st_mtime:
        print(f"{to} kept: {f} is newer (delete {to} to get it)")
print(f"JupyterLab opens {dst}/, your working copy of {src}/")
endef
export COPY_EXAMPLES

test:
	if [ ! -x $(CHROMIUM) ]; then \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi
	test -x $(CHROMIUM) || { echo "$(CHROMIUM) is missing: the browser tests need it" >&2; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e '.[test,distributed,docs]'
	test -s tenleave_widget/static/widget.js || { echo "the JS build did not run" >&2; exit 1; }
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -c "$$COMPILE_KERNEL"
	$(BIN)/ruff check .
	$(BIOME) ci
	$(BIN)/mypy
	$(PYTEST) $(PARALLEL) -m "$(FAST)"
	$(PYTEST) -m "notebook"
	$(MAKE) --no-print-directory docs
	$(PYTEST) -m "not ($(FAST)) and not notebook"

check:
	test -x $(BIN)/python || { echo "no $(VENV): run make test once (it installs)" >&2; exit 1; }
	$(BIN)/python -c "import xdist, griffe" 2>/dev/null || \
	  { echo "$(VENV) lacks the test extra: $(BIN)/pip install -e '.[test]'" >&2; exit 1; }
	test -x $(BIOME) || { echo "node_modules lacks Biome (a devDependency): npm install" >&2; exit 1; }
	$(BIN)/ruff check .
	$(BIOME) ci
	$(BIN)/mypy
	$(PYTEST) -q $(PARALLEL) -m "$(FAST)"

# NO_MKDOCS_2_WARNING: mkdocs 1.6 prints a banner about its successor on every build.
docs:
	test -x $(BIN)/mkdocs || { echo "$(VENV) has no mkdocs: $(BIN)/pip install -e '.[docs]'" >&2; exit 1; }
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# The wheel is built once (its npm build included; SKIP_JUPYTER_BUILDER=1 reuses a built
# bundle) and installed with the lite extra, whose front-end extensions the site gets.
LITE_VENV ?= .venv-lite
LITE_WORK ?= build/lite
LITE_OUT ?= lite

lite:
	test -x $(LITE_VENV)/bin/python || $(PYTHON) -m venv $(LITE_VENV)
	rm -rf $(LITE_WORK)/dist
	$(LITE_VENV)/bin/pip wheel --quiet --no-deps -w $(LITE_WORK)/dist .
	$(LITE_VENV)/bin/pip install --quiet "$$(ls $(LITE_WORK)/dist/tenleave_widget-*.whl)[lite]"
	$(LITE_VENV)/bin/python tools/lite/build.py --wheel $(LITE_WORK)/dist/tenleave_widget-*.whl \
	  --work $(LITE_WORK) --out $(LITE_OUT)
