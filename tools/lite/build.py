"""Build ``lite/``: a static JupyterLite site of the examples, from PyPI and npm packages
alone (issue 25). Run by ``make lite``, in the environment of the ``lite`` extra:

    python tools/lite/build.py --wheel dist/tenleave_widget-0.1.0-py3-none-any.whl

What it does (every download through pip or npm, cached in ``build/lite/cache``):

1. **Pyodide**: the npm package :data:`PYODIDE_NPM` (the core: the wasm, the stdlib, the
   lock) is unpacked into the site's ``static/pyodide/``.
2. **The packages the kernel loads from the lock** (micropip, IPython, jedi... and the
   project's dependencies that the lock has, such as traitlets): the closure over the
   lock's ``depends`` of :data:`KERNEL_START` and of what the site's wheels require,
   each downloaded from PyPI at the lock's version. They are pure-Python wheels, but not
   Pyodide's repacked files: the lock is trimmed to those entries and each one's
   ``file_name`` and ``sha256`` rewritten to the downloaded file.
3. **The site's wheels** (piplite): the project's wheel and every dependency the lock
   and the kernel do not provide (anywidget, ipywidgets, plotly...), at the version
   installed in this environment, whose front-end extensions the site is built with.
4. **The notebooks**: :data:`EXAMPLES`, each with a first cell that installs the package
   from the site, and the sample games they open.
5. ``jupyter lite build``, then ``disablePyPIFallback`` set (and checked) in the built
   ``jupyter-lite.json``: the kernel never asks the network for a package.

What the site leaves out, to be smaller (each cut measured with ``tools/lite/size.py``, the
README quotes the sizes): the parts of the site's wheels the browser's kernel never reads
(:data:`SLIM`: plotly's copies of its JupyterLab extension, which the site already has,
and its two bundles of plotly.js, each a stub saying so), and the icon fonts' legacy
formats no current browser asks for (:data:`OLD_FONTS`).
"""

from __future__ import annotations

import argparse
import base64
import copy
import fnmatch
import hashlib
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterable
from email.parser import HeaderParser
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYODIDE_NPM = "pyodide@314.0.7"
"""The Pyodide core (npm). jupyterlite-pyodide-kernel 0.8.6 expects 314.0.6; 314.0.7 works."""
KERNEL_START = ["micropip", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython"]
"""What the Pyodide kernel installs when it starts (its ``initKernel``)."""
EXAMPLES = ["play.ipynb", "classroom.ipynb", "review.ipynb", "odds.ipynb",
            "lookahead.ipynb"]
"""The examples that make sense in a browser (analysis.ipynb runs Dask clusters)."""
PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
INSTALL_CELL = (
    "# In the browser (JupyterLite): install the package from this site (no network).\n"
    "%pip install -q tenleave_widget\n"
    "# Plotly's fig.show() refuses to draw unless nbformat is importable, though it does not\n"
    "# use it to draw (and nbformat's jsonschema needs a compiled wheel Pyodide lacks here).\n"
    "import os, sys, types\n"
    'sys.modules.setdefault("nbformat", types.SimpleNamespace(__version__="5.10.4"))\n'
    'os.environ["PLOTLY_RENDERER"] = "plotly_mimetype"  # figures drawn by JupyterLab'
)
"""The first cell of each notebook of the site. Without the nbformat stand-in, the first
``fig.show()`` fails, and a failed cell makes the kernel drop the messages queued behind
it, the table's hello among them: the table then says "not connected" for good. The
renderer is JupyterLab's plotly extension alone (plotly's default in an unknown kernel adds
the ``notebook`` renderer, which puts plotly.js, 4.8 MB, in the first figure's output)."""

PLOTLY_JS_STUB = (
    "/* plotly.js is left out of this classroom site (tools/lite/build.py): fig.show() draws\n"
    "   with JupyterLab's plotly extension. */\n"
    'document.write("<p>plotly.js is not in this classroom site: show figures with '
    'fig.show() in the notebook.</p>");\n'
)
FIGURE_WIDGET_STUB = (
    "// plotly's FigureWidget bundle is left out of this classroom site (tools/lite/build.py)\n"
    "export default { render({ el }) { el.textContent = "
    '"FigureWidget is not in this classroom site: use fig.show()."; } };\n'
)
SLIM: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    # plotly (9.7 MB): its JupyterLab extension twice (share/ and labextension/, which the
    # site has from this environment), plotly.js for HTML files and the FigureWidget bundle
    "plotly": (("plotly-*.data/*", "plotly/labextension/*"),
               {"plotly/package_data/plotly.min.js": PLOTLY_JS_STUB,
                "plotly/package_data/widgetbundle.js": FIGURE_WIDGET_STUB}),
    # the project: widget.js is the table with plotly.js inside, for marimo only
    "tenleave-widget": (("tenleave_widget/static/widget.js",), {}),
}
"""Per wheel of the site: (the files dropped, as ``fnmatch`` patterns; the files replaced
by a stub, with the stub's text)."""

