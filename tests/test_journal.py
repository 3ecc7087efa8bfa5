"""The journal: append-only, hash-chained, tamper-evident, recall."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from shared.journal import (
    GENESIS_HASH,
    Event,
    Journal,
    JournalError,
    canonical_json,
    default_journal_path,
    format_event,
    recall_json,
    recall_text,
    ts_text,
)
from shared.errors import JournalWriteError
from shared.events import EventCodec, JournalUpgraded
from shared.actor import Actor, Role
from tests.raw_rows import insert_raw, plain_hash, stored_columns

CROUPIER = Actor("C01", Role.CROUPIER)


def make_journal(tmp_path: Path, rounds: int = 4, per_round: int = 3) -> Journal:
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    for round_id in range(1, rounds + 1):
        for k in range(per_round):
            journal.append("bet_placed", {"box": k + 1, "amount": str(10 * (k + 1))}, round_id=round_id, actor=CROUPIER)
    return journal


def raw(path: Path) -> sqlite3.Connection:
    """A tamperer's own connection: drops the append-only triggers first, as an attacker would."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("DROP TRIGGER events_no_delete")
    return conn


def reopen(journal: Journal) -> Journal:
    """The auditor's read-only view after the console closed (a writer refuses a damaged journal)."""
    journal.close()
    return Journal.open_existing(journal.path)


def test_events_chain_from_genesis(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=2)
    events = list(journal.events())
    assert [e.seq for e in events] == list(range(1, 7))
    assert events[0].prev_hash == GENESIS_HASH
    for before, after in pairwise(events):
        assert after.prev_hash == before.hash
    assert all(journal.hash_ok(e) for e in events)
    assert events[0].staff_id == "C01" and events[0].role == "croupier"
    report = journal.verify()
    assert report.ok and report.checked == 6 and report.first_bad_seq is None
    assert "6" in report.message("es") and "6" in report.message("en")


