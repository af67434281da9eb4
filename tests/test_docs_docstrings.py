"""The docstrings the API reference renders document their calls: an ``Args:`` entry for
every parameter, and a ``Raises:`` entry for every exception the code raises
(``tools/docs/docstrings.py``; ``python tools/docs/docstrings.py`` lists the gaps)."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import griffe
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "docs"))
import docstrings  # noqa: E402


def test_every_rendered_function_documents_its_arguments_and_raises() -> None:
    package = docstrings.load()
    checked = [obj.path for obj, _ in docstrings.rendered(package)]
    assert "tenleave_widget.engine.game.Game.apply" in checked  # the walk reaches methods
    assert "tenleave_widget.widget.entry.play" in checked
    assert "tenleave_widget.widget.lesson_controls.LessonControls.next_moment" in checked
    assert docstrings.check(package) == []


def test_no_rendered_function_takes_a_private_parameter() -> None:
    """What the reference shows a caller is what a caller may pass: no ``_name``
    parameter (an internal switch belongs to an internal function)."""
    package = docstrings.load()
    private = [f"{obj.path}({p.name})" for obj, _ in docstrings.rendered(package)
               if isinstance(obj, griffe.Function)
               for p in obj.parameters if p.name.startswith("_")]
    assert private == []


def test_every_public_function_of_the_engine_documents_its_arguments_and_raises() -> None:
    package = docstrings.load()
    assert docstrings.check_layer(package, "engine") == []


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[Path]:
    """A package ``fakepkg`` in ``tmp_path``, importable while the test runs."""
    (tmp_path / "fakepkg").mkdir()
    sys.path.insert(0, str(tmp_path))
    yield tmp_path / "fakepkg"
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m == "fakepkg" or m.startswith("fakepkg.")]:
        del sys.modules[name]


def _problems(package_dir: Path, code: str) -> list[str]:
    (package_dir / "__init__.py").write_text(textwrap.dedent(code))
    loaded = griffe.load("fakepkg", search_paths=[str(package_dir.parent)],
                         resolve_aliases=True, resolve_external=False)
    assert isinstance(loaded, griffe.Module)
    return docstrings.check(loaded)


def test_a_parameter_without_args_is_found(fake: Path) -> None:
    problems = _problems(fake, '''
        __all__ = ["f", "g", "h"]
        def f(x, _private=1):
            """Does f."""
        def g(x, y):
            """Does g.

            Args:
                x: an x.
            """
        def h(self_less=0, *, z=1):
            """Does h.

            Args:
                self_less: one.
                z: two.
            """
    ''')
    assert problems == ["fakepkg.f: no Args section for x", "fakepkg.g: Args leaves out y"]


def test_a_raise_without_its_raises_entry_is_found(fake: Path) -> None:
    problems = _problems(fake, '''
        __all__ = ["bare", "documented", "by_base", "caught", "Thing", "_Signal"]
        class _Signal(Exception):
            pass
        def bare():
            """Raises, and says nothing."""
            raise KeyError("k")
        def documented():
            """Says it.

            Raises:
                KeyError: always.
            """
            raise KeyError("k")
        def by_base():
            """Says its base class.

            Raises:
                LookupError: always.
            """
            raise KeyError("k")
        def caught():
            """Catches its own."""
            try:
                raise KeyError("k")
            except LookupError:
                pass
            raise _Signal
        class Thing:
            """A thing.

            Args:
                n: how many.
            """
            def __init__(self, n):
                self.n = n
            def use(self):
                """Uses it through a private helper."""
                return self._check()
            def _check(self):
                if self.n < 0:
                    raise ValueError("negative")
                return self.n
    ''')
    assert problems == [
        "fakepkg.bare: raises KeyError with no Raises entry for it",
        "fakepkg.Thing.use: raises ValueError with no Raises entry for it",
    ]


def test_a_dataclass_raises_what_its_post_init_raises(fake: Path) -> None:
    problems = _problems(fake, '''
        from dataclasses import dataclass
        __all__ = ["Options"]
        @dataclass
        class Options:
            """Options.

            Args:
                size: the size.
            """
            size: int = 1
            def __post_init__(self):
                if self.size < 1:
                    raise ValueError("size")
    ''')
    assert problems == [
        "fakepkg.Options (its __init__): raises ValueError with no Raises entry for it"]


def test_a_mixins_methods_are_rendered_with_the_class_but_not_the_frameworks() -> None:
    names = docstrings.inherited_names("tenleave_widget.widget.controller.TenLeaveWidget")
    assert {"next_moment", "reveal", "set_lesson", "lesson"} <= set(names)
    assert "set_state" not in names  # KernelOwned's override of ipywidgets' method
    assert "front_end_writes" not in names  # a class attribute, not a method
    assert "handle_intent" not in names  # the widget's own
