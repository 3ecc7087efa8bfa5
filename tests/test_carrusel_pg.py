"""The Carrusel on PostgreSQL (issue 17): the meter store against the real server."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import signal
import time
from decimal import Decimal
from pathlib import Path

import psycopg
import psycopg.sql
import pytest

from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import CarruselUnreachable
from shared.madero.meter_pg import SCHEMA_VERSION, PostgresMeterStore, notify_channel
from shared.madero.settlement import MeterMovement
from shared.madero.table import MaderoTable, Phase
from tests.kill_acks import KILLED, StepBoundaries, run_child
from tests.madero_helpers import SUP, SUP2, live_table, open_live
from tests.pg_helpers import new_schema, pg_url
from tests.test_madero_meter_faults import play_to_settlement

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
    assert server_rows(pg_url, "SELECT version FROM carrusel_schema") == [(SCHEMA_VERSION,)]
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


def test_a_straight_flush_takes_ten_percent_of_the_linked_sum_spread_over_the_meters(pg_url):
    a, b = PostgresMeterStore(pg_url), PostgresMeterStore(pg_url)
    a.register("MPB-01", D(5000), "CARR")
    b.register("MPB-02", D(5000), "CARR")
    b.contribute("MPB-02", D(1000))
    reading = a.read("MPB-01")  # 5.000 + 6.000: 10 % is 1.100, 600 of it from MPB-02's meter
    a.apply_settlement("MPB-01", "MPB-01:1:sf", reading, movement("0", sf="1100", others_paid=[("MPB-02", D(600))]))
    assert (a.read("MPB-01").own, b.read("MPB-02").own) == (D(4500), D(5400))
    rows = server_rows(pg_url, "SELECT key, amount, prize FROM movements WHERE kind = 'straight_flush' ORDER BY key")
    assert rows == [("MPB-01:1:sf:straight_flush", D(-500), D(1100)),
                    ("MPB-01:1:sf:straight_flush:MPB-02", D(-600), None)]
    assert_books_balance(pg_url)
    a.close(), b.close()


def listen(url: str) -> psycopg.Connection:
    """A connection listening on the channel of ``url``'s schema."""
    conn = psycopg.connect(url, autocommit=True)
    (schema,) = conn.execute("SELECT current_schema()").fetchone()
    conn.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(notify_channel(schema))))
    return conn


def test_every_movement_notifies_the_carrusel(pg_url):
    store = PostgresMeterStore(pg_url)
    store.register("MPB-01", D(5000), "CARR")
    with listen(pg_url) as listener:
        store.apply_settlement("MPB-01", "MPB-01:1:x", store.read("MPB-01"), movement("3"))
        got = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
    assert got == ["CARR"]
    store.close()


def test_a_carrusel_held_in_another_schema_does_not_hold_this_one(pg_url):
    """Advisory locks are the database's too: the key carries the schema (a test holding its
    Carrusel made a parallel test's settlement fall back on §48)."""
    store = PostgresMeterStore(pg_url)
    store.register("MPB-01", D(5000), "CARR")
    with new_schema() as other_url:
        other = PostgresMeterStore(other_url)
        other.register("MPB-01", D(5000), "CARR")  # the same Carrusel id in another schema
        with other.hold():
            started = time.monotonic()
            store.contribute("MPB-01", D(1))
            assert time.monotonic() - started < 1
        other.close()
    assert store.read("MPB-01").own == D(5001)
    store.close()


def test_two_carrusels_on_one_server_never_wake_each_other(pg_url):
    """Issue 34: a channel belongs to the database, so each schema's carries its name."""
    with new_schema() as other_url, listen(pg_url) as mine, listen(other_url) as theirs:
        other = PostgresMeterStore(other_url)
        other.register("MPB-01", D(5000), "CARR")  # the same ids in another schema
        assert [n.payload for n in theirs.notifies(timeout=5, stop_after=1)] == ["CARR"]
        assert list(mine.notifies(timeout=0.5)) == []
        other.close()


