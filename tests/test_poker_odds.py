"""Exact side-bet odds checked against closed-form counts derived by hand.

How the expected values are derived (independently of the enumeration in odds.py):

Bonus, player's two cards: C(52,2) = 1326 equally likely holdings.
  * a given pair (e.g. A-A): C(4,2) = 6 holdings;
  * a given two ranks suited (A-K suited): 4 holdings (one per suit);
  * a given two ranks offsuit (A-K offsuit): 4 × 3 = 12 holdings;
  so A-A 6, A-K s 4, A-Q/A-J s 2·4 = 8, A-K o 12, J-J/Q-Q/K-K 3·6 = 18,
  A-Q/A-J o 2·12 = 24, pairs 2-2 to 10-10 9·6 = 54; 126 winning holdings in all.
Bonus 1000 a 1 line: the bank's two cards come from the 50 left, C(50,2) = 1225
  equally likely holdings. When the player holds A-A the bank has A-A only with the
  two remaining aces: 1 holding. P(both A-A) = 6/1326 · 1/1225; P(player A-A, bank
  not) = 6/1326 · 1224/1225.
House edge = P(lose) − Σ P(line) · pays  (a winner keeps the stake):
  without the line: (1200 − (6·30 + 4·25 + 8·20 + 12·15 + 18·10 + 24·5 + 54·3)) / 1326
                    = (1200 − 1082) / 1326 = 118/1326;
  with it, the 1/1225 share of the A-A holdings is paid 1000 instead of 30:
                    118/1326 − 6·970 / (1326·1225).
Jackpot, five cards out of 52, C(52,5) = 2,598,960 hands:
  royal flush 4 (one per suit); straight flush 4·10 − 4 = 36 (ten straights per suit,
  less the royals); four of a kind 13·48; full house 13·C(4,3) · 12·C(4,2);
  flush 4·C(13,5) − 40 (less the straight and royal flushes);
  straight 10·4⁵ − 40 (ten rank sequences, any suits, less the suited ones).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from shared.madero.paytables import BONUS_PAYTABLE, FIXED_JACKPOT_PAYTABLE
from shared.madero.odds import OddsLine, bonus_house_edge, bonus_lines, jackpot_lines

HOLDINGS = comb(52, 2)
BANK = comb(50, 2)

BONUS_COUNTS = {  # player holdings out of 1326
    "aa": 6,
    "ak_suited": 4,
    "aq_aj_suited": 2 * 4,
    "ak_offsuit": 4 * 3,
    "jj_qq_kk": 3 * comb(4, 2),
    "aq_aj_offsuit": 2 * 4 * 3,
    "pair_2_to_10": 9 * comb(4, 2),
}


def by_line(lines: list[OddsLine]) -> dict[str, OddsLine]:
    return {line.line: line for line in lines}


def test_bonus_without_the_1000_line():
    lines = by_line(bonus_lines(with_1000=False))
    assert "aa_vs_aa" not in lines
    assert {k: v.probability for k, v in lines.items()} == {
        k: Fraction(n, HOLDINGS) for k, n in BONUS_COUNTS.items()
    }
    assert lines["aa"].probability == Fraction(6, 1326) == Fraction(1, 221)
    assert lines["ak_suited"].probability == Fraction(4, 1326)
    assert lines["ak_offsuit"].probability == Fraction(12, 1326)
    assert lines["pair_2_to_10"].probability == Fraction(9 * 6, 1326)
    assert sum(BONUS_COUNTS.values()) == 126


def test_bonus_with_the_1000_line_splits_aa_by_the_bank_holding():
    lines = by_line(bonus_lines(with_1000=True))
    assert lines["aa_vs_aa"].probability == Fraction(6, 1326) * Fraction(1, 1225)
    assert lines["aa"].probability == Fraction(6, 1326) * Fraction(1224, 1225)
    assert lines["aa_vs_aa"].pays == 1000 and lines["aa"].pays == 30
    for key, n in BONUS_COUNTS.items():
        if key != "aa":
            assert lines[key].probability == Fraction(n, HOLDINGS)
    assert list(lines) == [p.line.value for p in BONUS_PAYTABLE]


def test_bonus_pays_are_the_paytable_of_section_67():
    pays = {line.line: line.pays for line in bonus_lines(with_1000=True)}
    assert pays == {
        "aa_vs_aa": 1000, "aa": 30, "ak_suited": 25, "aq_aj_suited": 20, "ak_offsuit": 15,
        "jj_qq_kk": 10, "aq_aj_offsuit": 5, "pair_2_to_10": 3,
    }


def test_bonus_house_edge():
    without = Fraction(1200 - (6 * 30 + 4 * 25 + 8 * 20 + 12 * 15 + 18 * 10 + 24 * 5 + 54 * 3), 1326)
    assert bonus_house_edge(with_1000=False) == without == Fraction(118, 1326)
    assert bonus_house_edge(with_1000=True) == without - Fraction(6 * 970, 1326 * 1225)
    assert float(bonus_house_edge(with_1000=False)) == pytest.approx(0.08899, abs=1e-5)
    assert float(bonus_house_edge(with_1000=True)) == pytest.approx(0.08541, abs=1e-5)


def test_jackpot_lines_of_the_fixed_table():
    hands = comb(52, 5)
    expected = {
        "escalera_real": 4,
        "escalera_de_color": 4 * 10 - 4,
        "poker": 13 * 48,
        "full": 13 * comb(4, 3) * 12 * comb(4, 2),
        "color": 4 * comb(13, 5) - 40,
        "escalera": 10 * 4**5 - 40,
    }
    lines = jackpot_lines()
    assert [line.line for line in lines] == list(expected)
    assert {line.line: line.probability for line in lines} == {
        k: Fraction(n, hands) for k, n in expected.items()
    }
    assert {line.line: (line.pays, line.fixed) for line in lines} == {
        "escalera_real": (5000, True), "escalera_de_color": (2000, True), "poker": (500, False),
        "full": (100, False), "color": (50, False), "escalera": (25, False),
    }
    assert len(lines) == sum(p.category is not None for p in FIXED_JACKPOT_PAYTABLE)
