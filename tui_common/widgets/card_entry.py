"""Card entry as croupiers type it (console.md): one key per baccarat card, rank+suit for poker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from shared.cards import Card, Rank
from shared.errors import ConsoleError, InputError

# Key names (as Textual reports them) of the one-key baccarat ranks: A 2–9, T or 0 for ten, J Q K.
BACCARAT_CARD_KEYS: dict[str, Rank] = {
    "a": Rank.ACE,
    **{str(v): Rank(v) for v in range(2, 10)},
    "0": Rank.TEN,
    "t": Rank.TEN,
    "j": Rank.JACK,
    "q": Rank.QUEEN,
    "k": Rank.KING,
}


def baccarat_rank_for_key(key: str) -> Rank | None:
    """The rank a single key stands for at a baccarat table (case-insensitive), else None."""
    return BACCARAT_CARD_KEYS.get(key.lower())


class CardEntry(Widget, can_focus=True):
    """Poker card entry: rank then suit (``As``, ``kd``, ``10h``/``Th``), submitted on the suit key.

    While focused it consumes rank and suit characters, ``backspace`` and ``esc``; other
    keys bubble. A complete card posts ``CardEntry.Submitted(card, tag)`` and clears the
    field; an impossible token (``1x``) posts ``CardEntry.Refused(error, tag)`` and keeps
    what was typed so the croupier corrects one key. The app decides if the card is legal
    (the engine's ``verify_*``) and shows any refusal on its message line.
    """

    DEFAULT_CSS = """
    CardEntry { height: 1; width: auto; min-width: 12; padding: 0 1; }
    CardEntry:focus { background: $accent 30%; }
    """

    class Submitted(Message):
        def __init__(self, entry: CardEntry, card: Card, tag: Any) -> None:
            super().__init__()
            self.entry = entry
            self.card = card
            self.tag = tag

    class Refused(Message):
        def __init__(self, entry: CardEntry, error: ConsoleError, tag: Any) -> None:
            super().__init__()
            self.entry = entry
            self.error = error
            self.tag = tag

    text: reactive[str] = reactive("")

    # "1" only starts "10"; the other rank keys are complete ranks waiting for a suit.
    _RANK_STARTS = set("123456789tjqka")

    def __init__(self, label: str = "", *, tag: Any = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label
        self.tag = tag

    def render(self) -> Text:
        out = Text(f"{self.label}: " if self.label else "", style="bold")
        typed = self.text.upper()  # only a rank waits here ("Q", "10"): the suit completes the card
        out.append(typed, style="bold")
        out.append("▏")
        # Room for the longest unfinished card ("10") whatever is typed: the width (auto) is
        # worked out only when the label changes, so the typed rank is never cut off.
        out.append(" " * (2 - len(typed)))
        return out

    def on_key(self, event: events.Key) -> None:
        char = (event.character or "").lower()
        if event.key == "backspace":
            self.text = self.text[:-1]
        elif event.key == "escape" and self.text:
            self.text = ""
        elif not char or not char.isalnum():
            return
        elif self.text == "1" and char == "0":
            self.text = "10"
        elif not self.text and char in self._RANK_STARTS:
            self.text = char
        elif not self.text:
            self._refuse(Rank.parse, char)
        else:
            self._complete(self.text + char)
        event.stop()
        event.prevent_default()

    def _refuse(self, parse: Callable[[str], object], token: str) -> None:
        try:
            parse(token)
        except InputError as error:
            self.post_message(self.Refused(self, error, self.tag))

    def _complete(self, token: str) -> None:
        try:
            card = Card.parse(token)
        except InputError as error:
            self.post_message(self.Refused(self, error, self.tag))
        else:
            self.text = ""
            self.post_message(self.Submitted(self, card, self.tag))