def test_a_server_that_cannot_be_reached_is_named_without_its_password():
    store = PostgresMeterStore("postgresql://postgres:s3cr3t@127.0.0.1:1/test")
    with pytest.raises(CarruselUnreachable) as refused:
        store.read("MPB-01")
    assert "s3cr3t" not in refused.value.msg.render("es") + refused.value.msg.render("en")


# --- table engines on the server ---------------------------------------------------------------

SEED = D(5000)


def table_config(table_id: str) -> MaderoTableConfig:
    return MaderoTableConfig.from_mapping(dict(table_id=table_id, minimum=10, maximum=500, jackpot_mode="progressive",
                                               contribution_percent=50, carrusel_id="CARR"))


def open_table(tmp: Path, url: str, table_id: str) -> MaderoTable:
    """The table's journal under ``tmp`` (made with its staff if new), its meter on ``url``."""
    path = tmp / f"{table_id}.sqlite"
    store = PostgresMeterStore(url)
    if path.exists():
        return open_live(path, table_config(table_id), meter_store=store, draw_rng=random.Random(1))
    return live_table(tmp, table_config(table_id), name=path.name, meter_store=store, draw_rng=random.Random(1))


def close(t: MaderoTable) -> None:
    t.journal.close()
    t.carrusel.store.close()


def assert_journals_and_server_agree(url: str, tmp: Path, table_ids: list[str]) -> None:
    """Every table's journaled rounds are on the server once, with the amounts journaled, and
    nothing else is; each meter is the sum of its movements; each table's head is its journal's."""
    assert_books_balance(url)
    applied = {k: (m, r) for k, m, r in server_rows(url, "SELECT key, meter_id, round_id FROM settlements")}
    rows = server_rows(url, "SELECT key, kind, amount, prize FROM movements")
    by_key = {k: (kind, amount, prize) for k, kind, amount, prize in rows}
    journaled: set[str] = set()
    for table_id in table_ids:
        journal = Journal(tmp / f"{table_id}.sqlite", table_id, "madero")
        try:
            for e in (e for e in journal.events() if e.type == "round_settled"):
                p = e.payload
                ref = p["meter_ref"]
                journaled.add(ref)
                assert applied[ref][0] == table_id, ref
                if "fallback" in p:
                    owed = D(p["fallback"]["contribution"])
                    assert by_key.get(f"{ref}:contribution", ("", D(0), None))[1] == owed, ref
                    assert f"{ref}:royal" not in by_key, ref
                    continue
                movement = p["settlement"]["meter"]
                assert by_key.get(f"{ref}:contribution", ("", D(0), None))[1] == D(movement["contribution"]), ref
                if movement["royal_hit"]:
                    assert by_key[f"{ref}:royal"][2] == D(movement["royal_prize"]), ref
                if D(movement["straight_flush_paid"]):
                    assert by_key[f"{ref}:straight_flush"][2] == D(movement["straight_flush_paid"]), ref
            head = server_rows(url, f"SELECT head_hash, entry_count FROM table_heads WHERE table_id = '{table_id}'")
            assert head == [(journal.last_hash, journal.last_seq)], table_id
        finally:
            journal.close()
    # every prize was paid what the meters gave for it, no more (issue 27): a royal what they
    # held as it was debited, a straight flush exactly its deduction
    for (ref,) in server_rows(url, "SELECT key FROM settlements WHERE reading IS NOT NULL"):
        rows = [(k, kind, amount, after) for k, kind, amount, after in server_rows(
            url, f"SELECT key, kind, amount, value_after FROM movements WHERE key LIKE '{ref}:%'")]
        royal = [r for r in rows if r[1] in ("royal", "reset")]
        if royal:
            assert by_key[f"{ref}:royal"][2] == sum(after - amount for _, _, amount, after in royal), ref
        flush = [r for r in rows if r[1] == "straight_flush"]
        if flush:
            assert by_key[f"{ref}:straight_flush"][2] == -sum(amount for _, _, amount, _ in flush), ref
    # nothing applied that no journal settled (but what a test put in outside a round)
    assert {k for k in applied if ":-:" not in k} == journaled
    keys = [k for k, in server_rows(url, "SELECT key FROM movements")]
    assert len(keys) == len(set(keys))


