"""The key line under the prompt: only the keys the engine allows now, in the interface language.

The console's Textual ``Binding``s (each game's derived from its key table, ``tui_common.keys``)
are its one key table: a binding with a ``description`` (a catalog key) is a line of it; the
key bar shows those that are ``show``n and that the app's ``check_action`` allows now, F1 help
lists every one. A key ``App.set_keymap`` moved is shown as the key it is now.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.text import Text
from textual import events
from textual.app import App
from textual.binding import Binding

from shared.record import record
from tui_common.i18n import t
from tui_common.widgets.quiet_static import QuietStatic


@record
class KeyLine:
    """One described binding as the key bar and F1 help show it."""

    binding: Binding
    keys: str
    """As shown (``App.get_key_display``)."""
    action: str
    parameters: tuple[object, ...]
    text: str
    """What the key does, in the console's language."""

    def allowed(self, app: App[object]) -> bool:
        return bool(app.check_action(self.action, self.parameters))


def key_lines(app: App[object], lang: str = "es") -> Iterator[KeyLine]:
    """The described bindings of ``app.key_table()``, in its order."""
    for binding in app.key_table():  # type: ignore[attr-defined]
        if binding.description:
            action, parameters = app.parsed_action(binding.action)  # type: ignore[attr-defined]
            yield KeyLine(binding, app.get_key_display(binding), action, parameters, t(binding.description, lang))


class KeyBar(QuietStatic):
    """Shows the described bindings the app's ``check_action`` allows (truthy) right now.

    Call ``refresh_hints()`` after every state change; it is cheap: no layout unless its
    height changes, and it keeps two rows whether the keys take one or two (a phase's keys
    on one row, the next phase's on two, laid the whole screen out at both keys; issue 32).
    A screen that needs a third row at times raises its ``max-height``.
    """

    DEFAULT_CSS = """
    KeyBar { height: auto; min-height: 2; max-height: 2; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, lang: str = "es", *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.lang = lang
        self._shown = ""
        self._lines: list[KeyLine] | None = None
        self._keymap: object = None
        self._width = 0
        """The width the hints were last broken into lines at."""

    def on_mount(self) -> None:
        self.refresh_hints()

    def on_resize(self, event: events.Resize) -> None:
        # Only a new width can break the hints' lines anew: a new height (the rows they took)
        # changes nothing, and rewording then cost a frame after the key's.
        if event.size.width != self._width:
            self.refresh_hints()

    def refresh_hints(self) -> None:
        # Lines break between hints, never inside one ("F1" above "ayuda" misleads).
        if self._lines is None or self._keymap is not self.app._keymap:
            # The table and the language are fixed: parsed and worded once (again after a keymap).
            self._keymap = self.app._keymap
            self._lines = [line for line in key_lines(self.app, self.lang) if line.binding.show]
        self._width = self.size.width
        width = (self.content_size.width or 116) - 1
        out = Text()
        line_length = 0
        for hint in self._lines:
            if not hint.allowed(self.app):
                continue
            label = hint.text
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
