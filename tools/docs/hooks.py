"""mkdocs hooks of the documentation site (mkdocs.yml, ``hooks:``).

- **Navigation**: a page of ``docs/`` that mkdocs.yml's ``nav`` does not list is added to
  the section of its folder (``guides/`` to Guides, ``methods/`` to How it works,
  ``reference/`` and any other to Reference), so a new page is never left out.
- **Example notebooks**: ``examples/*.ipynb`` become pages under ``examples/``, rendered by
  mkdocs-jupyter. The copy the test suite executed (``test-artifacts/notebooks/``, written
  by ``tests/widget/test_examples.py``) is shown when it was made from the notebook as it
  is now; otherwise the stored notebook, without outputs, and the Examples page says so.
- **Generated pages**: markers in the Markdown are replaced — ``<!-- api-reference -->``
  by an mkdocstrings block per public name of ``tenleave_widget.__all__``,
  ``<!-- cli-reference -->`` by the help of every ``tenleave`` command (from its argparse
  parser), ``<!-- benchmark-results -->`` by a table per ``benchmarks/results/*.json``,
  ``<!-- notebook-status -->`` and ``<!-- lite-status -->`` by what this build holds.
- **JupyterLite**: ``lite/`` (``make lite``) is copied to ``site/lite/`` when it exists.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import inspect
import io
import json
import logging
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import crossrefs  # noqa: E402  (beside this file)
import docstrings  # noqa: E402

log = logging.getLogger("mkdocs.plugins.tenleave_hooks")

EXAMPLES = ROOT / "examples"
EXECUTED = ROOT / "test-artifacts" / "notebooks"
"""The test suite's executed copies, as ``EXECUTED / "examples" / NAME.ipynb``."""
LITE = ROOT / "lite"
RESULTS = ROOT / "benchmarks" / "results"
SECTIONS = {"guides": "Guides", "methods": "How it works", "reference": "Reference"}
LAYERS = {
    "engine": "The engine: games, turns, rules and records",
    "analysis": "Analysis: odds, inference and whole-game values",
    "table": "The table: panels and sizes",
    "programs": "Programs",
    "widget": "The widget: tables in a notebook",
    "errors": "Errors",
}
ROW_FIRST = ("command", "date", "machine", "load")
"""What every row of a result file says first, when it says it."""


# ------------------------------------------------------------ navigation

