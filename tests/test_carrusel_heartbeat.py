"""The pit tells the truth (issue 27 §6): a running table is heard from at least every
HEARTBEAT_S, whether or not it settles, and says since when §48 is in force."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from shared.madero.meter import CarruselUnreachable
from shared.madero.meter_pg import PostgresMeterStore
from tests.madero_helpers import SUP, live_table
from tests.pg_helpers import pg_url
from tests.test_carrusel_pg import server_rows, table_config

__all__ = ["pg_url"]  # the fixture


def test_an_idle_table_writes_its_head_at_every_heartbeat_and_its_fallback_since(pg_url, tmp_path, monkeypatch):
    t = live_table(tmp_path, table_config("MPB-01"), meter_store=PostgresMeterStore(pg_url), draw_rng=random.Random(1))
    (first,) = server_rows(pg_url, "SELECT updated_at FROM table_heads")
    call = t.carrusel.call_due()
    assert call is not None and not call.always_head  # heard from just now: a read only
    monkeypatch.setattr("shared.madero.table.carrusel.HEARTBEAT_S", 0)
    t.carrusel.take_answer(t.carrusel.call_due().run())  # nothing settled, nothing owed: the head all the same
    (beat,) = server_rows(pg_url, "SELECT updated_at FROM table_heads")
    assert beat > first
    # §48 in force (the server could not be reached a moment ago) and a head written: it says since when
    before = datetime.now(UTC)
    assert t.carrusel.link is not None
    t.carrusel.link.note_unreachable(CarruselUnreachable("connection refused"))
    t.carrusel.link.write_head()
    ((fallback, since),) = server_rows(pg_url, "SELECT fallback, fallback_since FROM table_heads")
    assert fallback is True and since >= before.replace(microsecond=0)
    t.journal.close()
    t.carrusel.store.close()


def test_a_shift_close_is_written_at_the_next_trip(pg_url, tmp_path):
    t = live_table(tmp_path, table_config("MPB-01"), meter_store=PostgresMeterStore(pg_url), draw_rng=random.Random(1))
    call = t.carrusel.call_due()
    assert call is not None and not call.always_head  # heard from just now
    t.shift.close(SUP)
    call = t.carrusel.call_due()
    assert call is not None and call.always_head  # the shift's close goes with the next trip
    t.carrusel.take_answer(call.run())
    assert server_rows(pg_url, "SELECT head_hash, entry_count FROM table_heads") == [t.journal.anchor()]
    t.journal.close()
    t.carrusel.store.close()
