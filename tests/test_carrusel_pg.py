"""The Carrusel on PostgreSQL (issue 17): the meter store against the real server."""

from __future__ import annotations

from decimal import Decimal

import psycopg
import pytest

from shared.madero.meter_pg import PostgresMeterStore
from shared.madero.settlement import MeterMovement
from tests.pg_helpers import pg_url

__all__ = ["pg_url"]  # the fixture

D = Decimal


def movement(contribution: str, *, royal: str = "0", sf: str = "0", others_paid=()) -> MeterMovement:
    return MeterMovement(D(contribution), D(royal), D(royal), D(sf), royal != "0", D(0), tuple(others_paid))


def server_rows(url: str, sql: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(sql).fetchall()


def assert_books_balance(url: str) -> None:
    """Every meter is the sum of its signed movements, and its last movement's value_after."""
    rows = server_rows(url, "SELECT m.meter_id, m.value, sum(v.amount), "
                            "(SELECT value_after FROM movements w WHERE w.meter_id = m.meter_id ORDER BY id DESC LIMIT 1) "
                            "FROM meters m JOIN movements v USING (meter_id) GROUP BY m.meter_id, m.value")
    for meter_id, value, total, last in rows:
        assert value == total == last, meter_id


def test_a_new_database_gets_the_schema_and_a_meter_starts_at_its_seed(pg_url):
    store = PostgresMeterStore(pg_url)
    store.register("MPB-01", D(5000), None)
    store.register("MPB-01", D(5000), None)  # a restart: no second seed
    assert store.read("MPB-01").own == D(5000)
    assert server_rows(pg_url, "SELECT version FROM carrusel_schema") == [(1,)]
    assert server_rows(pg_url, "SELECT key, kind, amount FROM movements") == [("MPB-01:0:seed", "seed", D(5000))]
    store.close()


def test_linked_meters_sum_and_a_round_applies_once(pg_url):
    a, b = PostgresMeterStore(pg_url), PostgresMeterStore(pg_url)
    a.register("MPB-01", D(5000), "CARR")
    b.register("MPB-02", D(6000), "CARR")
    reading = a.read("MPB-01")
    assert reading.linked_total == D(11000) and [m.meter_id for m in reading.others] == ["MPB-02"]
    for _ in range(3):  # resent: applied once
        a.apply_settlement("MPB-01", "MPB-01:1:abc", reading, movement("7.5"))
    assert b.read("MPB-02").linked_total == D("11007.5")
    assert a.settled_reading("MPB-01:1:abc") == reading
    # a royal: 100 % of the linked sum, every meter back at its seed
    reading = b.read("MPB-02")
    b.apply_settlement("MPB-02", "MPB-02:1:def", reading, movement("2", royal=str(reading.linked_total + 2)))
    assert a.read("MPB-01").linked_total == D(11000)
    prizes = server_rows(pg_url, "SELECT kind, prize FROM movements WHERE prize IS NOT NULL")
    assert prizes == [("royal", D("11009.5"))]
    assert_books_balance(pg_url)
    a.close(), b.close()


def test_every_movement_notifies_the_carrusel(pg_url):
    store = PostgresMeterStore(pg_url)
    store.register("MPB-01", D(5000), "CARR")
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute("LISTEN carrusel")
        store.apply_settlement("MPB-01", "MPB-01:1:x", store.read("MPB-01"), movement("3"))
        got = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
    assert got == ["CARR"]
    store.close()


def test_a_server_that_cannot_be_reached_is_named_without_its_password():
    from shared.madero.meter_pg import CarruselUnreachable

    store = PostgresMeterStore("postgresql://postgres:s3cr3t@127.0.0.1:1/test")
    with pytest.raises(CarruselUnreachable) as refused:
        store.read("MPB-01")
    assert "s3cr3t" not in refused.value.es + refused.value.en
