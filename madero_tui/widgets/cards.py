"""How cards look on screen: ♥ ♦ red, ♠ ♣ plain, an unknown card as a face-down back."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from shared.cards import Card

BACK = "▒▒"
"""A card dealt face down whose value the console does not know yet."""
EMPTY = "·"
"""A slot the round will fill later."""


def card_text(card: Card | None) -> Text:
    if card is None:
        return Text(BACK, style="dim")
    return Text(card.display, style="bold red" if card.suit.is_red else "bold")


def card_texts(cards: Iterable[Card | None], *, slots: int = 0) -> tuple[Text, ...]:
    """Each card's text, padded with ``·`` up to ``slots`` places."""
    parts = [card_text(c) for c in cards]
    parts += [Text(EMPTY, style="dim")] * max(0, slots - len(parts))
    return tuple(parts)


def cards_text(cards: Iterable[Card | None], *, slots: int = 0) -> Text:
    """Cards separated by two spaces, padded with ``·`` up to ``slots`` places."""
    return Text("  ").join(card_texts(cards, slots=slots))
