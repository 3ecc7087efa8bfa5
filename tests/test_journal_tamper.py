"""The journal under attack (issue 15 §2–4): tampering caught beyond what the file alone
proves, one writer per journal, owner-only files, peppered PINs; and (issue 29 §3) a journal of
an older row format, the door to a history forged without the key, opened by nothing but
``journal upgrade``.

The played journals are real: Midi coups and Madero rounds through their engines, each left
with a round open (entries after the latest snapshot), then copied and tampered with as
someone who can write the database but cannot read the table key would.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import hmac
import io
import json
import os
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from madero_helpers import SUP as MADERO_SUPERVISOR
from madero_helpers import live_table as madero_live_table
from midi_helpers import CROUPIER as MIDI_CROUPIER
from midi_helpers import SUPERVISOR as MIDI_SUPERVISOR
from midi_helpers import live_table as midi_live_table
from midi_helpers import open_live_shoe, play_coup
from test_report import _madero_round

from shared.errors import InputError
from shared.journal import Journal, JournalError, canonical_json, key_path, payload_text, ts_text
from shared.journal import verify as verify_module
from shared.madero.meter import SqliteMeterStore
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.staff import HASH_BYTES, PEPPERED, StaffRegistry, _scrypt
from tests.raw_rows import insert_raw, select_columns
from tests.raw_rows import plain_hash as _plain_hash

GAMES = ("midi", "madero")
JOURNALS = (*GAMES, "midi+archive", "madero+archive")
"""The played journals: each game's, and each game's after its first gaming day was archived."""
MIDI_ID = DEFAULT_MIDI_TABLE.table_id
LEGACY = Path(__file__).with_name("data") / "legacy-midi.sqlite3"
"""A Midi journal written by the journal code before table keys (3 coups and one open)."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("played")
    played = {}
    for archived in (False, True):
        suffix = "+archive" if archived else ""
        midi = midi_live_table(path=base / f"midi{'-archived' * archived}.sqlite3")
        open_live_shoe(midi)
        for n in range(3):
            play_coup(midi, ["2", "3", "3", "3", "K"], [(1, "punto", 100), (2, "banca", 26)])
            if archived and n == 0:
                midi.shift.close_gaming_day(MIDI_SUPERVISOR)
                day_end = midi.journal.last_seq
        midi.play.place_bet(1, "punto", 10)
        midi.journal.close()
        madero = madero_live_table(base, name=f"madero{'-archived' * archived}.sqlite3")
        _madero_round(madero, 20, ["4d", "5c"])
        if archived:
            madero.shift.close_gaming_day(MADERO_SUPERVISOR)
            madero_day_end = madero.journal.last_seq
        _madero_round(madero, 10, ["Ah", "9h"])
        madero.play.place_bet(1, "ante", 10)
        madero.journal.close()
        for game, path in (("midi", midi.journal.path), ("madero", madero.journal.path)):
            if archived:
                with Journal(path, *_ids(path)) as journal:
                    journal.archive(day_end if game == "midi" else madero_day_end)
            played[game + suffix] = path
    return played


def copy_journal(src: Path, dst: Path) -> Path:
    """Copy a journal, its key and its archive files (named in it, beside it)."""
    shutil.copy(src, dst)
    shutil.copy(key_path(src), key_path(dst))
    for archive in src.parent.glob(f"{src.stem}.archive-*"):
        shutil.copy(archive, dst.parent / archive.name)
    return dst


