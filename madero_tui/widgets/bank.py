"""The bank's hand (la banca): two cards face down until the showdown, then its best five."""

from __future__ import annotations

from rich.text import Text


def bank_lines(cards: Text, combination: str) -> list[Text]:
    """The bank's cards, and its combination once shown."""
    return [cards, *([Text(combination, style="bold")] if combination else [])]