OLD_FONTS = ("fa-*.eot", "fa-*.ttf", "fa-*.svg")
"""JupyterLab's Font Awesome in formats only old browsers ask for (the CSS lists woff2
first, then woff): removed from the built ``build/``."""


def pyodide_environment(lock_info: dict[str, str]) -> dict[str, str]:
    """The marker environment of the Pyodide kernel (for the wheels' requirements)."""
    env: dict[str, str] = {k: str(v) for k, v in default_environment().items()}
    version = lock_info["python"]
    env.update(sys_platform="emscripten", platform_system="Emscripten",
               os_name="posix", platform_machine="wasm32", implementation_name="cpython",
               platform_python_implementation="CPython", python_full_version=version,
               python_version=".".join(version.split(".")[:2]))
    return env


def requirements(wheel: Path, env: dict[str, str]) -> list[str]:
    """The names a wheel requires in ``env`` (no extras)."""
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        headers = HeaderParser().parsestr(z.read(meta).decode())
    names: list[str] = []
    for line in headers.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
            names.append(canonicalize_name(req.name))
    return names


def run(cmd: list[str], **kw: object) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


def _stem(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def download(pins: list[tuple[str, str]], into: Path) -> list[Path]:
    """The pure wheels of ``name==version`` for each pin, from the package index (one pip
    call for those not cached yet)."""
    into.mkdir(parents=True, exist_ok=True)

    def cached(name: str, version: str) -> list[Path]:
        return [p for p in into.glob("*.whl")
                if _stem(p.name.split("-")[0]) == _stem(name) and p.name.split("-")[1] == version]

    missing = [f"{n}=={v}" for n, v in pins if not cached(n, v)]
    if missing:
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary", ":all:", "--python-version", "3.14",
             "--platform", "pyemscripten_2026_0_wasm32", *missing, "-d", str(into)])
    out = []
    for name, version in pins:
        found = cached(name, version)
        if len(found) != 1 or not found[0].name.endswith("-none-any.whl"):
            sys.exit(f"no pure-Python wheel of {name}=={version}: found {[p.name for p in found]}")
        out.append(found[0])
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def unpack_pyodide(cache: Path) -> Path:
    """The npm package's folder (``npm pack`` into the cache, unpacked once)."""
    out = cache / "pyodide-npm"
    if not (out / "package" / "pyodide-lock.json").exists():
        cache.mkdir(parents=True, exist_ok=True)
        run(["npm", "pack", "--silent", PYODIDE_NPM, "--pack-destination", str(cache)])
        tgz = cache / (PYODIDE_NPM.replace("@", "-") + ".tgz")
        shutil.rmtree(out, ignore_errors=True)
        with tarfile.open(tgz) as t:
            t.extractall(out, filter="data")
    return out / "package"