def test_append_returns_what_replay_reads(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3", "T1", "midi")
    payload = {"cards": ("As", "Kd"), "who": "Ñandú"}
    event = journal.append("cards_keyed", payload, round_id=1, actor=None)
    payload["who"] = "changed after the fact"
    # The live event is the JSON read back, so apply() sees the same types live and on replay.
    assert event.payload == {"cards": ["As", "Kd"], "who": "Ñandú"}
    assert list(reopen(journal).events()) == [event]


def test_payload_must_be_json(tmp_path: Path) -> None:
    from decimal import Decimal

    journal = Journal(tmp_path / "j.sqlite3", "T1", "midi")
    with pytest.raises(TypeError):
        journal.append("bet_placed", {"amount": Decimal("10")}, round_id=1, actor=None)
    with pytest.raises(ValueError):
        journal.append("bet_placed", {"amount": float("nan")}, round_id=1, actor=None)
    assert journal.last_seq == 0 and list(journal.events()) == []


def test_append_many_is_all_or_nothing(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=1)
    with pytest.raises(TypeError):
        journal.append_many([("a", {"x": 1}), ("b", {"y": object()})], round_id=2, actor=None)
    assert journal.last_seq == 3
    events = journal.append_many([("a", {"x": 1}), ("b", {"y": 2})], round_id=2, actor=CROUPIER)
    assert [e.seq for e in events] == [4, 5]
    assert reopen(journal).verify().ok


def test_a_second_writer_is_refused_at_open_naming_the_first(tmp_path: Path) -> None:
    first = make_journal(tmp_path, rounds=1)
    with pytest.raises(JournalError) as info:
        Journal(first.path, "T1", "midi")
    assert f"process {os.getpid()} on {socket.gethostname()}, since " in info.value.message("en")
    assert f"el proceso {os.getpid()} en " in info.value.message("es")
    # Read-only tools open it meanwhile, and the first writer goes on.
    with Journal.open_existing(first.path) as reader:
        assert reader.verify().ok and reader.anchor() == (first.last_hash, 3)
    first.append("bet_placed", {"box": 9}, round_id=2, actor=CROUPIER)
    first.close()
    with Journal(first.path, "T1", "midi") as again:  # released on close
        assert again.last_seq == 4 and again.verify().ok


def test_duplicate_seq_insert_is_refused_by_the_primary_key(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=1)
    event = journal.event(2)
    assert event is not None
    conn = sqlite3.connect(journal.path)
    with pytest.raises(sqlite3.IntegrityError):
        insert_raw(conn, (2, event.ts, "T1", 1, None, None, "forged", "{}", event.prev_hash, "f" * 64))
    conn.close()


def test_update_and_delete_are_refused_by_the_database(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=1)
    conn = sqlite3.connect(journal.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE events SET payload = '{}' WHERE seq = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM events WHERE seq = 3")
    conn.close()
    assert journal.verify().ok


def test_tamper_edit_payload_is_caught_at_that_entry(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("""UPDATE events SET payload = '{"amount":"1000","box":2}' WHERE seq = 5""")
    conn.close()
    report = reopen(journal).verify()
    assert not report.ok
    assert report.first_bad_seq == 5
    assert report.checked == 4
    assert "hash" in report.reason


def test_tamper_edit_payload_and_rehash_without_the_key_is_caught_at_that_entry(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    e = journal.event(5)
    assert e is not None
    forged = {**e.payload, "amount": "1000"}
    digest = plain_hash(5, e.ts, "T1", e.round_id, e.staff_id, e.role, e.type, forged, e.prev_hash)
    conn = raw(journal.path)
    conn.execute("UPDATE events SET payload = ?, hash = ? WHERE seq = 5", (canonical_json(forged), digest))
    conn.close()
    # A plain SHA-256 is what the entry would hash to unkeyed; the chain is keyed.
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, 5)
    assert "hash" in report.reason


def test_tamper_delete_row_is_caught_at_the_gap(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("DELETE FROM events WHERE seq = 7")
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq, report.checked) == (False, 7, 6)
    assert "missing" in report.reason and "falta" in report.message("es")


def test_tamper_delete_first_row_is_caught(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("DELETE FROM events WHERE seq = 1")
    conn.close()
    assert reopen(journal).verify().first_bad_seq == 1


def test_tamper_reorder_two_rows_is_caught_at_the_earlier(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    # Swap the seq numbers of entries 4 and 9 so they change places in the history.
    conn.execute("BEGIN")
    conn.execute("UPDATE events SET seq = -1 WHERE seq = 4")
    conn.execute("UPDATE events SET seq = 4 WHERE seq = 9")
    conn.execute("UPDATE events SET seq = 9 WHERE seq = -1")
    conn.execute("COMMIT")
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, 4)


def test_tamper_reorder_row_contents_is_caught(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    cols = ", ".join(stored_columns(conn)[1:])  # all but seq
    a = conn.execute(f"SELECT {cols} FROM events WHERE seq = 8").fetchone()
    b = conn.execute(f"SELECT {cols} FROM events WHERE seq = 10").fetchone()
    sets = ", ".join(f"{c.strip()} = ?" for c in cols.split(","))
    conn.execute("BEGIN")
    # hash is UNIQUE: park one row's hash before swapping.
    conn.execute("UPDATE events SET hash = 'x' WHERE seq = 8")
    conn.execute(f"UPDATE events SET {sets} WHERE seq = 10", a)
    conn.execute(f"UPDATE events SET {sets} WHERE seq = 8", b)
    conn.execute("COMMIT")
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, 8)


def test_tamper_edit_hash_is_caught_at_that_entry(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("UPDATE events SET hash = ? WHERE seq = 3", ("ab" * 32,))
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, 3)


def test_tamper_edit_staff_or_time_is_caught(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("UPDATE events SET staff_id = 'S99', role = 'supervisor' WHERE seq = 2")
    conn.close()
    assert reopen(journal).verify().first_bad_seq == 2
    conn = sqlite3.connect(journal.path, isolation_level=None)  # its triggers are already gone
    conn.execute("UPDATE events SET staff_id = 'C01', role = 'croupier' WHERE seq = 2")
    conn.execute("UPDATE events SET ts = '2020-01-01T00:00:00+00:00' WHERE seq = 11")
    conn.close()
    assert reopen(journal).verify().first_bad_seq == 11


def test_tamper_unreadable_payload_is_caught(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("UPDATE events SET payload = '{not json' WHERE seq = 6")
    conn.close()
    assert reopen(journal).verify().first_bad_seq == 6


def test_tamper_undecodable_compressed_payload_is_caught_not_raised(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("UPDATE events SET payload = X'00ff00ff' WHERE seq = 6")
    conn.close()
    assert reopen(journal).verify().first_bad_seq == 6


def test_tail_truncation_is_caught_by_a_later_snapshot(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    journal.save_snapshot(12, {"n": 12})
    conn = raw(journal.path)
    conn.execute("DELETE FROM events WHERE seq > 10")
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, 11)
    assert "snapshot" in report.reason


def test_rewritten_consistent_chain_is_caught_without_the_key(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    journal.save_snapshot(9, {"n": 9})
    events = list(journal.events())
    conn = raw(journal.path)
    conn.execute("BEGIN")
    prev = events[3].hash
    # A forger who recomputes every hash from entry 5 on leaves a chain that links up...
    for e in events[4:]:
        payload = {**e.payload, "amount": "1"} if e.seq == 5 else e.payload
        digest = plain_hash(e.seq, e.ts, "T1", e.round_id, e.staff_id, e.role, e.type, payload, prev)
        conn.execute(
            "UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
            (canonical_json(payload), prev, digest, e.seq),
        )
        prev = digest
    conn.execute("COMMIT")
    conn.close()
    # ... but not with the table key, which the forger does not have.
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, 5)


def test_junk_file_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"definitely not sqlite" * 200)
    with pytest.raises(JournalError):
        Journal(junk, "T1", "midi")


def test_snapshots_keep_the_latest_and_check_their_entry(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    assert journal.latest_snapshot() is None
    for seq in (3, 6, 9, 12):
        journal.save_snapshot(seq, {"upto": seq, "texto": "ñ"})
    assert journal.latest_snapshot() == (12, {"upto": 12, "texto": "ñ"})
    kept = [row[0] for row in journal.query("SELECT seq FROM snapshots ORDER BY seq")]
    assert kept == [6, 9, 12]
    with pytest.raises(JournalError):
        journal.save_snapshot(99, {})
    # A snapshot that does not match its entry is refused, not silently passed over.
    journal.close()
    conn = sqlite3.connect(journal.path)
    conn.execute("UPDATE snapshots SET event_hash = 'bad' WHERE seq = 12")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError) as info:
        Journal.open_existing(journal.path).latest_snapshot()
    assert "#12" in info.value.message("en") and "snapshot" in info.value.message("en")


def test_other_game_or_table_is_refused(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=1)
    journal.close()
    with pytest.raises(JournalError, match="madero"):
        Journal(journal.path, "T1", "madero")
    with pytest.raises(JournalError) as info:
        Journal(journal.path, "T2", "midi")
    assert "T2" in info.value.message("en")
    with pytest.raises(JournalError):
        Journal(journal.path, "T1", "midi", training=True)
    assert Journal.open_existing(journal.path).table_id == "T1"
    with pytest.raises(JournalError):
        Journal.open_existing(journal.path, game="madero")
    with pytest.raises(JournalError):
        Journal.open_existing(tmp_path / "absent.sqlite3")
    assert not (tmp_path / "absent.sqlite3").exists()
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(JournalError):
        Journal.open_existing(tmp_path / "junk.sqlite3")


def test_training_mode_is_fixed_once_history_exists(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3", "T1", "midi")
    assert not journal.training
    journal.mark_training(True)
    assert journal.training
    journal.append("x", {}, round_id=0, actor=None)
    with pytest.raises(JournalError):
        journal.mark_training(False)
    journal.close()
    assert Journal(journal.path, "T1", "midi").training


def test_default_paths_keep_training_apart() -> None:
    live = default_journal_path("midi", "3")
    training = default_journal_path("midi", "3", training=True)
    assert "mesa-console" in live.parts
    assert training.parent.name == "training" and training.parent.parent == live.parent
    assert live.name == training.name == "midi-3.sqlite3"
    assert default_journal_path("midi", "../etc/x").parent == live.parent


def test_pragmas_wal_and_full_sync(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=1)
    assert journal.query("PRAGMA journal_mode")[0][0] == "wal"
    assert journal.query("PRAGMA synchronous")[0][0] == 2  # FULL


def test_recall_rounds_in_order(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=12, per_round=2)
    journal.append("shift_opened", {"staff_id": "C01"}, round_id=0, actor=CROUPIER)
    assert journal.last_round_ids(10) == list(range(3, 13))
    assert journal.last_round_ids(50) == list(range(1, 13))
    events = journal.round_events(7)
    assert [e.seq for e in events] == [13, 14]
    data = recall_json(journal, [6, 7])
    assert [r["round_id"] for r in data] == [6, 7]
    assert data[1]["events"][0]["payload"] == {"amount": "10", "box": 1}
    json.dumps(data)  # plain JSON data
    text, unreadable = recall_text(journal, [7], "en")
    assert text[0] == "== Round 7 ==" and len(text) == 3 and unreadable == []


def test_format_event_line(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3", "T1", "midi", clock=lambda: "2026-05-01T12:30:05.000000+00:00")
    event = journal.append("card_keyed", {"hand": "punto", "cards": ["9s", "Kd"], "extra": None}, round_id=4, actor=CROUPIER)
    line = format_event(event, "es", tz=UTC)
    assert line.startswith("2026-05-01 12:30:05  #1 ")
    assert "C01/croupier" in line and "card_keyed" in line
    assert "cards=[9s Kd]" in line and "hand=punto" in line and "extra=-" in line
    anonymous = journal.append("shoe_started", {}, round_id=0, actor=None)
    assert "(sin personal)" in format_event(anonymous, "es")
    assert "(no staff)" in format_event(anonymous, "en")


# --- journal verify / recall on the command line -------------------------------------------


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    import argparse

    from shared.journal_cli import add_journal_subcommand

    parser = argparse.ArgumentParser(prog="midi-tui")
    parser.add_argument("--db", type=Path)
    parser.add_argument("--lang", default="es")
    subparsers = parser.add_subparsers(dest="command")
    add_journal_subcommand(subparsers, "es", "midi")
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_verify_ok_and_broken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = make_journal(tmp_path)
    journal.close()
    db = str(journal.path)
    code, out, _ = run_cli(["journal", "verify", "--db", db], capsys)
    assert code == 0 and "diario íntegro: 12 entradas" in out
    code, out, _ = run_cli(["--db", db, "--lang", "en", "journal", "verify", "--json"], capsys)
    assert code == 0 and json.loads(out)["checked"] == 12 and json.loads(out)["ok"] is True
    conn = raw(journal.path)
    conn.execute("DELETE FROM events WHERE seq = 4")
    conn.close()
    code, out, _ = run_cli(["journal", "verify", "--db", db, "--lang", "en"], capsys)
    assert code == 1 and "chain broken at entry #4" in out
    code, out, _ = run_cli(["journal", "verify", "--db", db, "--json"], capsys)
    assert code == 1 and json.loads(out)["first_bad_seq"] == 4


def test_cli_bad_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["journal", "verify", "--db", str(tmp_path / "none.sqlite3")], capsys)
    assert code == 2 and "no existe el diario" in err
    assert not (tmp_path / "none.sqlite3").exists()
    madero = Journal(tmp_path / "madero.sqlite3", "T1", "madero")
    madero.close()
    code, _, err = run_cli(["journal", "recall", "--db", str(madero.path)], capsys)
    assert code == 2 and "madero" in err
    with pytest.raises(SystemExit) as info:
        run_cli(["journal", "recall", "--last", "0"], capsys)
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        run_cli(["journal", "recall", "--last", "2", "--round", "3"], capsys)


def test_cli_recall_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = make_journal(tmp_path, rounds=12, per_round=2)
    journal.close()
    db = str(journal.path)
    code, out, _ = run_cli(["journal", "recall", "--db", db], capsys)
    lines = out.splitlines()
    assert code == 0 and "no el juego en vivo" in lines[0]
    assert [line for line in lines if line.startswith("==")] == [f"== Pase {r} ==" for r in range(3, 13)]
    code, out, _ = run_cli(["journal", "recall", "--db", db, "--last", "2", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and [r["round_id"] for r in data["rounds"]] == [11, 12]
    assert data["table_id"] == "T1" and len(data["rounds"][0]["events"]) == 2
    code, out, _ = run_cli(["journal", "recall", "--db", db, "--round", "5", "--lang", "en"], capsys)
    assert code == 0 and "== Round 5 ==" in out and "not the live game" in out
    code, _, err = run_cli(["journal", "recall", "--db", db, "--round", "99"], capsys)
    assert code == 2 and "99" in err


def test_cli_default_path_uses_the_table_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_journal_path("midi", "MPB-09")
    if tmp_path not in path.parents:
        pytest.skip("platformdirs does not follow XDG_DATA_HOME on this OS")
    Journal(path, "MPB-09", "midi").close()
    code, out, _ = run_cli(["journal", "verify", "--table-id", "MPB-09"], capsys)
    assert code == 0 and str(path) in out
    code, _, err = run_cli(["journal", "verify"], capsys)  # the shipped default table has no journal here
    assert code == 2 and "midi-MPB-02" in err


def test_in_memory_journal_verifies() -> None:
    journal = Journal(":memory:", "T1", "midi")
    for k in range(3):
        journal.append("bet_placed", {"k": k}, round_id=1, actor=CROUPIER)
    journal.save_snapshot(3, {"k": 3})
    report = journal.verify()
    assert report.ok and report.checked == 3
    journal.append("bet_placed", {"k": 4}, round_id=1, actor=CROUPIER)  # the lock and transaction were released
    assert journal.verify().checked == 4


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(payload=st.dictionaries(st.text(max_size=10), _json_values, max_size=5), type_=st.text(min_size=1, max_size=12))
def test_verify_fast_hash_equals_the_event_hash(payload: dict, type_: str) -> None:
    # Each hash covers the stored row itself: the entry read back is the one written, and checks.
    current = Journal(":memory:", "Mesa-Ñ", "midi", clock=lambda: "2026-01-01T00:00:00.000000+00:00")
    written = current.append(type_, payload, round_id=3, actor=CROUPIER)
    assert list(current.events()) == [written] and current.hash_ok(written) and current.verify().ok


def test_an_append_after_another_writer_is_refused_in_words_and_records_nothing(tmp_path: Path) -> None:
    journal = make_journal(tmp_path, rounds=1)
    head = (journal.last_seq, journal.last_hash)
    event = journal.event(3)
    assert event is not None
    stale = sqlite3.connect(journal.path, isolation_level=None)  # a second writer past the lock
    insert_raw(stale, (4, event.ts, "T1", 1, None, None, "other", "{}", event.hash, "e" * 64))
    stale.close()
    with pytest.raises(JournalWriteError) as refused:
        journal.append("bet_placed", {"box": 9}, round_id=1, actor=CROUPIER)
    assert refused.value.message("es") == (
        "No se pudo registrar en el diario: otro programa escribió en el diario de la mesa. "
        "No se registró nada. Cierre la consola (ctrl+q) y vuelva a abrirla.")
    assert "Nothing was recorded" in refused.value.message("en")
    assert (journal.last_seq, journal.last_hash) == head
    assert [e.type for e in journal.events()][-1] == "other"


def test_a_busy_journal_refuses_the_append_in_words(tmp_path: Path, monkeypatch) -> None:
    journal = make_journal(tmp_path, rounds=1)
    seq = journal.last_seq

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Journal, "_append_in", locked)
    with pytest.raises(JournalWriteError, match=r"el diario está ocupado o no se puede escribir\. No se registró nada"):
        journal.append_many([("bet_placed", {"box": 1}), ("bet_placed", {"box": 2})], round_id=1, actor=CROUPIER)
    monkeypatch.undo()
    assert journal.last_seq == seq and journal.append("bet_placed", {"box": 1}, round_id=1, actor=CROUPIER).seq == seq + 1


def test_format_4_codes_types_and_indexes_only_those_read_by_type(tmp_path: Path) -> None:
    """A new journal stores each type as a code (meta ``types``; the game's own play first) and
    indexes only the codes after those; every read by type answers the same, and a read of
    only indexed types goes through the index."""
    journal = Journal(tmp_path / "table.sqlite3", "T1", "madero")
    plan = [("round_started", 1), ("bet_placed", 1), ("card_keyed", 1), ("round_settled", 1), ("round_closed", 1),
            ("round_started", 2), ("card_keyed", 2), ("shift_opened", 0), ("round_closed", 2)]
    for type_, round_id in plan:
        journal.append(type_, {"n": round_id}, round_id=round_id, actor=CROUPIER)
    meta = dict(journal.query("SELECT key, value FROM meta"))
    types = json.loads(meta["types"])
    assert types[:5] == ["round_started", "bet_placed", "bets_closed", "decision", "card_keyed"]
    assert meta["type_index_from"] == "5" and set(types[5:]) == {"round_settled", "round_closed", "shift_opened"}
    assert {type(row[0]) for row in journal.query("SELECT type FROM events")} == {int}
    assert journal.query("SELECT count(*) FROM events INDEXED BY events_type WHERE type >= 5") == [(4,)]
    with journal.read_view() as view:
        for wanted in (["round_closed"], ["card_keyed"], ["round_closed", "card_keyed"], ["shift_opened"], ["nothing"]):
            expected = [seq for seq, (type_, _) in enumerate(plan, 1) if type_ in wanted]
            assert [e.seq for e in view.events(wanted)] == expected
            assert [e.seq for e in journal.events(types=wanted)] == expected
            assert [e.seq for e in journal.events(after=7, types=wanted)] == [seq for seq in expected if seq > 7]
            first = [seq for seq, (type_, _) in enumerate(plan, 1) if type_ == wanted[0]][:1]
            assert view.first_seq(wanted[0]) == (first[0] if first else None)
        term, params = journal._type_filter(["round_closed", "shift_opened"])
        plan_text = " ".join(str(row) for row in journal.query(f"EXPLAIN QUERY PLAN SELECT seq FROM events WHERE {term}",
                                                                tuple(params)))
        assert "events_type" in plan_text
    assert journal.last_event_of("card_keyed").seq == 7 and journal.last_event_of("round_closed").seq == 9
    assert [e.type for e in journal.round_events(2)] == ["round_started", "card_keyed", "round_closed"]
    assert journal.verify().ok


def test_format_4_a_type_new_since_a_reader_opened_is_read_and_verified(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    journal.append("bet_placed", {"box": 1}, round_id=1, actor=CROUPIER)
    reader = Journal.open_existing(journal.path)
    journal.append("brand_new", {"x": 1}, round_id=1, actor=CROUPIER)
    assert [e.type for e in reader.events()] == ["bet_placed", "brand_new"]
    assert reader.last_event_of("brand_new").seq == 2
    assert reader.verify().ok and reader.verify().checked == 2


def test_format_4_a_rolled_back_entry_leaves_no_type_code(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    with pytest.raises(RuntimeError), journal.transaction() as cur:
        journal.append_in(cur, "never_kept", {}, round_id=1, actor=CROUPIER)
        raise RuntimeError("the caller gives up")
    journal.append("kept", {}, round_id=1, actor=CROUPIER)
    assert "never_kept" not in journal.query("SELECT value FROM meta WHERE key = 'types'")[0][0]
    assert [e.type for e in reopen(journal).events()] == ["kept"]


def test_format_4_a_role_or_type_code_edited_is_caught(tmp_path: Path) -> None:
    journal = make_journal(tmp_path)
    conn = raw(journal.path)
    conn.execute("UPDATE events SET type = 99 WHERE seq = 4")  # a code the file does not define
    conn.execute("UPDATE events SET role = 1 WHERE seq = 8")
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq, report.reason) == (False, 4, "contents do not match the entry's hash")


def test_whole_hashes_are_kept_only_at_checkpoints_and_readers_get_every_hash(tmp_path: Path) -> None:
    """An entry of the game's play stores a 4-byte tag of its hash; an entry read by type and
    every 64th and a file's first store both whole hashes. Readers get every entry's
    hash and link all the same (recomputed from the checkpoint before), and a snapshot of a
    tagged entry is sealed to it."""
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    for n in range(1, 151):
        journal.append("round_closed" if n % 10 == 0 else "card", {"n": n}, round_id=n // 10 + 1, actor=CROUPIER)
    stored = dict(journal.query("SELECT seq, length(hash) FROM events"))
    links = {seq for (seq,) in journal.query("SELECT seq FROM events WHERE prev_hash IS NOT NULL")}
    checkpoints = {seq for seq in stored if seq % 10 == 0 or seq % 64 == 0 or seq == 1}
    assert {seq for seq, size in stored.items() if size == 32} == checkpoints == links
    assert {size for seq, size in stored.items() if seq not in checkpoints} == {4}
    events = list(journal.events())
    assert events[0].prev_hash == GENESIS_HASH and all(journal.hash_ok(e) for e in events)
    assert all(after.prev_hash == before.hash for before, after in pairwise(events))
    assert journal.round_events(8) == [e for e in events if e.round_id == 8]
    assert journal.last_event_of("card").hash == events[-2].hash and journal.last_hash == events[-1].hash
    journal.save_snapshot(147, {"at": 147})
    journal.close()
    reader = Journal.open_existing(journal.path)
    assert reader.latest_snapshot() == (147, {"at": 147}) and reader.anchor() == (events[-1].hash, 150)
    assert reader.verify(anchor=(events[99].hash, 100)).ok
    assert Journal(journal.path, "T1", "midi").last_hash == events[-1].hash  # the writer's start check passes


def _clocked_journal(path: Path, minutes: list[int], *, copied: bool = False) -> Journal:
    """A journal with one entry at each of ``minutes`` after 2026-03-01 00:00 UTC, in that order:
    stamped by its clock (a step back journals a ``clock_corrected`` entry before it), or
    ``copied`` with those times as ``journal upgrade`` copies an older file (no correction),
    its record of the conversion after them at the latest time but a minute."""
    from datetime import datetime, timedelta

    start = datetime(2026, 3, 1, tzinfo=UTC)
    times = [(start + timedelta(minutes=m)).isoformat(timespec="microseconds") for m in minutes]
    upgraded_at = (start + timedelta(minutes=max(minutes) + 1)).isoformat(timespec="microseconds")
    clock = iter([upgraded_at] if copied else times)
    journal = Journal(path, "T1", "test", clock=lambda: next(clock))
    for n, ts in enumerate(times):
        if copied:
            with journal.transaction() as cur:
                journal.append_in(cur, "tick", {"n": n}, round_id=n + 1, actor=None, ts=ts)
        else:
            journal.append("tick", {"n": n}, round_id=n + 1, actor=None)
    if copied:
        journal.append(*EventCodec.encode(JournalUpgraded(4, "00:0", f"{journal.last_hash}:{journal.last_seq}",
                                                          "j.sqlite3.format-4")), round_id=0, actor=None)
    return journal


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-4 * 1440, 600), min_size=1, max_size=60), st.integers(0, 8 * 1440),
       st.integers(1, 3 * 1440), st.booleans())
@example(steps=[0, -2, -1439, 0, 0], since=0, span=1, copied=True)
def test_a_time_bounded_read_is_a_range_of_the_journal(tmp_path_factory, steps, since, span, copied) -> None:
    """A time bound is the first entry, in the journal's order, at or after it (issue 29: a
    clock set back drops no entry after it); it is found by bisection (issue 19: a day's report
    must not read the year) across clock corrections of any size, and in the entries copied from
    an older file (no correction among them) across steps back of any size. A run found a copy
    whose steps back, each under a day, added up to more than one: its bisection, with a day's
    slack, read nothing."""
    from datetime import datetime, timedelta

    minutes, now = [], 0
    for step in steps:
        # Mostly forward, sometimes back: up to 4 days a step.
        now += abs(step) * 17 if step >= 0 else step
        minutes.append(now)
    start = datetime(2026, 3, 1, tzinfo=UTC)
    lo = (start + timedelta(minutes=since)).isoformat()
    hi = (start + timedelta(minutes=since + span)).isoformat()
    with _clocked_journal(tmp_path_factory.mktemp("j") / "j.sqlite3", minutes, copied=copied) as journal:
        every = list(journal.events())
        with journal.read_view() as view:
            found = [e.seq for e in view.events(["tick"], since=lo, until=hi)]

    def first_from(moment: str) -> int:
        return next((e.seq for e in every if datetime.fromisoformat(e.ts) >= datetime.fromisoformat(moment)),
                    len(every) + 1)

    assert found == [e.seq for e in every if first_from(lo) <= e.seq < first_from(hi) and e.type == "tick"]
    corrections = [e for e in every if e.type == "clock_corrected"]
    assert len(corrections) == (0 if copied else sum(1 for a, b in pairwise(minutes) if b < a))


def test_a_time_bounded_read_starts_near_its_window(tmp_path) -> None:
    from shared.journal.format import _ts_bound

    with _clocked_journal(tmp_path / "j.sqlite3", [m * 60 for m in range(24 * 10)]) as journal:  # hourly, 10 days
        with journal.read_view() as view:
            assert view.first_seq_from(_ts_bound("2026-03-06T00:00:00+00:00")) == 5 * 24 + 1
            assert view.first_seq_from(_ts_bound("2026-04-01T00:00:00+00:00")) == 24 * 10 + 1
            found = [e.seq for e in view.events(["tick"], since="2026-03-06T00:00:00+00:00",
                                                   until="2026-03-07T00:00:00+00:00")]
    assert found == list(range(5 * 24 + 1, 6 * 24 + 1))


def _format5_journal(path: Path) -> tuple[Journal, list[Event]]:
    """Rounds of play by two croupiers, with between-round entries of round 0 and times that
    also step back once, 150 entries in all (checkpoints at the round closes and every 64th).
    Copied with their times, as ``journal upgrade`` copies an older file: no clock correction
    comes between them, so a row may go on from the one before with a negative time."""
    from datetime import datetime, timedelta

    start = datetime(2026, 3, 1, 20, tzinfo=UTC)
    seconds = iter([3 * n - (40 if n >= 90 else 0) for n in range(200)])
    journal = Journal(path, "T1", "midi")

    def append(type_: str, n: int, round_id: int, actor: Actor | None) -> Event:
        with journal.transaction() as cur:
            return journal.append_in(cur, type_, {"n": n}, round_id=round_id, actor=actor,
                                     ts=(start + timedelta(seconds=next(seconds))).isoformat(timespec="microseconds"))

    events, round_id = [], 1
    for n in range(1, 151):
        actor = CROUPIER if n < 75 else Actor("C02", Role.CROUPIER)
        if n % 10 == 0:
            events.append(append("round_closed", n, round_id, actor))
            round_id += 1
        elif n % 10 == 5:
            events.append(append("shift_note", n, 0, None))
        else:
            events.append(append("card", n, round_id, actor))
    return journal, events


def test_format_5_rows_between_checkpoints_keep_only_what_differs_from_the_row_before(tmp_path: Path) -> None:
    """A tagged row stores its time as the microseconds since the row before and its round only
    where it changes; a checkpoint (and the file's first row) is whole. Readers get every entry
    exactly as written: times, rounds, staff, hashes, links; a round is its stretches of rows."""
    journal, events = _format5_journal(tmp_path / "table.sqlite3")
    stored = {row[0]: row[1:] for row in journal.query("SELECT seq, ts, round_id, staff_id, hash FROM events")}
    previous: Event | None = None
    for event in events:
        ts, round_id, staff, digest = stored[event.seq]
        whole = len(digest) == 32
        assert whole == (event.seq == 1 or event.seq % 10 in (0, 5) or event.seq % 64 == 0)
        if whole or previous is None:
            assert ts_text(ts) == event.ts and round_id == event.round_id
        else:
            assert ts == (datetime.fromisoformat(event.ts) - datetime.fromisoformat(previous.ts)) // timedelta(
                microseconds=1)
            assert round_id == (None if event.round_id == previous.round_id else event.round_id)
        assert staff is None if event.staff_id is None else type(staff) is int
        previous = event
    assert list(journal.events()) == events
    assert [journal.event(e.seq) for e in events] == events  # each one alone, from its checkpoint
    assert all(journal.hash_ok(e) for e in events) and journal.verify().ok
    for round_id in (1, 8, 15):
        assert journal.round_events(round_id) == [e for e in events if e.round_id == round_id]
    assert journal.last_round_ids(3) == [13, 14, 15]
    indexed = journal.query("SELECT count(*) FROM events INDEXED BY events_round WHERE round_id >= 0")[0][0]
    assert indexed == sum(1 for row in stored.values() if row[1] is not None) < len(events) // 2
    plan = " ".join(str(row) for row in journal.query("EXPLAIN QUERY PLAN SELECT seq FROM events WHERE round_id = ?",
                                                     (8,)))
    assert "events_round" in plan
    journal.close()
    assert list(Journal(journal.path, "T1", "midi").events()) == events  # a writer's restart reads the same


@pytest.mark.parametrize("edit", [
    "UPDATE events SET ts = ts + 1 WHERE seq = 23",  # a time moved by a microsecond
    "UPDATE events SET round_id = 2 WHERE seq = 23",  # a round written where the row left it
    "UPDATE events SET round_id = NULL WHERE seq = 21",  # a round change removed
    "UPDATE events SET staff_id = 1 WHERE seq = 23",  # another croupier's code
])
def test_format_5_an_edit_of_what_a_row_leaves_to_the_row_before_is_caught(tmp_path: Path, edit: str) -> None:
    journal, _ = _format5_journal(tmp_path / "table.sqlite3")
    conn = raw(journal.path)
    conn.execute(edit)
    conn.close()
    report = reopen(journal).verify()
    assert (report.ok, report.first_bad_seq) == (False, int(edit.rsplit(" ", 1)[1]))


def test_format_5_archiving_makes_the_live_files_first_row_whole(tmp_path: Path) -> None:
    """The entries before it move to the archive: the live file's new first row stores its time,
    round and both hashes itself (its hash unchanged), so each file reads and verifies alone."""
    journal, events = _format5_journal(tmp_path / "table.sqlite3")
    target = journal.archive(33)
    first = journal.query("SELECT seq, ts, round_id, length(hash), length(prev_hash) FROM events ORDER BY seq LIMIT 1")
    assert first == [(34, first[0][1], 4, 32, 32)] and ts_text(first[0][1]) == events[33].ts
    assert list(journal.events())[:len(events)] == events and journal.verify().ok
    assert journal.round_events(4) == [e for e in events if e.round_id == 4]
    journal.close()
    with Journal.open_existing(target) as archive:
        assert archive.verify().ok and list(archive.events()) == events[:33]
    with Journal.open_existing(journal.path) as reader:
        assert reader.verify().ok and [e.seq for e in reader.round_events(4)] == [31, 32, 33, 34, 36, 37, 38, 39, 40]
