"""Exact probabilities of the Madero side bets, and the Bonus house edge.

Everything is counted, not simulated, and returned as ``fractions.Fraction``:

* Bonus (Art. 13 §67): every one of the C(52,2) = 1326 two-card holdings of the
  player is classified by the paytable's own ``bonus_line``. The bank's two cards
  matter only for the optional A-A vs A-A line, so for each player holding the
  C(50,2) = 1225 bank holdings are counted in two classes: the bank holds two of
  the aces still unseen, or it does not. The sample space is 1326 × 1225 deals.
* Jackpot, fixed table (Art. 11 §48–49): all C(52,5) = 2,598,960 five-card hands
  (hole cards + flop, §44) are valued by the evaluator and counted per category.

Paytable numbers come from ``shared.madero.paytables`` (the engine's own data), so
the odds shown always describe the table the engine pays.

* The main game (Art. 8–9): its house edge and element of risk under the strategy shipped,
  read from ``house_edge.json`` (``main_game_edge``), which ``bench/house_edge.py`` counts.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path

from shared.cards import FULL_DECK, Rank
from shared.messages import Msg
from shared.madero.paytables import (
    BONUS_PAYTABLE,
    FIXED_JACKPOT_PAYTABLE,
    BonusLine,
    JackpotPayKind,
    bonus_line,
)
from shared.poker.evaluator import CATEGORY_SHIFT, strength
from shared.record import record

BANK_HOLDINGS = comb(50, 2)


@record
class OddsLine:
    """One paytable line and the exact probability of hitting it."""

    line: str
    """The paytable's line id (``BonusLine`` / ``JackpotLine`` value)."""
    name: Msg
    """As printed on the paytable."""
    pays: int
    """Bonus: pays ``pays`` a 1. Jackpot: currency, × credits unless ``fixed``."""
    probability: Fraction
    fixed: bool = False
    """Jackpot lines paid as one amount whatever the credits (§49)."""


@cache
def _bonus_counts(with_1000: bool) -> Counter[BonusLine | None]:
    """Deals (player holding × bank holding) per Bonus line; None = the bet loses."""
    counts: Counter[BonusLine | None] = Counter()
    for a, b in combinations(FULL_DECK, 2):
        ranks = (a.rank.value, b.rank.value)
        suited = a.suit is b.suit
        aces_left = 4 - sum(c.rank is Rank.ACE for c in (a, b))
        bank_aa = comb(aces_left, 2)
        counts[bonus_line(ranks, suited, (14, 14), with_1000)] += bank_aa
        counts[bonus_line(ranks, suited, (13, 12), with_1000)] += BANK_HOLDINGS - bank_aa
    return counts


def bonus_lines(with_1000: bool) -> list[OddsLine]:
    """Each Bonus line of §67 (highest first) with its probability; the 1000 a 1
    line only when the table offers it."""
    counts = _bonus_counts(with_1000)
    total = comb(52, 2) * BANK_HOLDINGS
    return [
        OddsLine(pay.line.value, pay.name, pay.odds, Fraction(counts[pay.line], total))
        for pay in BONUS_PAYTABLE
        if with_1000 or not pay.optional
    ]


def bonus_house_edge(with_1000: bool) -> Fraction:
    """The house's expected gain per unit bet on the Bonus (a winner keeps the stake
    and is paid ``pays`` × stake; anything else loses the stake)."""
    lines = bonus_lines(with_1000)
    p_win = sum((line.probability for line in lines), Fraction(0))
    player_return = sum((line.probability * line.pays for line in lines), Fraction(0))
    return (1 - p_win) - player_return


@cache
def _five_card_category_counts() -> Counter[int]:
    return Counter(value >> CATEGORY_SHIFT for value in map(strength, combinations(FULL_DECK, 5)))


def jackpot_lines() -> list[OddsLine]:
    """The hand lines of the fixed Jackpot table (§48–49), highest first, with the
    probability that hole cards + flop make exactly that hand. Takes about a second
    the first time (all five-card hands are valued), then is cached."""
    counts = _five_card_category_counts()
    total = comb(52, 5)
    return [
        OddsLine(
            pay.line.value, pay.name, int(pay.amount),
            Fraction(counts[pay.category], total), fixed=pay.kind is JackpotPayKind.FIXED,
        )
        for pay in FIXED_JACKPOT_PAYTABLE
        if pay.category is not None
    ]


# --- the main game ------------------------------------------------------------------

HOUSE_EDGE_FILE = Path(__file__).with_name("house_edge.json")
"""The main game's figures and the strategy behind them, counted by ``bench/house_edge.py``
(exact, over every deal; minutes of CPU with numpy, so shipped as data and rebuilt on demand)."""


@record
class Situation:
    """A situation after the flop (Turn) or the turn (River), and whether the strategy bets it."""

    situation: str
    """``bench/house_edge_core.TURN_SITUATIONS`` / ``RIVER_SITUATIONS``; worded in the catalogs."""
    bet: bool
    gain_if_bet: float
    """What betting it in every hand played adds to the player's result, per Ante dealt."""
    frequency: float
    """How often it arises, per hand dealt."""


@record
class MainGameEdge:
    """Ante/Flop/Turn/River under the strategy shipped (Art. 8–9, Ante paid only with Color, §33)."""

    house_edge: Fraction
    """The house's expected gain per Ante."""
    average_wager: Fraction
    """Ante + Flop + Turn + River the player stakes on average, per Ante."""
    element_of_risk: Fraction
    """The house edge per unit actually staked."""
    by_bet: dict[str, float]
    """Each bet's share of the house edge, per Ante (the Ante's includes the folds)."""
    fold: tuple[str, ...]
    """The two-card classes folded (``AKs`` suited, ``AKo`` offsuit), the least bad first."""
    play_values: dict[str, float]
    """Each class's value playing, per Ante (folding is −1)."""
    turn: tuple[Situation, ...]
    river: tuple[Situation, ...]
    optimum_edge: float
    """The house edge against the game's optimum (each suit class of hand decided apart: not
    teachable), for comparison."""
    optimum_element_of_risk: float
    method: str
    deals: int
    cpu_seconds: int
    rebuild: str


@cache
def main_game_edge() -> MainGameEdge:
    data = json.loads(HOUSE_EDGE_FILE.read_text(encoding="utf-8"))

    def exact(key: str) -> Fraction:
        return Fraction(data[key]["exact"])

    def streets(key: str) -> tuple[Situation, ...]:
        return tuple(Situation(**row) for row in data[key])

    return MainGameEdge(
        exact("house_edge"), exact("average_wager"), exact("element_of_risk"), data["by_bet"],
        tuple(data["fold"]), data["play_values"], streets("turn"), streets("river"),
        data["alternatives"]["optimum"]["house_edge"], data["alternatives"]["optimum"]["element_of_risk"],
        data["method"], data["deals"], data["cpu_seconds"], data["rebuild"],
    )
