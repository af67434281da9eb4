"""Widgets whose synced state the kernel owns: a front end changes nothing but through the
table's intents (custom messages).

A front end changes a widget's traits with a comm-level ``update`` message: ipywidgets'
``Widget._handle_msg`` hands its ``state`` to :meth:`~ipywidgets.Widget.set_state`, which
sets every synced trait it names and echoes them to the other front ends (marimo's
anywidget wrapper calls ``set_state`` too). ``set_state`` is the one door of such updates
(custom messages and state requests take other paths), so :class:`KernelOwned` guards it:
an update of a trait not in :attr:`~KernelOwned.front_end_writes` is refused — the trait
keeps its value, nothing is echoed — and the trait's true value is sent back, so that the
front end that sent it draws the truth again. A trait the front end may write (a
checkbox's ``value``) is set as usual; a value it cannot hold is refused the same way.

Every widget of a table is kernel-owned: the table, the plotly.js model, the box that
holds them, the review panel and each of its controls, and their layouts and styles
(:func:`owned` makes a kernel-owned subclass of a stock widget).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, TypeVar

import ipywidgets
import traitlets

__all__ = ["KernelOwned", "owned"]

W = TypeVar("W", bound=ipywidgets.Widget)


class KernelOwned(ipywidgets.Widget):  # type: ignore[misc]
    """Mixed in before a widget class (``class T(KernelOwned, anywidget.AnyWidget)``):
    front-end updates of its traits are refused but for :attr:`front_end_writes`; its
    layout and style, made here when not given, are kernel-owned too.

    Args:
        *args: as the widget class takes them.
        **kwargs: as the widget class takes them (``layout`` and ``style`` made kernel-owned
            when not given).
    """

    front_end_writes: ClassVar[frozenset[str]] = frozenset()
    """The synced traits a front end may set (a control's ``value``); none by default."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        for name in ("layout", "style"):
            trait = self.class_traits().get(name)
            if name not in kwargs and isinstance(trait, traitlets.Instance) and \
                    isinstance(trait.klass, type):
                kwargs[name] = owned(trait.klass)()
        super().__init__(*args, **kwargs)

    def set_state(self, sync_data: Any) -> None:
        """A front end's update: the traits of :attr:`front_end_writes` that it names are
        set (as ipywidgets does); every other synced trait it names is left as it is and
        its value sent back to the front end. Never raises (a value a writable trait
        cannot hold is refused like the rest).

        Args:
            sync_data: the traits and values a front end sent.
        """
        if not isinstance(sync_data, dict):
            return
        named = [k for k in sync_data if isinstance(k, str) and k in self.keys]
        refused = [k for k in named if k not in self.front_end_writes]
        allowed = {}
        for k in named:
            if k in self.front_end_writes:
                if self._holds(k, sync_data[k]):
                    allowed[k] = sync_data[k]
                else:
                    refused.append(k)
        if allowed:
            super().set_state(allowed)
        if refused:
            self.send_state(refused)


    def _holds(self, name: str, value: Any) -> bool:
        """Whether trait ``name`` can hold ``value`` as a front end sends it (checked before
        ipywidgets echoes it to the other front ends)."""
        from_json = self.trait_metadata(name, "from_json", self._trait_from_json)
        try:
            self.traits()[name]._validate(self, from_json(value, self))
        except (traitlets.TraitError, TypeError, ValueError):
            return False
        return True


@functools.cache
def _owned(cls: type[ipywidgets.Widget], writes: frozenset[str]) -> type[ipywidgets.Widget]:
    return type(cls.__name__, (KernelOwned, cls), {
        "front_end_writes": writes, "__module__": __name__,
        "__doc__": f"A kernel-owned :class:`{cls.__module__}.{cls.__name__}`.",
    })


def owned(cls: type[W], writes: frozenset[str] = frozenset()) -> type[W]:
    """A kernel-owned subclass of the widget class ``cls`` (one per class and ``writes``):
    a front end may set its traits ``writes`` only.

    Args:
        cls: the widget class (an ipywidgets or anywidget class).
        writes: the synced traits a front end may set.

    Returns:
        The subclass (made once per class and ``writes``, then reused).

    Example:
        >>> box = owned(ipywidgets.Checkbox, frozenset({"value"}))(value=False)
        >>> box.set_state({"value": True, "description": "forged"})
        >>> box.value, box.description
        (True, '')
        >>> isinstance(box.layout, KernelOwned)
        True
    """
    if issubclass(cls, KernelOwned):
        return cls
    return _owned(cls, writes)  # type: ignore[arg-type]
