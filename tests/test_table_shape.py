"""The shape of the tables (issue #30): the table is the game's state and its fold, its commands
are on the desks it holds, and no class is over about 60 members (every non-dunder name reachable
on it, inherited included)."""

from __future__ import annotations

from shared.commands import DECLARED
from shared.desk import Desk
from shared.engine import TableEngine
from shared.madero.table import MaderoTable
from shared.madero.table.carrusel import MaderoCarrusel
from shared.madero.table.commands import MaderoPlay
from shared.madero.table.supervisor import MaderoSupervisor

LIMIT = 60
MADERO_OWN = 35
"""What the Madero table may add to the base's members (the base's own limit is the base's)."""


def members(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("__")}


def declared_on(classes: tuple[type, ...]) -> set[str]:
    """The ids of the commands declared on the members of ``classes``."""
    return {c.id for klass in classes for member in vars(klass).values() for c in getattr(member, DECLARED, ())}


def test_madero_desks_have_at_most_60_members():
    for desk in (MaderoPlay, MaderoSupervisor, MaderoCarrusel):
        assert issubclass(desk, Desk)
        assert len(members(desk)) <= LIMIT, (desk.__name__, len(members(desk)))


def test_madero_table_adds_at_most_35_members_to_the_base():
    own = members(MaderoTable) - members(TableEngine)
    assert len(own) <= MADERO_OWN, sorted(own)


def test_madero_table_holds_no_command_its_desks_hold_them():
    game = tuple(k for k in MaderoTable.__mro__ if k not in TableEngine.__mro__)
    assert len(game) <= 2  # the state and the table: no tower of mixins
    assert declared_on(game) == set()
    desks = {"play": MaderoPlay, "supervisor": MaderoSupervisor, "carrusel": MaderoCarrusel}
    assert {name: MaderoTable.COLLABORATORS[name] for name in desks} == desks
    on_desks = declared_on(tuple(k for d in desks.values() for k in d.__mro__))
    table = MaderoTable.command_table()
    # Every command of the game's runs on a desk; what is left on the table is the base's.
    assert {c.id for c in table if c.on in desks} == on_desks
    assert {c.id for c in table if not c.on} <= declared_on(TableEngine.__mro__)