def _listed(nav: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(nav, str):
        out.add(nav)
    elif isinstance(nav, list):
        for item in nav:
            out |= _listed(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            out |= _listed(value)
    return out


def _section(nav: list[Any], title: str) -> list[Any]:
    for item in nav:
        if isinstance(item, dict) and title in item and isinstance(item[title], list):
            return item[title]  # type: ignore[no-any-return]
    new: list[Any] = []
    nav.append({title: new})
    return new


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    crossrefs.RENDERED.clear()
    crossrefs.RENDERED.update(path for _, path, _ in public_names())
    nav = config.nav
    if nav is None:
        return config
    listed = _listed(nav)
    examples = _section(nav, "Examples")
    examples += [f"examples/{nb.name}" for nb in sorted(EXAMPLES.glob("*.ipynb"))]
    docs = Path(config.docs_dir)
    for page in sorted(docs.rglob("*.md")):
        rel = page.relative_to(docs).as_posix()
        if rel in listed:
            continue
        title = SECTIONS.get(rel.split("/")[0], "Reference")
        _section(nav, title).append(rel)
    return config


# ------------------------------------------------------------ notebooks

def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def notebook_sources() -> list[tuple[Path, Path, bool]]:
    """(stored notebook, the file to show, whether it is an executed copy) per example."""
    out = []
    for nb in sorted(EXAMPLES.glob("*.ipynb")):
        copy = EXECUTED / "examples" / nb.name
        executed = False
        if copy.exists():
            with contextlib.suppress(ValueError, KeyError, OSError):
                meta = json.loads(copy.read_text(encoding="utf-8"))["metadata"]
                executed = meta["tenleave_executed"]["source_sha256"] == _sha(nb)
        out.append((nb, copy if executed else nb, executed))
    return out


PLOTLY = "application/vnd.plotly.v1+json"
PLOTLY_JS = "assets/plotly.min.js"
"""The plotly.js the package's plotly ships, served by the site (no CDN)."""
PREPARED = ROOT / "build" / "docs-notebooks"


DOC_LINK = re.compile(r"\]\(\.\./docs/(?P<page>[^)#\s]+)\.md(?P<anchor>#[^)\s]*)?\)")
"""A notebook's link to a page of docs/ (``../docs/RULES.md``), made the site's."""


def for_the_site(nb_path: Path) -> Path:
    """A copy of a notebook for its page, ``PREPARED / "examples" / NAME``: its links to
    ``docs/`` made the site's, and its Plotly outputs drawn in the page by the site's
    plotly.js (nbconvert draws none of them), on white, as plotly's default template
    draws them (a figure with a transparent background stays readable in the dark
    scheme)."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    n = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            text = "".join(cell["source"]) if isinstance(cell["source"], list) \
                else cell["source"]
            cell["source"] = DOC_LINK.sub(
                lambda m: f"](../{m['page']}.html{m['anchor'] or ''})", text)
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if PLOTLY in data and "text/html" not in data:
                n += 1
                fig = json.dumps(data[PLOTLY]).replace("</", "<\\/")
                div = f"tl-plot-{nb_path.stem}-{n}"
                load = f'<script src="../{PLOTLY_JS}"></script>' if n == 1 else ""
                data["text/html"] = load + (
                    f'<div id="{div}" class="tl-plotly" style="background: #fff"></div><script>'
                    f'window.addEventListener("load", function () {{ var f = {fig}; '
                    f'Plotly.newPlot("{div}", f.data, f.layout, {{responsive: true}}); }});'
                    "</script>")
    out_path = PREPARED / "examples" / nb_path.name
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(nb), encoding="utf-8")
    return out_path


@event_priority(100)  # before mkdocs-jupyter looks for notebooks among the files
def on_files(files: Files, config: MkDocsConfig) -> Files:
    import plotly

    for nb, shown, _ in notebook_sources():
        src_dir = for_the_site(shown).parents[1]
        files.append(File(f"examples/{nb.name}", str(src_dir), config.site_dir,
                          config.use_directory_urls))
    plotly_js = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    files.append(File.generated(config, PLOTLY_JS, abs_src_path=str(plotly_js)))
    return files


def notebook_status() -> str:
    rows = ["| notebook | shown |", "|---|---|"]
    for nb, _, executed in notebook_sources():
        page = f"[`{nb.name}`](examples/{nb.name})"
        rows.append(f"| {page} | " + ("with the outputs of the test suite's run"
                                      if executed else "without outputs (not run since it "
                                      "changed: run `make test`, or its notebook lane "
                                      "`pytest -m notebook` and then `make docs`)") + " |")
    return "\n".join(rows)


# ------------------------------------------------------------ the API reference

def public_names() -> list[tuple[str, str, str]]:
    """(name, the canonical path mkdocstrings renders, group) per name of ``__all__``: the
    group is the layer that defines it (``"errors"`` for the exceptions), and within a
    group classes come first, then functions, modules and constants."""
    import tenleave_widget as tw

    out = []
    for name in tw.__all__:
        obj = getattr(tw, name)
        if inspect.ismodule(obj):
            path, rank = obj.__name__, 2
        elif hasattr(obj, "__qualname__") and hasattr(obj, "__module__"):
            path = f"{obj.__module__}.{obj.__qualname__}"
            rank = 0 if inspect.isclass(obj) else 1
        else:  # a constant: the module that defines it
            path, rank = _defining_module(tw, name) + "." + name, 3
        group = path.split(".")[1] if path.count(".") >= 1 else ""
        if inspect.isclass(obj) and issubclass(obj, Exception):
            group = "errors"
        out.append((rank, name, path, group))
    return [(name, path, group) for _, name, path, group in sorted(
        out, key=lambda t: t[0])]


def _defining_module(tw: Any, name: str) -> str:
    import griffe

    found = griffe.load("tenleave_widget", resolve_aliases=True, resolve_external=False)
    target = found[name]
    path = target.final_target.path if target.is_alias else target.path
    return str(path).rsplit(".", 1)[0]


def _directive(path: str) -> str:
    """mkdocstrings' directive for one public name; a class's methods from a mixin of the
    package (the widget's lesson methods) are rendered with it."""
    inherited = docstrings.inherited_names(path)
    if not inherited:
        return f"::: {path}\n"
    return (f"::: {path}\n    options:\n      inherited_members: "
            f"{json.dumps(inherited)}\n")


def api_reference() -> str:
    by_layer: dict[str, list[tuple[str, str]]] = {}
    for name, path, layer in public_names():
        by_layer.setdefault(layer, []).append((name, path))
    parts = []
    for layer, title in LAYERS.items():
        names = by_layer.pop(layer, [])
        if names:
            parts.append(f"## {title}\n")
            parts += [_directive(path) for _, path in names]
    for layer, names in by_layer.items():
        log.warning("API reference: public names in no known layer (%s): %s", layer,
                    ", ".join(n for n, _ in names))
    return "\n".join(parts)


# ------------------------------------------------------------ the CLI reference

def cli_reference() -> str:
    import argparse

    from tenleave_widget.programs import cli

    os.environ["COLUMNS"] = "92"
    parser = cli._parser()
    parts = ["## `tenleave`\n", "```\n" + parser.format_help().rstrip() + "\n```\n"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                parts.append(f"## `tenleave {command}`\n")
                parts.append("```\n" + sub.format_help().rstrip() + "\n```\n")
    return "\n".join(parts)


# ------------------------------------------------------------ benchmark results

def _short(value: Any) -> Any:
    """``value`` with every float to 4 significant digits."""
    if isinstance(value, float):
        return float(f"{value:.4g}")
    if isinstance(value, list):
        return [_short(v) for v in value]
    if isinstance(value, dict):
        return {k: _short(v) for k, v in value.items()}
    return value


def _cell(value: Any) -> str:
    if isinstance(value, float):
        text = f"{value:.4g}"
    elif isinstance(value, (dict, list)):
        text = json.dumps(_short(value), separators=(", ", ": "))
    else:
        text = str(value)
    text = html.escape(text).replace("|", "\\|").replace("\n", " ")
    return f"`{text}`" if isinstance(value, str) and value.startswith(("python", "nice",
                                                                        "taskset", ".venv",
                                                                        "tenleave ")) else text


def _table(rows: list[dict[str, Any]], shared: dict[str, Any]) -> str:
    """Rows as a Markdown table, the fields every row should say first."""
    rows = [{**{k: v for k, v in shared.items() if k in ROW_FIRST}, **r} for r in rows]
    columns: list[str] = [k for k in ROW_FIRST if any(k in r for r in rows)]
    for row in rows:
        columns += [k for k in row if k not in columns]
    table = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    table += ["| " + " | ".join(_cell(r.get(c, "")) for c in columns) + " |" for r in rows]
    return "\n".join(table)


def result_table(path: Path) -> str:
    """One result file as Markdown: its title, its own fields, then a table per list of
    rows it holds (a file that is a list is one table; an object's ``rows`` or
    ``results`` is the main one, any other list of objects a table under its name) and a
    two-column table per object it holds."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        log.warning("benchmarks/results/%s is not JSON: %s", path.name, e)
        return ""
    if isinstance(data, list):
        data = {"rows": data}
    if not isinstance(data, dict):
        data = {"value": data}
    title = data.pop("title", None) or data.pop("benchmark", None) or path.stem
    out = [f"### {html.escape(str(title))}\n", f"From `benchmarks/results/{path.name}`."]
    if "description" in data:
        out.append(html.escape(str(data.pop("description"))))
    tables = {k: v for k, v in data.items()
              if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)}
    objects = {k: v for k, v in data.items() if isinstance(v, dict)}
    fields = {k: v for k, v in data.items() if k not in tables and k not in objects}
    if fields:
        out.append(" · ".join(f"**{html.escape(k)}**: {_cell(v)}" for k, v in fields.items()))
    said = set(fields) | {k for rows in tables.values() for r in rows for k in r}
    missing = [k for k in ROW_FIRST if k not in said]
    if missing:
        out.append(f"*The file does not say its {', '.join(missing)}.*")
    for name, rows in tables.items():
        if name not in ("rows", "results"):
            out.append(f"**{html.escape(name)}**")
        out.append(_table(rows, fields))
    for name, obj in objects.items():
        out.append(f"**{html.escape(name)}**")
        out.append("| | |\n|---|---|\n" + "\n".join(
            f"| {html.escape(str(k))} | {_cell(v)} |" for k, v in obj.items()))
    return "\n\n".join(out) + "\n"


def benchmark_results() -> str:
    files = sorted(RESULTS.glob("*.json")) if RESULTS.is_dir() else []
    if not files:
        return ("*No result files yet: no benchmark has written "
                "`benchmarks/results/*.json`.*\n")
    return "\n".join(result_table(f) for f in files)


# ------------------------------------------------------------ JupyterLite

def lite_status() -> str:
    if (LITE / "index.html").exists():
        # raw HTML: lite/ is copied after the build, so mkdocs cannot check the link
        return ('This build holds the site: <strong><a href="lite/index.html">open '
                "JupyterLite</a></strong> "
                "(served from the same folder as these pages; a static server is enough, "
                "e.g. `python3 -m http.server -d site 8000`).")
    return ("!!! note \"Not in this build\"\n    `lite/` has not been built here, so this "
            "copy of the documentation does not hold the site. Run `make lite`, then "
            "`make docs`: the site is then copied to `site/lite/` and linked here.")


# ------------------------------------------------------------ the markers

MARKERS = {
    "<!-- api-reference -->": api_reference,
    "<!-- cli-reference -->": cli_reference,
    "<!-- benchmark-results -->": benchmark_results,
    "<!-- notebook-status -->": notebook_status,
    "<!-- lite-status -->": lite_status,
}


INCLUDE = re.compile(r"<!-- include: (?P<file>[\w.-]+) -->")
ROOT_LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?P<anchor>#[^)\s]*)?\)")


def include(m: re.Match[str]) -> str:
    """A file of the repository's root (DEVELOP.md, CHANGELOG.md) as a page: its links
    to the root's files and to docs/ made the site's."""
    pages = {"README.md": "index.md", "CHANGELOG.md": "changelog.md",
             "DEVELOP.md": "develop.md", "docs": "index.md"}

    def link(found: re.Match[str]) -> str:
        target, anchor = found["target"], found["anchor"] or ""
        if target.startswith("docs/"):
            target = target[len("docs/"):]
        target = pages.get(target, target)
        return f"]({target}{anchor})"

    text = (ROOT / m["file"]).read_text(encoding="utf-8")
    return ROOT_LINK.sub(link, text)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    markdown = INCLUDE.sub(include, markdown)
    for marker, make in MARKERS.items():
        if marker in markdown:
            with contextlib.redirect_stdout(io.StringIO()):
                markdown = markdown.replace(marker, make())
    return markdown


def on_post_build(config: MkDocsConfig) -> None:
    site = Path(config.site_dir)
    if (LITE / "index.html").exists():
        shutil.copytree(LITE, site / "lite", dirs_exist_ok=True)
        log.info("JupyterLite: lite/ copied to %s", site / "lite")
    else:
        log.info("JupyterLite: no lite/ (make lite builds it); the site links to nothing")