def reopen_all(tmp: Path, url: str, table_ids: list[str]) -> None:
    """Each table started once more, as after the incident: it delivers what it owes."""
    for table_id in table_ids:
        close(open_table(tmp, url, table_id))


def test_fallback_on_section_48_then_delivery_when_the_server_is_back(pg_url, tmp_path):
    t = open_table(tmp_path, pg_url, "MPB-01")
    play_to_settlement(t, "2s 3s")
    t.play.confirm_settlement()
    assert t.carrusel.unavailable is None
    good = t.carrusel.store.url
    t.carrusel.store.close()
    t.carrusel.store.url = "postgresql://postgres:s3cr3t@127.0.0.1:1/test"  # the server goes away
    play_to_settlement(t, "Ah Kh")
    t.play.confirm_settlement()
    settlement = t.last_settlement
    assert settlement.meter is None  # the fixed paytable of §48: the royal pays its fixed 5.000
    royal = [r for b in settlement.boxes for r in b.bets if r.bet.value == "jackpot"][0]
    assert royal.paid == D(5000)
    fallback = t.journal.last_event_of("round_settled").payload["fallback"]
    assert fallback["contribution"] == "1" and "s3cr3t" not in fallback["reason"]
    assert t.carrusel.unavailable == fallback["reason"]
    assert t.carrusel.reading() is None
    assert t.carrusel.jackpot_paytable_in_force[0].kind.value == "fixed"  # §47: the paytable shown is §48's
    play_to_settlement(t, "2s 3s")
    t.play.confirm_settlement()  # a second round on §48: both contributions owed
    # the last online round (delivered; resent at most, applied once) and the two on §48
    assert [("contribution" in item) for item in t.outbox] == [False, True, True]
    close(t)
    assert server_rows(pg_url, "SELECT value FROM meters") == [(SEED + 1,)]
    t = open_table(tmp_path, pg_url, "MPB-01")  # back: the start delivers what is owed
    assert t.carrusel.store.url == good
    assert t.carrusel.reading().own == SEED + 3
    assert t.carrusel.unavailable is None  # the server answered: the next round is progressive
    assert server_rows(pg_url, "SELECT fallback FROM table_heads") == [(False,)]
    play_to_settlement(t, "2s 3s")
    t.play.confirm_settlement()
    assert t.carrusel.unavailable is None and t.carrusel.reading().own == SEED + 4
    close(t)
    assert_journals_and_server_agree(pg_url, tmp_path, ["MPB-01"])


def test_the_server_dropping_the_connection_mid_settlement(pg_url, tmp_path, monkeypatch):
    """pg_terminate_backend after the reading, before the journal entry (the round falls back
    on §48), and after the journal entry, before the commit (the round is settled online and
    its movement delivered at the next read)."""
    t = open_table(tmp_path, pg_url, "MPB-01")

    def terminate() -> None:
        pid = t.carrusel.store._conn.info.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))

    original_read, original_append = PostgresMeterStore._read, Journal.append_many
    with monkeypatch.context() as m:
        m.setattr(PostgresMeterStore, "_read", lambda self, cur, mid: (terminate(), original_read(self, cur, mid))[1])
        play_to_settlement(t, "Ah Kh")
        t.play.confirm_settlement()
        assert t.last_settlement.meter is None
    assert "fallback" in t.journal.last_event_of("round_settled").payload
    with monkeypatch.context() as m:
        def append_then_terminate(self, *args, **kwargs):
            events = original_append(self, *args, **kwargs)
            if any(e.type == "round_settled" for e in events):
                terminate()
            return events
        m.setattr(Journal, "append_many", append_then_terminate)
        play_to_settlement(t, "Ah Kh")
        t.play.confirm_settlement()
        settlement = t.last_settlement
    assert settlement.meter.royal_hit  # valued online, journaled, then the connection dropped
    monkeypatch.setattr("shared.madero.table.carrusel.RETRY_S", 0)  # the retry timer's next tick
    assert t.carrusel.reading().own == SEED  # delivered at the next read: the royal restarted the meter
    close(t)
    reopen_all(tmp_path, pg_url, ["MPB-01"])
    assert_journals_and_server_agree(pg_url, tmp_path, ["MPB-01"])


