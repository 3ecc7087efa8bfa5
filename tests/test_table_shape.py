"""The tables' shape (issue #30): state on the table, commands on its desks, no class over
about 60 members (every name reachable on it but the dunders, inherited ones included)."""

from __future__ import annotations

from shared.commands import DECLARED
from shared.desk import Desk
from shared.engine import TableEngine
from shared.engine.shift import ShiftDesk
from shared.engine.signers import Signers
from shared.engine.tray import TrayDesk
from shared.madero.table import MaderoTable
from shared.madero.table.carrusel import MaderoCarrusel
from shared.madero.table.commands import MaderoPlay
from shared.madero.table.supervisor import MaderoSupervisor
from shared.midi.table import MidiTable
from shared.midi.table.play import MidiPlay
from shared.midi.table.supervisor import MidiSupervisor

from midi_helpers import CROUPIER, OPENING, SUPERVISOR, SUPERVISOR2, open_live_shoe, play_coup
from midi_helpers import live_table as midi_live_table

MOST_MEMBERS = 60


def members(klass: type) -> list[str]:
    return [name for name in dir(klass) if not name.startswith("__")]


def commands_on(klass: type) -> set[str]:
    """The ids of the commands declared on ``klass`` or its bases (not on its desks)."""
    return {declared.id for owner in klass.__mro__ for member in vars(owner).values()
            for declared in getattr(member, DECLARED, ())}


def test_the_base_table_and_its_desks_have_at_most_60_members_each():
    for klass in (TableEngine, TrayDesk, ShiftDesk, Signers):
        assert len(members(klass)) <= MOST_MEMBERS, (klass.__name__, len(members(klass)))


def test_the_base_table_holds_no_command_but_undo_and_no_can_x():
    assert commands_on(TableEngine) == {"undo"}
    for klass in (TableEngine, TrayDesk, ShiftDesk, Signers):
        assert not [name for name in members(klass) if name.startswith("can_")], klass.__name__


def test_the_base_names_its_desks_and_declares_them_for_the_type_checker():
    desks = {name: klass for name, klass in TableEngine.COLLABORATORS.items() if issubclass(klass, Desk)}
    assert desks == {"tray": TrayDesk, "shift": ShiftDesk, "signers": Signers}
    assert set(desks) <= set(TableEngine.__annotations__)
    assert {"tray_open", "tray_fill", "tray_credit", "cash_buy_in", "tray_close"} == commands_on(TrayDesk)
    assert {"open_shift", "close_shift", "close_gaming_day"} == commands_on(ShiftDesk)


def test_the_base_desks_keep_no_state_of_their_own():
    t = midi_live_table(tray=False)
    t.tray.open(OPENING, CROUPIER, SUPERVISOR)
    open_live_shoe(t)
    play_coup(t, ["8", "7", "K", "K"], [(1, "punto", 200)])
    assert t.tray.ledger() is not None and t.tray.fill_due() is None
    t.shift.close(SUPERVISOR)
    t.shift.close_gaming_day(SUPERVISOR)
    for name in ("tray", "shift", "signers"):
        assert vars(getattr(t, name)) == {"table": t}, name


def commands_on_each(classes: tuple[type, ...]) -> set[str]:
    """The ids of the commands declared on the members of ``classes`` (not their bases)."""
    return {c.id for klass in classes for member in vars(klass).values() for c in getattr(member, DECLARED, ())}


def test_madero_desks_have_at_most_60_members():
    for desk in (MaderoPlay, MaderoSupervisor, MaderoCarrusel):
        assert issubclass(desk, Desk)
        assert len(members(desk)) <= MOST_MEMBERS, (desk.__name__, len(members(desk)))


def test_madero_table_has_at_most_60_members_with_the_base_s():
    assert len(members(MaderoTable)) <= MOST_MEMBERS, sorted(set(members(MaderoTable)) - set(members(TableEngine)))


