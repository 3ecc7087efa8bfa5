"""Game recall (F3): the last rounds from the journal, every event in order — never the live game."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from shared.journal import Event, Journal, format_event
from shared.text import printable_event
from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.i18n import t


class RecallScreen(ModalScreen[None]):
    """Shows ``journal.last_round_ids(rounds)`` with each round's events, oldest first.

    ``describe(event, lang)`` renders one event (default ``shared.journal.format_event``);
    an app passes its engine's wording when it has one. The heading says plainly that this
    is recall, not the round in progress. ``esc``/``F3`` return to the table.

    The screen is opaque (it must not be mistaken for the live table), so it composes the
    app's ``banner`` widgets itself: in training the banner stays on top.
    """

    BINDINGS = [
        Binding("escape,f3", "close", show=False),
        Binding("up", "scroll('up')", show=False),
        Binding("down", "scroll('down')", show=False),
        Binding("pageup", "scroll('page_up')", show=False),
        Binding("pagedown", "scroll('page_down')", show=False),
        Binding("home", "scroll('home')", show=False),
        Binding("end", "scroll('end')", show=False),
    ]

    def __init__(
        self,
        journal: Journal,
        lang: str = "es",
        *,
        rounds: int = 10,
        describe: Callable[[Event, str], str] | None = None,
        banner: Sequence[Widget] = (),
    ) -> None:
        super().__init__(id="recall")
        self.banner = list(banner)
        self.journal = journal
        self.lang = lang
        self.rounds = rounds
        self.describe = describe or (lambda event, lang: format_event(event, lang))

    def compose(self) -> ComposeResult:
        yield from self.banner
        yield Static(t("recall_title", self.lang), id="recall-title")
        with VerticalScroll(id="recall-body"):
            yield Static(self._render_rounds(), id="recall-text")
        yield Static(t("recall_keys", self.lang), id="recall-keys")

    def _render_rounds(self) -> Text:
        round_ids = self.journal.last_round_ids(self.rounds)
        if not round_ids:
            return Text(t("recall_empty", self.lang))
        out = Text()
        for round_id in round_ids:
            out.append(f"── {t('recall_round', self.lang, round_id=round_id)} ──\n", style="bold")
            for event in self.journal.round_events(round_id):
                # Journals written before free text was checked may hold control codes.
                out.append(self.describe(printable_event(event), self.lang) + "\n")
            out.append("\n")
        return out

    def on_mount(self) -> None:
        # The most recent round is the one a dispute is usually about: start at the bottom.
        self.query_one("#recall-body", VerticalScroll).scroll_end(animate=False)

    def action_scroll(self, where: str) -> None:
        body = self.query_one("#recall-body", VerticalScroll)
        {
            "up": body.scroll_up,
            "down": body.scroll_down,
            "page_up": body.scroll_page_up,
            "page_down": body.scroll_page_down,
            "home": body.scroll_home,
            "end": body.scroll_end,
        }[where](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
