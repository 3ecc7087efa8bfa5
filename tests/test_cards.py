from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.cards import (
    FULL_DECK,
    BaccaratShoe,
    Card,
    PokerDeck,
    Rank,
    Suit,
    make_rng,
    parse_baccarat_card,
    parse_cards,
)
from shared.errors import InputError, RuleViolation


@given(st.sampled_from(FULL_DECK))
def test_text_form_round_trips(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.from_index(card.index) == card


def test_deck_has_52_distinct_cards():
    assert len(set(FULL_DECK)) == 52
    assert [c.index for c in FULL_DECK] == list(range(52))


@pytest.mark.parametrize(
    "token, expected",
    [("As", "As"), ("10h", "Th"), ("Th", "Th"), ("th", "Th"), ("kd", "Kd"), ("2C", "2c"), (" Qs ", "Qs")],
)
def test_croupier_syntax(token, expected):
    assert str(Card.parse(token)) == expected


def test_display_uses_suit_symbols():
    assert Card.parse("As").display == "A♠"
    assert Card.parse("10h").display == "10♥"
    assert Card.parse("Td").display == "10♦"
    assert Card.parse("2c").display == "2♣"


@pytest.mark.parametrize(
    "token, fragment",
    [
        ("1x", "no es una carta"),
        ("Zz", "no es una carta"),
        ("A", "falta el palo"),
        ("Ax", "palo «x» desconocido"),
        ("1s", "rango «1» desconocido"),
        ("0s", "rango «0» desconocido"),
        ("11h", "rango «11» desconocido"),
    ],
)
def test_malformed_tokens_say_what_is_wrong(token, fragment):
    with pytest.raises(InputError) as exc:
        Card.parse(token)
    assert fragment in exc.value.msg.render("es")
    assert exc.value.msg.render("en") and exc.value.msg.render("en") != exc.value.msg.render("es")


def test_parse_cards_accepts_spaces_commas_and_glued_cards():
    assert [str(c) for c in parse_cards("AsKd, 10h 2c")] == ["As", "Kd", "Th", "2c"]


def test_baccarat_rank_alone_or_with_suit():
    assert parse_baccarat_card("7") == (Rank.SEVEN, None)
    assert parse_baccarat_card("0") == (Rank.TEN, None)
    assert parse_baccarat_card("t") == (Rank.TEN, None)
    assert parse_baccarat_card("k") == (Rank.KING, None)
    assert parse_baccarat_card("Kh") == (Rank.KING, Suit.HEARTS)
    with pytest.raises(InputError) as exc:
        parse_baccarat_card("x")
    assert "rango desconocido" in exc.value.msg.render("es")


def test_baccarat_points_and_burn_counts():
    points = {r.char: r.baccarat_points for r in Rank}
    assert points == {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                      "T": 0, "J": 0, "Q": 0, "K": 0}
    burns = {r.char: r.burn_count for r in Rank}
    assert burns["A"] == 1 and burns["9"] == 9
    assert burns["T"] == burns["J"] == burns["Q"] == burns["K"] == 10


def test_poker_deck_refuses_a_second_copy():
    deck = PokerDeck()
    deck.take(Card.parse("As"))
    assert not deck.can_take(Card.parse("as"))
    with pytest.raises(RuleViolation) as exc:
        deck.take(Card.parse("AS"))
    assert exc.value.article == "Art. 2 §5"
    assert len(deck.unseen()) == 51
    deck.put_back(Card.parse("As"))
    assert deck.can_take(Card.parse("As"))


def test_virtual_deck_shuffle_is_repeatable_with_a_seed():
    a = PokerDeck().shuffled_unseen(make_rng(7))
    b = PokerDeck().shuffled_unseen(make_rng(7))
    assert a == b and sorted(a) == sorted(FULL_DECK)


@pytest.mark.parametrize("decks", [6, 8])
def test_shoe_refuses_a_rank_it_no_longer_holds(decks):
    shoe = BaccaratShoe(decks)
    for _ in range(4 * decks):
        shoe.take(Rank.NINE)
    with pytest.raises(RuleViolation) as exc:
        shoe.take(Rank.NINE)
    assert "Art. 2 §1" in str(exc.value)
    assert shoe.cards_left == 52 * decks - 4 * decks


def test_shoe_holds_six_or_eight_decks():
    with pytest.raises(RuleViolation):
        BaccaratShoe(7)


def test_virtual_shoe_burns_by_the_first_cards_value_and_places_the_cut_card():
    shoe = BaccaratShoe.shuffled(8, make_rng(3))
    assert Counter(c.rank for c in shoe.order) == Counter({r: 32 for r in Rank})
    first, burned = shoe.burn()
    assert len(burned) == first.rank.burn_count
    assert shoe.dealt == 1 + len(burned)
    while shoe.cards_left > BaccaratShoe.CARDS_BELOW_CUT:
        shoe.deal()
    assert not shoe.cut_card_out  # the cut card is next, but has not come out yet
    shoe.deal()
    assert shoe.cut_card_out and shoe.cards_left == BaccaratShoe.CARDS_BELOW_CUT - 1
    assert sum(shoe.left.values()) == 6
