"""The check every state of a table passes against its command table (``shared.commands``)."""

from __future__ import annotations

from shared.commands import Authority, can


def assert_declared_as_accepted(table, seen: set | None = None) -> None:
    """The engine's own verify accepts a command (its probe: every argument left out) only in a
    phase its declaration names, and ``legal_actions()`` is exactly the ids whose probe passes
    where declared: every listed id passes its probe, every other is refused."""
    legal = table.legal_actions()
    for declared in table.command_table():
        accepts = can(declared.verify(table), **declared.probe)
        authority = declared.authority(table)
        if accepts and declared.runs_at(table):
            assert authority is not Authority.NOBODY, (declared.id, table.phase, "accepted where not declared")
            if seen is not None:
                seen.add((declared.id, table.phase))
        assert (declared.id in legal) == (accepts and authority is not Authority.NOBODY), (declared.id, table.phase)
