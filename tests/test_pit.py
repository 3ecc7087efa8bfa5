"""The Carrusel server read by the supervisor (issue 17): ``journal verify --server`` and ``pit``.

Each test fills a schema of its own (``tests.pg_helpers``: skipped without a server, failed
under ``CI``), created by the Carrusel store itself.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from madero_tui.cli import main
from shared.journal import Journal
from shared.madero.meter_pg import PostgresMeterStore
from shared.madero.pit import CarruselView, PitTable, Prize
from shared.redact import redact
from pg_helpers import pg_url

__all__ = ["pg_url"]  # the fixture

UNREACHABLE = "postgresql://postgres:hunter2@127.0.0.1:1/test?connect_timeout=2"


@pytest.fixture
def server(pg_url: str) -> Iterator[tuple[str, object]]:
    """(the URL of a fresh schema holding the Carrusel tables, a connection to it)."""
    import psycopg

    PostgresMeterStore(pg_url)._connect().close()  # creates the tables, as a first table would
    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield pg_url, conn


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- journal verify --server -----------------------------------------------------------------


def _journal(path: Path, notes: range) -> Path:
    with Journal(path, "MESA-01", "madero") as journal:
        for n in notes:
            journal.append("note", {"n": n}, round_id=0, actor=None)
    return path


def _write_head(conn, path: Path) -> tuple[str, int]:
    with Journal.open_existing(path) as journal:
        digest, count = journal.anchor()
    conn.execute("INSERT INTO table_heads VALUES ('MESA-01', 'SALA-A', %s, %s, 7, 'ana', false, now())",
                 (digest, count))
    return digest, count


def _rolled_back(conn, tmp_path: Path) -> tuple[Path, str, int]:
    """A journal that wrote its head to the server after 3 more entries, then was put back to an
    older copy (consistent in itself: only the server's head shows the cut); and that head."""
    path = _journal(tmp_path / "mesa.sqlite3", range(3))
    older = shutil.copy(path, tmp_path / "older.sqlite3")
    _journal(path, range(3, 6))
    digest, count = _write_head(conn, path)
    shutil.copy(older, path)
    return path, digest, count


def test_verify_server_accepts_a_journal_holding_the_written_head(server, tmp_path: Path, capsys) -> None:
    url, conn = server
    path = _journal(tmp_path / "mesa.sqlite3", range(3))
    digest, count = _write_head(conn, path)
    _journal(path, range(3, 5))  # rounds settled since: the head stays in place
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--lang", "en")
    assert code == 0
    assert "matches the head the table wrote to the server" in out and f"entry #{count}, {digest}" in out
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    assert data["server"]["entries"] == count and data["server"]["hash"] == digest
    assert data["server"]["problem"] is None and datetime.fromisoformat(data["server"]["updated_at"]).tzinfo


@pytest.mark.parametrize(("lang", "said"), [("es", "diario truncado"), ("en", "journal truncated")])
def test_verify_server_reports_a_truncated_journal(server, tmp_path: Path, capsys, lang: str, said: str) -> None:
    url, conn = server
    path, digest, count = _rolled_back(conn, tmp_path)
    assert cli(capsys, "journal", "verify", "--db", str(path))[0] == 0
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--lang", lang)
    assert code == 1
    assert said in out and f"#{count - 3}" in out and f"#{count} {digest}" in out
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["server"]["problem"] == "truncated"


@pytest.mark.parametrize(("lang", "said"), [("es", "diario reescrito"), ("en", "journal rewritten")])
def test_verify_server_reports_a_rewritten_journal(server, tmp_path: Path, capsys, lang: str, said: str) -> None:
    url, conn = server
    path, digest, count = _rolled_back(conn, tmp_path)
    _journal(path, range(-6, -1))  # another history, written with the key, grown past the head's place
    with Journal.open_existing(path) as journal:
        found = journal.event(count).hash
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--lang", lang)
    assert code == 1
    assert said in out and f"#{count}" in out and digest in out and found in out
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--json")
    assert code == 1 and json.loads(out)["server"]["problem"] == "rewritten"


def test_verify_server_without_a_head_of_the_table(server, tmp_path: Path, capsys) -> None:
    url, _ = server
    path = _journal(tmp_path / "mesa.sqlite3", range(2))
    code, out, _ = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--lang", "en")
    assert code == 2 and "holds no head of table MESA-01" in out


@pytest.mark.parametrize("lang", ["es", "en"])
def test_verify_server_unreachable_says_so_without_the_password(tmp_path: Path, capsys, lang: str) -> None:
    path = _journal(tmp_path / "mesa.sqlite3", range(2))
    code, out, err = cli(capsys, "journal", "verify", "--db", str(path), "--server", UNREACHABLE, "--lang", lang)
    assert code == 3 and out == ""
    assert ("no se puede consultar" if lang == "es" else "cannot query") in err
    assert "postgres:***@127.0.0.1:1" in err and "hunter2" not in err and "Traceback" not in err


def test_verify_server_on_a_schema_without_table_heads(server, tmp_path: Path, capsys) -> None:
    url, conn = server
    conn.execute("DROP TABLE table_heads")
    path = _journal(tmp_path / "mesa.sqlite3", range(2))
    code, _, err = cli(capsys, "journal", "verify", "--db", str(path), "--server", url, "--lang", "en")
    assert code == 3 and "holds no table heads (table_heads" in err


# --- pit -------------------------------------------------------------------------------------


def _fill(conn) -> datetime:
    """SALA-A: three tables (one never settled, one on the §48 fixed table, one silent for an
    hour), two prizes; SALA-B: one table; and a table of its own (a Carrusel of one)."""
    now = datetime.now(UTC)
    conn.execute("""INSERT INTO meters VALUES ('MESA-01', 'SALA-A', 1000, 1500.50), ('MESA-02', 'SALA-A', 1000, 2250),
                    ('MESA-03', 'SALA-A', 1000, 1000), ('MESA-09', 'SALA-B', 500, 800), ('MESA-10', 'MESA-10', 500, 900)""")
    conn.execute("INSERT INTO table_heads VALUES ('MESA-01', 'SALA-A', %s, 40, 12, 'ana', false, %s), "
                 "('MESA-02', 'SALA-A', %s, 90, 31, 'beto', true, %s), ('MESA-09', 'SALA-B', %s, 5, 2, 'eva', false, %s)",
                 ("a" * 64, now - timedelta(seconds=20), "b" * 64, now - timedelta(hours=1), "c" * 64, now))
    # (key, meter, carrusel, kind, signed amount, round, at, prize paid): a straight flush moves
    # every linked meter, and only the paying table's row carries the prize.
    sf_at, royal_at = now - timedelta(minutes=70), now - timedelta(days=2)
    rows = [("MESA-01:11:h:contribution", "MESA-01", "SALA-A", "contribution", "12.25", 11, now, None),
            ("MESA-01:12:h:contribution", "MESA-01", "SALA-A", "contribution", "1234.25", 12, now, None),
            ("MESA-01:3:h:contribution", "MESA-01", "SALA-A", "contribution", "99", 3, now - timedelta(days=1), None),
            ("MESA-02:30:h:contribution", "MESA-02", "SALA-A", "contribution", "40", 30, now, None),
            ("MESA-02:30:h:straight_flush", "MESA-02", "SALA-A", "straight_flush", "-200.40", 30, sf_at, "475.40"),
            ("MESA-02:30:h:straight_flush:MESA-01", "MESA-01", "SALA-A", "straight_flush", "-275", 30, sf_at, None),
            ("MESA-01:5:h:royal", "MESA-01", "SALA-A", "royal", "-3700", 5, royal_at, "4700"),
            ("MESA-01:5:h:reset:MESA-02", "MESA-02", "SALA-A", "reset", "-1000", 5, royal_at, None),
            ("MESA-09:2:h:contribution", "MESA-09", "SALA-B", "contribution", "7", 2, now, None)]
    for row in rows:
        conn.execute("INSERT INTO movements (key, meter_id, carrusel_id, kind, amount, value_after, round_id, at, prize) "
                     "VALUES (%s, %s, %s, %s, %s, 0, %s, %s, %s)", row)
    return now


def test_pit_json_gives_each_linked_table_the_jackpot_and_its_prizes(server, capsys) -> None:
    url, conn = server
    _fill(conn)
    code, out, err = cli(capsys, "pit", "--server", url, "--carrusel", "SALA-A", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["online_minutes"] == 1
    (sala,) = data["carrusels"]
    assert sala["carrusel_id"] == "SALA-A" and Decimal(sala["jackpot"]) == Decimal("4750.50")
    tables = {table["table_id"]: table for table in sala["tables"]}
    assert list(tables) == ["MESA-01", "MESA-02", "MESA-03"]
    assert {key: tables["MESA-01"][key] for key in ("online", "last_round", "croupier", "fallback")} == {
        "online": True, "last_round": 12, "croupier": "ana", "fallback": False}
    # Yesterday's contribution is not today's.
    assert Decimal(tables["MESA-01"]["contributions_today"]) == Decimal("1246.50")
    assert tables["MESA-02"]["online"] is False and tables["MESA-02"]["fallback"] is True
    assert tables["MESA-02"]["fixed_since"] == tables["MESA-02"]["updated_at"]  # on §48 since it was last heard
    assert Decimal(tables["MESA-02"]["contributions_today"]) == 40
    assert tables["MESA-03"] == {"table_id": "MESA-03", "meter": "1000", "online": False, "last_round": None,
                                 "croupier": None, "fallback": False, "updated_at": None, "fixed_since": None,
                                 "contributions_today": "0"}
    assert [(p["kind"], p["table_id"], p["round_id"], Decimal(p["amount"])) for p in sala["prizes"]] == [
        ("straight_flush", "MESA-02", 30, Decimal("475.40")), ("royal", "MESA-01", 5, Decimal(4700))]


def test_pit_without_carrusel_shows_every_carrusel(server, capsys) -> None:
    url, conn = server
    _fill(conn)
    code, out, _ = cli(capsys, "pit", "--server", url, "--json")
    assert code == 0
    assert [sala["carrusel_id"] for sala in json.loads(out)["carrusels"]] == ["MESA-10", "SALA-A", "SALA-B"]
    code, out, _ = cli(capsys, "pit", "--server", url, "--online-minutes", "90", "--json")
    (_, sala_a, _) = json.loads(out)["carrusels"]
    assert all(table["online"] for table in sala_a["tables"] if table["updated_at"])


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ["pozo enlazado 4.750,5", "en línea", "sin señal", "tabla fija desde", "1.246,5", "Escalera de color",
            "Escalera real de color", "4.700", "nunca"]),
    ("en", ["linked jackpot 4,750.5", "online", "offline", "fixed table since", "1,246.5", "Straight flush",
            "Royal flush", "4,700", "never"]),
])
def test_pit_text_in_both_languages(server, capsys, lang: str, words: list[str]) -> None:
    url, conn = server
    _fill(conn)
    code, out, _ = cli(capsys, "pit", "--server", url, "--carrusel", "SALA-A", "--lang", lang)
    assert code == 0
    for word in words:
        assert word in out, word
    row = next(line for line in out.splitlines() if line.startswith("MESA-02"))
    assert all(word in row for word in words[2:4])  # offline, on the fixed table
    assert "MESA-09" not in out and "MESA-10" not in out


