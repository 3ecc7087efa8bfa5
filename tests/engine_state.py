"""Every attribute of a table engine that is its state, to compare a restarted engine (restored
from its latest snapshot, then the journal after it) with the live one: a field added to the
state and forgotten by the snapshot makes them differ.

An attribute that is not state (what the engine was given, what this process holds) is named
below, so a new attribute is either state — compared — or named here with its reason."""

from __future__ import annotations

from typing import Any

from shared.desk import Desk
from shared.engine import TableEngine

GIVEN = {"journal", "staff", "config", "training"}
"""What the engine was built with."""
PROCESS = {
    "recovered",  # whether this process found a round open at its start
    "_applied_seq",  # how far this process has folded: entries written beside it (a failed PIN) wait for its next command
    "rng", "_deal_rng", "_draw_rng",  # random generators: a restart draws afresh
    "_roads_cache",  # computed from the history on demand
    "_worked_out",  # computed from the state as the last entry left it, on demand (the settlement)
}
NOT_KEPT = {
    # The settlement object of the round that just closed, for the screen of the moment: its
    # journal form (last_settlement_dict) is kept, the object is not, so a restart between
    # rounds no longer shows a voided round's returns (found by this comparison, left as it was).
    "last_settlement",
}
NOT_STATE = GIVEN | PROCESS


def engine_state(engine: TableEngine) -> dict[str, Any]:
    not_state = NOT_STATE | (NOT_KEPT if engine.game == "madero" else set())
    # A desk keeps no state of the table's (a Madero table's Carrusel holds this process's
    # contact with the meter, shared.madero.meter_link): the table's own is compared.
    return {name: value for name, value in vars(engine).items()
            if name not in not_state and not isinstance(value, Desk)}
