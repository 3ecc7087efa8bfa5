"""Card lists as the drill screens show them."""

from __future__ import annotations

from collections.abc import Iterable

from shared.cards import Card


def show(cards: Iterable[Card]) -> str:
    return " ".join(c.display for c in cards)


def numbered(cards: Iterable[Card]) -> str:
    """``1:A♠ 2:K♦ …`` — the positions a trainee types to pick cards."""
    return "  ".join(f"{i}:{c.display}" for i, c in enumerate(cards, 1))
