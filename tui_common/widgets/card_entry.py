"""Card entry as croupiers type it (console.md): one key per baccarat card, rank+suit for poker."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive

from shared.cards import Card, Rank
from shared.errors import InputError
from shared.record import record
from tui_common.widgets.unscrolled import Unscrolled

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


@record
class CardKey:
    """What a key did to the card entry: typed part of a card, completed one, or was refused."""

    card: Card | None = None
    error: InputError | None = None


class CardEntry(Unscrolled, can_focus=True):
    """Poker card entry: rank then suit (``As``, ``kd``, ``10h``/``Th``/``0h``), complete on the suit key.

    The app hands it each key with ``press``: rank and suit characters, ``backspace`` and
    ``esc`` are its own. The app decides if a complete card is legal (the engine's
    ``verify_*``) and shows any refusal on its message line. Its style is in
    ``madero_tui/madero.tcss``: the Madero console is the one that uses it.
    """

    text: reactive[str] = reactive("")

    # "1" only starts "10"; the other rank keys are complete ranks waiting for a suit.
    _RANK_STARTS = set("123456789tjqka")

    def __init__(self, label: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label

    def render(self) -> Text:
        out = Text(f"{self.label}: " if self.label else "", style="bold")
        typed = self.text.upper()  # only a rank waits here ("Q", "10"): the suit completes the card
        out.append(typed, style="bold")
        out.append("▏")
        # Room for the longest unfinished card ("10") whatever is typed: the width (auto) is
        # worked out only when the label changes, so the typed rank is never cut off.
        out.append(" " * (2 - len(typed)))
        return out

    def press(self, key: str, character: str | None) -> CardKey | None:
        """Take one key; None when it is not a card key (it goes to the app's bindings).

        A complete card clears the field; an impossible token (``1x``) keeps what was typed
        so the croupier corrects one key.
        """
        char = (character or "").lower()
        if key == "backspace" and self.text:
            self.text = self.text[:-1]
        elif key == "escape" and self.text:
            self.text = ""
        elif not char or not char.isalnum():
            return None
        elif self.text == "1" and char == "0":
            self.text = "10"
        elif not self.text and char == "0":
            self.text = "t"  # 0 is the ten, as at the baccarat table (one key for it in both consoles)
        elif not self.text and char in self._RANK_STARTS:
            self.text = char
        elif not self.text:
            return CardKey(error=_refusal(Rank.parse, char))
        else:
            try:
                card = Card.parse(self.text + char)
            except InputError as error:
                return CardKey(error=error)
            self.text = ""
            return CardKey(card=card)
        return CardKey()


def _refusal(parse: Callable[[str], object], token: str) -> InputError | None:
    try:
        parse(token)
    except InputError as error:
        return error
    return None