def test_the_pit_says_since_when_a_table_is_on_the_fixed_table_and_when_it_was_heard_from(server, capsys) -> None:
    """Issue 27 §6: a table whose link was down showed «en línea» and not on the fixed table for
    up to 5 minutes while it settled on §48. A console now writes its head every 10 s: a table
    silent past the online window has been on §48 since it was last heard from; one that
    reported §48 says since when."""
    url, conn = server
    now = datetime.now(UTC).replace(microsecond=0)
    conn.execute("INSERT INTO meters VALUES ('MESA-05', 'SALA-C', 1000, 1000), ('MESA-06', 'SALA-C', 1000, 1000), "
                 "('MESA-07', 'SALA-C', 1000, 1000)")
    silent, reported = now - timedelta(minutes=3), now - timedelta(minutes=42)
    conn.execute("INSERT INTO table_heads (table_id, carrusel_id, head_hash, entry_count, fallback, updated_at, "
                 "fallback_since) VALUES ('MESA-05', 'SALA-C', 'a', 1, false, %s, NULL), "
                 "('MESA-06', 'SALA-C', 'b', 1, true, %s, %s), ('MESA-07', 'SALA-C', 'c', 1, false, %s, NULL)",
                 (silent, now - timedelta(seconds=5), reported, now - timedelta(seconds=5)))
    code, out, _ = cli(capsys, "pit", "--server", url, "--carrusel", "SALA-C")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("MESA-")}
    local = lambda moment: moment.astimezone().strftime("%H:%M")  # noqa: E731
    assert "sin señal" in rows["MESA-05"] and f"tabla fija desde {local(silent)}" in rows["MESA-05"]
    assert rows["MESA-05"].endswith(silent.astimezone().strftime("%d/%m %H:%M:%S"))  # when it was last heard from
    assert "en línea" in rows["MESA-06"] and f"tabla fija desde {local(reported)}" in rows["MESA-06"]
    assert "en línea" in rows["MESA-07"] and "tabla fija desde" not in rows["MESA-07"]


