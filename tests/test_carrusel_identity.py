"""A table's identity on the Carrusel's server (issue 27 §4): a table id is one journal's, and
a table moves to another Carrusel or seed only by a supervisor's command, recorded on the
server and journaled at the table. Against the real server (``tests.pg_helpers``)."""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from tui_helpers import SIZE, aio

from madero_tui.app import make_app
from madero_tui.cli import main
from shared.journal import Journal
from shared.madero.meter import TableRefused
from shared.madero.meter_pg import PostgresMeterStore
from shared.madero.table import MaderoTable
from tests.madero_helpers import SUP, live_table, open_live
from tests.pg_helpers import pg_url
from tests.test_carrusel_pg import assert_books_balance, server_rows, table_config
from tui_common.options import LaunchOptions

__all__ = ["pg_url"]  # the fixture

D = Decimal
SEED = D(5000)


def first_terminal(tmp: Path, url: str, table_id: str = "MPB-01") -> MaderoTable:
    (tmp / "first").mkdir(exist_ok=True)
    return live_table(tmp / "first", table_config(table_id), meter_store=PostgresMeterStore(url),
                      draw_rng=random.Random(1))


def close(t: MaderoTable) -> None:
    t.journal.close()
    t.carrusel.store.close()


def test_a_second_terminal_with_the_same_table_id_is_refused_naming_the_first(pg_url, tmp_path):
    """Two terminals under one id shared one meter and overwrote each other's head, so
    ``journal verify --server`` said «history rewritten» of an intact journal."""
    first = first_terminal(tmp_path, pg_url)
    head = server_rows(pg_url, "SELECT head_hash FROM table_heads")
    other = Journal(tmp_path / "second.sqlite", "MPB-01", "madero")  # another journal, same id
    with pytest.raises(TableRefused) as refused:
        MaderoTable(other, config=table_config("MPB-01"), meter_store=PostgresMeterStore(pg_url))
    said = refused.value.message("es")
    assert "ya tiene la mesa MPB-01 con otro diario" in said and str(first.journal.path) in said
    assert server_rows(pg_url, "SELECT head_hash FROM table_heads") == head  # nothing of the second written
    other.close()
    close(first)
    again = open_live(tmp_path / "first" / "t.sqlite", table_config("MPB-01"), meter_store=PostgresMeterStore(pg_url))
    close(again)  # the first journal opens again: the id is its own


@aio
async def test_the_console_of_a_second_terminal_ends_at_its_first_trip_saying_why(pg_url, tmp_path):
    first = first_terminal(tmp_path, pg_url)
    db = tmp_path / "second.sqlite"
    Journal(db, "MPB-01", "madero").close()  # a journal of its own (staff's copies share the first's key)
    app = make_app(LaunchOptions(db=db), config=table_config("MPB-01"), meter_store=PostgresMeterStore(pg_url),
                   clock=lambda: "21:14")
    app.duty_confirmed = True
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            if not app.is_running:
                break
            await pilot.pause(0.05)
    assert app.return_code == 2 and app.engine.carrusel.refused is not None
    assert str(first.journal.path) in app.engine.carrusel.refused.message("es")
    app.engine.journal.close()
    close(first)


def _other_meter(url: str, carrusel: str, value: D) -> None:
    store = PostgresMeterStore(url)
    store.register("MPB-09", SEED, carrusel)
    store.contribute("MPB-09", value - SEED)
    store.close()


@pytest.mark.parametrize("keep", ["carried", "left"])
def test_a_changed_carrusel_is_refused_at_launch_until_a_supervisor_moves_the_table(pg_url, tmp_path, keep):
    _other_meter(pg_url, "CARR", D(6000))
    t = first_terminal(tmp_path, pg_url)
    t.carrusel.store.contribute("MPB-01", D(800))
    close(t)
    moved = table_config("MPB-01").with_changes(carrusel_id="SALA-B")
    path = tmp_path / "first" / "t.sqlite"
    journal = Journal(path, "MPB-01", "madero")
    with pytest.raises(TableRefused) as refused:
        MaderoTable(journal, config=moved, meter_store=PostgresMeterStore(pg_url))
    journal.close()  # (a launch closes it: tui_common.app.open_console)
    said = refused.value.message("es")
    assert "en el Carrusel CARR" in said and "dice SALA-B" in said and "madero-tui carrusel" in said
    assert server_rows(pg_url, "SELECT carrusel_id FROM meters WHERE meter_id = 'MPB-01'") == [("CARR",)]
    t = open_live(path, moved, meter_store=PostgresMeterStore(pg_url), reach_server_now=False)
    events = t.carrusel.change(SUP, keep, "pasa a la sala B")
    assert [e.type for e in events] == ["carrusel_changed"]
    assert (events[0].source, events[0].to, events[0].value) == ("CARR", "SALA-B", "5800")
    close(t)
    t = open_live(path, moved, meter_store=PostgresMeterStore(pg_url))  # the launch goes on now
    reading = t.carrusel.store.read("MPB-01")
    assert reading.others == ()  # alone in SALA-B
    if keep == "carried":
        assert reading.own == D(5800) and t.carrusel.store.read("MPB-09").own == D(6000)
    else:  # what it held above its seed stays with CARR
        assert reading.own == SEED and t.carrusel.store.read("MPB-09").own == D(6800)
    close(t)
    assert server_rows(pg_url, "SELECT table_id, from_carrusel, to_carrusel, value_kept, supervisor "
                               "FROM carrusel_changes") == [("MPB-01", "CARR", "SALA-B", keep, "SUP")]
    assert_books_balance(pg_url)


def test_a_changed_seed_is_refused_and_the_command_line_moves_it(pg_url, tmp_path, monkeypatch, capsys):
    t = first_terminal(tmp_path, pg_url)
    close(t)
    table = tmp_path / "mesa.toml"
    table.write_text('table_id = "MPB-01"\nminimum = 10\nmaximum = 500\njackpot_mode = "progressive"\n'
                     'contribution_percent = 50\nprogressive_seed = 8000\ncarrusel_id = "CARR"\n'
                     f'carrusel_url = "{pg_url}"\n', encoding="utf-8")
    db = tmp_path / "first" / "t.sqlite"
    assert main(["--db", str(db), "--table", str(table)]) == 2  # the launch refused, and why
    assert "pozo inicial 5000" in capsys.readouterr().err.replace(".", "")
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(f"{SUP.pin}\n"))
    code = main(["carrusel", "--table", str(table), "--db", str(db), "--by", "SUP", "--keep", "carried",
                 "--reason", "nuevo pozo inicial"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "Carrusel cambiado por el supervisor" in out.out
    assert server_rows(pg_url, "SELECT seed, value FROM meters") == [(D(8000), SEED)]
    journal = Journal(db, "MPB-01", "madero")
    assert journal.last_event_of("carrusel_changed").staff_id == "SUP"
    journal.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM carrusel_changes").fetchone() == (1,)