def _play(url: str, tmp: Path, table_id: str, rounds: int, seed: int, start=None) -> None:
    """A table process: ``rounds`` rounds, some of them royals (box 1's Ah Kh)."""
    rng = random.Random(seed)
    t = open_table(tmp, url, table_id)
    if start is not None:
        start.wait()
    if t.phase is Phase.SETTLEMENT:  # killed at a settlement: confirmed now
        t.play.confirm_settlement()
    elif t.phase is Phase.BETS:  # killed while bets were placed: they are taken back
        while t.can("undo"):
            t.undo()
    elif t.phase is not Phase.IDLE:  # killed mid-round: the round is voided
        began = t.betting_began()  # §37 during the deal, §73 arbitration after it
        t.supervisor.void_round(SUP, "arbitration" if began else "misdeal", "reanudada tras un corte", SUP2 if began else None)
    for _ in range(rounds):
        play_to_settlement(t, "Ah Kh" if rng.random() < 0.25 else "2s 3s")
        t.play.confirm_settlement()
    close(t)
    os._exit(0)


def _processes(target, argses) -> list:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=target, args=args) for args in argses]
    for p in procs:
        p.start()
    return procs


def test_three_table_processes_share_a_carrusel_through_kills(pg_url, tmp_path):
    ids = ["MPB-01", "MPB-02", "MPB-03"]
    for table_id in ids:  # each table's journal and meter, made before the processes run
        close(open_table(tmp_path, pg_url, table_id))
    rng = random.Random(17)
    kills = 0
    for attempt in range(3):
        procs = _processes(_play, [(pg_url, tmp_path, tid, 6, rng.randrange(10**6)) for tid in ids])
        if attempt < 2:  # killed at a random moment, then started again
            time.sleep(rng.uniform(0.3, 1.2))
            for p in procs:
                if p.is_alive():
                    os.kill(p.pid, signal.SIGKILL)
                    kills += 1
        for p in procs:
            p.join(120)
            assert p.exitcode in (0, -signal.SIGKILL), p.exitcode
    reopen_all(tmp_path, pg_url, ids)
    assert_journals_and_server_agree(pg_url, tmp_path, ids)
    settled = server_rows(pg_url, "SELECT count(*) FROM settlements")[0][0]
    royals = server_rows(pg_url, "SELECT count(*) FROM movements WHERE kind = 'royal'")[0][0]
    print(f"3 tables, {kills} kills, {settled} rounds on the server, {royals} royals")
    assert settled >= 18 and royals >= 1


def _royal_at_the_barrier(url: str, tmp: Path, table_id: str, start) -> None:
    t = open_table(tmp, url, table_id)
    play_to_settlement(t, "Ah Kh")
    start.wait()
    t.play.confirm_settlement()
    close(t)
    os._exit(0)


def test_two_royals_on_two_tables_at_the_same_moment(pg_url, tmp_path):
    """Serialized by the Carrusel's lock: the first is paid the whole linked jackpot, the
    second the jackpot as the first left it (the seeds and its own contribution)."""
    ids = ["MPB-01", "MPB-02"]
    for table_id in ids:
        close(open_table(tmp_path, pg_url, table_id))
    a = PostgresMeterStore(pg_url)
    a.register("MPB-01", SEED, "CARR")
    a.contribute("MPB-01", D(1234))  # what the jackpot grew by before
    a.close()
    start = multiprocessing.get_context("fork").Barrier(2)
    procs = _processes(_royal_at_the_barrier, [(pg_url, tmp_path, tid, start) for tid in ids])
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    prizes = sorted(p for p, in server_rows(pg_url, "SELECT prize FROM movements WHERE kind = 'royal'"))
    assert prizes == [2 * SEED + 1, 2 * SEED + 1234 + 1]  # each round contributes 50 % of 2 credits: 1
    assert server_rows(pg_url, "SELECT sum(value) FROM meters") == [(2 * SEED,)]
    assert_journals_and_server_agree(pg_url, tmp_path, ids)


