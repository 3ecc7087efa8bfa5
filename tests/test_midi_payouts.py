"""The Midi payouts of Resolución 100/2016, article by article, on ``shared.midi.payouts`` alone
(no table, so each test is quick enough to run for every mutant of bench/mutation.sh)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from shared.codec import decode, encode
from shared.baccarat import Winner, resolve_coup
from shared.errors import RuleViolation
from shared.midi.payouts import (BetKind, Outcome, SettlementLine, exact_banca_unit, settle_bet, settle_bets,
                                 spot_summaries, upcast_line, verify_payable, void_bet)
from tests.midi_helpers import table_config

HALF_SIX = table_config(banca_mode="half-six")
TALLY = table_config(banca_mode="commission", commission_handling="tally")
DEDUCT = table_config(banca_mode="commission", commission_handling="deduct")

PUNTO_WINS = resolve_coup([8, 3, 0, 4])  # a natural 8 against 7
BANCA_SEVEN = resolve_coup([6, 7, 0, 0])  # PUNTO 6 and BANCA 7 both stand
BANCA_SIX = resolve_coup([5, 6, 0, 0, 0])  # PUNTO 5 draws a 0, BANCA 6 stands on it
TIE = resolve_coup([6, 6, 0, 0])  # 6 against 6


def money(line: SettlementLine) -> tuple:
    return line.outcome, line.exact, line.paid, line.commission, line.returned, line.collected, line.net


def test_art_5_2_punto_and_banca_pay_one_to_one():
    for config in (HALF_SIX, TALLY, DEDUCT):
        punto = settle_bet(3, BetKind.PUNTO, Decimal(25), PUNTO_WINS, config)
        assert (punto.spot, punto.kind, punto.stake) == (3, BetKind.PUNTO, 25)
        assert money(punto) == (Outcome.WIN, 25, 25, 0, 25, 0, 25)
        assert "Art. 5 §2" in punto.reason.render("es") and "Art. 5 §2" in punto.reason.render("en")
    banca = settle_bet(4, BetKind.BANCA, Decimal(25), BANCA_SEVEN, HALF_SIX)
    assert (banca.spot, banca.kind, banca.stake) == (4, BetKind.BANCA, 25)
    assert money(banca) == (Outcome.WIN, 25, 25, 0, 25, 0, 25)
    assert "Art. 5 §2" in banca.reason.render("es") and "Art. 5 §2" in banca.reason.render("en")


def refusal(kind: BetKind, stake: Decimal, config) -> RuleViolation | None:
    try:
        verify_payable(kind, stake, config)
    except RuleViolation as exc:
        return exc
    return None


def test_art_5_2_banca_winning_with_six_pays_exactly_half_and_an_odd_number_of_chips_is_refused():
    even = settle_bet(1, BetKind.BANCA, Decimal(20), BANCA_SIX, HALF_SIX)
    assert money(even) == (Outcome.WIN, 10, 10, 0, 20, 0, 10)
    assert refusal(BetKind.BANCA, Decimal(20), HALF_SIX) is None
    # "se pagará el 50 %": the half of 15 is 7.5, which the 1 chip cannot pay: refused when placed.
    odd = refusal(BetKind.BANCA, Decimal(15), HALF_SIX)
    assert odd is not None and odd.article == "Art. 5 §2"
    assert "número par de fichas" in odd.message("es") and "even number of chips" in odd.message("en")
    five = table_config(chip=Decimal(5))
    odd_five = refusal(BetKind.BANCA, Decimal(15), five)
    # The refusal says which amounts pay exactly: with the 5 chip, BANCA in steps of 10.
    assert odd_five is not None and "con la ficha de 5" in odd_five.message("es") and "de 10 en 10" in odd_five.message("es")
    assert "with the 5 chip" in odd_five.message("en") and "steps of 10" in odd_five.message("en")
    assert refusal(BetKind.BANCA, Decimal(20), five) is None
    assert settle_bet(1, BetKind.BANCA, Decimal(20), BANCA_SIX, five).paid == 10
    # PUNTO and TIE pay whole multiples of their stake: any number of chips.
    assert refusal(BetKind.PUNTO, Decimal(15), HALF_SIX) is None and refusal(BetKind.TIE, Decimal(15), HALF_SIX) is None
    # The half applies to BANCA only: PUNTO wins never pay half, whatever the totals.
    assert settle_bet(1, BetKind.PUNTO, Decimal(15), resolve_coup([6, 5, 0, 0, 0]), HALF_SIX).paid == 15


def test_art_5_3_commission_tally_pays_one_to_one_and_owes_the_exact_five_percent():
    for coup in (BANCA_SIX, BANCA_SEVEN):  # no half on six in commission mode
        line = settle_bet(2, BetKind.BANCA, Decimal(30), coup, TALLY)
        assert (line.spot, line.kind, line.stake) == (2, BetKind.BANCA, 30)
        assert money(line) == (Outcome.WIN, Decimal("28.5"), 30, Decimal("1.5"), 30, 0, 30)
        assert "Art. 5 §3" in line.reason.render("es") and "Art. 5 §3" in line.reason.render("en")


def test_art_5_3_commission_deducted_at_payment_takes_only_multiples_of_twenty_chips():
    # 95 % of 10 is 9.5: neither 10 (no commission at all) nor 9 may be paid, so 10 is refused.
    ten = refusal(BetKind.BANCA, Decimal(10), DEDUCT)
    assert ten is not None and ten.article == "Art. 5 §3"
    assert "múltiplo de 20 fichas" in ten.message("es") and "multiple of 20 chips" in ten.message("en")
    assert "con la ficha de 1" in ten.message("es") and "de 20 en 20" in ten.message("es")
    assert "with the 1 chip" in ten.message("en") and "steps of 20" in ten.message("en")
    assert refusal(BetKind.BANCA, Decimal(30), DEDUCT) is not None and refusal(BetKind.BANCA, Decimal(40), DEDUCT) is None
    exact = settle_bet(2, BetKind.BANCA, Decimal(20), BANCA_SIX, DEDUCT)
    assert money(exact) == (Outcome.WIN, 19, 19, 0, 20, 0, 19)
    assert "Art. 5 §3" in exact.reason.render("es") and "Art. 5 §3" in exact.reason.render("en")
    # With the tally the bet is paid 1 a 1 and the 5 % kept exact: any number of chips.
    assert refusal(BetKind.BANCA, Decimal(7), TALLY) is None


def test_art_5_5_tie_pays_eight_to_one_and_loses_otherwise():
    win = settle_bet(5, BetKind.TIE, Decimal(10), TIE, HALF_SIX)
    assert (win.spot, win.kind, win.stake) == (5, BetKind.TIE, 10)
    assert money(win) == (Outcome.WIN, 80, 80, 0, 10, 0, 80)
    assert "Art. 5 §5" in win.reason.render("es") and "Art. 5 §5" in win.reason.render("en")
    for coup in (PUNTO_WINS, BANCA_SIX):
        lose = settle_bet(5, BetKind.TIE, Decimal(10), coup, HALF_SIX)
        assert (lose.spot, lose.kind, lose.stake) == (5, BetKind.TIE, 10)
        assert money(lose) == (Outcome.LOSE, 0, 0, 0, 0, 10, -10)


def test_art_6_1_a_tie_returns_punto_and_banca_bets():
    for kind in (BetKind.PUNTO, BetKind.BANCA):
        for config in (HALF_SIX, TALLY):
            line = settle_bet(6, kind, Decimal(40), TIE, config)
            assert (line.spot, line.kind, line.stake) == (6, kind, 40)
            assert money(line) == (Outcome.PUSH, 0, 0, 0, 40, 0, 0)
            assert line.reason.render("es").startswith("empate con 6:") and line.reason.render("en").startswith("tie at 6:")
            assert "Art. 6 §1" in line.reason.render("es") and "Art. 6 §1" in line.reason.render("en")


def test_the_bet_on_the_hand_that_lost_is_collected():
    for kind, coup in ((BetKind.PUNTO, BANCA_SEVEN), (BetKind.BANCA, PUNTO_WINS)):
        line = settle_bet(7, kind, Decimal(50), coup, HALF_SIX)
        assert (line.spot, line.kind, line.stake) == (7, kind, 50)
        assert money(line) == (Outcome.LOSE, 0, 0, 0, 0, 50, -50)
        winner = coup.winner.value.upper()
        assert winner in line.reason.render("es") and kind.value.upper() in line.reason.render("es")
        assert winner in line.reason.render("en") and kind.value.upper() in line.reason.render("en")


def test_art_9_3_a_nulo_coup_returns_every_bet():
    bets = {2: {BetKind.PUNTO: Decimal(10), BetKind.TIE: Decimal(5)}, 1: {BetKind.BANCA: Decimal(1)}}
    lines = settle_bets(bets, None, HALF_SIX)
    assert [(l.spot, l.kind, l.stake) for l in lines] == [(1, BetKind.BANCA, 1), (2, BetKind.PUNTO, 10),
                                                          (2, BetKind.TIE, 5)]
    for line in lines + [void_bet(3, BetKind.BANCA, Decimal(7))]:
        assert money(line) == (Outcome.VOID, 0, 0, 0, line.stake, 0, 0)
        assert "Art. 9 §3" in line.reason.render("es") and "Art. 9 §3" in line.reason.render("en")


def test_settle_bets_by_box_then_punto_banca_tie_skipping_empty_stakes():
    bets = {3: {BetKind.TIE: Decimal(1), BetKind.PUNTO: Decimal(1), BetKind.BANCA: Decimal(0)},
            1: {BetKind.BANCA: Decimal(2), BetKind.TIE: Decimal(1)}}
    lines = settle_bets(bets, BANCA_SIX, HALF_SIX)
    assert [(l.spot, l.kind, l.outcome, l.paid) for l in lines] == [
        (1, BetKind.BANCA, Outcome.WIN, 1), (1, BetKind.TIE, Outcome.LOSE, 0),
        (3, BetKind.PUNTO, Outcome.LOSE, 0), (3, BetKind.TIE, Outcome.LOSE, 0)]
    assert lines == [settle_bet(l.spot, l.kind, l.stake, BANCA_SIX, HALF_SIX) for l in lines]
    assert settle_bets({}, BANCA_SIX, HALF_SIX) == [] and settle_bets({4: {}}, None, HALF_SIX) == []


def test_box_summaries_add_up_each_boxs_lines():
    bets = {1: {BetKind.PUNTO: Decimal(10), BetKind.BANCA: Decimal(30), BetKind.TIE: Decimal(5)},
            2: {BetKind.BANCA: Decimal(20)}}
    summaries = spot_summaries(settle_bets(bets, BANCA_SIX, TALLY))
    assert list(summaries) == [1, 2]
    one, two = summaries[1], summaries[2]
    # Box 1: PUNTO 10 lost, BANCA 30 paid 30 with 1.5 to the tally, TIE 5 lost.
    assert (one.spot, one.staked, one.paid, one.returned, one.collected, one.commission, one.hand_over) == (
        1, 45, 30, 30, 15, Decimal("1.5"), 60)
    assert (two.spot, two.staked, two.paid, two.returned, two.collected, two.commission, two.hand_over) == (
        2, 20, 20, 20, 0, 1, 40)
    assert spot_summaries([]) == {}


def test_exact_banca_unit_two_chips_for_the_half_twenty_for_the_deducted_five_percent():
    assert exact_banca_unit(table_config(chip=Decimal(5))) == 10
    assert exact_banca_unit(table_config(chip=Decimal(5), banca_mode="commission", commission_handling="deduct")) == 100
    assert exact_banca_unit(table_config(chip=Decimal(5), banca_mode="commission")) == 5


CHIPS = (Decimal("0.5"), Decimal(1), Decimal(2), Decimal(5), Decimal(10))
MODES = (("half-six", "tally"), ("commission", "tally"), ("commission", "deduct"))
COUPS = (PUNTO_WINS, BANCA_SEVEN, BANCA_SIX, TIE)


@given(st.sampled_from(CHIPS), st.sampled_from(MODES), st.integers(1, 400), st.sampled_from(tuple(BetKind)))
def test_every_payment_is_the_exact_amount_or_the_bet_is_refused(chip, mode, chips, kind):
    """Art. 5 §2–3: over chips, modes and stakes, a bet is refused exactly when some coup would
    owe it an amount the chip cannot make; otherwise every coup pays exactly the regulation."""
    minimum = 10 * max(chip, Decimal(1))
    config = table_config(chip=chip, minimum=minimum, maximum=50 * minimum, tie_maximum=5 * minimum,
                          banca_mode=mode[0], commission_handling=mode[1])
    stake = chips * chip
    regulated = {coup: _regulated(kind, stake, coup, mode) for coup in COUPS}
    refused = refusal(kind, stake, config)
    assert (refused is not None) == any(paid % chip for paid, _ in regulated.values())
    if refused is not None:
        assert refused.article == ("Art. 5 §2" if mode[0] == "half-six" else "Art. 5 §3")
        return
    for coup, (paid, commission) in regulated.items():
        line = settle_bet(1, kind, stake, coup, config)
        assert (line.paid, line.commission, line.exact) == (paid, commission, paid - commission)


def _regulated(kind: BetKind, stake: Decimal, coup, mode: tuple[str, str]) -> tuple[Decimal, Decimal]:
    """What Art. 5 pays now and puts in the commission tally (0, 0 unless won), written apart
    from ``settle_bet``."""
    nothing = Decimal(0), Decimal(0)
    if kind is BetKind.TIE:
        return (stake * 8, Decimal(0)) if coup.winner is Winner.TIE else nothing
    if coup.winner.value != kind.value:
        return nothing
    if kind is BetKind.PUNTO:
        return stake, Decimal(0)
    if mode == ("commission", "tally"):
        return stake, stake / 20
    if mode[0] == "commission":
        return stake - stake / 20, Decimal(0)
    return (stake / 2 if coup.banca_six else stake), Decimal(0)


@pytest.mark.parametrize("mode", MODES)
def test_every_table_the_rules_allow_has_a_banca_bet_paid_exactly(mode):
    """Art. 5 §2–3 with §4: the chip divides the minimum and the maximum is at least 30 minimums,
    so 20 minimums is always a BANCA bet the table pays exactly (no table file can lack one)."""
    for chip in CHIPS:
        for minimum in (10 * chip, 30 * chip, 50 * chip):
            if minimum < 10:
                continue
            config = table_config(chip=chip, minimum=minimum, maximum=30 * minimum, tie_maximum=3 * minimum,
                                  banca_mode=mode[0], commission_handling=mode[1], multiples_of_minimum=True)
            assert refusal(BetKind.BANCA, 20 * minimum, config) is None and 20 * minimum <= config.maximum


def test_journal_form_round_trips_and_reads_lines_from_before_the_tally():
    line = settle_bet(2, BetKind.BANCA, Decimal(30), BANCA_SIX, TALLY)
    data = encode(line)
    assert data == {"spot": 2, "kind": "banca", "stake": "30", "outcome": "win", "exact": "28.50", "paid": "30",
                    "reason": {"code": "payouts.banca_tally", "params": {"commission": {"amount": "1.50"}}},
                    "commission": "1.50"}
    assert decode(SettlementLine, data) == line
    # Before issue 33 a line kept its reason in words, and before the tally no commission.
    old = {k: v for k, v in data.items() if k not in ("commission", "reason")} | {
        "why_es": line.reason.render("es"), "why_en": line.reason.render("en")}
    recalled = decode(SettlementLine, upcast_line(old))
    assert recalled.commission == 0 and recalled.reason == line.reason


def test_why_is_written_in_each_language_with_its_amounts_and_a_journal_row_recalls_its_words():
    line = settle_bet(1, BetKind.BANCA, Decimal("15"), BANCA_SIX, TALLY)
    assert line.reason.render("es") == "BANCA paga 1 a 1; la comisión del 5 % (0,75) va a la cuenta del casillero (Art. 5 §3)"
    assert line.reason.render("en") == "BANCA pays 1 to 1; the 5 % commission (0.75) goes to the box's tally (Art. 5 §3)"
    # Words no message of the catalog gives back are recalled as they were recorded.
    row = {k: v for k, v in encode(line).items() if k != "reason"} | {"why_es": "dicho entonces", "why_en": "said then"}
    recalled = decode(SettlementLine, upcast_line(row))
    assert [recalled.reason.render(lang) for lang in ("es", "en", "xx")] == ["dicho entonces", "said then",
                                                                             "dicho entonces"]
