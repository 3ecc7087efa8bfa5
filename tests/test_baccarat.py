"""Baccarat drawing rules against a tableau written out independently of the code."""

from itertools import product

import pytest

from shared.baccarat import (
    Hand,
    Winner,
    deal_order,
    next_draw,
    resolve_coup,
    resolve_hands,
    total,
)
from shared.cards import Rank
from shared.errors import InputError

# The standard punto banco chart as printed on dealer cards: rows are BANCA's two-card
# total 0..7, columns PUNTO's third card 0..9 then "-" (PUNTO stood). D = draw, S = stand.
CHART = {
    0: "DDDDDDDDDD D",
    1: "DDDDDDDDDD D",
    2: "DDDDDDDDDD D",
    3: "DDDDDDDDSD D",
    4: "SSDDDDDDSS D",
    5: "SSSSDDDDSS D",
    6: "SSSSSSDDSS S",
    7: "SSSSSSSSSS S",
}


def chart_says_banca_draws(banca_total, punto_third):
    row = CHART[banca_total]
    return row[11 if punto_third is None else punto_third] == "D"


def coups_from(p1, b1, p2, b2):
    """Independently, every coup these first four cards can lead to: (punto, banca) lists."""
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    if pt >= 8 or bt >= 8:
        yield [p1, p2], [b1, b2]
        return
    for p3 in range(10) if pt <= 5 else [None]:
        punto = [p1, p2] + ([] if p3 is None else [p3])
        if chart_says_banca_draws(bt, p3):
            for b3 in range(10):
                yield punto, [b1, b2, b3]
        else:
            yield punto, [b1, b2]


def test_every_first_four_and_third_cards_against_the_chart():
    checked = 0
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        # Every third card the chart calls for takes all ten values.
        for punto, banca in coups_from(p1, b1, p2, b2):
            cards = [p1, b1, p2, b2] + punto[2:] + banca[2:]
            result = resolve_coup(cards)
            assert list(result.punto_cards) == punto
            assert list(result.banca_cards) == banca
            pt, bt = sum(punto) % 10, sum(banca) % 10
            assert (result.punto_total, result.banca_total) == (pt, bt)
            expected_winner = "punto" if pt > bt else "banca" if bt > pt else "tie"
            assert result.winner.value == expected_winner
            assert result.natural == ((p1 + p2) % 10 >= 8 or (b1 + b2) % 10 >= 8)
            assert result.banca_six == (expected_winner == "banca" and bt == 6)
            assert (result.punto_drew, result.banca_drew) == (len(punto) == 3, len(banca) == 3)
            checked += 1
    assert checked > 10**5


def test_next_draw_walks_the_dealing_order():
    # 1st and 3rd to PUNTO, 2nd and 4th to BANCA (Art. 8 §3).
    assert next_draw([], []) is Hand.PUNTO
    assert next_draw([1], []) is Hand.BANCA
    assert next_draw([1], [2]) is Hand.PUNTO
    assert next_draw([1, 2], [2]) is Hand.BANCA
    # PUNTO 3 draws; BANCA 4 with PUNTO third card 1 stands.
    assert next_draw([1, 2], [2, 2]) is Hand.PUNTO
    assert next_draw([1, 2, 1], [2, 2]) is None
    # Natural: nobody draws.
    assert next_draw([4, 4], [0, 0]) is None


def test_ranks_and_points_agree():
    ranks = [Rank.KING, Rank.ACE, Rank.THREE, Rank.TWO, Rank.FOUR, Rank.SIX]
    result = resolve_coup(ranks)
    assert result.punto_cards == (Rank.KING, Rank.THREE, Rank.FOUR)
    assert result.banca_cards == (Rank.ACE, Rank.TWO, Rank.SIX)
    assert result.winner is Winner.BANCA and (result.punto_total, result.banca_total) == (7, 9)
    assert result.cards_in_dealing_order == tuple(ranks)
    assert total([Rank.QUEEN, Rank.JACK]) == 0


@pytest.mark.parametrize(
    "cards",
    [
        [4, 4, 5, 0, 1],  # natural 9 for PUNTO: no third card
        [1, 2, 6],  # incomplete
        [0, 0, 7, 6, 3],  # PUNTO 7 stands, BANCA 6 stands: coup over
    ],
)
def test_cards_the_rules_do_not_call_for_are_refused(cards):
    with pytest.raises(InputError):
        resolve_coup(cards)


def test_resolve_hands_refuses_a_missing_third_card():
    with pytest.raises(InputError):
        resolve_hands([1, 2], [3, 3])  # PUNTO 3 must draw
    with pytest.raises(InputError):
        deal_order([1, 1, 2, 3])


def test_pairs_are_same_rank():
    r = resolve_coup([Rank.KING, Rank.TWO, Rank.KING, Rank.TWO, Rank.FIVE, Rank.SIX])
    assert r.punto_pair and r.banca_pair
    r = resolve_coup([Rank.KING, Rank.TWO, Rank.QUEEN, Rank.THREE, Rank.FIVE, Rank.SIX])
    assert not r.punto_pair and not r.banca_pair


def test_next_draw_agrees_with_the_chart_card_by_card():
    # The engine's step function: every card it calls for, and nothing after the last.
    for i, (p1, b1, p2, b2) in enumerate(product(range(10), repeat=4)):
        for punto, banca in coups_from(p1, b1, p2, b2):
            dealt_p, dealt_b = [], []
            sequence = [p1, b1, p2, b2] + punto[2:] + banca[2:]
            for card in sequence:
                hand = next_draw(dealt_p, dealt_b)
                assert hand is not None
                (dealt_p if hand is Hand.PUNTO else dealt_b).append(card)
            assert next_draw(dealt_p, dealt_b) is None
            assert (dealt_p, dealt_b) == (punto, banca)
            if i % 3:
                break  # a third of the first-four combinations walk every third card