# --- a prize is claimed once (issue 27) ---------------------------------------------------------


def _terminate(store: PostgresMeterStore, url: str) -> None:
    """The server drops the store's connection (as a cut cable or a restart would)."""
    pid = store._conn.info.backend_pid
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


@pytest.mark.parametrize("first", ["Ah Kh", "9h 8h"], ids=["royal_then_royal", "straight_flush_then_royal"])
def test_a_prize_whose_table_lost_its_connection_is_not_paid_again(first, pg_url, tmp_path, monkeypatch):
    """Table A's connection is cut right after A journals its prize; table B then settles a
    royal: B is paid the jackpot as A's prize left it, each prize debited once, the two never
    more than the pool, and no meter restarts below its seed."""
    a, b = open_table(tmp_path, pg_url, "MPB-01"), open_table(tmp_path, pg_url, "MPB-02")
    a.carrusel.store.contribute("MPB-01", D(6000))  # the jackpot: 5.000 + 5.000 of seeds and 6.000
    original = Journal.append_many

    def append_then_cut(self, *args, **kwargs):
        events = original(self, *args, **kwargs)
        if any(e.type == "round_settled" for e in events):
            _terminate(a.carrusel.store, pg_url)
        return events

    play_to_settlement(a, first)
    with monkeypatch.context() as m:
        m.setattr(Journal, "append_many", append_then_cut)
        a.play.confirm_settlement()
        paid_a = a.last_settlement.meter
    play_to_settlement(b, "Ah Kh")
    b.play.confirm_settlement()
    paid_b = b.last_settlement.meter
    jackpot = 2 * SEED + 6000 + 1  # as A valued it, A's contribution of 1 included
    if first == "Ah Kh":  # B: the seeds A's royal restarted the meters at, and its own 1
        assert paid_a.royal_prize == jackpot and paid_b.royal_prize == 2 * SEED + 1
    else:  # B: what A's 10 % left, and its own 1
        assert paid_a.straight_flush_paid == jackpot / 10
        assert paid_b.royal_prize == jackpot - paid_a.straight_flush_paid + 1
    # the pool: the seeds, the 6.000, both contributions, and the seeds again after a first royal
    pool = jackpot + 1 + (2 * SEED if first == "Ah Kh" else 0)
    assert paid_a.royal_prize + paid_b.royal_prize + paid_a.straight_flush_paid == pool
    assert dict(server_rows(pg_url, "SELECT meter_id, value FROM meters")) == {"MPB-01": SEED, "MPB-02": SEED}
    close(a), close(b)
    reopen_all(tmp_path, pg_url, ["MPB-01", "MPB-02"])
    assert_journals_and_server_agree(pg_url, tmp_path, ["MPB-01", "MPB-02"])


