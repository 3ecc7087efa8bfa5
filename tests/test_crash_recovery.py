"""Kill a real process playing a live Midi table with SIGKILL, many times, and recover.

After each kill: the journal's chain verifies; every event the process acknowledged is there,
unchanged; the engine restored from the journal (latest snapshot + fold) has exactly the state
the process had at the last committed event — the last acknowledged one, or at most the one
command in flight when the kill landed between its commit and its acknowledgement — and that
state equals a full replay without snapshots.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shared.journal import Journal, key_path
from shared.midi.table import MidiTable
from shared.staff import Credentials, StaffRegistry
from tests.crash_driver import MAX_EVENTS_PER_COMMAND, step
from tests.kill_acks import read_acks

DRIVER = Path(__file__).with_name("crash_driver.py")
SUPERVISOR = Credentials("S1", "258025")  # the driver's supervisor
TABLE_ID = "MPB-02"
KILLS = 30
MIN_KILLS = 10
TIME_BUDGET = 45.0  # seconds for the kill loop, well inside the suite's budget


HELD_RUN, HOLD = 1, 5
"""The run killed between a commit and its acknowledgement on purpose (at its 5th command): a
random kill lands in that window too seldom to count on (a full run's 30 kills landed none)."""


def wait_for(out: Path, proc: subprocess.Popen, word: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while word not in out.read_text():
        assert proc.poll() is None and time.monotonic() < deadline, f"driver did not print {word}"
        time.sleep(0.005)


def copy_db(src: Path, dst: Path) -> sqlite3.Connection:
    for suffix in ("", "-wal", "-shm"):
        Path(str(dst) + suffix).unlink(missing_ok=True)
    shutil.copy(key_path(src), key_path(dst))  # the table key goes with its journal
    source = sqlite3.connect(src)
    target = sqlite3.connect(dst, isolation_level=None)
    source.backup(target)  # reads through the WAL: committed transactions only
    source.close()
    target.execute("DROP TRIGGER events_no_delete")
    return target


def restored_hash(path: Path) -> str:
    # Read-only: a writer refuses a journal cut short of the head it recorded, as these copies are.
    journal = Journal.open_existing(path)
    try:
        return MidiTable(journal).state_hash()
    finally:
        journal.close()


def state_hash_at(db: Path, seq: int, work: Path) -> str:
    """The state a restore gives when the journal ends at ``seq``."""
    copy = work / "upto.sqlite3"
    conn = copy_db(db, copy)
    conn.execute("DELETE FROM events WHERE seq > ?", (seq,))
    conn.execute("DELETE FROM snapshots WHERE seq > ?", (seq,))
    conn.close()
    return restored_hash(copy)


def finish_coup(engine: MidiTable, rng: random.Random) -> None:
    """Play a coup the kill left open to its close, as the driver would, so that the gaming day
    can be closed: on a loaded machine most kills land mid-coup."""
    for _ in range(1000):
        if not engine.round_open:
            return
        step(engine, rng)
    raise AssertionError(f"coup {engine.coup_no} did not close")


def full_replay_hash(db: Path, work: Path) -> str:
    copy = work / "replay.sqlite3"
    conn = copy_db(db, copy)
    conn.execute("DELETE FROM snapshots")
    conn.close()
    return restored_hash(copy)


@pytest.mark.slow
@pytest.mark.parametrize("archiving", [False, True], ids=["live", "archiving"])
def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path, archiving: bool) -> None:
    """``archiving``: every few kills, the gaming day is closed and archived between runs, so
    the driver goes on from (and is killed on) a journal whose history is in archive files."""
    db = tmp_path / "midi.sqlite3"
    archives = 0
    rng = random.Random(20261129)
    last_ack: tuple[int, str | None, str] | None = None
    kills = recovered_rounds = acked_total = mid_command = at_ack = 0
    started = time.monotonic()
    # Past the budget a loaded machine still goes on to the minimum of kills (bounded).
    for run in range(4 * KILLS):
        if run >= KILLS or (kills >= MIN_KILLS and time.monotonic() - started > TIME_BUDGET):
            break
        out, err = tmp_path / f"run{run}.out", tmp_path / f"run{run}.err"
        hold = [str(HOLD)] if run == HELD_RUN else []
        with open(out, "w") as stdout, open(err, "w") as stderr:
            proc = subprocess.Popen(
                [sys.executable, str(DRIVER), str(db), str(rng.randrange(2**31)), *hold],
                stdout=stdout,
                stderr=stderr,
                env={**os.environ, "PYTHONHASHSEED": "0"},
            )
            # Random moments (but the held run's): one kill in five lands during start-up and restore,
            # the others mid-game (timed from READY, so a slow, loaded machine still plays between kills).
            if hold:
                wait_for(out, proc, "HELD")
            elif rng.random() < 0.2:
                time.sleep(rng.uniform(0.0, 0.3))
            else:
                wait_for(out, proc, "READY")
                time.sleep(rng.uniform(0.02, 0.4))
            assert proc.poll() is None, f"driver stopped by itself:\n{err.read_text()}"
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        kills += 1
        acks = read_acks(out)
        acked_total += sum(1 for _, event_hash, _ in acks if event_hash is not None)

        journal = Journal(db, TABLE_ID, "midi")
        try:
            report = journal.verify()
            assert report.ok, f"run {run}: {report.message('en')}"
            for seq, event_hash, _ in acks:
                if event_hash is None:
                    continue
                event = journal.event(seq)
                assert event is not None and event.hash == event_hash, f"run {run}: acknowledged #{seq} lost"
            if acks:
                last_ack = acks[-1]
            engine = MidiTable(journal, StaffRegistry(journal))
            recovered_rounds += engine.recovered
            restored = engine.state_hash()
            committed = engine.applied_seq
        finally:
            journal.close()

        if last_ack is None:
            continue  # killed before anything was acknowledged
        ack_seq, _, ack_state = last_ack
        assert ack_seq <= committed <= ack_seq + MAX_EVENTS_PER_COMMAND, f"run {run}: {ack_seq=} {committed=}"
        if committed == ack_seq:
            at_ack += 1
            assert restored == ack_state, f"run {run}: restored state differs from the acknowledged one"
        else:
            # Killed between a commit and its acknowledgement: the acknowledged state is still
            # exactly what the journal gives up to the acknowledged entry.
            mid_command += 1
            assert state_hash_at(db, ack_seq, tmp_path) == ack_state, f"run {run}: state at #{ack_seq} differs"
        assert full_replay_hash(db, tmp_path) == restored, f"run {run}: snapshot restore differs from replay"
        if archiving and (run % 3 == 2 or archives == 0):
            with Journal(db, TABLE_ID, "midi") as journal:
                engine = MidiTable(journal, StaffRegistry(journal))
                before = journal.last_seq
                finish_coup(engine, random.Random(run))
                if engine.can("close_gaming_day"):
                    engine.shift.close_gaming_day(SUPERVISOR, "prueba")
                    journal.archive(journal.last_seq)
                    archives += 1
                if journal.last_seq != before:
                    last_ack = None  # this process wrote after the driver's last acknowledged entry

    assert kills >= MIN_KILLS
    assert acked_total > 100  # the driver really played between kills
    assert recovered_rounds >= 1  # some kills landed mid-round and the round came back
    assert at_ack >= 1 and mid_command >= 1  # both kinds of moment were hit
    assert archives >= 1 or not archiving
    print(f"{kills} kills, {acked_total} acknowledged commands, {recovered_rounds} open rounds recovered, "
          f"{mid_command} kills between commit and acknowledgement, {at_ack} after the acknowledgement")