def test_madero_table_holds_no_command_its_desks_hold_them():
    game = tuple(k for k in MaderoTable.__mro__ if k not in TableEngine.__mro__)
    assert len(game) <= 2  # the state and the table: no tower of mixins
    assert commands_on_each(game) == set()
    desks = {"play": MaderoPlay, "supervisor": MaderoSupervisor, "carrusel": MaderoCarrusel}
    assert {name: MaderoTable.COLLABORATORS[name] for name in desks} == desks
    on_desks = commands_on_each(tuple(k for d in desks.values() for k in d.__mro__))
    table = MaderoTable.command_table()
    # Every command of the game's runs on a desk; what is left on the table is the base's.
    assert {c.id for c in table if c.on in desks} == on_desks
    assert {c.id for c in table if not c.on} <= commands_on(TableEngine)


def midi_own_members() -> set[str]:
    return set(members(MidiTable)) - set(members(TableEngine))


def test_the_midi_table_and_its_desks_have_at_most_60_members_each():
    assert len(members(MidiTable)) <= MOST_MEMBERS, sorted(midi_own_members())
    for klass in (MidiPlay, MidiSupervisor):
        assert len(members(klass)) <= MOST_MEMBERS, (klass.__name__, len(members(klass)))


def test_the_midi_table_holds_no_command_of_its_own_and_no_can_x():
    assert commands_on(MidiTable) == commands_on(TableEngine)
    assert not [name for name in midi_own_members() if name.startswith("can_")]
    for klass in (MidiPlay, MidiSupervisor):
        assert not [name for name in members(klass) if name.startswith("can_")], klass.__name__


def test_the_midi_table_names_its_desks_the_supervisor_s_first():
    desks = {name: klass for name, klass in MidiTable.COLLABORATORS.items()
             if issubclass(klass, Desk) and name not in TableEngine.COLLABORATORS}
    # The supervisor's commands before the croupier's: the F2 panel's and the authority document's order.
    assert list(desks.items()) == [("supervisor", MidiSupervisor), ("play", MidiPlay)]
    assert set(desks) <= set(MidiTable.__annotations__)
    table = MidiTable.command_table()
    assert {c.id for c in table if c.on == "play"} == commands_on(MidiPlay) == {
        "new_shoe", "card", "burn", "bet", "repeat_bets", "no_va_mas", "settle", "declare_exhausted",
        "shoe_exhausted", "cut_card", "assign_sabot", "pass_sabot", "collect_commission"}
    assert {c.id for c in table if c.on == "supervisor"} == commands_on(MidiSupervisor) == {
        "void_coup", "correct_card", "end_shoe", "supervisor_deals"}


def test_the_midi_desks_keep_no_state_of_their_own():
    t = midi_live_table()
    open_live_shoe(t)
    t.play.assign_sabot(1)
    play_coup(t, ["8", "7", "K", "K"], [(1, "punto", 200), (2, "banca", 100)])
    t.play.place_bet(1, "tie", 10)
    t.play.no_va_mas()
    t.play.key_card("5")
    t.supervisor.correct_card(SUPERVISOR, "tecleo", 0, "6")
    t.supervisor.void_coup(SUPERVISOR, "carta expuesta", SUPERVISOR2)
    t.supervisor.end_shoe(SUPERVISOR, "fin del sabot")
    for name in ("play", "supervisor"):
        assert vars(getattr(t, name)) == {"table": t}, name


def test_every_command_of_both_games_returns_the_events_it_recorded():
    """One convention (issue #30): a command returns the list of events it journaled; the staff
    registry's (a collaborator that is no desk: it journals the staff's own rows) excepted."""
    import typing

    for table in (MaderoTable, MidiTable):
        for declared in table.command_table():
            if declared.on == "staff":
                continue
            owner = declared.owner or table
            returns = typing.get_type_hints(getattr(owner, declared.method))["return"]
            assert typing.get_origin(returns) is list, (table.__name__, declared.id, returns)
