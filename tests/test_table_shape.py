"""The tables' shape (issue #30): state on the table, commands on its desks, no class over
about 60 members (every name reachable on it but the dunders, inherited ones included)."""

from __future__ import annotations

from shared.commands import DECLARED
from shared.desk import Desk
from shared.engine import TableEngine
from shared.midi.table import MidiTable
from shared.midi.table.play import MidiPlay
from shared.midi.table.supervisor import MidiSupervisor

from midi_helpers import SUPERVISOR, SUPERVISOR2, open_live_shoe, play_coup
from midi_helpers import live_table as midi_live_table

MOST_MEMBERS = 60


def members(klass: type) -> list[str]:
    return [name for name in dir(klass) if not name.startswith("__")]


def commands_on(klass: type) -> set[str]:
    """The ids of the commands declared on ``klass`` or its bases (not on its desks)."""
    return {declared.id for owner in klass.__mro__ for member in vars(owner).values()
            for declared in getattr(member, DECLARED, ())}


MIDI_OWN_MOST = 35
"""What the Midi table adds to the base table (its state, views and fold): the base's members
and these stay under about 60 together."""


def midi_own_members() -> set[str]:
    return set(members(MidiTable)) - set(members(TableEngine))


def test_the_midi_table_and_its_desks_have_at_most_60_members_each():
    assert len(midi_own_members()) <= MIDI_OWN_MOST, sorted(midi_own_members())
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
