"""The key line under the prompt: only the keys the engine allows now, in the interface language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from tui_common.i18n import t
from tui_common.widgets.quiet_static import QuietStatic


@dataclass(frozen=True)
class KeyHint:
    """One entry of the key line: ``keys`` as shown, the ``action`` whose legality decides
    whether it is shown (asked through ``App.check_action``), and its catalog label key."""

    keys: str
    action: str
    label: str
    """An ``i18n`` catalog key."""


class KeyBar(QuietStatic):
    """Shows the hints whose action the app's ``check_action`` allows (truthy) right now.

    Call ``refresh_hints()`` after every state change; it is cheap (no layout unless the
    text changed).
    """

    DEFAULT_CSS = """
    KeyBar { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, hints: Sequence[KeyHint], lang: str = "es", *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.hints = list(hints)
        self.lang = lang
        self._shown = ""

    def on_mount(self) -> None:
        self.refresh_hints()

    def on_resize(self) -> None:
        self.refresh_hints()

    def refresh_hints(self) -> None:
        # Lines break between hints, never inside one ("F1" above "ayuda" misleads).
        width = (self.content_size.width or 116) - 1
        out = Text()
        line_length = 0
        for hint in self.hints:
            if not self.app.check_action(hint.action, ()):
                continue
            label = t(hint.label, self.lang)
            size = len(hint.keys) + 1 + len(label)
            if line_length and line_length + 3 + size > width:
                out.append("\n")
                line_length = 0
            elif line_length:
                out.append("   ")
                line_length += 3
            out.append(hint.keys, style="bold reverse")
            out.append(" " + label)
            line_length += size
        self._shown = out.plain
        self.show_text(out)

    @property
    def text(self) -> str:
        return self._shown