def test_pit_unknown_carrusel_and_empty_server(server, capsys) -> None:
    url, conn = server
    code, out, err = cli(capsys, "pit", "--server", url, "--lang", "en")
    assert code == 0 and "no Carrusel" in out
    _fill(conn)
    code, out, err = cli(capsys, "pit", "--server", url, "--carrusel", "SALA-Z", "--lang", "en")
    assert code == 2 and out == "" and "no table linked to Carrusel SALA-Z" in err


@pytest.mark.parametrize("lang", ["es", "en"])
def test_pit_unreachable_server(capsys, lang: str) -> None:
    code, out, err = cli(capsys, "pit", "--server", UNREACHABLE, "--lang", lang)
    assert code == 3 and out == ""
    assert "hunter2" not in err and "***" in err and "Traceback" not in err


def test_pit_needs_a_server(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MADERO_CARRUSEL_URL", raising=False)
    code, _, err = cli(capsys, "pit", "--lang", "en")
    assert code == 2 and "MADERO_CARRUSEL_URL" in err


# --- the password is never shown -------------------------------------------------------------


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql://pit:s3cr%40t@db.casino/carrusel", "postgresql://pit:***@db.casino/carrusel"),
    ("postgres://pit@db/c?password=abc&options=-csearch_path%3Dx", "postgres://pit@db/c?password=***&options=-csearch_path%3Dx"),
    ("host=db password='a b' dbname=c", "host=db password=*** dbname=c"),
    ("host=db dbname=c", "host=db dbname=c"),
])
def test_redact_masks_the_password_of_every_form(url: str, shown: str) -> None:
    assert redact(url) == shown