def middle_seq(conn: sqlite3.Connection) -> int:
    """The seq of the live file's middle entry (after any archived ones)."""
    all_rows = rows(conn)
    return all_rows[len(all_rows) // 2][0]


def raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("DROP TRIGGER events_no_delete")
    return conn


def rows(conn: sqlite3.Connection) -> list[tuple]:
    """The entries with time, table, payload and hash as the texts the hashes cover (a forger
    reads the row format: format 3 stores a number, NULL for the journal's table, a role's code,
    a payload deflated with the file's dictionary, raw bytes)."""
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    dictionary = meta["payload_dictionary"].encode("utf-8") if "payload_dictionary" in meta else None
    roles = json.loads(meta.get("roles", "[]"))
    return [
        (seq, ts_text(ts), meta["table_id"] if table_id is None else table_id, round_id, staff_id,
         roles[role] if isinstance(role, int) else role, type_, payload_text(payload, dictionary), prev,
         digest.hex() if isinstance(digest, bytes) else digest)
        for seq, ts, table_id, round_id, staff_id, role, type_, payload, prev, digest in conn.execute(
            f"SELECT {select_columns(conn)} FROM events ORDER BY seq")
    ]


def latest_snapshot_seq(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0]


def plain_hash(row: tuple, payload: dict, prev_hash: str) -> str:
    """The hash a forger without the key can compute: the unkeyed SHA-256 of the entry."""
    return _plain_hash(*row[:7], payload, prev_hash)


def cut_tail(conn: sqlite3.Connection) -> None:
    """Delete the last entries: those after the latest snapshot (the open round's)."""
    conn.execute("DELETE FROM events WHERE seq > ?", (latest_snapshot_seq(conn),))


def append_forged(conn: sqlite3.Connection) -> None:
    """Append an entry whose (unkeyed) hash and link are correct."""
    last = rows(conn)[-1]
    payload = {"amount": "-5000", "reason": "forged"}
    forged = (last[0] + 1, last[1], last[2], last[3], "S99", "supervisor", "adjustment")
    insert_raw(conn, (*forged, canonical_json(payload), last[9], plain_hash(forged, payload, last[9])))


def edit_and_rechain(conn: sqlite3.Connection) -> None:
    """Edit an entry in the middle and recompute every hash after it, snapshots included."""
    all_rows = rows(conn)
    start = len(all_rows) // 2
    prev = all_rows[start - 1][9]
    conn.execute("BEGIN")
    conn.execute("UPDATE events SET hash = 'parked-' || seq WHERE seq >= ?", (all_rows[start][0],))
    for row in all_rows[start:]:
        payload = json.loads(row[7])
        if row is all_rows[start]:
            payload["forged"] = True
        digest = plain_hash(row, payload, prev)
        conn.execute("UPDATE events SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                     (canonical_json(payload), prev, digest, row[0]))
        conn.execute("UPDATE snapshots SET event_hash = ? WHERE seq = ?", (digest, row[0]))
        prev = digest
    conn.execute("COMMIT")


def edit_snapshot(conn: sqlite3.Connection) -> None:
    """Edit a snapshot's saved state: a forged supervisor on duty."""
    seq = latest_snapshot_seq(conn)
    state = json.loads(conn.execute("SELECT state FROM snapshots WHERE seq = ?", (seq,)).fetchone()[0])
    state["_table"]["croupier"] = {"staff_id": "S99", "role": "supervisor"}
    conn.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (canonical_json(state), seq))


def edit_middle(conn: sqlite3.Connection) -> None:
    seq = middle_seq(conn)
    conn.execute("UPDATE events SET staff_id = 'S99', role = 'supervisor' WHERE seq = ?", (seq,))


def delete_middle(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM events WHERE seq = ?", (middle_seq(conn),))


def reorder_middle(conn: sqlite3.Connection) -> None:
    seq = middle_seq(conn)
    conn.execute("BEGIN")
    conn.execute("UPDATE events SET seq = -1 WHERE seq = ?", (seq,))
    conn.execute("UPDATE events SET seq = ? WHERE seq = ?", (seq, seq + 1))
    conn.execute("UPDATE events SET seq = ? WHERE seq = -1", (seq + 1,))
    conn.execute("COMMIT")


def change_hash(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE events SET hash = ? WHERE seq = ?", ("ab" * 32, middle_seq(conn)))


TAMPERS: dict[str, Callable[[sqlite3.Connection], None]] = {
    "cut_tail": cut_tail,
    "append_forged": append_forged,
    "edit_and_rechain": edit_and_rechain,
    "edit_snapshot": edit_snapshot,
    "edit_middle": edit_middle,
    "delete_middle": delete_middle,
    "reorder_middle": reorder_middle,
    "change_hash": change_hash,
}


def tampered(played: dict[str, Path], game: str, kind: str, tmp_path: Path) -> Path:
    path = copy_journal(played[game], tmp_path / f"{game}-{kind}.sqlite3")
    conn = raw(path)
    TAMPERS[kind](conn)
    conn.close()
    return path


def contents(path: Path) -> tuple[list[tuple], list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        return rows(conn), conn.execute("SELECT * FROM snapshots ORDER BY seq").fetchall()
    finally:
        conn.close()


def cli(game: str, *args: str, lang: str = "es") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"{game}_tui.cli", "--lang", lang, *args], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("game", JOURNALS)
def test_played_journals_verify(played: dict[str, Path], game: str) -> None:
    with Journal.open_existing(played[game]) as journal:
        report = journal.verify()
        assert report.ok and report.checked == journal.last_seq > 20


@pytest.mark.parametrize("kind", sorted(TAMPERS))
@pytest.mark.parametrize("journal_name", JOURNALS)
def test_every_tamper_kind_is_caught_by_verify(
    played: dict[str, Path], journal_name: str, kind: str, tmp_path: Path
) -> None:
    path = tampered(played, journal_name, kind, tmp_path)
    with Journal.open_existing(path) as journal:
        report = journal.verify()
    assert not report.ok, kind
    assert report.first_bad_seq is not None and report.reason
    module = __import__(f"{journal_name.partition('+')[0]}_tui.cli", fromlist=["main"])
    assert module.main(["journal", "verify", "--db", str(path)]) == 1


@pytest.mark.parametrize("kind", ["cut_tail", "append_forged", "edit_snapshot", "edit_and_rechain"])
@pytest.mark.parametrize("journal_name", JOURNALS)
def test_console_refuses_to_start_on_a_tampered_journal(
    played: dict[str, Path], journal_name: str, kind: str, tmp_path: Path
) -> None:
    game = journal_name.partition("+")[0]
    path = tampered(played, journal_name, kind, tmp_path)
    before = contents(path)
    out = cli(game, "--db", str(path))
    assert out.returncode == 2
    told = out.stdout + out.stderr
    assert "el diario está dañado" in told and "llame a un supervisor" in told, told
    assert "Traceback" not in told
    assert contents(path) == before  # nothing was written: nothing dealt on a broken journal
    english = cli(game, "--db", str(path), lang="en")
    assert english.returncode == 2 and "the journal is damaged" in english.stdout + english.stderr


def test_startup_refusal_names_the_entry_and_the_reason(played: dict[str, Path], tmp_path: Path) -> None:
    path = tampered(played, "midi", "edit_snapshot", tmp_path)
    with pytest.raises(JournalError) as info:
        Journal(path, MIDI_ID, "midi")
    text = info.value.message("en")
    assert "snapshot" in text and "does not match its seal" in text and "call a supervisor" in text
    path = tampered(played, "midi", "cut_tail", tmp_path)
    with pytest.raises(JournalError, match="faltan entradas al final"):
        Journal(path, MIDI_ID, "midi")


def test_a_journal_without_its_key_is_refused_and_unverifiable(played: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "nokey.sqlite3"
    shutil.copy(played["midi"], path)  # edited elsewhere, or the key lost: not silently re-keyed
    with pytest.raises(JournalError, match="falta la clave de la mesa"):
        Journal(path, MIDI_ID, "midi")
    assert not key_path(path).exists()
    with pytest.raises(JournalError, match="falta la clave de la mesa"):  # nor read by a tool
        Journal.open_existing(path)
    # Another table's key does not verify it either.
    shutil.copy(key_path(played["madero"]), key_path(path))
    with pytest.raises(JournalError):
        Journal(path, MIDI_ID, "midi")


@pytest.mark.parametrize("game", GAMES)
def test_anchor_catches_a_rolled_back_or_rewritten_history(
    played: dict[str, Path], game: str, tmp_path: Path
) -> None:
    path = copy_journal(played[game], tmp_path / "table.sqlite3")
    older = copy_journal(played[game], tmp_path / "older.sqlite3")
    with Journal(path, *_ids(path)) as journal:
        for n in range(3):
            journal.append("note", {"n": n}, round_id=0, actor=None)
    out = cli(game, "journal", "anchor", "--db", str(path))
    assert out.returncode == 0
    anchor = out.stdout.strip()
    digest, count = anchor.split(":")
    assert len(digest) == 64 and int(count) == Journal.open_existing(path).last_seq
    assert cli(game, "journal", "verify", "--db", str(path), "--anchor", anchor).returncode == 0
    # Later entries do not disturb the anchor: the journal still holds that head at that place.
    with Journal(path, *_ids(path)) as journal:
        journal.append("note", {"n": 3}, round_id=0, actor=None)
    assert cli(game, "journal", "verify", "--db", str(path), "--anchor", anchor).returncode == 0
    # An older copy put back in its place is consistent in itself — only the anchor shows the cut.
    shutil.copy(older, path)
    assert cli(game, "journal", "verify", "--db", str(path)).returncode == 0
    cut = cli(game, "journal", "verify", "--db", str(path), "--anchor", anchor, "--lang", "en")
    assert cut.returncode == 1 and "entries were removed" in cut.stdout
    # A different history (written with the key, so consistent) grown past the anchor's place.
    with Journal(path, *_ids(path)) as journal:
        for n in range(5):
            journal.append("note", {"n": -n}, round_id=0, actor=None)
    rewritten = cli(game, "journal", "verify", "--db", str(path), "--anchor", anchor, "--lang", "en")
    assert rewritten.returncode == 1 and "rewritten" in rewritten.stdout
    assert cli(game, "journal", "verify", "--db", str(path), "--anchor", "nonsense").returncode == 2


def _ids(path: Path) -> tuple[str, str]:
    with Journal.open_existing(path) as journal:
        return journal.table_id, journal.game


@pytest.mark.parametrize("game", GAMES)
def test_report_carries_the_head(played: dict[str, Path], game: str) -> None:
    with Journal.open_existing(played[game]) as journal:
        digest, count = journal.anchor()
    assert count == journal.last_seq and digest == journal.last_hash
    text = cli(game, "report", "--db", str(played[game]))
    assert text.returncode == 0 and text.stdout.splitlines()[-1] == f"diario: {count} entradas, cabeza {digest}:{count}"
    data = json.loads(cli(game, "report", "--json", "--db", str(played[game])).stdout)
    assert data["journal"] == {"entries": count, "head": digest}


def test_startup_checks_from_the_latest_snapshot_not_all_history(played: dict[str, Path], tmp_path: Path) -> None:
    """Start-up checks the head, the latest snapshot and what follows it; an edit older than
    the latest snapshot is left to the full ``verify``, which finds it."""
    path = copy_journal(played["midi"], tmp_path / "old-edit.sqlite3")
    conn = raw(path)
    conn.execute("UPDATE events SET ts = '2020-01-01T00:00:00+00:00' WHERE seq = 3")
    conn.close()
    with Journal(path, MIDI_ID, "midi") as journal:
        report = journal.verify()
    assert (report.ok, report.first_bad_seq) == (False, 3)


# --- one writer per journal (§3) ------------------------------------------------------------

HOLDER = """
import sys, time
from shared.journal import Journal
journal = Journal(sys.argv[1], sys.argv[2], "midi")
print("READY", flush=True)
time.sleep(120)
"""


def test_one_writer_a_second_console_is_refused_and_a_killed_holder_frees_it(
    played: dict[str, Path], tmp_path: Path
) -> None:
    path = copy_journal(played["midi"], tmp_path / "midi.sqlite3")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), MIDI_ID], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "READY"
        with pytest.raises(JournalError) as info:
            Journal(path, MIDI_ID, "midi")
        assert f"process {holder.pid} on {socket.gethostname()}, since " in info.value.message("en")
        second = cli("midi", "--db", str(path))
        assert second.returncode == 2 and "Traceback" not in second.stdout + second.stderr
        assert f"el proceso {holder.pid} en {socket.gethostname()}" in second.stdout + second.stderr
        # Read-only tools work meanwhile.
        assert cli("midi", "journal", "verify", "--db", str(path)).returncode == 0
        assert cli("midi", "journal", "recall", "--db", str(path), "--last", "2").returncode == 0
        assert cli("midi", "journal", "anchor", "--db", str(path)).returncode == 0
        assert cli("midi", "report", "--db", str(path)).returncode == 0
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    # The dead holder's lock is stale: the kernel freed it, and the file names the new holder.
    with Journal(path, MIDI_ID, "midi") as journal:
        assert journal.verify().ok
        lock = json.loads(Path(f"{path}.lock").read_text())
        assert lock["pid"] == os.getpid() and lock["host"] == socket.gethostname()


def test_the_lock_holds_with_its_file_deleted_and_through_a_link_or_another_path(
    played: dict[str, Path], tmp_path: Path
) -> None:
    """Issue 29 §5: deleting ``.lock``, or opening through a symlink, let a second writer in.
    The lock is now on the journal's own file: every path to it meets it."""
    path = copy_journal(played["midi"], tmp_path / "midi.sqlite3")
    (tmp_path / "link.sqlite3").symlink_to(path)
    (tmp_path / "sub").mkdir()
    with Journal(path, MIDI_ID, "midi"):
        Path(f"{path}.lock").unlink()
        for other in (path, tmp_path / "link.sqlite3", tmp_path / "sub" / ".." / "midi.sqlite3"):
            with pytest.raises(JournalError, match="ya está abierta en otra consola"):
                Journal(other, MIDI_ID, "midi")
        second = cli("midi", "--db", str(tmp_path / "link.sqlite3"), lang="en")
        assert second.returncode == 2 and "already open in another console" in second.stderr
        assert "Traceback" not in second.stdout + second.stderr
    with Journal(tmp_path / "link.sqlite3", MIDI_ID, "midi") as journal:  # freed with the first
        assert journal.verify().ok


def _not_utf8(key: Path) -> None:
    key.write_bytes(b"\xff\xfe" + key.read_bytes())


def _dev_zero(key: Path) -> None:
    key.unlink()
    key.symlink_to("/dev/zero")


def _too_long(key: Path) -> None:
    key.write_text(key.read_text()[:-1] + ', "pad": "' + "0" * 100_000 + '"}')


@pytest.mark.parametrize("spoil", [_not_utf8, _dev_zero, _too_long], ids=["not-utf8", "dev-zero", "too-long"])
def test_a_malformed_key_is_a_clear_refusal_at_launch_and_in_every_tool(
        played: dict[str, Path], tmp_path: Path, spoil: Callable[[Path], None]) -> None:
    """A key that is not UTF-8 gave a traceback (and verify exit 1, the broken-chain code); one
    linked to /dev/zero made verify read forever. Now each is refused, exit 2, in words."""
    path = copy_journal(played["midi"], tmp_path / "midi.sqlite3")
    spoil(key_path(path))
    for args in (["--db", str(path)], ["journal", "verify", "--db", str(path)], ["journal", "anchor", "--db", str(path)],
                 ["staff", "--db", str(path), "list"]):
        done = cli("midi", *args, lang="en")
        assert done.returncode == 2, (args, done.stderr)
        assert f"the table key {key_path(path)} is damaged" in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stdout + done.stderr


# --- files and secrets (§4) -----------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_data_folder_and_files_are_owner_only(tmp_path: Path) -> None:
    os.umask(0o022)  # the usual umask, which made the journal 0644 in a 0755 folder
    path = tmp_path / "data" / "mesa-console" / "midi-table.sqlite3"
    table = midi_live_table(path=path)
    open_live_shoe(table)
    assert mode(path.parent) == 0o700 and mode(path.parent.parent) == 0o700
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), key_path(path), Path(f"{path}.lock")):
        assert mode(file) == 0o600, file
    table.journal.close()
    meters = tmp_path / "meters" / "meters.sqlite3"
    store = SqliteMeterStore(meters)
    store.register("MPB-05", __import__("decimal").Decimal(1000), None)
    assert mode(meters.parent) == 0o700
    for file in (meters, Path(f"{meters}-wal"), Path(f"{meters}-shm")):
        assert mode(file) == 0o600, file


