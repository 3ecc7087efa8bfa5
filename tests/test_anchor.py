"""Anchors kept elsewhere (issue 29): every live table with a server address writes its journal
head there at every round's and shift's close, and ``journal verify --server`` shows a journal
replaced or cut since. Each test fills a PostgreSQL schema of its own (``tests.pg_helpers``:
skipped without a server, failed under ``CI``)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from midi_helpers import SUPERVISOR, key_coup, live_table, open_live_shoe
from pg_helpers import pg_url
from tui_helpers import SIZE, aio

from madero_tui.app import make_app
from madero_tui.cli import main as madero_main
from midi_tui.cli import main as midi_main
from shared.anchor import AnchorWriter, Head, HeadServer, anchor_url
from shared.config import TableFile
from shared.errors import InputError
from shared.journal import Journal, key_path
from shared.madero.carrusel import carrusel_url
from shared.madero.config import MaderoTableConfig
from shared.madero.table import Phase
from shared.midi.table import MidiTable
from shared.staff import Credentials, StaffRegistry
from tests.test_carrusel_hang_tui import HangingProxy
from tests.test_madero_tui import keys, prepare_live_table
from tui_common.options import LaunchOptions

__all__ = ["pg_url"]  # the fixture

FIXED = MaderoTableConfig.from_mapping(dict(table_id="MPB-04", minimum=10, maximum=500))
FIXED_FILE = 'table_id = "MPB-04"\nminimum = 10\nmaximum = 500\n'
# Box 1: Ante 10, a royal flush on the flop (Ah Kh + Th Jh Qh); the croupier confirms the settlement.
ROUND = ("a", "10", "enter", "n", "v", "th", "jh", "qh", "p", "2c", "p", "3d", "4s", "4d", "ah", "kh")
UNREACHABLE = "postgresql://postgres:hunter2@127.0.0.1:1/test?connect_timeout=2"
PASSWORD = "s3cr3t-anchor"


def until(condition, seconds: float = 15) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "the anchor's writer did not get there in time"
        time.sleep(0.02)


def server_head(url: str, table_id: str) -> tuple[str, int] | None:
    with HeadServer(url) as server:
        head = server.head(table_id)
    return None if head is None else (head.head_hash, head.entry_count)


def anchored_midi(path: Path, url: str) -> MidiTable:
    table = live_table(path=path)
    table.anchor = AnchorWriter(url, table.config.table_id, table.journal.identity)
    open_live_shoe(table)
    return table


def coup(table: MidiTable) -> None:
    table.play.no_va_mas()
    key_coup(table, 4)
    table.play.settle()


def verify(main, path: Path, url: str, *more: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["journal", "verify", "--db", str(path), "--server", url, *more])
    return code, out.getvalue(), err.getvalue()


def test_a_midi_table_writes_its_head_at_every_coup_and_at_the_shift_close(tmp_path: Path, pg_url: str) -> None:
    table = anchored_midi(tmp_path / "midi.db", pg_url)
    assert table.anchor is not None
    assert table.anchor.written is None and table.anchor._thread is None  # nothing before a close
    for _ in range(2):
        coup(table)
        until(table.anchor.idle)
        assert server_head(pg_url, table.config.table_id) == table.journal.anchor()
    settled_at = table.journal.last_seq
    table.shift.close(SUPERVISOR)
    until(table.anchor.idle)
    assert server_head(pg_url, table.config.table_id) == table.journal.anchor()
    assert table.journal.last_seq > settled_at and table.anchor.failure is None
    table.anchor.close()
    table.journal.close()
    code, out, _ = verify(midi_main, tmp_path / "midi.db", pg_url, "--lang", "en")
    assert code == 0 and "matches the head the table wrote to the server" in out


def test_the_latest_head_wins_and_a_failed_write_is_told_once(tmp_path: Path, pg_url: str) -> None:
    table = live_table(path=tmp_path / "midi.db")
    writer = AnchorWriter(UNREACHABLE, table.config.table_id, table.journal.identity)
    told: list[str] = []
    writer.on_failure = lambda why: told.append(why.render("en"))
    open_live_shoe(table)
    table.anchor = writer
    for _ in range(3):
        coup(table)
    until(writer.idle)
    coup(table)  # the next close tries again, and fails again: nothing more is said
    until(writer.idle)
    assert len(told) == 1 and told[0].startswith("the journal's head could not be written to the server")
    assert "hunter2" not in told[0] and "postgres:***@127.0.0.1:1" in told[0]
    # the server answers again: the next close writes the latest head, and a later failure is told anew
    writer.url = pg_url
    coup(table)
    until(writer.idle)
    assert writer.failure is None and server_head(pg_url, table.config.table_id) == table.journal.anchor()
    assert writer._conn is not None
    writer._conn.close()  # the server goes away
    writer.url = UNREACHABLE
    coup(table)
    until(writer.idle)
    assert len(told) == 2
    writer.close()
    table.journal.close()


def test_a_head_older_than_the_one_its_journal_wrote_is_left_unwritten(tmp_path: Path, pg_url: str) -> None:
    """A full run saw the head a quitting console was still writing land after the next launch's
    newer one, and stay: the server's head then said the journal had been cut."""
    table = anchored_midi(tmp_path / "midi.db", pg_url)
    coup(table)
    assert table.anchor is not None
    until(table.anchor.idle)
    older = server_head(pg_url, table.config.table_id)
    coup(table)
    until(table.anchor.idle)
    newer = table.journal.anchor()
    assert older is not None and older[1] < newer[1] == server_head(pg_url, table.config.table_id)[1]
    table.anchor.submit(Head(older[0], older[1], None, None, False))  # the late write of the quitting console
    until(table.anchor.idle)
    assert table.anchor.failure is None and server_head(pg_url, table.config.table_id) == newer
    # another journal's head is still refused, whatever its count
    other = AnchorWriter(pg_url, table.config.table_id, "another journal")
    told: list[str] = []
    other.on_failure = lambda why: told.append(why.render("en"))
    other.submit(Head("f" * 64, newer[1] + 100, None, None, False))
    until(other.idle)
    assert told and server_head(pg_url, table.config.table_id) == newer
    other.close()
    table.anchor.close()
    table.journal.close()


