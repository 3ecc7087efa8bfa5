"""The shoe audit: coup by coup until the cut card, refusing bad input with its position."""

import pytest

from shared.baccarat import Winner
from shared.cards import FULL_DECK, make_rng
from shared.errors import InputError, RuleViolation
from shared.midi.audit import audit_shoe
from shared.midi.table import Phase
from tests.midi_helpers import training_table


def test_a_hand_worked_short_shoe():
    # Burn 2 (two cards burned); a natural; a coup where both draw; 7 cards below the cut card.
    tokens = "2 K K  9 K K K  3 2 2 K 5 6  Q Q Q Q Q Q Q".split()
    report = audit_shoe(tokens)
    assert report.burned == 2 and report.cut_position == 13
    first, second = report.coups[0], report.coups[1]
    assert first.to_dict() == {"coup": 1, "punto": ["9", "K"], "banca": ["K", "K"], "punto_total": 9,
                               "banca_total": 0, "winner": "punto", "natural": True, "banca_six": False}
    # 3 (P) 2 (B) 2 (P) K (B): PUNTO 5 draws 5 → 0; BANCA 2 draws on 5: 6 → 8.
    assert second.first_position == 8
    assert second.result.winner is Winner.BANCA and second.result.banca_total == 8
    # 13 cards are out: the cut card is next, so one more coup is played and it is the last.
    third = report.coups[2]
    assert len(report.coups) == 3 and third.first_position == 14 and third.result.winner is Winner.TIE
    assert report.cards_used == 19 and not report.nulo


def test_the_cut_card_coup_is_the_last():
    tokens = ["A", "K"] + ["9", "K", "K", "K"] + ["K"] * 4 + ["Q"] * 7
    report = audit_shoe(tokens)  # cut after 10 cards: it comes out during the second coup
    assert [c.first_position for c in report.coups] == [3, 7]
    assert report.cards_used == 12


def test_a_coup_the_cards_cannot_finish_is_nulo():
    tokens = ["A", "K", "K", "K", "K", "K", "K"]  # cut card with one card below it
    report = audit_shoe(tokens, cut=1)
    assert report.nulo and report.coups[-1].to_dict()["nulo"] is True
    assert report.irregular_cut and report.cut == 1


def test_a_cut_other_than_seven_is_audited_and_flagged():
    tokens = "2 K K  9 K K K  3 2 2 K 5 6  Q Q Q Q Q Q Q".split()
    regular = audit_shoe(tokens)
    assert regular.cut == 7 and not regular.irregular_cut
    short = audit_shoe(tokens, cut=9)  # the cut card comes out two cards earlier
    assert short.irregular_cut and short.cut == 9 and short.cut_position == 11
    assert len(short.coups) == 2 and short.cards_used == 13


@pytest.mark.parametrize("cut", [0, -3, 21, 40])
def test_a_cut_outside_the_shoe_is_refused(cut):
    tokens = "2 K K  9 K K K  3 2 2 K 5 6  Q Q Q Q Q Q Q".split()  # 21 cards
    with pytest.raises(InputError) as err:
        audit_shoe(tokens, cut=cut)
    assert "Art. 8 §1" in err.value.message("es") and f"{cut}" in err.value.message("es")


@pytest.mark.parametrize(
    "tokens, kwargs, error, text",
    [
        (["5", "Zz"], {}, InputError, "position 2"),
        (["A"] * 33, {}, RuleViolation, "position 33"),
        (["A"] * 25, {"decks": 6}, RuleViolation, "position 25"),
        (["9", "K", "K"], {}, InputError, "too few"),
        ([], {}, InputError, "no cards"),
    ],
)
def test_bad_input_is_refused_with_its_position(tokens, kwargs, error, text):
    with pytest.raises(error) as err:
        audit_shoe(tokens, **kwargs)
    assert text in err.value.message("en")


def test_the_audit_and_the_engine_deal_a_whole_shoe_the_same_way():
    deck = [str(c) for c in FULL_DECK] * 8
    make_rng(2024).shuffle(deck)
    t = training_table(deck)
    t.play.deal()
    t.play.confirm_burn()
    results = []
    while t.phase is not Phase.SHOE_END:
        t.play.no_va_mas()
        while t.card_called_for:
            t.play.deal()
        results.append(t.result)
        t.play.settle()
    report = audit_shoe(deck)
    assert [c.result for c in report.coups] == results
    assert report.cards_used == t.shoe.dealt and len(results) > 60
    counts = t.roads.counts
    assert counts.coups == len(report.coups)