def test_pin_hashes_are_peppered_with_the_table_key(played: dict[str, Path]) -> None:
    with Journal.open_existing(played["midi"]) as journal:
        salt, stored, n, r, p = journal.query(
            "SELECT salt, pin_hash, scrypt_n, scrypt_r, scrypt_p FROM staff WHERE staff_id = ?",
            (MIDI_CROUPIER.staff_id,),
        )[0]
        pepper = journal.pin_pepper
    raw_hash = _scrypt(MIDI_CROUPIER.pin, salt, n, r, p)
    # What the database alone lets one compute for a guess does not match what is stored ...
    assert stored != raw_hash and raw_hash not in stored
    # ... without the pepper, which comes from the key file.
    assert pepper is not None
    assert stored == PEPPERED + hmac.new(pepper, raw_hash, hashlib.sha256).digest()


# --- journals of older row formats: refused; converted once by ``journal upgrade`` -----------


def _legacy(tmp_path: Path) -> Path:
    """The older fixture (row format 1, a plain SHA-256 chain, no key: what a forger without the
    key can write) where a table's journal is."""
    path = tmp_path / "legacy.sqlite3"
    shutil.copy(LEGACY, path)
    return path


@pytest.fixture
def upgrade_cli(monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``midi-tui journal upgrade --by sup1`` on a file, the PIN typed on stdin: (exit, out, err)."""
    from midi_tui.cli import main

    def run(path: Path, pin: str, *extra: str) -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(f"{pin}\n"))
        code = main(["--lang", "en", "journal", "upgrade", "--db", str(path), "--by", "sup1", *extra])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_an_older_format_journal_is_opened_by_no_console_and_no_tool(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The downgrade of issue 29 §3: a history rewritten as a format-1 file without a key was
    opened, keyed afresh and verified «intact». Now the console and every tool refuse it, exit 2,
    and nothing is written (no key made)."""
    from midi_tui.cli import main

    path = _legacy(tmp_path)
    before = path.read_bytes()
    for opened in (lambda: Journal(path, MIDI_ID, "midi"), lambda: Journal.open_existing(path)):
        with pytest.raises(JournalError, match="formato 1, anterior al actual"):
            opened()
    for argv in (["--db", str(path)], ["journal", "verify", "--db", str(path)], ["journal", "recall", "--db", str(path)],
                 ["journal", "anchor", "--db", str(path)], ["staff", "--db", str(path), "list"]):
        assert main(["--lang", "en", *argv]) == 2, argv
        _, err = capsys.readouterr()
        assert "row format 1, older than the current one (5)" in err and "journal upgrade" in err, argv
        assert "Traceback" not in err
    assert not key_path(path).exists() and path.read_bytes() == before


def test_an_older_journal_upgrades_once_verifies_and_folds_to_the_same_state(tmp_path: Path,
                                                                             upgrade_cli: Callable[..., Any]) -> None:
    from shared.midi.table import MidiTable

    path = _legacy(tmp_path)
    with sqlite3.connect(path) as conn:
        old_count = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    code, out, err = upgrade_cli(path, "4321")
    assert code == 0, err
    assert f"converted from format 1 to 5, {old_count} entries" in out
    assert "never had a table key" in out  # its history is only as good as its folder
    # The old file is kept aside, the new one owner-only with a key of its own.
    assert (tmp_path / "legacy.sqlite3.format-1").exists() and mode(path) == 0o600 and mode(key_path(path)) == 0o600
    with Journal.open_existing(path) as journal:
        # The old entries, the credentials of the staff rows it kept, and the conversion's record.
        assert journal.verify().ok and journal.last_seq == old_count + 2
        assert journal.event(old_count + 1).type == "staff_credentials"  # type: ignore[union-attr]
        record = journal.event(old_count + 2)
        old_entries = list(journal.events())[:old_count]
    assert record is not None and record.type == "journal_upgraded" and record.staff_id == "sup1"
    assert record.payload["old_head"].endswith(f":{old_count}")
    assert record.payload["new_head"] == f"{old_entries[-1].hash}:{old_count}"
    assert record.payload["kept_as"] == "legacy.sqlite3.format-1"
    # Today's engine folds it: the open coup came back; the old PIN hashes sign in (peppered now).
    journal = Journal(path, MIDI_ID, "midi")
    staff = StaffRegistry(journal)
    table = MidiTable(journal, staff)
    assert table.recovered and table.applied_seq == old_count + 2
    assert table.shift.verify_confirm_on_duty(MIDI_CROUPIER).staff_id == MIDI_CROUPIER.staff_id
    [(stored,)] = journal.query("SELECT pin_hash FROM staff WHERE staff_id = ?", (MIDI_CROUPIER.staff_id,))
    assert stored[:1] == PEPPERED and len(stored) == HASH_BYTES + 1
    with pytest.raises(InputError, match="caja"):  # a journal of before trays: its bets wait for a tray now
        table.play.place_bet(2, "banca", 20)
    journal.close()
    # Once: a file of the current format has nothing to convert.
    code, _, err = upgrade_cli(path, "4321")
    assert code == 2 and "already in the current format" in err


def test_an_upgrade_is_refused_for_a_damaged_file_a_wrong_pin_or_another_anchor(
        tmp_path: Path, upgrade_cli: Callable[..., Any]) -> None:
    """Converting a broken chain would bless it: verify first (exit 1), and a wrong PIN or a head
    that is not the anchored one converts nothing (the old file as it was, nothing left beside)."""
    path = _legacy(tmp_path)
    code, _, wrong_pin = upgrade_cli(path, "9999")
    assert code == 2 and "wrong ID or PIN" in wrong_pin
    code, _, other = upgrade_cli(path, "4321", "--anchor", f"{'0' * 64}:3")
    assert code == 1 and "is not the anchor's" in other
    conn = raw(path)
    conn.execute("UPDATE events SET ts = '2020-01-01T00:00:00+00:00' WHERE seq = 4")
    conn.close()
    before = path.read_bytes()
    code, _, damaged = upgrade_cli(path, "4321")
    assert code == 1 and "chain broken at entry #4" in damaged, damaged
    assert "Traceback" not in wrong_pin + other + damaged
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["legacy.sqlite3", "legacy.sqlite3.lock"]


@pytest.mark.parametrize("where", ["first half", "second half", "nowhere"])
def test_verify_in_two_processes_finds_the_same_first_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               where: str) -> None:
    """A long file is walked by two processes, each half from its stored start hash: an edit in
    either half is reported at its entry, as one process reports it, and a snapshot and the
    head in the second half are still checked."""
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    for n in range(40):
        type_ = "round_closed" if n % 4 == 3 else "bet_placed"  # each round's close is a checkpoint
        journal.append(type_, {"box": n % 7, "amount": str(n)}, round_id=n // 4 + 1, actor=None)
    journal.save_snapshot(35, {"state": "at 35"})
    journal.close()
    target = {"first half": 7, "second half": 31, "nowhere": None}[where]
    if target is not None:
        conn = sqlite3.connect(journal.path, isolation_level=None)
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET round_id = 99 WHERE seq = ?", (target,))
        conn.close()
    one = Journal.open_existing(journal.path).verify()
    monkeypatch.setattr(verify_module, "PARALLEL_FROM", 10)
    pools = []
    pool = verify_module._second_process
    monkeypatch.setattr(verify_module, "_second_process", lambda: pools.append(1) or pool())
    two = Journal.open_existing(journal.path).verify()
    assert two == one and len(pools) == 1
    assert (two.ok, two.first_bad_seq, two.checked) == (target is None, target, 40 if target is None else target - 1)


def test_verify_walks_both_halves_itself_when_no_second_process_can_run(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A program that cannot start the second process (e.g. a script without a main guard under
    spawn) still gets its verify: the same report, not a traceback."""
    journal = Journal(tmp_path / "table.sqlite3", "T1", "midi")
    for n in range(40):
        journal.append("round_closed" if n % 4 == 3 else "bet_placed", {"n": n}, round_id=n // 4 + 1, actor=None)
    journal.close()
    conn = sqlite3.connect(journal.path, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET round_id = 99 WHERE seq = 33")
    conn.close()

    class Broken:
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def __enter__(self) -> Broken:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def submit(self, *args: object) -> concurrent.futures.Future:
            future: concurrent.futures.Future = concurrent.futures.Future()
            future.set_exception(BrokenProcessPool("the child could not start"))
            return future

    one = Journal.open_existing(journal.path).verify()
    monkeypatch.setattr(verify_module, "PARALLEL_FROM", 10)
    monkeypatch.setattr(verify_module, "_second_process", Broken)
    assert Journal.open_existing(journal.path).verify() == one and one.first_bad_seq == 33


# --- the meter file (§2) ---------------------------------------------------------------------


def test_a_meter_file_edited_beside_the_journal_stops_the_table(tmp_path: Path) -> None:
    """Issue 29 §2: the meter file raised from 5,004 to 999,999 was trusted, and the next royal
    paid 1,000,001.5. A table's own meter (no Carrusel) is checked at start against what its
    journal says it holds."""
    from madero_helpers import CRO, OPENING, SUP, make_staff

    from shared.madero.config import MaderoTableConfig
    from shared.madero.meter import MeterDiffers
    from shared.madero.table import MaderoTable

    config = MaderoTableConfig.from_mapping(dict(table_id="MPB-01", minimum=10, maximum=500,
                                                 jackpot_mode="progressive", contribution_percent=20))
    path, meters = tmp_path / "madero.sqlite3", tmp_path / "meters.sqlite3"
    make_staff(path, config.table_id)

    def start() -> MaderoTable:
        journal = Journal(path, config.table_id, "madero")
        try:
            return MaderoTable(journal, StaffRegistry(journal), config=config, meter_store=SqliteMeterStore(meters))
        except BaseException:
            journal.close()
            raise

    table = start()
    table.shift.open(CRO)
    table.tray.open(OPENING, CRO, SUP)
    _madero_round(table, 10, ["4d", "5c"], jackpot=5)
    held = table.carrusel.reading().own  # type: ignore[union-attr]
    assert held == config.seed + 1  # the round's contribution (20 % of 5 credits), as journaled
    table.journal.close()
    start().journal.close()  # as it was: the table starts
    with sqlite3.connect(meters) as conn:
        conn.execute("UPDATE meters SET value = '999999' WHERE meter_id = ?", (config.table_id,))
    with pytest.raises(MeterDiffers) as info:
        start()
    said = info.value.message("es")
    assert "999999" in said.replace(".", "").replace(",", "") and "llame a un supervisor" in said
    assert Journal(path, config.table_id, "madero").close() is None  # the refused start let its journal go


def test_journals_of_formats_3_and_4_upgrade_to_the_same_history(tmp_path: Path) -> None:
    """tests/data/midi-format3 and -format4: the same play (three coups and one open) written by
    the code of 7d7d4e2 in row formats 3 and 4. Each converts, verifies, and reads back the
    same entries; the open coup comes back."""
    from fixture_journals import upgraded

    from shared.midi.table import MidiTable

    histories = []
    for name in ("midi-format3", "midi-format4"):
        path = upgraded(name, tmp_path)
        with Journal(path, MIDI_ID, "midi") as journal:
            assert journal.verify().ok
            table = MidiTable(journal, StaffRegistry(journal))
            assert table.recovered and table.round_open and table.applied_seq == journal.last_seq == 39
            histories.append([(e.seq, e.type, e.staff_id, e.role, e.payload) for e in journal.events()][:37])
        path.unlink()
    assert histories[0] == histories[1]
    assert any(entry[4].get("name") == "Ciro Ñandú" for entry in histories[0])