def test_heads_submitted_while_one_is_being_written_leave_only_the_latest_waiting() -> None:
    writer = AnchorWriter("postgresql://nobody@127.0.0.1:1/none", "MESA-01", "journal")
    release, wrote = threading.Event(), []

    def write(head: Head) -> None:
        wrote.append(head)
        release.wait(10)

    writer._write = write  # type: ignore[method-assign]  # the server's side, held until released
    heads = [Head(f"{n:064x}", n, n, "cr1") for n in range(1, 5)]
    writer.submit(heads[0])
    until(lambda: wrote == heads[:1])
    for head in heads[1:]:
        writer.submit(head)  # returns at once: the writer is busy
    assert not writer.idle()
    release.set()
    until(writer.idle)
    assert wrote == [heads[0], heads[-1]] and writer.written == heads[-1]
    writer.close()


def test_a_journal_replaced_with_a_fresh_key_is_caught_and_cannot_overwrite_the_head(
        tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "midi.db"
    table = anchored_midi(path, pg_url)
    for _ in range(2):
        coup(table)
    assert table.anchor is not None
    until(table.anchor.idle)
    written = server_head(pg_url, table.config.table_id)
    assert written is not None
    table.anchor.close()
    table.journal.close()
    # The attacker's history: the journal and its key replaced together, longer than the head.
    path.unlink()
    key_path(path).unlink()
    forged = live_table(path=path)
    open_live_shoe(forged)
    while forged.journal.last_seq <= written[1]:
        coup(forged)
    # its console writes its head at the next close: the server keeps the true journal's
    forged.anchor = AnchorWriter(pg_url, forged.config.table_id, forged.journal.identity)
    coup(forged)
    until(forged.anchor.idle)
    assert server_head(pg_url, forged.config.table_id) == written
    failure = forged.anchor.failure
    assert failure is not None and failure.code == "anchor.other_journal"
    forged.anchor.close()
    forged.journal.close()
    for lang, said in (("es", "diario reescrito"), ("en", "journal rewritten")):
        code, out, _ = verify(midi_main, path, pg_url, "--lang", lang)
        assert code == 1 and said in out and f"#{written[1]}" in out and written[0] in out
    code, out, _ = verify(midi_main, path, pg_url, "--json")
    assert code == 1 and json.loads(out)["server"]["problem"] == "rewritten"


def test_a_journal_cut_back_to_an_older_copy_is_caught(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "midi.db"
    table = anchored_midi(path, pg_url)
    coup(table)
    assert table.anchor is not None
    table.anchor.close()  # as the console's quit does: its head may still land after the next launch's
    table.journal.close()
    shutil.copy(path, tmp_path / "older.db")  # the key stays: only the entries go back
    journal = Journal(path, table.config.table_id, "midi")
    table = MidiTable(journal, StaffRegistry(journal), config=table.config)
    table.anchor = AnchorWriter(pg_url, table.config.table_id, journal.identity)
    coup(table)
    until(table.anchor.idle)
    written = server_head(pg_url, table.config.table_id)
    assert written == journal.anchor()
    table.anchor.close()
    journal.close()
    shutil.copy(tmp_path / "older.db", path)
    code, out, _ = verify(midi_main, path, pg_url, "--lang", "en")
    assert code == 1 and "journal truncated" in out and f"#{written[1]} {written[0]}" in out


@pytest.mark.parametrize("main", [midi_main, madero_main])
def test_an_unreachable_server_exits_3_saying_so_without_the_password(tmp_path: Path, main) -> None:
    game = "midi" if main is midi_main else "madero"
    path = tmp_path / "mesa.db"
    with Journal(path, "MESA-01", game) as journal:
        journal.append("note", {"n": 1}, round_id=0, actor=None)
    for lang, said in (("es", "no se puede consultar el servidor"), ("en", "cannot query the server")):
        code, out, err = verify(main, path, UNREACHABLE, "--lang", lang)
        assert code == 3 and out == "" and said in err
        assert "postgres:***@127.0.0.1:1" in err and "hunter2" not in err and "Traceback" not in err


# --- the table file ----------------------------------------------------------------------------


def test_the_table_file_names_the_anchor_and_the_journal_never_keeps_it(tmp_path: Path) -> None:
    url = f"postgresql://mesa:{PASSWORD}@db.casino/anchors"
    table = tmp_path / "mesa.toml"
    table.write_text(FIXED_FILE + f'anchor_url = "{url}"\n', encoding="utf-8")
    assert anchor_url(TableFile.read(table)) == url and anchor_url(None) is None
    db = tmp_path / "mesa.db"
    prepare_live_table(db, FIXED)
    app = make_app(LaunchOptions(db=db, table=table))
    assert app.engine.anchor is not None and app.engine.anchor.url == url
    assert app.engine.config == FIXED  # the address is no table value
    app.engine.journal.close()
    raw = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("mesa.db*"))
    assert PASSWORD.encode() not in raw and b"anchor_url" not in raw


def test_a_midi_console_launched_with_an_anchor_address_writes_there_and_a_training_one_never(
        tmp_path: Path) -> None:
    from midi_tui.app import make_app as make_midi_app

    url = f"postgresql://mesa:{PASSWORD}@db.casino/anchors"
    table = tmp_path / "midi.toml"
    table.write_text(f'table_id = "MIDI-07"\nminimum = 10\nmaximum = 500\ntie_maximum = 50\nanchor_url = "{url}"\n',
                     encoding="utf-8")
    live = make_midi_app(LaunchOptions(db=tmp_path / "midi.db", table=table))
    assert live.engine.anchor is not None and live.engine.anchor.url == url
    assert live.engine.anchor.table_id == "MIDI-07" and live.engine.anchor.journal_id == live.engine.journal.identity
    live.engine.journal.close()
    training = make_midi_app(LaunchOptions(db=tmp_path / "train.db", table=table, training=True))
    assert training.engine.anchor is None
    training.engine.journal.close()


@pytest.mark.parametrize(("extra", "said"), [
    ("anchor_url = 5\n", "anchor_url: the address of the server that keeps the journal's head must be a text"),
    ('anchor_url = "http://db.casino"\n', "anchor_url: not a PostgreSQL address"),
    (f'anchor_url = "postgresql://{"a" * 3000}"\n', "anchor_url: the server's address is longer than 2048"),
])
def test_a_bad_anchor_address_is_refused_at_launch(tmp_path: Path, extra: str, said: str) -> None:
    table = tmp_path / "mesa.toml"
    table.write_text(FIXED_FILE + extra, encoding="utf-8")
    with pytest.raises(InputError) as refused:
        make_app(LaunchOptions(db=tmp_path / "mesa.db", table=table, lang="en"))
    assert refused.value.msg.render("en").startswith(said)


def test_a_launch_reads_its_table_file_once(tmp_path: Path, monkeypatch) -> None:
    """The table, its anchor server and its Carrusel server come from one reading of the file
    (a Madero launch read it three times: the table, the anchor's address, the Carrusel's)."""
    table = tmp_path / "mesa.toml"
    table.write_text(FIXED_FILE + 'anchor_url = "postgresql://db/a"\n', encoding="utf-8")
    db = tmp_path / "mesa.db"
    prepare_live_table(db, FIXED)
    reads = []
    read = TableFile.read
    monkeypatch.setattr(TableFile, "read", lambda path: reads.append(path) or read(path))
    app = make_app(LaunchOptions(db=db, table=table))
    app.engine.journal.close()
    assert reads == [table] and app.engine.anchor is not None


def test_a_carrusel_table_keeps_its_head_on_the_carrusel_server_only(tmp_path: Path) -> None:
    table = tmp_path / "mesa.toml"
    table.write_text('table_id = "MPB-02"\nminimum = 10\nmaximum = 500\njackpot_mode = "progressive"\n'
                     'contribution_percent = 50\ncarrusel_id = "CARR"\ncarrusel_url = "postgresql://db/c"\n'
                     'anchor_url = "postgresql://db/a"\n', encoding="utf-8")
    config = MaderoTableConfig.from_toml(table)
    with pytest.raises(InputError) as refused:
        carrusel_url(config, TableFile.read(table), {})
    assert refused.value.msg.render("en").startswith("anchor_url: Art. 12 §58: a Carrusel table keeps")


# --- the console ---------------------------------------------------------------------------------


def _through(proxy: HangingProxy, url: str) -> str:
    """``url`` through ``proxy``, with a password the server does not need (trust) but a driver's
    error might quote."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{parts.username}:{PASSWORD}@127.0.0.1:{proxy.port}"))


def _launch(tmp_path: Path, url: str):
    table = tmp_path / "mesa.toml"
    table.write_text(FIXED_FILE + f'anchor_url = "{url}"\n', encoding="utf-8")
    db = tmp_path / "mesa.db"
    prepare_live_table(db, FIXED)
    app = make_app(LaunchOptions(db=db, table=table), clock=lambda: "21:14")
    app.duty_confirmed = True
    return app


@aio
async def test_a_fixed_madero_table_writes_its_head_at_every_settlement_and_shift_close(
        tmp_path: Path, pg_url: str) -> None:
    app = _launch(tmp_path, pg_url)
    anchor = app.engine.anchor
    assert anchor is not None
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            await keys(pilot, *ROUND, "enter")
            assert app.engine.phase is Phase.IDLE
            until(anchor.idle)
            assert server_head(pg_url, "MPB-04") == app.engine.journal.anchor()
        app.engine.shift.close(Credentials("S1", "123456"))
        until(anchor.idle)
        assert server_head(pg_url, "MPB-04") == app.engine.journal.anchor()
        assert anchor.failure is None
    anchor.close()
    app.engine.journal.close()
    code, out, _ = verify(madero_main, tmp_path / "mesa.db", pg_url, "--lang", "en")
    assert code == 0 and "matches the head the table wrote to the server" in out


@aio
async def test_a_stalled_anchor_server_never_holds_the_settlement_and_is_told_once(
        tmp_path: Path, pg_url: str, monkeypatch) -> None:
    # A connection's timeout past the test's rounds: the write stays stuck until the proxy cuts it.
    monkeypatch.setattr("shared.anchor.CONNECT_TIMEOUT_S", 60)
    parts = urlsplit(pg_url)
    proxy = HangingProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    try:
        proxy.hang()
        app = _launch(tmp_path, _through(proxy, pg_url))
        anchor = app.engine.anchor
        assert anchor is not None
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await keys(pilot, *ROUND)
            assert app.engine.phase is Phase.SETTLEMENT
            started = time.monotonic()
            await keys(pilot, "enter")
            assert app.engine.phase is Phase.IDLE and time.monotonic() - started < 1.5
            assert not anchor.idle()  # its write waits on the silent server
            await keys(pilot, "a", "10", "enter")  # the next round opens meanwhile
            assert app.engine.round_open and app.engine.phase is Phase.BETS and not anchor.idle()
            proxy.cut()
            for _ in range(100):
                if anchor.idle() and list(app._notifications):
                    break
                await pilot.pause(0.1)
            told = [n.message for n in app._notifications]
            assert len(told) == 1 and told[0].startswith("no se pudo escribir la cabeza del diario en el servidor")
            assert PASSWORD not in told[0] and "***" in told[0]
            assert app.engine.round_open  # nothing of it reached the round or the journal
        for event in app.engine.journal.events():
            assert PASSWORD not in json.dumps(event.payload)
        anchor.close()
        app.engine.journal.close()
    finally:
        proxy.close()
