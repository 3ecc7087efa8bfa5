"""``tui_common.textual_classes``: every widget, screen and app class is set up exactly as
Textual's own ``DOMNode.__init_subclass__`` sets it up (the project's, Textual's, and made-up
hierarchies), a console's launch sets up each of its classes the derived way, and another
Textual keeps its own set-up."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import textual.widgets
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from tui_common import textual_classes

SET_UP = ("_reactives", "_inherit_css", "_inherit_bindings", "_inherit_component_classes", "_css_type_name",
          "_merged_bindings", "_css_type_names", "_computes")
PACKAGES = ("tui_common", "madero_tui", "midi_tui")


def set_up(cls: type[DOMNode]) -> tuple[object, ...]:
    """What the class's set-up left on it, compared by value (the reactives in order)."""
    bindings = cls._merged_bindings
    return (list(cls._reactives.items()), cls._inherit_css, cls._inherit_bindings,
            cls._inherit_component_classes, cls._css_type_name,
            None if bindings is None else bindings.key_to_bindings, cls._css_type_names, cls._computes)


def textuals_set_up(cls: type[DOMNode]) -> tuple[object, ...]:
    """The set-up Textual's own code gives the class, its attributes put back after."""
    kept = {name: cls.__dict__[name] for name in SET_UP}
    try:
        textual_classes.textual_set_up(cls, cls._inherit_css, cls._inherit_bindings, cls._inherit_component_classes)
        return set_up(cls)
    finally:
        for name, value in kept.items():
            setattr(cls, name, value)


def subclasses(cls: type) -> Iterator[type]:
    seen: set[type] = set()
    pending = [cls]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                pending.append(sub)
                yield sub


def test_the_derived_set_up_is_installed_on_this_textual() -> None:
    assert textual_classes.INSTALLED, (
        "Textual's DOMNode.__init_subclass__ is not the one tui_common.textual_classes derives from: "
        f"check derived_set_up against it, then set TEXTUAL_CODE to {textual_classes.textual_code_crc():#X}")
    assert DOMNode.__dict__["__init_subclass__"].__func__ is textual_classes.derived_set_up


def test_every_class_is_set_up_as_textual_sets_it_up() -> None:
    for name in textual.widgets.__all__:  # Textual's widgets, imported lazily, so set up the derived way
        getattr(textual.widgets, name)
    for package in PACKAGES:
        for module in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            importlib.import_module(module.name)
    classes = [cls for cls in subclasses(DOMNode) if "_computes" in cls.__dict__]
    ours = [cls for cls in classes if cls.__module__.split(".")[0] in PACKAGES]
    assert len(ours) > 40 and len(classes) > 150
    for cls in classes:
        assert set_up(cls) == textuals_set_up(cls), cls


@st.composite
def hierarchies(draw: st.DrawFn) -> list[type[DOMNode]]:
    """Made-up classes, each on a Textual base or an earlier one, some with a plain mixin before
    it; reactives, compute methods and bindings from small pools so that they override."""
    names = st.sampled_from(["a", "b", "c", "d"])
    made: list[type[DOMNode]] = []
    for index in range(draw(st.integers(1, 6))):
        parent = draw(st.sampled_from([Widget, Static, Screen, App, *made]))
        body: dict[str, Any] = {"__module__": __name__}
        for name in draw(st.lists(names, max_size=3)):
            body[name] = reactive(index)
        for name in draw(st.lists(names, max_size=2, unique=True)):  # one compute a reactive (Textual's rule)
            body[draw(st.sampled_from(["compute_", "_compute_"])) + name] = lambda self: None
        if draw(st.booleans()):
            body["BINDINGS"] = [Binding(draw(names), f"act_{index}")]
        bases: tuple[type, ...] = (parent,)
        if draw(st.booleans()):
            mixin_body = {name: reactive(-index) for name in draw(st.lists(names, max_size=2))}
            mixin_body.update({f"compute_{name}": lambda self: None for name in draw(st.lists(names, max_size=1))})
            bases = (type(f"Mixin{index}", (), mixin_body), parent)
        options = {"inherit_css": draw(st.booleans()), "inherit_bindings": draw(st.booleans())}
        if not issubclass(parent, Widget):
            options["inherit_component_classes"] = draw(st.booleans())
        made.append(type(parent)(f"Made{index}", bases, body, **options))
    return made


@settings(max_examples=60, deadline=None)
@given(hierarchies())
def test_made_up_classes_are_set_up_as_textual_sets_them_up(made: list[type[DOMNode]]) -> None:
    for cls in made:
        assert set_up(cls) == textuals_set_up(cls)


def test_another_textual_keeps_its_own_set_up(monkeypatch: Any) -> None:
    monkeypatch.setitem(textual_classes.TEXTUAL_CODE, sys.version_info[:2], textual_classes.textual_code_crc() ^ 1)
    textuals = classmethod(textual_classes.textual_set_up)
    monkeypatch.setattr(DOMNode, "__init_subclass__", textuals)
    assert not textual_classes.install()
    assert DOMNode.__dict__["__init_subclass__"] is textuals


def test_a_consoles_launch_sets_up_every_class_of_its_own_the_derived_way() -> None:
    """In the order a launch imports them: no class of the consoles set up by Textual's code
    directly (made before the derived set-up was installed) or by its fallback."""
    code = (
        "import sys\n"
        "from textual.dom import DOMNode\n"
        "textuals = DOMNode.__dict__['__init_subclass__'].__func__.__code__\n"
        "seen = []\n"
        "def watch(frame, event, arg):\n"
        "    if event == 'call' and frame.f_code is textuals:\n"
        "        cls = frame.f_locals['cls']\n"
        "        if cls.__module__.split('.')[0] in ('tui_common', 'madero_tui', 'midi_tui'):\n"
        "            seen.append(f'{cls.__qualname__} by {frame.f_back.f_code.co_name}')\n"
        "sys.setprofile(watch)\n"
        "import madero_tui.app, midi_tui.app\n"
        "sys.setprofile(None)\n"
        "from tui_common import textual_classes\n"
        "print(textual_classes.INSTALLED, seen)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "True []\n", done.stdout + done.stderr
