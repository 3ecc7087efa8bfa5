"""Least privilege on the Carrusel's server (issue 27 §5): each table connects as its own login
of the table role and the pit as the pit role (``shared.madero.carrusel_roles``); a table plays
and claims its prizes, and cannot write another table's rows; the pit only reads."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from shared.anchor import Head
from shared.madero.meter import MeterUnavailable
from shared.madero.meter_pg import PostgresMeterStore
from shared.madero.pit import CarruselServer
from tests.madero_helpers import live_table
from tests.pg_helpers import carrusel_roles, pg_url
from tests.test_carrusel_pg import assert_books_balance, server_rows, table_config
from tests.test_madero_meter_faults import play_to_settlement

__all__ = ["pg_url"]  # the fixture

D = Decimal
TABLES = ["MPB-01", "MPB-02", "MPB-05"]


@pytest.fixture
def logins(pg_url):
    with carrusel_roles(pg_url, TABLES) as urls:
        for table_id, carrusel in (("MPB-01", "CARR"), ("MPB-02", "CARR"), ("MPB-05", "SALA-B")):
            store = PostgresMeterStore(urls[table_id])  # each registers its own meter, as itself
            store.register(table_id, D(5000), carrusel)
            store.contribute(table_id, D(100))
            store.close()
        yield urls


def test_a_table_plays_and_claims_a_royal_as_its_own_login(pg_url, logins, tmp_path: Path):
    t = live_table(tmp_path, table_config("MPB-01"), meter_store=PostgresMeterStore(logins["MPB-01"]),
                   draw_rng=random.Random(1))
    play_to_settlement(t, "Ah Kh")
    t.carrusel.claim_prize()
    t.play.confirm_settlement()
    settlement = t.last_settlement
    assert settlement.meter.royal_prize == D(10200) + settlement.meter.contribution  # its Carrusel, not SALA-B
    t.journal.close()
    t.carrusel.store.close()
    # the royal restarted the linked meter it may write, and left the other Carrusel's alone
    assert server_rows(pg_url, "SELECT meter_id, value FROM meters ORDER BY meter_id") == [
        ("MPB-01", D(5000)), ("MPB-02", D(5000)), ("MPB-05", D(5100))]
    assert server_rows(pg_url, "SELECT table_id FROM table_heads") == [("MPB-01",)]
    assert_books_balance(pg_url)


@pytest.mark.parametrize("sql", [
    "INSERT INTO table_heads (table_id, carrusel_id, head_hash, entry_count) VALUES ('MPB-02', 'CARR', 'x', 1)",
    "INSERT INTO settlements (key, meter_id, carrusel_id) VALUES ('MPB-02:1:x', 'MPB-02', 'CARR')",
    "INSERT INTO movements (key, meter_id, carrusel_id, kind, amount, value_after) "
    "VALUES ('k', 'MPB-05', 'SALA-B', 'contribution', 1, 1)",
    "INSERT INTO meters (meter_id, carrusel_id, seed, value) VALUES ('MPB-77', 'CARR', 1, 1)",
    "INSERT INTO table_identities (table_id, journal_id, terminal) VALUES ('MPB-02', 'x', 'y')",
    "DELETE FROM movements",
    "UPDATE carrusel_schema SET version = 0",
    "CREATE TABLE intruder (x int)",
])
def test_a_table_cannot_write_another_tables_rows(logins, sql):
    with psycopg.connect(logins["MPB-01"], autocommit=True) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(sql)


def test_what_a_table_may_not_see_it_cannot_change(pg_url, logins):
    with psycopg.connect(logins["MPB-01"], autocommit=True) as conn:
        assert conn.execute("SELECT meter_id FROM meters ORDER BY meter_id").fetchall() == [("MPB-01",), ("MPB-02",)]
        assert conn.execute("UPDATE meters SET value = 0 WHERE meter_id = 'MPB-05'").rowcount == 0
        assert conn.execute("UPDATE settlements SET reading = NULL WHERE meter_id = 'MPB-02'").rowcount == 0
        assert conn.execute("SELECT count(*) FROM movements WHERE carrusel_id = 'SALA-B'").fetchone() == (0,)
    assert server_rows(pg_url, "SELECT value FROM meters WHERE meter_id = 'MPB-05'") == [(D(5100),)]
    # through the store too: another table's head is refused, and named (no traceback)
    store = PostgresMeterStore(logins["MPB-01"])
    store.register("MPB-01", D(5000), "CARR")
    with pytest.raises(MeterUnavailable) as refused:
        store.write_head("MPB-02", Head("f" * 64, 1, None, None))
    assert "row-level security" in refused.value.message("en")
    store.close()


def test_the_pit_reads_every_carrusel_and_writes_nothing(logins):
    with CarruselServer(logins["pit"]) as pit:
        assert pit.carrusel_ids() == ["CARR", "SALA-B"]
        assert pit.view("CARR", datetime.now(UTC)).jackpot == D(10200)
    with psycopg.connect(logins["pit"], autocommit=True) as conn:
        for sql in ("UPDATE meters SET value = 0", "DELETE FROM table_heads",
                    "INSERT INTO table_heads (table_id, carrusel_id, head_hash, entry_count) VALUES ('x', 'x', 'x', 1)"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql)
