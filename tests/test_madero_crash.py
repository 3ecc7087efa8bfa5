"""Kill a real process playing a live progressive Madero table, many times, and recover.

After each kill: the journal's chain verifies; every acknowledged event is there; the
restored engine has the acknowledged state (or the one command in flight); and the
shared meter store agrees with the journal — a settlement journaled just before the kill,
but not yet applied to the meter, is applied when the table restarts, and only once.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest

from shared.journal import Journal
from shared.madero.meter import SqliteMeterStore
from shared.madero.table import MaderoTable
from tests.kill_acks import read_acks
from tests.madero_crash_driver import CONFIG

DRIVER = Path(__file__).with_name("madero_crash_driver.py")
KILLS = 20
TIME_BUDGET = 25.0
# A loaded machine gets fewer acknowledged commands per run: past the budget the loop
# still goes on until this much has been covered (bounded by MAX_RUNS).
MIN_KILLS, MIN_ACKED, MAX_RUNS = 5, 50, 200
MAX_EVENTS_PER_COMMAND = 4  # round_started + bet_placed; a prize's prize_claimed + prize_answered + round_settled + round_closed


def expected_meter(journal: Journal, store: SqliteMeterStore, engine: MaderoTable) -> Decimal:
    """The meter value the journal implies: the last settled round's (the only table of its
    Carrusel), or the seed; or, when a prize's claim is journaled after it and the store
    committed that claim (issue 27), the claim's, valued on the reading the store answered."""
    last = journal.last_event_of("round_settled")
    claim = journal.last_event_of("prize_claimed")
    if claim is not None and (last is None or claim.seq > last.seq):
        answered = store.settled_reading(claim.payload["meter_ref"])
        if answered is not None:
            return engine.settlement(answered).meter.own_after
    return CONFIG.seed if last is None else Decimal(last.payload["settlement"]["meter"]["own_after"])


def meter_behind(journal: Journal, store: SqliteMeterStore) -> bool:
    """The last settled round is journaled but its movement is not in the meter yet."""
    last = journal.last_event_of("round_settled")
    return last is not None and store.settled_reading(last.payload["meter_ref"]) is None


@pytest.mark.slow
def test_sigkill_keeps_journal_and_meter_consistent(tmp_path: Path) -> None:
    db, meter_db = tmp_path / "madero.sqlite", tmp_path / "meters.sqlite"
    rng = random.Random(20261129)
    last_ack = None
    kills = acked = recovered = royals = meter_behind_kills = 0
    started = time.monotonic()
    for run in range(MAX_RUNS):
        covered = kills >= MIN_KILLS and acked > MIN_ACKED and recovered >= 1
        if covered and (run >= KILLS or time.monotonic() - started > TIME_BUDGET):
            break
        out, err = tmp_path / f"run{run}.out", tmp_path / f"run{run}.err"
        with open(out, "w") as stdout, open(err, "w") as stderr:
            proc = subprocess.Popen([sys.executable, str(DRIVER), str(db), str(meter_db), str(rng.randrange(2**31))],
                                    stdout=stdout, stderr=stderr, env={**os.environ, "PYTHONPATH": os.getcwd()})
            deadline = time.monotonic() + 15
            while "READY" not in out.read_text() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            # Mostly mid-game; a short delay sometimes lands on the first commands after a restore.
            time.sleep(rng.uniform(0.0, 0.6))
            assert proc.poll() is None, f"driver stopped by itself:\n{err.read_text()}"
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        kills += 1
        acks = read_acks(out)
        acked += sum(1 for _, event_hash, _ in acks if event_hash is not None)
        journal = Journal(db, CONFIG.table_id, "madero")
        store = SqliteMeterStore(meter_db)
        try:
            assert journal.verify().ok
            for seq, event_hash, _ in acks:
                if event_hash is not None:
                    assert journal.event(seq).hash == event_hash, f"run {run}: acknowledged #{seq} lost"
            if acks:
                last_ack = acks[-1]
            meter_behind_kills += meter_behind(journal, store)
            engine = MaderoTable(journal, config=CONFIG, meter_store=store)
            recovered += engine.recovered
            if last_ack is not None:
                ack_seq, _, ack_state = last_ack
                unacked = [e.type for e in journal.events(after=ack_seq)]
                assert ack_seq <= engine.applied_seq <= ack_seq + MAX_EVENTS_PER_COMMAND, (
                    f"run {run}: entries after the last acknowledged #{ack_seq}: {unacked}")
                if engine.applied_seq == ack_seq:
                    assert engine.state_hash() == ack_state, f"run {run}: restored state differs"
            assert store.read(CONFIG.table_id).own == expected_meter(journal, store, engine), f"run {run}"
            assert not meter_behind(journal, store), f"run {run}"
            royals = sum(1 for m in store.movements(CONFIG.table_id, 10_000) if m["kind"] == "reset")
        finally:
            journal.close()
            store.close()
    assert kills >= MIN_KILLS and acked > MIN_ACKED and recovered >= 1
    assert royals >= 1  # the meter really paid a royal and restarted at its seed
    print(f"{kills} kills, {acked} acknowledged commands, {recovered} open rounds recovered, {royals} royals, "
          f"{meter_behind_kills} kills between the journal entry and the meter update")
