"""Who may do what, when: the authority rules written out by hand (docs/authority.md), so that
a wrong declaration in a game's command table fails here as well as the engine."""

from __future__ import annotations

from decimal import Decimal

import pytest

from shared.errors import AuthError, InputError, RuleViolation
from shared.madero.settlement import Bet
from shared.madero.table import Action as MaderoAction
from shared.madero.table import Phase as MaderoPhase
from shared.midi.table import Action as MidiAction
from shared.midi.table import Phase as MidiPhase

from madero_helpers import CRO, SUP, SUP2, deal_to_settlement, live_table
from midi_helpers import CROUPIER, OPENING, SUPERVISOR, SUPERVISOR2, open_live_shoe, play_coup, table_config
from midi_helpers import live_table as midi_live_table


def unchanged(t, fn, *args, error=Exception):
    """Refused, and neither the state nor the journal moved."""
    before, seq = t.state_hash(), t.journal.last_seq
    with pytest.raises(error) as raised:
        fn(*args)
    assert (t.state_hash(), t.journal.last_seq) == (before, seq)
    return raised.value


def madero_at_settlement(tmp_path):
    """A live Madero round with every card known: box 1 (Ante 10) and box 2 (Ante 20) played to the end."""
    t = live_table(tmp_path)
    t.play.place_bet(1, Bet.ANTE, 10)
    t.play.place_bet(2, Bet.ANTE, 20)
    t.play.no_va_mas()
    t.play.voy(1)
    t.play.voy(2)
    for c in "2c 3c 4c".split():
        t.play.key_card(c)
    t.play.check(1)
    t.play.check(2)
    t.play.key_card("9d")
    t.play.check(1)
    t.play.check(2)
    for c in "Td Ah Kh Qs Js 7h 8h".split():
        t.play.key_card(c)
    assert t.phase is MaderoPhase.SETTLEMENT
    return t


# --- Madero -------------------------------------------------------------------------------------


def test_madero_a_dead_hand_only_once_betting_began(tmp_path):
    t = live_table(tmp_path)
    t.play.place_bet(1, Bet.ANTE, 10)
    t.play.no_va_mas()
    assert MaderoAction.DEAD_HAND not in t.legal_actions()
    assert unchanged(t, t.supervisor.dead_hand, SUP, 1, "mano irregular", error=RuleViolation).article == "Art. 10 §37"
    t.play.voy(1)
    assert MaderoAction.DEAD_HAND in t.legal_actions()


@pytest.mark.parametrize("override", ["dead_hand", "collusion", "correct_card", "adjust"])
def test_madero_with_every_card_known_one_supervisor_cannot_change_what_a_box_is_paid(tmp_path, override):
    t = madero_at_settlement(tmp_path)
    calls = {"dead_hand": (t.supervisor.dead_hand, SUP, 1, "mano muerta"), "collusion": (t.supervisor.collusion, SUP, 1, "colusión"),
             "correct_card": (t.supervisor.correct_card, SUP, "tecleo", "2c", "2h"),
             "adjust": (t.supervisor.adjust, SUP, 1, "500", "devolución")}
    fn, *args = calls[override]
    unchanged(t, fn, *args, error=AuthError)
    unchanged(t, fn, *args, SUP, error=AuthError)  # the second supervisor is another person
    fn(*args, SUP2)
    entry = {"correct_card": "card_corrected", "adjust": "adjustment"}.get(override, override)
    assert t.journal.last_event_of(entry).payload["second_supervisor"] == SUP2.staff_id


def test_madero_before_the_result_one_supervisor_suffices(tmp_path):
    t = live_table(tmp_path)
    t.play.place_bet(1, Bet.ANTE, 10)
    t.play.place_bet(2, Bet.ANTE, 10)
    t.play.no_va_mas()
    t.play.voy(1)
    t.supervisor.dead_hand(SUP, 2, "cartas expuestas")
    t.supervisor.adjust(SUP, 1, "5", "pago omitido")
    assert "second_supervisor" not in t.journal.last_event_of("dead_hand").payload


def test_madero_an_adjustment_between_rounds_needs_two_supervisors(tmp_path):
    t = live_table(tmp_path)
    assert t.phase is MaderoPhase.IDLE
    unchanged(t, t.supervisor.adjust, SUP, 1, "-50", "cobro omitido", error=AuthError)
    t.supervisor.adjust(SUP, 1, "-50", "cobro omitido", SUP2)


def test_madero_a_live_table_takes_bets_only_with_the_tray_open(tmp_path):
    t = live_table(tmp_path, tray=False)
    assert MaderoAction.PLACE_BET not in t.legal_actions()
    assert "caja" in str(unchanged(t, t.play.place_bet, 1, Bet.ANTE, 10, error=InputError))
    t.tray.open(OPENING, CRO, SUP)
    t.play.place_bet(1, Bet.ANTE, 10)