def test_a_lost_answer_is_asked_again_and_gets_the_same_answer(pg_url, tmp_path, monkeypatch):
    """The server committed A's royal and the answer was lost; another table contributed
    meanwhile: asked again with the same key, the server gives the same valuation and debits
    nothing more."""
    a = open_table(tmp_path, pg_url, "MPB-01")
    other = PostgresMeterStore(pg_url)
    other.register("MPB-02", SEED, "CARR")
    original, lost = PostgresMeterStore.hold, []

    @contextlib.contextmanager
    def hold_losing_the_first_answer(self):
        with original(self):
            yield
        if not lost:
            lost.append(True)
            other.contribute("MPB-02", D(7))
            raise CarruselUnreachable("server closed the connection unexpectedly")

    play_to_settlement(a, "Ah Kh")
    monkeypatch.setattr(PostgresMeterStore, "hold", hold_losing_the_first_answer)
    a.play.confirm_settlement()
    movement = a.last_settlement.meter
    assert lost and movement.royal_prize == 2 * SEED + 1  # valued once, before the 7
    assert "fallback" not in a.journal.last_event_of("round_settled").payload
    assert server_rows(pg_url, "SELECT count(*) FROM movements WHERE kind = 'royal'") == [(1,)]
    assert dict(server_rows(pg_url, "SELECT meter_id, value FROM meters")) == {"MPB-01": SEED, "MPB-02": SEED + 7}
    close(a), other.close()
    assert_journals_and_server_agree(pg_url, tmp_path, ["MPB-01"])


def test_a_claim_committed_but_settled_on_48_gives_the_prize_back(pg_url, tmp_path, monkeypatch):
    """The answer lost twice: the round is settled on §48 (its fixed prize from the house), and
    the claim the server committed is given back to the meters when the round's contribution
    is delivered: the jackpot is not taken for a prize no player was paid from it."""
    a = open_table(tmp_path, pg_url, "MPB-01")
    a.carrusel.store.contribute("MPB-01", D(6000))
    original = PostgresMeterStore.hold

    @contextlib.contextmanager
    def hold_losing_every_answer(self):
        with original(self):
            yield
        raise CarruselUnreachable("server closed the connection unexpectedly")

    play_to_settlement(a, "Ah Kh")
    with monkeypatch.context() as m:
        m.setattr(PostgresMeterStore, "hold", hold_losing_every_answer)
        a.play.confirm_settlement()
        settlement = a.last_settlement
    assert settlement.meter is None and "fallback" in a.journal.last_event_of("round_settled").payload
    monkeypatch.setattr("shared.madero.table.carrusel.RETRY_S", 0)
    assert a.carrusel.reading().own == SEED + 6000 + 1  # the royal given back, the contribution kept
    close(a)
    assert server_rows(pg_url, "SELECT count(*) FROM movements WHERE kind = 'released'") == [(1,)]
    # the pit and every report count a movement's prize as paid: a released one carries none
    assert server_rows(pg_url, "SELECT count(*) FROM movements WHERE prize IS NOT NULL") == [(0,)]
    assert_books_balance(pg_url)


# --- a stop at every step boundary of a contribution and of a prize ----------------------------

OTHER = "MPB-09"
"""Another table of the Carrusel (its meter only), whose share a royal restarts."""


def _at_settlement(tmp: Path, url: str, hole: str) -> None:
    store = PostgresMeterStore(url)
    store.register(OTHER, SEED, "CARR")
    store.contribute(OTHER, D(321))
    store.close()
    t = open_table(tmp, url, "MPB-01")
    play_to_settlement(t, hole)
    close(t)


def _boundary_child(tmp: Path, url: str, die_at: int | None) -> None:
    """Confirm the settlement; die at the ``die_at``-th step boundary, or (None) write the trace."""
    steps = StepBoundaries(die_at)
    original_hold = PostgresMeterStore.hold

    @contextlib.contextmanager
    def hold(self):
        steps.step("before hold")
        with original_hold(self):
            steps.step("hold: locked")
            yield
            steps.step("hold: before commit")
        steps.step("hold: committed")

    def body() -> None:
        t = open_table(tmp, url, "MPB-01")
        for cls, name in [(Journal, "append_many"), (Journal, "save_snapshot"), (PostgresMeterStore, "read"),
                          (PostgresMeterStore, "settled_reading"), (PostgresMeterStore, "apply_settlement"),
                          (PostgresMeterStore, "write_head")]:
            steps.wrap(cls, name)
        PostgresMeterStore.hold = hold
        t.play.confirm_settlement()

    steps.run(tmp, body)


