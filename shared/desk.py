"""A desk: one part of a table's commands, held by the table (``table.tray``, ``table.play``, …).

The table is the game's state, its fold of the journal and the journal itself; the commands are
desks over it, as an application's commands are over its aggregate (eventsourcing). A desk keeps
no state of its own: it reads the table, verifies, and records through the table, so a replay
needs no desk at all. Each of its commands is declared with ``@command`` (``shared.commands``)
and found through the table's ``COLLABORATORS``; ``verify_<method>`` verifies it and the method
returns the events it recorded.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Desk(Generic[T]):
    def __init__(self, table: T) -> None:
        self.table = table


def open_desks(table: Any, collaborators: dict[str, type]) -> None:
    """Give ``table`` one of each of its desks (the collaborators that are desks)."""
    for name, klass in collaborators.items():
        if issubclass(klass, Desk):
            setattr(table, name, klass(table))