def test_madero_training_needs_no_tray(tmp_path):
    from madero_helpers import training_table

    t = training_table(tmp_path)
    t.play.place_bet(1, Bet.ANTE, 10)
    t.play.no_va_mas()
    deal_to_settlement(t)


# --- Midi ---------------------------------------------------------------------------------------


def test_midi_the_only_one_person_nulo_is_the_empty_sabot():
    t = midi_live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    unchanged(t, t.supervisor.void_coup, SUPERVISOR, "mesa revuelta", error=AuthError)  # bets open
    t.play.no_va_mas()
    t.play.key_card("5")
    unchanged(t, t.supervisor.void_coup, SUPERVISOR, "carta expuesta", error=AuthError)
    unchanged(t, t.supervisor.end_shoe, SUPERVISOR, "mazo dañado", error=AuthError)  # it would void the coup
    t.supervisor.void_coup(SUPERVISOR, "carta expuesta", SUPERVISOR2)


def test_midi_ending_the_shoe_never_voids_a_coup_whose_result_is_known():
    t = midi_live_table()
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    t.play.no_va_mas()
    for card in ["7", "8", "K", "K"]:  # PUNTO 7, BANCA 8: decided
        t.play.key_card(card)
    assert t.phase is MidiPhase.RESULT
    assert MidiAction.END_SHOE not in t.legal_actions()
    assert unchanged(t, t.supervisor.end_shoe, SUPERVISOR, "fin", SUPERVISOR2, error=RuleViolation).article == "Art. 8 §6"
    unchanged(t, t.supervisor.void_coup, SUPERVISOR, "anular", error=AuthError)
    unchanged(t, t.supervisor.correct_card, SUPERVISOR, "tecleo", 0, "9", error=AuthError)
    t.play.settle()
    t.supervisor.end_shoe(SUPERVISOR, "fin del turno")  # between coups: one supervisor


def test_midi_a_live_table_takes_bets_only_with_the_tray_open():
    t = midi_live_table(tray=False)
    open_live_shoe(t)
    assert MidiAction.BET not in t.legal_actions()
    unchanged(t, t.play.place_bet, 1, "punto", 100, error=InputError)
    t.tray.open(OPENING, CROUPIER, SUPERVISOR)
    t.play.place_bet(1, "punto", 100)


# --- the base: tray and gaming day (both games share it) -----------------------------------------------


def test_a_credit_never_takes_more_than_the_tray_holds():
    t = midi_live_table(tray=False)
    assert t.can("tray_open") and not t.can("tray_credit") and not t.can("tray_close")
    t.tray.open("100x10", CROUPIER, SUPERVISOR)
    assert not t.can("tray_open") and t.can("tray_credit") and t.can("tray_fill") and t.can("cash_buy_in")
    unchanged(t, t.tray.credit, "100x11", CROUPIER, SUPERVISOR, error=InputError)
    t.tray.credit("100x10", CROUPIER, SUPERVISOR)
    assert t.tray.ledger().expected == 0


def test_an_expected_tray_below_the_fill_threshold_asks_for_a_fill():
    t = midi_live_table(table_config(tray_fill_threshold=Decimal(500)), tray=False)
    assert t.tray.fill_due() is None
    t.tray.open("100x6", CROUPIER, SUPERVISOR)
    assert t.tray.fill_due() is None
    open_live_shoe(t)
    play_coup(t, ["8", "7", "K", "K"], [(1, "punto", 200)])  # PUNTO 8 natural: 200 paid from the tray
    due = t.tray.fill_due()
    assert due is not None and "reposición" in due.render("es")
    t.tray.fill("100x5", CROUPIER, SUPERVISOR)
    assert t.tray.fill_due() is None


def test_the_tray_close_asks_a_reason_only_above_the_tolerance():
    t = midi_live_table(table_config(tray_tolerance=Decimal(20)), tray=False)
    t.tray.open("100x10", CROUPIER, SUPERVISOR)
    unchanged(t, t.tray.close, "100x10 5x5", CROUPIER, SUPERVISOR, error=InputError)  # 25 over: why?
    t.tray.close("100x10 5x4", CROUPIER, SUPERVISOR)  # 20 over: within the tolerance


def test_a_gaming_day_is_closed_once():
    t = midi_live_table()
    assert t.can("close_gaming_day")
    t.shift.close_gaming_day(SUPERVISOR, "fin de la jornada")
    assert not t.can("close_gaming_day")
    unchanged(t, t.shift.close_gaming_day, SUPERVISOR, "otra vez", error=InputError)