def _run_boundary_child(tmp: Path, url: str, die_at: int | None) -> int:
    return run_child(tmp, _boundary_child, url, die_at)


@pytest.mark.parametrize("hole", ["Ah Kh", "2s 3s"], ids=["royal", "contribution"])
def test_a_stop_at_every_step_boundary_of_a_settlement(hole, tmp_path):
    with new_schema() as url:
        traced = tmp_path / "trace"
        traced.mkdir()
        _at_settlement(traced, url, hole)
        assert _run_boundary_child(traced, url, None) == 0
        trace = (traced / "trace.txt").read_text().splitlines()
    assert "hold: before commit" in trace
    for die_at in range(len(trace)):
        where = f"{hole}: stop at #{die_at} ({trace[die_at]})"
        with new_schema() as url:
            tmp = tmp_path / f"k{die_at}"
            tmp.mkdir()
            _at_settlement(tmp, url, hole)
            assert _run_boundary_child(tmp, url, die_at) == KILLED, where
            t = open_table(tmp, url, "MPB-01")  # the restart delivers what the journal owes
            if t.phase is Phase.SETTLEMENT:
                t.play.confirm_settlement()
            play_to_settlement(t, "2s 3s")
            t.play.confirm_settlement()
            close(t)
            reopen_all(tmp, url, ["MPB-01"])
            assert_journals_and_server_agree(url, tmp, ["MPB-01"])
            values = dict(server_rows(url, "SELECT meter_id, value FROM meters"))
            if hole == "Ah Kh":  # the royal was paid once: both meters restarted, then one round's 1
                assert values == {"MPB-01": SEED + 1, OTHER: SEED}, where
            else:
                assert values == {"MPB-01": SEED + 2, OTHER: SEED + 321}, where
    print(f"{hole}: {len(trace)} step boundaries")


def test_a_carrusel_held_too_long_by_another_table_settles_on_section_48(pg_url, tmp_path):
    """Another table's process stopped answering inside its hold (the lock stays until the
    server ends its transaction): this table waits LOCK_TIMEOUT_S, then settles on §48."""
    t = open_table(tmp_path, pg_url, "MPB-01")
    play_to_settlement(t, "Ah Kh")
    with psycopg.connect(pg_url) as other:
        other.execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':CARR', 0))")
        t.play.confirm_settlement()
        settlement = t.last_settlement
    assert settlement.meter is None
    assert "lock" in t.journal.last_event_of("round_settled").payload["fallback"]["reason"]
    close(t)
    reopen_all(tmp_path, pg_url, ["MPB-01"])
    assert_journals_and_server_agree(pg_url, tmp_path, ["MPB-01"])


def test_a_console_launched_with_a_table_file_naming_the_server_uses_it(pg_url, tmp_path, monkeypatch):
    from madero_tui.app import make_app
    from tui_common.options import LaunchOptions

    table = tmp_path / "mesa.toml"
    table.write_text('table_id = "MPB-07"\nminimum = 10\nmaximum = 500\njackpot_mode = "progressive"\n'
                     f'contribution_percent = 50\ncarrusel_id = "CARR"\ncarrusel_url = "{pg_url}"\n', encoding="utf-8")
    monkeypatch.delenv("MADERO_CARRUSEL_URL", raising=False)
    app = make_app(LaunchOptions(db=tmp_path / "mpb07.sqlite", table=table))
    try:
        assert isinstance(app.engine.carrusel.store, PostgresMeterStore)
        # Building the console leaves the server alone; its first header read (in a thread) registers the meter.
        call = app.engine.carrusel.call_due()
        assert call is not None
        app.engine.carrusel.take_answer(call.run())
        assert server_rows(pg_url, "SELECT meter_id, carrusel_id, value FROM meters") == [("MPB-07", "CARR", SEED)]
        recorded = app.engine.journal.last_event_of("table_config").payload
        assert "carrusel_url" not in recorded["values"] and pg_url not in json.dumps(recorded)
    finally:
        app.engine.journal.close()
        app.engine.carrusel.store.close()