@pytest.mark.parametrize("url", [
    "postgresql://pit:a b@db/c", "postgresql://pit:a\tb@db/c", "postgresql://pit:a%20b@db/c",
    "postgresql://pit:a%0Ab@db/c", "postgresql://pit@db/c?password=a%09b", "host=db password='a\nb' dbname=c",
    "host=db password='a\\' b' dbname=c",
], ids=["space", "tab", "encoded_space", "encoded_newline", "query_tab", "keyword_newline", "keyword_quote"])
def test_redact_masks_a_password_whatever_it_holds(url: str) -> None:
    """Issue 27 §7: a password holding a space, a tab or a line feed was printed in clear."""
    from psycopg.conninfo import conninfo_to_dict

    with contextlib.suppress(psycopg.ProgrammingError):  # libpq refuses a URL with a raw space
        password = conninfo_to_dict(url)["password"]
        assert password not in redact(url) and password not in redact(f"failed: {password}", url)
    assert "b@" not in redact(url) and "'a" not in redact(url)


def test_redact_is_linear_in_the_length_of_the_text() -> None:
    """Masking a 60 KB address took 13.9 s (quadratic), on the console's thread at a settlement."""
    url = "postgresql://" + "a" * 60_000
    started = time.monotonic()
    redact(f"error: {url}", url)
    assert time.monotonic() - started < 1


