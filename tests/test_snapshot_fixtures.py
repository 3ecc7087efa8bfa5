"""Snapshots as today's engine writes them (tests/data/*-snapshot-v1.sqlite3, written by the
engine of ec2d250: one round closed, so one snapshot, then a round left open) still restore: a
restart restores the snapshot, folds the open round after it, and reaches the state the table
had (*.state.json, in the shape of its version, read through the game's snapshot upgrades),
the same state a full replay of the journal reaches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fixture_journals import upgraded

from shared.engine import TableEngine
from shared.journal import Journal
from shared.madero.table import MaderoTable
from shared.midi.table import MidiTable

DATA = Path(__file__).with_name("data")


def fixture_journal(tmp_path: Path, name: str) -> Journal:
    """The fixture (row format 2) converted by ``journal upgrade``: its snapshot re-sealed."""
    return Journal.open_existing(upgraded(name, tmp_path))


def restored_and_replayed(tmp_path: Path, game: type[TableEngine]) -> tuple[TableEngine, TableEngine, list[int]]:
    restores: list[int] = []

    class Restored(game):  # type: ignore[misc, valid-type]
        def restore_state(self, data: dict[str, Any]) -> None:
            restores.append(1)
            super().restore_state(data)

    class FullReplay(game):  # type: ignore[misc, valid-type]
        snapshot_version = -1  # no snapshot has it: the whole journal is folded

    name = f"{game.game}-snapshot-v1"
    return Restored(fixture_journal(tmp_path, name)), FullReplay(fixture_journal(tmp_path, name)), restores


@pytest.mark.parametrize("game", [MaderoTable, MidiTable])
def test_a_snapshot_of_today_restores_the_open_round(tmp_path, game):
    expected = json.loads((DATA / f"{game.game}-snapshot-v1.state.json").read_text())
    table, replay, restores = restored_and_replayed(tmp_path, game)
    assert expected["_table"]["version"] < game.snapshot_version  # an older shape, upgraded
    expected = table.upgrade_snapshot(expected)
    assert restores == [1], "the snapshot was not restored"
    assert table.journal.latest_snapshot()[0] < table.applied_seq  # type: ignore[index]
    assert table.round_open and table.recovered
    state = json.loads(json.dumps(table.state_dict()))
    if expected.get("round_start"):  # the round's start named by its entry's hash, new since the upgrade
        started = table.journal.last_event_of("round_started")
        assert started is not None and expected["round_start"]["hash"] != started.hash
        expected["round_start"]["hash"] = started.hash
    if game is MaderoTable:  # the round is refolded from its log: a claim (new since the fixture) is not yet made
        expected["round"].setdefault("prize_claimed", False)
        expected["round"].setdefault("prize_answer", None)
    assert state == expected
    replayed = json.loads(json.dumps(replay.state_dict()))
    assert {k: v for k, v in replayed.items() if k != "_table"} == {k: v for k, v in state.items() if k != "_table"}
