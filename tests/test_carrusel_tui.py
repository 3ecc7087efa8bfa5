"""The §48 fallback on the Madero screen (issue 17): a linked table whose Carrusel server
cannot be reached settles on the fixed paytable and says so in large letters; the header
and the banner clear once the server answers. A stand-in store plays the unreachable server,
so no PostgreSQL is needed here."""

from __future__ import annotations

import random
from pathlib import Path

from tui_helpers import SIZE, aio

from madero_tui.app import MaderoApp, make_app
from shared.madero.meter import CarruselUnreachable, SqliteMeterStore
from shared.madero.table import Phase
from tests.test_madero_tui import PROGRESSIVE, keys, prepare_live_table
from tui_common.options import LaunchOptions

LINKED = PROGRESSIVE.with_changes(carrusel_id="CARR")
REASON = "connection refused (127.0.0.1:5432)"
# Box 1: Ante 10 and 4 Jackpot credits, a royal flush on the flop (Ah Kh + Th Jh Qh).
ROYAL = ("a", "10", "enter", "j", "4", "enter", "n", "v", "th", "jh", "qh", "p", "2c", "p", "3d", "4s", "4d",
         "ah", "kh")


class ServerStore(SqliteMeterStore):
    """The Carrusel's server as a table sees it: ``down`` makes every call fail as an
    unreachable server's would."""

    down = False

    def _tx(self):
        if self.down:
            raise CarruselUnreachable(REASON)
        return super()._tx()


async def claim(pilot, app: MaderoApp) -> None:
    """Enter at a prize's settlement: the claim, in its thread, until the store answers."""
    await pilot.press("enter")
    for _ in range(100):
        if not app._settling:
            break
        await pilot.pause(0.05)
    await pilot.pause()


def fallback_app(tmp_path: Path, lang: str = "es") -> tuple[MaderoApp, ServerStore]:
    db = tmp_path / "linked.db"
    store = ServerStore(tmp_path / "meters.sqlite")
    prepare_live_table(db, LINKED, meter_store=store)
    store.down = True
    app = make_app(LaunchOptions(db=db, lang=lang), config=LINKED, meter_store=store, clock=lambda: "21:14",
                   draw_rng=random.Random(5))
    app.duty_confirmed = True
    return app, store


@aio
async def test_a_royal_while_the_server_is_down_pays_the_fixed_table_and_says_so(tmp_path, monkeypatch):
    app, store = fallback_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.table_screen
        assert screen.banner.display and "PROGRESIVO NO DISPONIBLE — tabla fija, Art. 11 §48" in str(screen.banner.render())
        assert screen.header.view.jackpot == "Jackpot FIJO (§48)"
        await keys(pilot, *ROYAL)
        assert app.engine.phase is Phase.SETTLEMENT and screen.lower.current == "log"  # nothing to pay yet
        await claim(pilot, app)
        assert app.engine.journal.last_event_of("prize_answered").payload["fallback"] == REASON
        row = next(r for r in screen.settlement._shown.rows if r[0] == "1")
        assert row[7].startswith("+5.000")  # §48's fixed 5.000, not the meter
        await keys(pilot, "enter")
        payload = app.engine.journal.last_event_of("round_settled").payload
        assert payload["fallback"] == {"reason": REASON, "contribution": "2"}
        assert "Liquidado con la tabla fija (Art. 11 §48" in str(screen.log_view.render())  # the recent entries
        store.down = False  # the server is back: the retry timer's next tick delivers and clears
        monkeypatch.setattr("shared.madero.table.carrusel.RETRY_S", 0)
        await pilot.pause(1.2)
        assert not screen.banner.display
        assert "POZO ARS 5.002" in screen.header.view.jackpot  # the owed contribution arrived


def test_snapshot_of_the_fallback_settlement(snap_compare, tmp_path):
    app, _ = fallback_app(tmp_path)

    async def run_before(pilot) -> None:
        await pilot.pause()
        await keys(pilot, *ROYAL)
        await claim(pilot, app)

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_snapshot_of_the_fallback_settlement_in_english(snap_compare, tmp_path):
    app, _ = fallback_app(tmp_path, lang="en")

    async def run_before(pilot) -> None:
        await pilot.pause()
        await keys(pilot, *ROYAL)
        await claim(pilot, app)

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)
