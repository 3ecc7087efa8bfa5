"""Exact coup probabilities and house edges (combinatorial, never simulated).

Cards are dealt without replacement from a composition over the ten point classes
(0 = 10/J/Q/K, 1 = A, 2–9). The first four cards' weight depends only on which cards
PUNTO and BANCA hold, not on their order, so PUNTO's and BANCA's pairs are enumerated
unordered with their multiplicity; third cards follow the tableau of shared.baccarat.
All weights are integers over the common denominator N·(N−1)·…·(N−5): exact fractions.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from shared.baccarat import BANCA_DRAWS_WHEN_PUNTO_STOOD, BANCA_TABLEAU, NATURALS, PUNTO_DRAWS_ON
from shared.record import record


@record
class CoupOdds:
    p_banca: Fraction
    p_punto: Fraction
    p_tie: Fraction
    p_banca_six: Fraction
    """BANCA wins with a total of 6 (paid half under Art. 5 §2)."""


@record
class TableOdds:
    decks: int
    mode: str
    odds: CoupOdds
    house_edge: dict[str, Fraction]
    """Per unit bet, ties included in the denominator: banca, punto, tie."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "decks": self.decks,
            "mode": self.mode,
            "p_banca": float(self.odds.p_banca),
            "p_punto": float(self.odds.p_punto),
            "p_tie": float(self.odds.p_tie),
            "p_banca_six": float(self.odds.p_banca_six),
            "house_edge": {k: float(v) for k, v in self.house_edge.items()},
        }


def shoe_counts(decks: int) -> list[int]:
    """Cards per point class in a full shoe: 16 per deck worth 0, 4 per deck of each other."""
    return [16 * decks] + [4 * decks] * 9


def coup_odds(counts: Sequence[int]) -> CoupOdds:
    """The exact outcome probabilities of the next coup dealt from ``counts`` (per point class)."""
    c = list(counts)
    n = sum(c)
    if n < 6:
        raise ValueError("at least six cards are needed to finish any coup")
    # Weight of every final (PUNTO total, BANCA total); who wins is read off it at the end.
    final = [[0] * 10 for _ in range(10)]
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    for a, b in pairs:
        wa = c[a]
        c[a] -= 1
        wb = c[b]
        c[b] -= 1
        w_p = wa * wb * (1 if a == b else 2)
        if w_p:
            for d, e in pairs:
                wd = c[d]
                c[d] -= 1
                we = c[e]
                c[e] -= 1
                w4 = w_p * wd * we * (1 if d == e else 2)
                if w4:
                    _third_cards(final, c, n, (a + b) % 10, (d + e) % 10, w4)
                c[d] += 1
                c[e] += 1
        c[a] += 1
        c[b] += 1
    return _outcomes(final, n)


def _third_cards(final: list[list[int]], c: list[int], n: int, pt: int, bt: int, w4: int) -> None:
    """Add the coup after its first four cards (weight ``w4``, totals ``pt``/``bt``, ``c`` the
    cards left): a natural ends it (Art. 6 §2), else PUNTO's rule (tercera carta §1), then
    BANCA's (§2). Weights are scaled to the six-card denominator."""
    scale4 = (n - 4) * (n - 5)  # a four-card coup's weight over the six-card denominator
    scale5 = n - 5
    if pt in NATURALS or bt in NATURALS:
        final[pt][bt] += w4 * scale4
    elif pt in PUNTO_DRAWS_ON:
        _punto_drew(final, c, pt, bt, w4, scale5)
    elif bt in BANCA_DRAWS_WHEN_PUNTO_STOOD:
        row = final[pt]
        for b3 in range(10):
            row[(bt + b3) % 10] += w4 * c[b3] * scale5
    else:
        final[pt][bt] += w4 * scale4


def _punto_drew(final: list[list[int]], c: list[int], pt: int, bt: int, w4: int, scale5: int) -> None:
    """PUNTO's third card ``p3``, then BANCA's by the tableau on ``p3`` (tercera carta §2)."""
    for p3 in range(10):
        w5 = w4 * c[p3]
        if not w5:
            continue
        pt3 = (pt + p3) % 10
        if p3 in BANCA_TABLEAU[bt]:
            c[p3] -= 1
            row = final[pt3]
            for b3 in range(10):
                row[(bt + b3) % 10] += w5 * c[b3]
            c[p3] += 1
        else:
            final[pt3][bt] += w5 * scale5


def _outcomes(final: list[list[int]], n: int) -> CoupOdds:
    """Who wins each final (PUNTO total, BANCA total), over the six-card denominator."""
    punto = sum(final[p][b] for p in range(10) for b in range(p))
    banca = sum(final[p][b] for p in range(10) for b in range(p + 1, 10))
    tie = sum(final[p][p] for p in range(10))
    six = sum(final[p][6] for p in range(6))
    denominator = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert banca + punto + tie == denominator
    return CoupOdds(Fraction(banca, denominator), Fraction(punto, denominator), Fraction(tie, denominator),
                    Fraction(six, denominator))


def house_edges(odds: CoupOdds, mode: str) -> dict[str, Fraction]:
    """Expected loss per unit bet: BANCA by the table's mode, PUNTO 1 a 1, TIE 8 a 1."""
    if mode == "half-six":
        banca_win = (odds.p_banca - odds.p_banca_six) + odds.p_banca_six / 2  # Art. 5 §2
    elif mode == "commission":
        banca_win = odds.p_banca * Fraction(95, 100)  # Art. 5 §3
    else:
        raise ValueError(f"unknown BANCA mode {mode!r}")
    return {
        "banca": odds.p_punto - banca_win,
        "punto": odds.p_banca - odds.p_punto,
        "tie": (1 - odds.p_tie) - 8 * odds.p_tie,
    }


def table_odds(decks: int = 8, mode: str = "half-six") -> TableOdds:
    odds = coup_odds(shoe_counts(decks))
    return TableOdds(decks, mode, odds, house_edges(odds, mode))
