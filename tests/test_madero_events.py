"""A Madero journal written before the events were typed (tests/data/madero-journal-v1.json,
made by the engine of f25590b with a scripted live progressive shift and a training round)
still folds into the same table state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import SqliteMeterStore
from shared.madero.table import MaderoTable
from shared.staff import Actor, Role

FIXTURE = json.loads((Path(__file__).with_name("data") / "madero-journal-v1.json").read_text())
PROG = MaderoTableConfig.from_mapping(dict(table_id="MPB-09", minimum=10, maximum=500, jackpot_mode="progressive",
                                           contribution_percent=10))


def replayed(tmp_path: Path, which: str) -> MaderoTable:
    """The fixture's rows appended to a fresh journal, and the table started on it."""
    training = which == "training"
    config = DEFAULT_MADERO_TABLE if training else PROG
    journal = Journal(tmp_path / f"{which}.sqlite", config.table_id, "madero", training=training)
    for row in FIXTURE[which]["rows"]:
        actor = Actor(row["staff_id"], Role(row["role"])) if row["staff_id"] else None
        journal.append(row["type"], row["payload"], round_id=row["round"], actor=actor)
    if training:
        return MaderoTable(journal, config=config, training=True)
    return MaderoTable(journal, config=config, meter_store=SqliteMeterStore(":memory:"))


@pytest.mark.parametrize("which", ["live", "training"])
def test_an_old_journal_folds_into_the_same_state(tmp_path, which):
    table = replayed(tmp_path, which)
    try:
        assert json.loads(json.dumps(table.state_dict())) == FIXTURE[which]["state"]
    finally:
        table.journal.close()