def slim_wheel(wheel: Path, drop: tuple[str, ...], stubs: dict[str, str], into: Path) -> Path:
    """A copy of ``wheel`` in ``into`` without the files ``drop`` names and with ``stubs``
    for their files, its ``RECORD`` rewritten to match (hash and size of each stub)."""
    def dropped(name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in drop)

    into.mkdir(parents=True, exist_ok=True)
    out = into / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        names = [i.filename for i in src.infolist() if not dropped(i.filename)]
        if missing := set(stubs) - set(names):
            sys.exit(f"{wheel.name} has no {sorted(missing)} to stub")
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        rows = []
        for line in src.read(record).decode().splitlines():
            name = line.rsplit(",", 2)[0]
            if name in stubs:
                data = stubs[name].encode()
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                line = f"{name},sha256={digest.decode()},{len(data)}"
            if not dropped(name):
                rows.append(line)
        for name in names:
            data = (stubs[name].encode() if name in stubs
                    else "\n".join(rows).encode() + b"\n" if name == record
                    else src.read(name))
            dst.writestr(src.getinfo(name), data, zipfile.ZIP_DEFLATED)
    print(f"{wheel.name}: {wheel.stat().st_size / 1e6:.1f} MB -> {out.stat().st_size / 1e6:.1f} MB "
          f"(dropped {', '.join(drop)}; stubbed {', '.join(stubs) or 'nothing'})")
    return out


def kernel_wheels() -> dict[str, Path]:
    """The wheels the Pyodide kernel serves itself (piplite, its ipykernel, widget stubs)."""
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    folder = share / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    return {canonicalize_name(p.name.split("-")[0]): p for p in folder.glob("*.whl")}


def closure(names: Iterable[str], lock: dict[str, dict[str, object]]) -> set[str]:
    out: set[str] = set()
    todo = list(names)
    while todo:
        n = canonicalize_name(todo.pop())
        if n not in out:
            out.add(n)
            todo.extend(str(d) for d in lock[n]["depends"])  # type: ignore[attr-defined]
    return out


def resolve(project: Path, lock: dict[str, dict[str, object]], env: dict[str, str],
            cache: Path) -> tuple[set[str], list[Path]]:
    """(the lock's packages the kernel loads, the site's wheels): see the module docstring."""
    served = kernel_wheels()
    if not served:
        sys.exit("jupyterlite-pyodide-kernel is not installed here: pip install '.[lite]'")
    from_lock: set[str] = set()
    wheels: dict[str, Path] = {"tenleave-widget": project}
    todo = [*KERNEL_START, *requirements(project, env)]
    seen: set[str] = set()
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        if name in lock:
            from_lock |= closure([name], lock)
        elif name in served:
            todo.extend(requirements(served[name], env))
        else:
            try:
                version = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                sys.exit(f"{name} (required in the browser) is not installed here: its "
                         "version is taken from this environment")
            (wheels[name],) = download([(name, version)], cache / "wheels")
            todo.extend(requirements(wheels[name], env))
    return from_lock, sorted(wheels.values())


