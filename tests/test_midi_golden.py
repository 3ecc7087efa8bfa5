"""A golden shoe: a rigged sequence through every kind of coup, with the nets, the sabot's
path and the counts worked out by hand."""

from decimal import Decimal

import pytest

from shared.midi.table import Phase
from tests.midi_helpers import table_config, training_table

SUITS = "shdc"
# Each coup in dealing order (P B P B, then third cards), with what it must give.
COUPS = [
    ("9 K K K", "punto"),  # PUNTO natural 9
    ("K 3 K 3 5", "banca6"),  # PUNTO 0 draws 5; BANCA 6 stands on a 5: BANCA wins with 6
    ("4 5 4 3", "tie"),  # natural 8 against natural 8
    ("7 5 K K A", "punto"),  # PUNTO 7 stands; BANCA 5 draws A → 6
    ("2 3 2 K 8", "banca"),  # PUNTO 4 draws 8 → 2; BANCA 3 stands on an 8
    ("A 2 2 2 A", "tie"),  # PUNTO 3 draws A → 4; BANCA 4 stands on an A
    ("K 6 K K 6 9", "punto"),  # PUNTO 0 draws 6; BANCA 6 draws on a 6: 9 → 5
    ("3 7 K K 4", "tie"),  # PUNTO 3 draws 4 → 7; BANCA 7 stands
]
LAST = "Q Q Q Q Q Q Q"  # the cut-card coup (0 against 0, both draw) and one card left below


def order():
    cards = ["Ac", "Kd"]  # the burn card (A) and the one card it burns
    counter = 0
    for text, _ in COUPS:
        for rank in text.split():
            cards.append(rank + SUITS[counter % 4])
            counter += 1
    cards += [rank + SUITS[i % 4] for i, rank in enumerate(LAST.split())]
    return cards


@pytest.mark.parametrize("mode, handling, banca_win, banca_six_win, tally", [
    ("half-six", "tally", 100, 50, 0),
    ("commission", "deduct", 95, 95, 0),
    ("commission", "tally", 100, 100, 10),  # paid 1 a 1 now, 5 + 5 owed to box 2's tally
])
def test_golden_shoe(mode, handling, banca_win, banca_six_win, tally):
    t = training_table(order(), config=table_config(banca_mode=mode, commission_handling=handling))
    t.play.deal()
    t.play.confirm_burn()
    assert t.shoe.dealt == 2 and t.shoe.cut_position == 41
    t.play.assign_sabot(1)
    nets, holders = [], []
    for _ in COUPS:
        t.play.place_bet(1, "punto", 100)
        t.play.place_bet(2, "banca", 100)
        t.play.place_bet(3, "tie", 10)
        t.play.no_va_mas()
        while t.card_called_for:
            t.play.deal()
        nets.append(tuple(int(line.net) for line in t.settlement))
        t.play.settle()
        holders.append(t.sabot_holder)
    expected = {
        "punto": (100, -100, -10),
        "banca": (-100, banca_win, -10),
        "banca6": (-100, banca_six_win, -10),
        "tie": (0, 0, 80),
    }
    assert nets == [expected[kind] for _, kind in COUPS]
    # Customary rotation: kept on BANCA and TIE, passed right on PUNTO.
    assert holders == [2, 2, 2, 3, 3, 3, 4, 4]
    # Forty-one cards are out: the cut card is next, so this coup is the last (Art. 8 §1).
    assert "Último pase" in t.prompt.text("es")
    t.play.no_va_mas()
    while t.card_called_for:
        t.play.deal()
    assert t.shoe.cut_card_out and t.result.winner.value == "tie"
    t.play.settle()
    assert t.phase is Phase.SHOE_END and t.shoe.cards_left == 1
    assert t.sabot_holder == 5  # Art. 9 §6: the last coup was not BANCA
    c = t.roads.counts
    assert (c.punto, c.banca, c.tie, c.naturals, c.banca_sixes) == (3, 2, 4, 2, 1)
    # Box 1 wins 100 net, box 2 loses 300 and wins the two BANCA coups, box 3 wins 190.
    house = -sum(sum(n) for n in nets)
    assert house == Decimal(-100 + 300 - banca_win - banca_six_win - 190)
    assert sum(t.commission_tally.values(), Decimal(0)) == tally
