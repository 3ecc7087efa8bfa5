"""The base's typed events (shared/base_events.py): shifts, tray, buy-ins, staff administration
and PIN failures, as the code before them wrote them (tests/data/base-events-v1.sqlite3, made by
c76ccc9 with the steps of ``play`` below, in row format 1: read through ``journal upgrade``),
decode row by row to their own payload, and today's code writes the same rows."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from shared.base_events import BASE_CODEC, COMMON_CODEC, STAFF_CODEC, Recalled, RoundClosed, common_recall
from shared.errors import ConsoleError
from fixture_journals import upgraded

from shared.journal import Journal
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.table import MidiTable
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry

CODEC = BASE_CODEC + STAFF_CODEC


def play(path: Path) -> None:
    """Shifts with a relief, a tray's whole life, a buy-in, and every staff entry."""
    j = Journal(path, DEFAULT_MIDI_TABLE.table_id, "midi")
    staff = StaffRegistry(j, max_attempts=2)
    staff.enrol("SUP", "Supervisora", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("CRO", "Croupier", Role.CROUPIER, "5678", by=Actor("SUP", Role.SUPERVISOR))
    staff.enrol("CR2", "Dora", Role.CROUPIER, "2468", by=Credentials("SUP", "123456"))
    sup, cro, cr2 = Credentials("SUP", "123456"), Credentials("CRO", "5678"), Credentials("CR2", "2468")
    t = MidiTable(j, staff)
    t.shift.open(cro)
    t.tray.open("1000x20 500x40 100x100", cro, sup)
    t.tray.fill("1000x5", cro, sup)
    t.tray.credit("100x10", cro, sup)
    t.tray.cash_buy_in(cro, "250.5")
    t.shift.open(cr2)
    t.tray.close("1000x25 500x40 100x90", cr2, sup, "recuento de prueba")
    t.shift.close(sup)
    t.shift.open(cro)
    t.shift.close(sup, "fin de la noche")
    for who, pin in (("CR2", "0000"), ("CR2", "1111"), ("NADIE", "0000")):
        try:
            staff.verify(Credentials(who, pin))
        except ConsoleError:
            pass
    staff.unlock("CR2", by=sup, reason="desbloqueo pedido")
    staff.reset_pin("CR2", "9753", by=sup, reason="PIN olvidado")
    staff.change_pin(Credentials("CR2", "9753"), "8642")
    staff.deactivate("CR2", by=sup, reason="baja")
    j.close()


def rows(path: Path) -> list[tuple[str, dict]]:
    """The entries (type, payload), but the upgrade's own record of a converted journal."""
    with Journal.open_existing(path) as journal:
        return [(e.type, e.payload) for e in journal.events() if e.type != "journal_upgraded"]


def test_every_base_row_of_an_old_journal_decodes_to_its_own_payload(tmp_path):
    old = rows(upgraded("base-events-v1", tmp_path))
    # (What the old code never wrote: a right PIN after wrong ones; the credentials, recorded by the upgrade.)
    assert {kind for kind, _ in old} == set(CODEC.types) - {"round_closed", "staff_attempts_cleared"}
    for kind, payload in old:
        assert CODEC.decode(kind, payload).to_payload() == payload


def test_todays_code_writes_the_rows_the_old_code_wrote(tmp_path):
    copy = upgraded("base-events-v1", tmp_path)
    play(tmp_path / "today.sqlite3")

    def same(entries):  # a lockout's end is the moment it was made plus a delay
        # (Today's code journals each PIN's credential beside its entry; the old file's are
        # recorded once, by the upgrade.)
        return [(kind, {k: v for k, v in payload.items() if k != "until"}) for kind, payload in entries
                if kind != "staff_credentials"]

    assert same(rows(tmp_path / "today.sqlite3")) == same(rows(copy))


def test_every_common_event_says_its_own_recall_words(tmp_path):
    assert all(issubclass(cls, Recalled) for cls in COMMON_CODEC.by_type.values())
    words = {kind: common_recall(kind, payload) for kind, payload in rows(upgraded("base-events-v1", tmp_path))}
    assert None not in words.values()
    assert words["cash_buy_in"].render("es") == "Cambio en efectivo: 250,5"
    assert words["cash_buy_in"].render("en") == "Cash buy-in: 250.5"
    closed = words["tray_closed"].render("en")
    assert closed.startswith("Tray closed: counted") and closed.endswith(": recuento de prueba")
    assert words["staff_deactivated"].render("es") == "Baja de croupier CR2 (Dora): baja"
    assert common_recall("round_placed", {}) is None  # a game's own event: the game says it


def test_both_consoles_recall_a_common_event_in_the_same_words(tmp_path):
    from madero_tui.events_text import describe as madero_describe
    from midi_tui.recall import describe as midi_describe

    with Journal.open_existing(upgraded("base-events-v1", tmp_path)) as journal:
        events = [e for e in journal.events() if e.type.startswith("tray_")]
    for event in events:
        for lang in ("es", "en"):
            said = common_recall(event.type, event.payload).render(lang)
            assert said in madero_describe(event, lang) and said in midi_describe(event, lang, DEFAULT_MIDI_TABLE)


def test_a_closed_round_names_void_stakes_only_when_a_box_was_void():
    def closed(returned: int) -> str:
        return RoundClosed("madero", 4, "C1", False, False, Decimal(60), Decimal(returned), Decimal(20),
                           Decimal(40)).recall().render("es")

    assert closed(0) == "Pase 4 cerrado: apostado 60 · pagado 20 · cobrado 40 · entregado 40"
    assert closed(30) == "Pase 4 cerrado: apostado 60 · pagado 20 · cobrado 40 · entregado 40 · nulo devuelto 30"
