"""Small modal screens: a notice to acknowledge (recovery), a yes/no question, the key help."""

from __future__ import annotations

from itertools import zip_longest

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.i18n import t
from tui_common.widgets.key_bar import key_lines


class NoticeScreen(ModalScreen[None]):
    """A boxed notice the user acknowledges with ``enter`` or ``esc`` (e.g. the recovery notice)."""

    BINDINGS = [Binding("enter,escape", "close", show=False)]

    def __init__(self, title: str, body: str, lang: str = "es", *, id: str | None = None,
                 kind: str = "-notice") -> None:
        """``kind``: the dialog's style class (``-report`` is wide enough for a shift report)."""
        super().__init__(id=id)
        self.title_text = title
        self.body = body
        self.lang = lang
        self.kind = kind

    def compose(self) -> ComposeResult:
        with Vertical(classes=f"dialog {self.kind}"):
            yield Static(self.title_text, classes="dialog-title")
            if self.kind == "-report":
                # A report can be longer than a small terminal: it scrolls (↑↓ PgUp PgDn).
                with VerticalScroll(classes="dialog-scroll"):
                    yield Static(self.body, classes="dialog-body")
            else:
                yield Static(self.body, classes="dialog-body")
            yield Static(t("enter_accept", self.lang).split(" · ")[0], classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)


def recovery_notice(round_id: int, lang: str = "es") -> NoticeScreen:
    """The notice shown when the engine restored an unfinished round from the journal."""
    return NoticeScreen(
        t("recovery_title", lang), t("recovery_text", lang, round_id=round_id), lang, id="recovery-notice"
    )


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``s``/``y`` answers yes; ``n`` or ``esc`` answers no."""

    BINDINGS = [
        Binding("s,y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    def __init__(self, question: str, lang: str = "es", *, title: str = "", id: str | None = None) -> None:
        super().__init__(id=id)
        self.question = question
        self.title_text = title
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -confirm"):
            if self.title_text:
                yield Static(self.title_text, classes="dialog-title")
            yield Static(self.question, classes="dialog-body")
            yield Static(t("yes_no_keys", self.lang), classes="dialog-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HelpScreen(ModalScreen[None]):
    """F1: every key of the console with what it does; the ones not allowed now are dimmed."""

    BINDINGS = [Binding("escape,f1,enter", "close", show=False)]

    def __init__(self, lang: str = "es") -> None:
        super().__init__(id="help-screen")
        self.lang = lang

    def compose(self) -> ComposeResult:
        # Two columns of keys: the whole table fits a 100×30 terminal (one column ran off it).
        cells = []
        for hint in key_lines(self.app, self.lang):
            style = "" if hint.allowed(self.app) else "dim"
            cells.append((Text(hint.keys, style="bold " + style, justify="right"), Text(hint.text, style=style)))
        half = (len(cells) + 1) // 2
        lines = Table.grid(padding=(0, 2))
        for _ in range(2):
            lines.add_column(no_wrap=True)
            lines.add_column()
        for left, right in zip_longest(cells[:half], cells[half:], fillvalue=(Text(""), Text(""))):
            lines.add_row(*left, *right)
        with Vertical(classes="dialog -help"):
            yield Static(t("help_title", self.lang), classes="dialog-title")
            yield Static(lines, classes="dialog-body")
            yield Static(t("esc_close", self.lang), classes="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)