def test_an_address_longer_than_any_real_one_is_refused(capsys) -> None:
    code, out, err = cli(capsys, "pit", "--server", "postgresql://" + "a" * 3000, "--lang", "en")
    assert code == 2 and out == "" and "longer than 2048" in err


def test_redact_masks_the_password_as_written_and_decoded_in_a_drivers_text() -> None:
    assert redact("bad: s3cr@t and s3cr%40t", "postgresql://pit:s3cr%40t@db/c") == "bad: *** and ***"


# --- the watch screen ------------------------------------------------------------------------


def _view() -> tuple[CarruselView, datetime]:
    now = datetime(2026, 11, 30, 21, 30, tzinfo=UTC)
    tables = (PitTable("MESA-01", Decimal("1500.50"), True, 12, "ana", False, now - timedelta(seconds=20),
                       Decimal("1246.50")),
              PitTable("MESA-02", Decimal(2250), False, 31, "beto", True, now - timedelta(hours=1), Decimal(40)),
              PitTable("MESA-03", Decimal(1000), False, None, None, False, None, Decimal(0)))
    prizes = (Prize("straight_flush", now - timedelta(minutes=70), "MESA-02", 30, Decimal("475.40")),
              Prize("royal", now - timedelta(days=2), "MESA-01", 5, Decimal(4700)))
    return CarruselView("SALA-A", Decimal("4750.50"), tables, prizes), now


@pytest.mark.parametrize("lang", ["es", "en"])
def test_pit_watch_screen(snap_compare, lang: str) -> None:
    from madero_tui.pit_app import PitApp

    view, now = _view()
    app = PitApp(lambda _now: view, "SALA-A", lang, UTC, 5, clock=lambda: now)

    async def read(pilot) -> None:  # the first read is done in a worker thread
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, run_before=read, terminal_size=(110, 30))


