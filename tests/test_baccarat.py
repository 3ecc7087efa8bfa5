"""Baccarat drawing rules against a tableau written out independently of the code."""

from itertools import product

import pytest

from shared.baccarat import (
    Hand,
    Winner,
    cards_needed,
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


@pytest.mark.parametrize(
    "punto, banca",
    [
        ([1], [1, 1]),  # BANCA's second card before PUNTO's
        ([1, 1, 1], [1]),  # PUNTO's third card before BANCA's second
        ([], [1]),
        ([4, 4, 1], [0, 0]),  # a third card after PUNTO's natural
        ([0, 0], [4, 5, 1]),  # a third card after BANCA's natural
        ([3, 3, 1], [0, 0]),  # PUNTO 6 stands: no third card
        ([3, 3], [3, 3, 1]),  # PUNTO 6 and BANCA 6 stand
        ([1, 2], [2, 2, 3]),  # BANCA's third card before PUNTO's
        ([1, 2, 8], [2, 1, 5]),  # BANCA 3 stands on PUNTO's third card 8
        ([1, 2, 1, 1], [2, 2]),  # a fourth card
        ([1, 2, 1], [0, 0, 1, 1]),
    ],
)
def test_next_draw_refuses_layouts_the_rules_cannot_produce(punto, banca):
    with pytest.raises(InputError):
        next_draw(punto, banca)


def test_next_draw_after_each_stand():
    assert next_draw([3, 3], [2, 2]) is Hand.BANCA  # PUNTO 6 stands, BANCA 4 draws
    assert next_draw([3, 3], [2, 2, 5]) is None
    assert next_draw([3, 3], [3, 3]) is None  # both stand on 6
    assert next_draw([1, 2, 8], [2, 2]) is None  # BANCA 4 stands on PUNTO's third card 8
    assert next_draw([1, 2, 3], [2, 1]) is Hand.BANCA  # BANCA 3 draws on 3
    assert next_draw([1, 2, 3], [2, 1, 0]) is None


@pytest.mark.parametrize("card", [True, False, -1, 10, "5", 1.0])
def test_a_card_is_a_rank_or_its_points(card):
    from shared.baccarat import points

    assert all(repr(card) in text for text in refusal(points, card).values())
    assert points(0) == 0 and points(9) == 9 and points(Rank.ACE) == 1 and points(Rank.TEN) == 0


def test_a_coup_result_as_the_journal_records_it():
    r = resolve_coup([Rank.KING, Rank.ACE, Rank.THREE, Rank.TWO, Rank.FOUR, Rank.SIX])
    assert r.to_dict() == {
        "punto": ["K", "3", "4"], "banca": ["A", "2", "6"], "punto_total": 7, "banca_total": 9,
        "punto_drew": True, "banca_drew": True, "winner": "banca", "natural": False, "banca_six": False,
        "punto_pair": False, "banca_pair": False,
    }
    assert resolve_coup([9, 6, 0, 0]).to_dict()["punto"] == ["9", "0"]


def test_resolve_hands_from_the_two_finished_hands():
    r = resolve_hands([Rank.KING, Rank.THREE, Rank.FOUR], [Rank.ACE, Rank.TWO, Rank.SIX])
    assert (r.punto_total, r.banca_total, r.winner) == (7, 9, Winner.BANCA)
    assert r.cards_in_dealing_order == (Rank.KING, Rank.ACE, Rank.THREE, Rank.TWO, Rank.FOUR, Rank.SIX)
    assert resolve_hands([9, 0], [7, 0]).winner is Winner.PUNTO


def refusal(call, *args) -> dict[str, str]:
    """The texts of the InputError ``call(*args)`` raises, each language its own."""
    with pytest.raises(InputError) as caught:
        call(*args)
    texts = {lang: caught.value.message(lang) for lang in ("es", "en")}
    assert texts["es"] and texts["en"] and texts["es"] != texts["en"]
    return texts


def test_a_layout_the_rules_cannot_produce_is_refused_naming_each_hands_cards():
    for text in refusal(next_draw, [Rank.KING, 3, 1], [Rank.QUEEN]).values():
        assert "K 3 1" in text and "Q" in text
    for text in refusal(next_draw, [], [5]).values():
        assert "[—]" in text and "[5]" in text  # an empty hand shows as a dash, not as nothing
    for text in refusal(next_draw, [1, 2], []).values():  # BANCA's first card missing
        assert "[1 2]" in text and "[—]" in text


def test_a_card_after_the_coup_is_over_is_refused_naming_it_and_its_position():
    for text in refusal(deal_order, [0, 0, 7, 6, Rank.QUEEN]).values():  # PUNTO 7, BANCA 6: both stand
        assert "5" in text and "Q" in text


def test_an_incomplete_coup_is_refused_in_each_language():
    # It says which hand the missing card is for (the settle tool's only answer before).
    texts = refusal(resolve_hands, [1, 2], [3, 3])  # PUNTO 3 must draw
    assert "Carta para el PUNTO" in texts["es"] and "Card for PUNTO" in texts["en"]
    texts = refusal(resolve_hands, [1, 2, 0], [3, 0])  # BANCA 3 draws on PUNTO's third card 0
    assert "Carta para la BANCA" in texts["es"] and "Card for BANCA" in texts["en"]
    assert all("3" in text for text in refusal(deal_order, [1, 1, 2]).values())  # 3 cards do not complete it


def test_cards_needed_is_the_smallest_count_the_cards_so_far_allow():
    # Art. 8 §3 deals four cards first: before they are out, a coup takes at least four.
    assert [cards_needed(cards) for cards in ([], [8], [9, 9, 9])] == [4, 4, 4]
    assert cards_needed([8, 0, 0, 0]) == 4  # PUNTO's natural 8
    assert cards_needed([6, 1, 0, 0]) == 5  # PUNTO 6 stands, BANCA 1 draws
    assert cards_needed([7, 7, 0, 0]) == 4  # both stand
    # PUNTO 1 draws: five cards at least until its third card tells whether BANCA draws.
    assert cards_needed([1, 7, 0, 0]) == 5
    assert cards_needed([1, 3, 0, 0, 8]) == 5  # BANCA 3 stands on PUNTO's third card 8
    assert cards_needed([1, 3, 0, 0, 7]) == 6  # and draws on 7
