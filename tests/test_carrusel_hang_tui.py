"""A Carrusel server that stops answering never freezes the Madero screen (issue 17's gap):
the header's reads run in a worker thread, so every key keeps working while one waits;
the header shows the last reading and its age, then §48 once the connection fails.

A proxy between the table and the real PostgreSQL server plays the network: it forwards,
then swallows every byte (a black hole: the table's TCP sees its data acknowledged and no
answer, so nothing times out on its own), then cuts every connection."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from datetime import UTC, datetime
from decimal import Decimal
from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from tui_helpers import SIZE, aio

from madero_tui.app import make_app
from shared.madero.meter import CarruselUnreachable, MeterAnswer, MeterCall
from shared.madero.meter_pg import CALL_DEADLINE_S, PostgresMeterStore
from shared.madero.pit import CarruselServer, ServerUnavailable
from shared.madero.table import Phase
from tests.pg_helpers import pg_url  # noqa: F401  (the fixture)
from tests.test_carrusel_tui import LINKED, ROYAL
from tests.test_madero_tui import keys, prepare_live_table
from tui_common.options import LaunchOptions


class HangingProxy:
    """127.0.0.1:<port> → the server; ``hang()`` stops forwarding (new connections are
    accepted and never answered); ``cut()`` closes every connection."""

    def __init__(self, server: tuple[str, int]) -> None:
        self.server = server
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.hanging = threading.Event()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            self.sockets.append(client)
            if self.hanging.is_set():
                continue
            upstream = socket.create_connection(self.server)
            self.sockets.append(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if not self.hanging.is_set():
                    sink.sendall(data)
        except OSError:
            pass

    def url(self, url: str) -> str:
        parts = urlsplit(url)
        return urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{self.port}"))

    def hang(self) -> None:
        self.hanging.set()

    def cut(self) -> None:
        for s in self.sockets:
            # shutdown, not close alone: a pump blocked in recv keeps a closed socket open
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.sockets.clear()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.cut()


async def until(pilot, condition) -> None:
    """Let the app run until ``condition()`` (a worker started or answered), 10 s at most."""
    for _ in range(100):
        if condition():
            return
        await pilot.pause(0.1)
    raise AssertionError("the meter's worker did not get there in 10 s")


@contextlib.contextmanager
def linked_table(tmp_path: Path, url: str) -> Iterator[tuple[HangingProxy, PostgresMeterStore, Path]]:
    """A live linked table's journal, ready to play, and its meter store reaching the server
    through a ``HangingProxy``."""
    parts = urlsplit(url)
    proxy = HangingProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    try:
        store = PostgresMeterStore(proxy.url(url))
        db = tmp_path / "linked.db"
        prepare_live_table(db, LINKED, meter_store=store)
        yield proxy, store, db
    finally:
        proxy.close()


@aio
async def test_the_keys_work_while_the_server_hangs_and_the_header_ages_then_falls_back(
        tmp_path: Path, pg_url: str, monkeypatch) -> None:  # noqa: F811
    # The header's ageing is watched here, not the deadline (its own test below): a round keyed
    # on a loaded machine can outlast the 5 s a call is given, and §48 would come first.
    monkeypatch.setattr("shared.madero.meter_pg.CALL_DEADLINE_S", 120)
    with linked_table(tmp_path, pg_url) as (proxy, store, db):
        store.contribute(LINKED.table_id, Decimal(1000))  # the meter above §48's fixed 5.000
        app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=store, clock=lambda: "21:14",
                       draw_rng=random.Random(5))
        app.duty_confirmed = True
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.engine.carrusel.known_reading() is not None)  # the start's read
            header = app.table_screen.header
            assert header.view.jackpot == "POZO ARS 6.000"  # read at start, while the server answered
            proxy.hang()
            await until(pilot, lambda: app._meter_call_running)  # a poll's worker waits on the server
            # A whole round up to its settlement: every key answers while the worker waits.
            await keys(pilot, *ROYAL)
            assert app.engine.phase is Phase.SETTLEMENT
            assert app._meter_call_running
            # no amount valued on the last reading: the royal is shown once its claim is answered
            assert app.table_screen.lower.current == "log"
            await pilot.pause(2.2)
            assert "POZO ARS 6.000 (leído hace" in header.view.jackpot
            assert not app.table_screen.banner.display
            proxy.cut()  # the connection fails: the worker's answer puts §48 in force
            await until(pilot, lambda: not app._meter_call_running)
            assert header.view.jackpot == "Jackpot FIJO (§48)"
            assert app.table_screen.banner.display and app.table_screen.lower.current == "log"


def test_quitting_while_a_header_read_hangs_does_not_wait_for_the_server(
        tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """The read ran in a Textual thread worker, whose executor the app's event loop joins at
    its end: ctrl+q waited for TCP to give up. The proxy is cut after 8 s to end the old wait."""
    import asyncio
    import time

    with linked_table(tmp_path, pg_url) as (proxy, store, db):
        app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=store, clock=lambda: "21:14")
        app.duty_confirmed = True

        async def play() -> float:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()
                proxy.hang()
                await until(pilot, lambda: app._meter_call_running)
                await pilot.press("ctrl+q")
                return time.monotonic()

        threading.Timer(8, proxy.cut).start()
        quit_at = asyncio.run(play())  # asyncio.run ends with the loop's executor joined
        assert time.monotonic() - quit_at < 2


@aio
async def test_a_table_starts_while_the_server_hangs_and_keeps_its_start_trip_for_the_worker(
        tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """The start delivered what was owed and wrote the head on the screen's thread, so a silent
    server held the console's start for the connection's timeout (3 s). Now building the console
    does not touch the server: the first header read, in its thread, makes that trip."""
    with linked_table(tmp_path, pg_url) as (proxy, store, db):
        proxy.hang()
        trips: list[str] = []
        real_run = MeterCall.run

        def run(call: MeterCall) -> MeterAnswer:
            trips.append(threading.current_thread().name)
            return real_run(call)

        with patch.object(MeterCall, "run", run):
            app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=store, clock=lambda: "21:14")
            assert trips == []  # nothing asked of the server while the console is built
            seq_at_start = app.engine.journal.last_seq
            app.duty_confirmed = True
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app._meter_call_running)
                assert trips == ["carrusel-meter"] and app.engine.carrusel.call_due() is not None
                await keys(pilot, "a", "10", "enter")  # the croupier records an Ante meanwhile
                assert app.engine.journal.last_seq > seq_at_start
                proxy.cut()
                await until(pilot, lambda: not app._meter_call_running)
                assert app.table_screen.banner.display  # §48 once the connection failed
            app.engine.journal.close()
    # The server answers again (no proxy now): the next start's first read writes the head.
    app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=PostgresMeterStore(pg_url), clock=lambda: "21:14")
    app.duty_confirmed = True
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.engine.carrusel.known_reading() is not None)
    with CarruselServer(pg_url) as server:
        head = server.head(LINKED.table_id)
    assert head is not None and head.entry_count == app.engine.journal.last_seq  # the start's head, written
    app.engine.journal.close()


def test_every_server_call_ends_within_its_deadline_when_the_server_goes_silent(
        tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """Issue 27 §2: behind a black hole no timeout of the server's or the kernel's ends the
    wait (it was 43 s and 77 s, until the connection was cut); the table's store and the pit
    cut their own socket at CALL_DEADLINE_S, and say the server cannot be used."""
    with linked_table(tmp_path, pg_url) as (proxy, store, _db):
        with CarruselServer(proxy.url(pg_url)) as pit:
            proxy.hang()
            started = time.monotonic()
            with pytest.raises(CarruselUnreachable):
                store.read(LINKED.table_id)
            assert CALL_DEADLINE_S - 0.5 < time.monotonic() - started < CALL_DEADLINE_S + 1.5
            started = time.monotonic()
            with pytest.raises(ServerUnavailable):
                pit.view(LINKED.carrusel_id, datetime.now(UTC))
            assert time.monotonic() - started < CALL_DEADLINE_S + 1.5


@aio
async def test_a_settlement_while_the_server_hangs_keeps_the_keys_then_falls_back_and_delivers_later(
        tmp_path: Path, pg_url: str, monkeypatch) -> None:  # noqa: F811
    """Issue 27 §2: the settlement talked to the server on the event loop, and a silent server
    froze every key, ctrl+q included, and the clock (43 s, 77 s). Now it runs in its own
    thread: the keys and the clock go on, the round is settled on §48 once the deadlines
    pass, and the contribution it owes reaches the server when it answers again."""
    monkeypatch.setattr("shared.madero.table.carrusel.RETRY_S", 0)
    with linked_table(tmp_path, pg_url) as (proxy, store, db):
        drawn: list[float] = []
        app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=store,
                       clock=lambda: (drawn.append(time.monotonic()), "21:14")[1], draw_rng=random.Random(5))
        app.duty_confirmed = True
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.engine.carrusel.known_reading() is not None)
            await until(pilot, lambda: not app._meter_call_running)
            before = store.read(LINKED.table_id).own
            await keys(pilot, *ROYAL)
            assert app.engine.phase is Phase.SETTLEMENT
            proxy.hang()
            started = time.monotonic()
            await pilot.press("enter")  # the royal's claim
            assert app._settling and app.table_screen.lower.current == "log"  # no amount while it is asked
            await pilot.press("f1")  # the F-keys answer while the server is silent
            assert app.screen is not app.table_screen
            await pilot.press("escape")
            assert app.screen is app.table_screen
            await pilot.press("ctrl+z")  # an engine command waits for the settlement, and says so
            assert "Carrusel" in str(app.message_line.render())
            drawn.clear()
            await pilot.pause(2.5)
            assert drawn, "the header's clock stopped"
            for _ in range(200):
                if not app._settling:
                    break
                await pilot.pause(0.1)
            waited = time.monotonic() - started
            # a claim cut at its deadline, asked again on a new connection that never answered
            assert waited < 2 * CALL_DEADLINE_S + 3, waited
            assert not app._settling and app.engine.phase is Phase.SETTLEMENT
            row = next(r for r in app.table_screen.settlement._shown.rows if r[0] == "1")
            assert row[7].startswith("+5.000")  # the answer after the deadline: §48's fixed prize
            await pilot.press("enter")  # paid as shown
            await until(pilot, lambda: not app._settling)
            assert app.engine.phase is Phase.IDLE
            settled = app.engine.journal.last_event_of("round_settled").payload
            assert "fallback" in settled and app.table_screen.banner.display  # §48, and the screen says so
            owed = Decimal(settled["fallback"]["contribution"])
            proxy.hanging.clear()  # the server answers again
            reader = PostgresMeterStore(pg_url)
            for _ in range(200):
                if reader.read(LINKED.table_id).own == before + owed:
                    break
                await pilot.pause(0.1)
            assert reader.read(LINKED.table_id).own == before + owed  # delivered, once
            reader.close()


@aio
async def test_a_header_read_waiting_on_the_server_does_not_hold_the_settlement(
        tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """Issue 27 §2: the header's read, in its thread, held the store's lock the settlement
    needed. Its trips now go through a connection of their own: one stuck inside its
    transaction leaves the settlement free to settle online."""
    with linked_table(tmp_path, pg_url) as (_proxy, store, db):
        app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=store, clock=lambda: "21:14",
                       draw_rng=random.Random(5))
        app.duty_confirmed = True
        release, stuck = threading.Event(), threading.Event()
        real_read = PostgresMeterStore._read

        def read(self, cur, meter_id):
            if threading.current_thread().name == "carrusel-meter" and app.engine.phase is Phase.SETTLEMENT:
                stuck.set()
                release.wait(20)  # a header read stuck on the server, its lock held
            return real_read(self, cur, meter_id)

        try:
            with patch.object(PostgresMeterStore, "_read", read):
                async with app.run_test(size=SIZE) as pilot:
                    await until(pilot, lambda: app.engine.carrusel.known_reading() is not None)
                    await keys(pilot, "a", "10", "enter", "j", "2", "enter", "n", "v", "th", "jh", "qh", "p",
                               "2c", "p", "3d", "4s", "4d", "2s", "3s")
                    assert app.engine.phase is Phase.SETTLEMENT
                    app._poll_meter()
                    # Stuck in the read before the settlement (the call's flag is set before its
                    # thread reaches the read: on a loaded machine the settlement came first).
                    await until(pilot, stuck.is_set)
                    await pilot.press("enter")
                    await until(pilot, lambda: not app._settling)
                    assert app.engine.phase is Phase.IDLE and app._meter_call_running  # the read still waits
                    assert "fallback" not in app.engine.journal.last_event_of("round_settled").payload
        finally:
            release.set()


@aio
async def test_a_royal_is_shown_as_the_server_claimed_it_never_as_the_header_remembers(
        tmp_path: Path, pg_url: str) -> None:  # noqa: F811
    """Issue 27 §1: the settlement screen valued the royal on the header's last reading, and a
    linked table's contribution (or prize) since then made the amount shown differ from the one
    the server pays. Now nothing is shown until Enter claims the prize: the amount is the
    server's, valued and debited in the claim's transaction, and journaled before it is shown."""
    with linked_table(tmp_path, pg_url) as (_proxy, store, db):
        other = PostgresMeterStore(pg_url)
        other.register("MPB-09", Decimal(3000), LINKED.carrusel_id)
        app = make_app(LaunchOptions(db=db), config=LINKED, meter_store=store, clock=lambda: "21:14",
                       draw_rng=random.Random(5))
        app.duty_confirmed = True
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.engine.carrusel.known_reading() is not None)
            remembered = app.engine.carrusel.known_reading()[0].linked_total
            await keys(pilot, *ROYAL)
            other.contribute("MPB-09", Decimal(700))  # after the header's read: the table does not know it
            assert app.engine.phase is Phase.SETTLEMENT and app.table_screen.lower.current == "log"
            assert app.engine.journal.last_event_of("prize_claimed") is None  # Enter claims, not the screen
            await pilot.press("enter")
            await until(pilot, lambda: not app._settling)
            answer = app.engine.journal.last_event_of("prize_answered").payload
            assert Decimal(answer["meter"]["linked_total"]) == remembered + 700
            row = next(r for r in app.table_screen.settlement._shown.rows if r[0] == "1")
            shown = remembered + 700 + Decimal(2)  # the claimed jackpot and the round's 50 % of 4 credits
            assert row[7].startswith(f"+{shown:,.0f}".replace(",", "."))
            with psycopg.connect(pg_url) as conn:  # what the server debited is what is shown
                assert conn.execute("SELECT prize FROM movements WHERE prize IS NOT NULL").fetchall() == [(shown,)]
            await pilot.press("enter")
            await until(pilot, lambda: not app._settling)
            assert app.engine.phase is Phase.IDLE
        settled = app.engine.journal.last_event_of("round_settled").payload
        assert settled["meter"] == answer["meter"]  # settled on the answer shown
        assert other.read("MPB-09").own == Decimal(3000)  # the royal restarted the linked meter, once
        other.close()
