"""The size new tables start at, set once for the kernel:
``tenleave_widget.set_default_size("projector")``.

Every table has a size control (small, medium, large, projector); a teacher on a projector
sets the size once instead of on every table: the tables made after the call (``play``,
``hotseat``, ``replay``, *Play on from here*) start at it, until it is set again.
A ``size=`` argument of those entry points chooses one table's size. Pure (no Jupyter).

>>> set_default_size("projector"); default_size()
'projector'
>>> try:
...     set_default_size("huge")
... except ValueError as e:
...     print(e)
size must be one of small, medium, large, projector, not 'huge'
>>> set_default_size("medium")
"""

from __future__ import annotations

from ...engine.errors import excerpt
from ..protocol import SIZES, WidgetMessageError

__all__ = ["check_size", "default_size", "set_default_size"]

_DEFAULT = {"size": "medium"}


def check_size(size: object) -> str:
    """``size`` if it is a table size, else a :class:`WidgetMessageError` naming them."""
    if not isinstance(size, str) or size not in SIZES:
        raise WidgetMessageError(f"size must be one of {', '.join(SIZES)}, not {excerpt(size)}")
    return size


def set_default_size(size: str) -> None:
    """Set the size of the tables made from now on in this kernel; tables already shown
    keep theirs.

    Args:
        size: ``"small"``, ``"medium"`` (the default), ``"large"`` or ``"projector"``
            (a 5-seat game fits a 1280x720 screen).

    Raises:
        WidgetMessageError: ``size`` is not one of them (a ``ValueError``; the default is
            left as it was).

    Example:
        >>> set_default_size("projector")
        >>> default_size()
        'projector'
        >>> set_default_size("medium")
    """
    _DEFAULT["size"] = check_size(size)


def default_size() -> str:
    """The size a new table starts at (``"medium"`` until :func:`set_default_size`)."""
    return _DEFAULT["size"]
