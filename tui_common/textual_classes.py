"""Textual's per-class set-up of a widget, screen or app class, derived from its parent's.

Each ``DOMNode`` subclass is set up by ``DOMNode.__init_subclass__``: its reactives gathered
from every class of its MRO, and its compute methods found in ``dir()`` of it, a sorted list of
~1,000 names. That cost ~1.3 M instructions a class, ~30 M of a console's launch (issue 32):
~25 classes, beside the minimal Textual app's one. A class with one base inherits both from
it, so here they are its parent's plus what its own body declares (and its plain mixins', as
``BlankRows``): the same dict, in the same order, and the same frozenset. The rest (CSS bases,
bindings) is Textual's own code.

Installed once, at import. Only for the ``DOMNode.__init_subclass__`` it was written from
(``TEXTUAL_CODE``, per Python release: its bytecode's CRC); another Textual keeps its own set-up
in full, and ``tests/test_textual_classes.py`` fails until this module is checked against it.
A class with another MRO (two ``DOMNode`` bases, a mixin after its parent, ``Generic``) gets
Textual's set-up.
"""

from __future__ import annotations

import sys
import zlib
from typing import TypeGuard

from textual.dom import DOMNode
from textual.reactive import Reactive

# CRC32 of the bytecode of the ``DOMNode.__init_subclass__`` this derives from (Textual 8.2.8).
TEXTUAL_CODE: dict[tuple[int, int], int] = {(3, 11): 0x6ED0519E}

textual_set_up = DOMNode.__dict__["__init_subclass__"].__func__


def textual_code_crc() -> int:
    return zlib.crc32(textual_set_up.__code__.co_code)


def derived_set_up(
    cls: type[DOMNode],
    inherit_css: bool = True,
    inherit_bindings: bool = True,
    inherit_component_classes: bool = True,
) -> None:
    *mixins, parent = cls.__bases__
    if not derivable(parent, mixins):
        textual_set_up(cls, inherit_css, inherit_bindings, inherit_component_classes)
        return
    super(DOMNode, cls).__init_subclass__()
    # What the MRO adds to the parent's, in the order Textual reads it (reversed MRO):
    # the mixins, last first, then the class.
    declared = [mixin.__dict__ for mixin in reversed(mixins)] + [cls.__dict__]
    reactives = dict(parent._reactives)
    for names in declared:
        reactives.update((name, value) for name, value in names.items() if isinstance(value, Reactive))
    cls._reactives = reactives
    cls._inherit_css = inherit_css
    cls._inherit_bindings = inherit_bindings
    cls._inherit_component_classes = inherit_component_classes
    css_bases = cls._css_bases(cls)
    cls._css_type_name = css_bases[0].__name__
    cls._merged_bindings = cls._merge_bindings()
    cls._css_type_names = frozenset(base.__name__ for base in css_bases)
    cls._computes = parent._computes.union(
        name.lstrip("_")[8:] for names in declared for name in names if name.startswith(("_compute_", "compute_"))
    )


def derivable(parent: type, mixins: list[type]) -> TypeGuard[type[DOMNode]]:
    """Whether a class of these bases has its MRO (after itself) the mixins then its parent's:
    a parent Textual set up (it has ``_computes`` of its own), mixins of ``object`` alone."""
    return (
        issubclass(parent, DOMNode)
        and "_computes" in parent.__dict__
        and all(mixin.__mro__ == (mixin, object) for mixin in mixins)
    )


def install() -> bool:
    """Sets ``DOMNode.__init_subclass__`` to ``derived_set_up`` if Textual's is the one it was
    written from; says whether it did."""
    if TEXTUAL_CODE.get(sys.version_info[:2]) != textual_code_crc():
        return False
    DOMNode.__init_subclass__ = classmethod(derived_set_up)  # type: ignore[assignment]
    return True


INSTALLED = install()
