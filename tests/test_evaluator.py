"""Poker evaluator (Madero Art. 5 §17–19): counts, tie-breaks, best five, names.

Independent oracles: the published five-card counts, hand-picked tie-break cases,
brute force over the 21 five-card subsets, and treys (lower number = better).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
import treys
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.cards import FULL_DECK, Card, Suit, parse_cards
from shared.errors import InputError
from shared.poker.evaluator import Category, HandValue, category_of, describe, evaluate, strength

PUBLISHED_COUNTS = {
    Category.ESCALERA_REAL: 4,
    Category.ESCALERA_DE_COLOR: 36,
    Category.POKER: 624,
    Category.FULL: 3_744,
    Category.COLOR: 5_108,
    Category.ESCALERA: 10_200,
    Category.TRIO: 54_912,
    Category.DOBLE_PAREJA: 123_552,
    Category.PAREJA: 1_098_240,
    Category.CARTA_MAYOR: 1_302_540,
}


def hand(text: str) -> list[Card]:
    return parse_cards(text)


def s(text: str) -> int:
    return strength(hand(text))


def cards_strategy(n: int) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(FULL_DECK), min_size=n, max_size=n, unique=True)


@pytest.mark.slow
def test_every_five_card_hand_matches_the_published_counts():
    counts = Counter(value >> 20 for value in map(strength, combinations(FULL_DECK, 5)))
    assert {Category(c): n for c, n in counts.items()} == PUBLISHED_COUNTS
    assert sum(counts.values()) == 2_598_960


def test_category_names():
    assert [c.es for c in sorted(Category, reverse=True)] == [
        "Escalera real", "Escalera de color", "Póker", "Full", "Color", "Escalera",
        "Trío", "Doble pareja", "Pareja", "Carta mayor",
    ]
    assert Category.FULL.render("en") == "Full house" and Category.CARTA_MAYOR == 0


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks Qs Js Ts", "Ks Qs Js Ts 9s"),  # royal over king-high straight flush
        ("5d 4d 3d 2d Ad", "Ah Ad Ac As Kd"),  # steel wheel over quads
        ("9c 9d 9h 9s 2c", "8c 8d 8h 8s Ac"),  # quads by rank before kicker
        ("9c 9d 9h 9s 3c", "9c 9d 9h 9s 2c"),  # then the kicker (6 cards shared)
        ("3c 3d 3h 2s 2c", "2h 2d 2c As Ad"),  # full by trips before pair
        ("Kc Kd Kh 3s 3c", "Kc Kd Kh 2s 2c"),  # then pair
        ("Ah Jh 9h 6h 3h", "Ac Jc 9c 6c 2c"),  # flush card by card, to the last
        ("2h 3c 4d 5s 6h", "Ah 2c 3d 4s 5h"),  # the wheel is the lowest straight
        ("Ah Kc Qd Js Th", "Kh Qc Jd Ts 9h"),
        ("7c 7d 7h As 2c", "7c 7d 7h Ks Qc"),  # trips then kickers
        ("7c 7d 7h As 3c", "7c 7d 7h As 2d"),
        ("Ac Ad 2h 2s 3c", "Kc Kd Qh Qs Jc"),  # two pair: high pair first
        ("Ac Ad 4h 4s 2c", "Ac Ad 3h 3s Kc"),  # then low pair
        ("Ac Ad 4h 4s 3c", "Ah As 4c 4d 2c"),  # then kicker
        ("Tc Td Ah 3s 2c", "Tc Td Kh Qs Jc"),  # pair then three kickers
        ("Tc Td Ah Ks 3c", "Th Ts Ad Kd 2h"),
        ("Ac Qd 9h 7s 3c", "Ad Qc 9s 7h 2d"),  # high card, to the last card
        ("2c 2d 3h 4s 6c", "Ac Kd Qh Js 9c"),  # any pair beats any high card
    ],
)
def test_tie_breaks_of_art_5_section_19(better, worse):
    assert s(better) > s(worse)


def test_equal_best_five_is_a_tie_whatever_the_suits_and_unused_cards():
    assert s("Ac Kd Qh Js 9c 2d 3h") == s("Ad Kh Qs Jc 9h 3c 2s")
    assert s("As Ks Qs Js Ts 9s 8s") == s("Ah Kh Qh Jh Th 2c 3d")
    assert evaluate(hand("Kc Kd 5h 6s 9c")) == evaluate(hand("Kh Ks 5c 6d 9h"))


@given(cards_strategy(5), st.permutations(list(Suit)))
def test_suits_never_decide(cards, perm):
    relabel = dict(zip(Suit, perm, strict=True))
    assert strength(cards) == strength([Card(c.rank, relabel[c.suit]) for c in cards])


@given(cards_strategy(7), st.permutations(list(Suit)))
def test_suits_never_decide_in_seven_cards(cards, perm):
    relabel = dict(zip(Suit, perm, strict=True))
    assert strength(cards) == strength([Card(c.rank, relabel[c.suit]) for c in cards])


@given(st.lists(st.sampled_from(list(Suit)), min_size=5, max_size=5),
       st.integers(min_value=6, max_value=14))
def test_the_wheel_is_the_lowest_straight(suits, top):
    wheel = [Card.parse(f"{r}{x.value}") for r, x in zip("A2345", suits, strict=True)]
    other = [Card.parse(f"{'23456789TJQKA'[v - 2]}{x.value}")
             for v, x in zip(range(top - 4, top + 1), suits, strict=True)]
    flush = len(set(suits)) == 1
    assert category_of(strength(wheel)) is (Category.ESCALERA_DE_COLOR if flush else Category.ESCALERA)
    assert strength(wheel) < strength(other)
    assert evaluate(wheel).best[0].rank.value == 5 and evaluate(wheel).best[-1].rank.value == 14


@given(st.data())
def test_kickers_decide_between_equal_pairs(data):
    pair, *kickers = data.draw(st.lists(st.integers(2, 14), min_size=7, max_size=7, unique=True))
    k1, k2 = sorted(kickers[:3], reverse=True), sorted(kickers[3:], reverse=True)
    names = "23456789TJQKA"
    one = hand(f"{names[pair - 2]}c {names[pair - 2]}d " + " ".join(f"{names[k - 2]}h" for k in k1))
    two = hand(f"{names[pair - 2]}h {names[pair - 2]}s " + " ".join(f"{names[k - 2]}c" for k in k2))
    expected = (k1 > k2) - (k1 < k2)
    assert (strength(one) > strength(two)) - (strength(one) < strength(two)) == expected


@settings(max_examples=300)
@given(cards_strategy(7))
def test_best_of_seven_is_the_best_of_its_21_five_card_subsets(cards):
    assert strength(cards) == max(strength(five) for five in combinations(cards, 5))
    assert strength(cards[:6]) == max(strength(five) for five in combinations(cards[:6], 5))


@settings(max_examples=300)
@given(st.integers(5, 7).flatmap(cards_strategy))
def test_evaluate_returns_the_best_five_it_names(cards):
    hv = evaluate(cards)
    assert isinstance(hv, HandValue) and len(hv.best) == 5
    assert set(hv.best) <= set(cards)
    assert strength(hv.best) == hv.strength == strength(cards)
    assert hv.category is category_of(hv.strength)


TREYS_EVAL = treys.Evaluator()
TREYS_CARD = {c: treys.Card.new(str(c)) for c in FULL_DECK}
# treys classes 0 (royal flush) .. 9 (high card)
TREYS_CLASS = {
    Category.ESCALERA_REAL: 0, Category.ESCALERA_DE_COLOR: 1, Category.POKER: 2,
    Category.FULL: 3, Category.COLOR: 4, Category.ESCALERA: 5, Category.TRIO: 6,
    Category.DOBLE_PAREJA: 7, Category.PAREJA: 8, Category.CARTA_MAYOR: 9,
}


def treys_rank(cards: list[Card]) -> int:
    t = [TREYS_CARD[c] for c in cards]
    return TREYS_EVAL.evaluate(t[:2], t[2:])


@settings(max_examples=400)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=14, max_size=14, unique=True))
def test_ordering_agrees_with_treys_on_seven_card_pairs(cards):
    a, b = cards[:7], cards[7:]
    ours = (strength(a) > strength(b)) - (strength(a) < strength(b))
    theirs = (treys_rank(a) < treys_rank(b)) - (treys_rank(a) > treys_rank(b))
    assert ours == theirs
    for h in (a, b):
        assert TREYS_EVAL.get_rank_class(treys_rank(h)) == TREYS_CLASS[category_of(strength(h))]


def test_royal_flush_is_its_own_class_in_treys_too():
    royal = hand("As Ks Qs Js Ts 2d 3c")
    assert TREYS_EVAL.get_rank_class(treys_rank(royal)) == TREYS_CLASS[category_of(strength(royal))]


def test_ordering_agrees_with_treys_on_many_random_hands():
    rng = random.Random(20261129)
    hands = [rng.sample(FULL_DECK, 7) for _ in range(3000)]
    ours = sorted(range(len(hands)), key=lambda i: strength(hands[i]))
    theirs = [treys_rank(hands[i]) for i in ours]
    assert theirs == sorted(theirs, reverse=True)
    assert len({strength(h) for h in hands}) == len({treys_rank(h) for h in hands})


@pytest.mark.parametrize(
    ("text", "es", "en", "best"),
    [
        ("Kh Kd 9c 5s 2h 3d Ac", "Pareja de Reyes", "Pair of Kings", "Kh Kd Ac 9c 5s"),
        ("Ah 2h 7h 9h Qh Kd Kc", "Color al As", "Flush, Ace high", "Ah Qh 9h 7h 2h"),
        ("5h 4d 3c 2s Ah Kd Kc", "Escalera al 5", "Straight, 5 high", "5h 4d 3c 2s Ah"),
        ("Ah Ad As Kd Kc Ks 2c", "Full de Ases y Reyes", "Full house, Aces over Kings",
         "As Ah Ad Ks Kd"),
        ("Ah Ad 5c 5d Kh Qs 2c", "Doble pareja de Ases y Cincos", "Two pair, Aces and Fives",
         "Ah Ad 5d 5c Kh"),
        ("As Ks Qs Js Ts 9s 2d", "Escalera real", "Royal flush", "As Ks Qs Js Ts"),
        ("9d 8d 7d 6d 5d 4d 2c", "Escalera de color al 9", "Straight flush, 9 high",
         "9d 8d 7d 6d 5d"),
        ("Qc Qd Qh Qs 2c 7d", "Póker de Damas", "Four of a kind, Queens", "Qs Qh Qd Qc 7d"),
        ("Jc Jd Jh 2s 3c", "Trío de Jotas", "Three of a kind, Jacks", "Jh Jd Jc 3c 2s"),
        ("Qc 9d 7h 5s 3c 2d", "Carta mayor: Dama", "High card, Queen", "Qc 9d 7h 5s 3c"),
        ("Jc 9c 7c 5c 3c", "Color a la Jota", "Flush, Jack high", "Jc 9c 7c 5c 3c"),
    ],
)
def test_describe_and_best_five_for_display(text, es, en, best):
    hv = evaluate(hand(text))
    assert describe(hv) == es
    assert describe(hv, "en") == en
    assert describe(hv.strength) == es
    assert [c.rank for c in hv.best] == [c.rank for c in hand(best)]
    if hv.category in (Category.COLOR, Category.ESCALERA_DE_COLOR, Category.ESCALERA_REAL):
        assert hv.best == tuple(hand(best))


@pytest.mark.parametrize("text", ["As Kd Qh Jc", "As Kd Qh Jc Td 9d 8d 7d", ""])
def test_wrong_number_of_cards_is_refused(text):
    with pytest.raises(InputError):
        strength(hand(text))
    with pytest.raises(InputError):
        evaluate(hand(text))


@pytest.mark.parametrize("text", ["As As Qh Jc Td", "As Kd Qh Jc Td 9d As", "2c 2c 2c 2c 2c 3d"])
def test_a_repeated_card_is_refused(text):
    with pytest.raises(InputError) as refused:
        strength(hand(text))
    assert "dos veces" in refused.value.message("es")
    with pytest.raises(InputError):
        evaluate(hand(text))


def test_handvalue_orders_and_compares_on_strength_only():
    a, b = evaluate(hand("Kc Kd 5h 6s 9c")), evaluate(hand("Ac Ad 5h 6s 9c"))
    assert a < b and max(a, b) is b
    assert a == evaluate(hand("Ks Kh 5d 6c 9s 2d"))


def test_shipped_tables_are_exactly_a_fresh_build():
    """The evaluator loads its tables from ``tables.bin`` (fast start); they must be the
    ones the builders make, and the file must be the one whose hash the module trusts."""
    import hashlib
    import marshal
    import zlib

    from shared.poker import evaluator

    data = evaluator.TABLES_FILE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == evaluator.TABLES_SHA256
    assert marshal.loads(zlib.decompress(data)) == evaluator.build_tables()
    assert (evaluator._RANK_TABLE, evaluator._FLUSH_TABLE) == evaluator.build_tables()


def test_a_tampered_tables_file_is_not_used(tmp_path, monkeypatch):
    import marshal
    import zlib

    from shared.poker import evaluator

    rank_table, flush_table = evaluator.build_tables()
    flush_table[0b1111100000000] = 0  # a royal flush worth nothing
    forged = tmp_path / "tables.bin"
    forged.write_bytes(zlib.compress(marshal.dumps((rank_table, flush_table))))
    monkeypatch.setattr(evaluator, "TABLES_FILE", forged)
    assert evaluator._load_tables() == evaluator.build_tables()