def test_pit_watch_keeps_the_figures_and_says_why_they_are_stale() -> None:
    import asyncio

    from madero_tui.pit_app import PitApp
    from shared.madero.pit import ServerUnavailable
    from shared.messages import Msg

    view, now = _view()
    answers: list[CarruselView | Exception] = [view]

    def fetch(_now: datetime) -> CarruselView:
        answer = answers[-1]
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def run() -> None:
        app = PitApp(fetch, "SALA-A", "en", UTC, 5, clock=lambda: now)
        async with app.run_test(size=(110, 30)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.query_one("#pit-tables").row_count == 3
            answers.append(ServerUnavailable(Msg.of("pit.unreachable", url="postgresql://db/c", reason="gone")))
            app.reload()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "cannot query the Carrusel server" in str(app.query_one("#pit-status").render())
            assert app.query_one("#pit-tables").row_count == 3

    asyncio.run(run())


def test_pit_watch_needs_one_carrusel(server, capsys) -> None:
    url, conn = server
    _fill(conn)
    code, out, err = cli(capsys, "pit", "--server", url, "--watch", "--lang", "en")
    assert code == 2 and out == "" and "several Carrusels (MESA-10, SALA-A, SALA-B)" in err


def test_pit_watch_waits_for_a_slow_read_instead_of_piling_up_reads() -> None:
    import asyncio
    import threading

    from madero_tui.pit_app import PitApp

    view, now = _view()
    release = threading.Event()
    calls: list[datetime] = []

    def fetch(at: datetime) -> CarruselView:
        calls.append(at)
        release.wait(5)
        return view

    async def run() -> None:
        app = PitApp(fetch, "SALA-A", "en", UTC, 5, clock=lambda: now)
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause(0.1)
            app._tick()
            app._tick()
            assert len(calls) == 1
            release.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.query_one("#pit-tables").row_count == 3
            app._tick()
            await app.workers.wait_for_complete()
            assert len(calls) == 2

    asyncio.run(run())


# --- what the server sends is input (issue 27 §3) -----------------------------------------------

ESCAPES = "\x1b[2J\x1b[5m\x1b]0;pwned\x07"
"""Clear the screen, blink, set the terminal's title: what a hostile row tried on pit --watch."""


def _controls(text: str) -> list[str]:
    return [ch for ch in text if not ch.isprintable() and ch != "\n"]


def test_hostile_text_in_server_rows_reaches_no_output_raw(server, capsys) -> None:
    url, conn = server
    now = _fill(conn)
    conn.execute("INSERT INTO meters VALUES (%s, 'SALA-A', 1000, 1000)", (f"MESA-{ESCAPES}",))
    conn.execute("INSERT INTO table_heads VALUES (%s, 'SALA-A', 'd', 1, 1, %s, false, %s)",
                 (f"MESA-{ESCAPES}", f"ana{ESCAPES}", now))
    for args in (("--lang", "en"), ("--json",), ("--carrusel", "SALA-A")):
        code, out, err = cli(capsys, "pit", "--server", url, *args)
        assert code == 0 and _controls(out + err) == [], args
        assert "\\u001b[2J" in out  # written out, for the supervisor to see what the row holds


@pytest.mark.parametrize(("row", "what"), [
    ("INSERT INTO movements (key, meter_id, carrusel_id, kind, amount, value_after, round_id, prize) "
     "VALUES ('x:1:h:jackpot', 'MESA-01', 'SALA-A', 'jackpot', -1, 0, 1, 1)", "a prize of an unknown kind"),
    ("INSERT INTO movements (key, meter_id, carrusel_id, kind, amount, value_after, round_id, prize) "
     "VALUES ('x:1:h:royal', 'MESA-01', 'SALA-A', 'royal', -1, 0, NULL, 1)", "a prize of no round"),
    ("UPDATE meters SET value = 'NaN' WHERE meter_id = 'MESA-02'", "a meter that is not a number"),
    ("INSERT INTO movements (key, meter_id, carrusel_id, kind, amount, value_after, round_id, prize) "
     "VALUES ('x:1:h:royal', E'\\x1b[2J', 'SALA-A', 'royal', -1, 0, 1, 'NaN')", "a hostile prize"),
], ids=["unknown_kind", "null_round", "nan_meter", "hostile_prize"])
def test_a_row_the_console_cannot_read_is_named_never_a_traceback(server, capsys, row: str, what: str) -> None:
    url, conn = server
    _fill(conn)
    conn.execute(row)
    for args in (("--lang", "en"), ("--json", "--lang", "en")):
        code, out, err = cli(capsys, "pit", "--server", url, "--carrusel", "SALA-A", *args)
        assert code == 3 and out == "" and "row the console cannot read" in err, what
        assert "Traceback" not in err and _controls(err) == [], what


def test_a_servers_error_text_reaches_the_table_printable(server) -> None:
    """A trigger's message (any terminal holding the credentials can plant one) came to the
    console's §48 banner raw."""
    from shared.madero.meter import MeterUnavailable

    url, conn = server
    conn.execute("CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS "
                 "$$ BEGIN RAISE EXCEPTION E'\\x1b[2J\\x1b]0;pwned\\x07 no'; END $$")
    conn.execute("CREATE TRIGGER boom BEFORE INSERT ON movements FOR EACH ROW EXECUTE FUNCTION boom()")
    store = PostgresMeterStore(url)
    with pytest.raises(MeterUnavailable) as refused:
        store.register("MESA-01", Decimal(1000), "SALA-A")
    for lang in ("es", "en"):
        said = refused.value.msg.render(lang)
        assert _controls(said) == [] and "\\u001b[2J" in said
    store.close()