def pyodide_folder(npm: Path, lock_json: dict[str, object], needed: set[str],
                   cache: Path, into: Path) -> None:
    """``into``: Pyodide's core and the trimmed lock with its wheels from PyPI."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    for name in ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs", "pyodide.js",
                 "python_stdlib.zip", "package.json"):
        shutil.copy2(npm / name, into / name)
    packages: dict[str, dict[str, object]] = lock_json["packages"]  # type: ignore[assignment]
    trimmed = copy.deepcopy(lock_json)
    trimmed["packages"] = {}
    names = sorted(needed)
    pins = [(str(packages[n]["name"]), str(packages[n]["version"])) for n in names]
    for name, wheel in zip(names, download(pins, cache / "lock"), strict=True):
        entry = dict(packages[name])
        shutil.copy2(wheel, into / wheel.name)
        entry.update(file_name=wheel.name, sha256=sha256(wheel))
        trimmed["packages"][name] = entry  # type: ignore[index]
    (into / "pyodide-lock.json").write_text(json.dumps(trimmed, indent=1))
    print(f"pyodide: {len(needed)} lock packages from PyPI: {', '.join(sorted(needed))}")


def notebooks(into: Path) -> None:
    """The examples with an install cell first, and the games they open."""
    into.mkdir(parents=True)
    for name in EXAMPLES:
        nb = json.loads((ROOT / "examples" / name).read_text())
        cell: dict[str, object] = {"cell_type": "code", "execution_count": None, "metadata": {},
                "outputs": [], "source": INSTALL_CELL.splitlines(keepends=True)}
        nb["cells"].insert(0, cell)
        (into / name).write_text(json.dumps(nb, indent=1))
    (into / "games").mkdir()
    for game in sorted((ROOT / "examples" / "games").glob("*.json")):
        shutil.copy2(game, into / "games" / game.name)


def settings(path: Path) -> dict[str, object]:
    config = json.loads(path.read_text())
    data = config.setdefault("jupyter-config-data", {})
    return data.setdefault("litePluginSettings", {}).setdefault(PLUGIN, {})  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, required=True, help="the project's wheel")
    parser.add_argument("--out", type=Path, default=ROOT / "lite")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "lite")
    args = parser.parse_args()
    work: Path = args.work.resolve()
    cache = work / "cache"
    npm = unpack_pyodide(cache)
    lock_json = json.loads((npm / "pyodide-lock.json").read_text())
    lock = lock_json["packages"]
    env = pyodide_environment(lock_json["info"])
    needed, wheels = resolve(args.wheel.resolve(), lock, env, cache)

    site = work / "site"  # the lite dir
    shutil.rmtree(site, ignore_errors=True)
    pyodide_folder(npm, lock_json, needed, cache, site / "static" / "pyodide")
    notebooks(site / "files")
    config = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "10 to Leave",
        "litePluginSettings": {PLUGIN: {"disablePyPIFallback": True}}}}
    (site / "jupyter-lite.json").write_text(json.dumps(config, indent=2))

    out: Path = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    cmd = [str(Path(sys.executable).parent / "jupyter-lite"), "build", "--lite-dir", str(site),
           "--output-dir", str(out), "--contents", str(site / "files"), "--no-sourcemaps",
           "--apps", "lab", "--apps", "notebooks", "--apps", "tree"]
    for w in wheels:
        name = canonicalize_name(w.name.split("-")[0])
        if name in SLIM:
            w = slim_wheel(w, *SLIM[name], work / "slim")
        cmd += ["--piplite-wheels", str(w)]
    run(cmd, cwd=site)

    built = out / "jupyter-lite.json"
    config = json.loads(built.read_text())
    settings_ = config["jupyter-config-data"]["litePluginSettings"][PLUGIN]
    settings_["disablePyPIFallback"] = True  # dropped by the build: set again
    built.write_text(json.dumps(config, indent=2))
    for pattern in OLD_FONTS:
        for font in (out / "build").glob(pattern):
            font.unlink()
    check(out)


def check(out: Path) -> None:
    """The built site is what it must be: local Pyodide, no PyPI fallback, the wheels."""
    config = json.loads((out / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][PLUGIN]
    faults = []
    if kernel.get("disablePyPIFallback") is not True:
        faults.append("disablePyPIFallback is not true")
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        faults.append(f"pyodideUrl is {kernel.get('pyodideUrl')!r}, not the local Pyodide")
    if not list((out / "pypi").glob("tenleave_widget-*.whl")):
        faults.append("the project's wheel is not in pypi/")
    if faults:
        sys.exit("lite/ is not right: " + "; ".join(faults))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"{out}: {size / 1e6:.1f} MB, {sum(1 for _ in out.rglob('*'))} files; "
          f"serve it with: python3 -m http.server -d {out.name} 8000")


if __name__ == "__main__":
    main()
