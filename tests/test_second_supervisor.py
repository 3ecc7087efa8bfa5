"""Where two supervisors signed an entry, people read who the second was: the shift report
(its JSON and its text) and the recall line, in both games."""

from __future__ import annotations

from datetime import UTC

from madero_helpers import SUP, SUP2, live_table
from midi_helpers import SUPERVISOR, SUPERVISOR2, open_live_shoe, table_config
from midi_helpers import live_table as midi_live_table
from test_authority import madero_at_settlement
from test_report import shifts_of
from test_report_common import copy

from shared.base_events import RoundClosed
from shared.report import report_events, shift_closes

from madero_tui.events_text import describe as madero_describe
from midi_tui.recall import describe as midi_describe
from tui_common.shift_text import shift_text


def shifts_of_journal(journal, codec):
    with journal.read_view() as view:
        return shift_closes(report_events(view, codec, journal.game))


def test_madero_a_two_supervisor_adjustment_names_both_in_the_report_and_the_recall(tmp_path):
    t = madero_at_settlement(tmp_path)
    t.supervisor.adjust(SUP, 1, 50, "pago mal contado", SUP2)  # every card known: two supervisors
    t.play.confirm_settlement()
    t.shift.close(SUP, "fin")
    (shift,) = shifts_of(t)
    assert [(s.round, s.entry, s.supervisor, s.second_supervisor) for s in shift.total.two_signed] == [
        (1, "adjustment", SUP.staff_id, SUP2.staff_id)]
    text = shift_text(shift, "es", UTC)
    assert "Firmado por dos supervisores: 1" in text
    assert f"pase 1 · ajuste: {SUP.staff_id} y {SUP2.staff_id}" in text
    entry = t.journal.last_event_of("adjustment")
    assert f"· {SUP.staff_id} + {SUP2.staff_id} (supervisor)" in madero_describe(entry, "es")


def test_madero_a_single_supervisor_entry_names_one(tmp_path):
    """The report lists only what two signed; a one-person entry's recall names its signer alone."""
    t = live_table(tmp_path)
    t.play.place_bet(1, "ante", 10)
    t.supervisor.adjust(SUP, 1, 5, "cortesía")  # bets open: one supervisor
    (shift,) = shifts_of(t)  # still open
    assert shift.total.two_signed == []
    assert "dos supervisores" not in shift_text(shift, "es", UTC)
    line = madero_describe(t.journal.last_event_of("adjustment"), "es")
    assert line.endswith(f"· {SUP.staff_id} (supervisor)")


def test_midi_a_two_supervisor_nulo_names_both_in_the_report_and_the_recall(tmp_path):
    t = midi_live_table(path=tmp_path / "midi.sqlite")  # the report reads the file
    open_live_shoe(t)
    t.play.place_bet(1, "punto", 100)
    t.play.no_va_mas()
    t.play.key_card("5")
    t.supervisor.void_coup(SUPERVISOR, "carta expuesta", SUPERVISOR2)
    t.supervisor.end_shoe(SUPERVISOR, "fin del sabot")
    t.shift.close(SUPERVISOR, "fin")
    (shift,) = shifts_of(t)
    (signed,) = shift.total.two_signed
    assert (signed.entry, signed.supervisor, signed.second_supervisor) == (
        "coup_voided", SUPERVISOR.staff_id, SUPERVISOR2.staff_id)
    assert shift.total.voided == 1  # read for its signatures, still counted once, as its round
    text = shift_text(shift, "es", UTC)
    assert f"· pase nulo: {SUPERVISOR.staff_id} y {SUPERVISOR2.staff_id}" in text
    # A journal written before round_closed: its void reads as its round, and says who signed it.
    legacy = copy(t.journal, tmp_path / "legacy.sqlite", keep=lambda e: e.type != RoundClosed.type)
    (old,) = shifts_of_journal(legacy, t.codec)
    assert old.total.two_signed == shift.total.two_signed and old.total.voided == 1
    entry = t.journal.last_event_of("coup_voided")
    assert f"{SUPERVISOR.staff_id} + {SUPERVISOR2.staff_id}/supervisor" in midi_describe(entry, "es", table_config(), UTC)
