"""The main screens of both consoles at the smallest and a large table terminal, 100×30 and
160×48 (their 120×40 snapshots are in ``test_madero_tui_snapshots`` and
``test_midi_tui_snapshots``; the Madero recall's are here, at the three sizes): everything
that matters is on screen, nothing cut.

Each SVG was looked at (converted to PNG) before it was accepted. Update with
``pytest tests/test_screen_sizes_snapshots.py --snapshot-update`` and look again.
"""

from __future__ import annotations

import itertools
import time
from datetime import datetime, timedelta, UTC

import pytest

import shared.journal.core

from shared.midi.payouts import BetKind
from tests.test_madero_tui import keys, live_app
from tests.test_madero_tui_snapshots import FIRST_ROUND, SETTLEMENT
from tests.test_midi_tui_snapshots import busy_boxes, live_in_bets

SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((160, 48), id="160x48")]

MADERO_SCREENS = {
    "table": FIRST_ROUND,
    "settlement": SETTLEMENT,
    "supervisor": (*FIRST_ROUND, "f2"),
    "help": (*FIRST_ROUND, "f1"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", MADERO_SCREENS)
def test_madero(snap_compare, tmp_path, screen, size):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await keys(pilot, *MADERO_SCREENS[screen])

    assert snap_compare(live_app(tmp_path), run_before=run_before, terminal_size=size)


@pytest.fixture
def fixed_time(monkeypatch):
    """Every journal entry stamped one second after the last from 21:14:00 UTC, and shown in
    UTC: the recall's times are the same on every machine and every run."""
    start = datetime(2026, 5, 1, 21, 14, tzinfo=UTC)
    seconds = itertools.count()
    monkeypatch.setattr(shared.journal.core, "_utc_now",
                        lambda: (start + timedelta(seconds=next(seconds))).isoformat(timespec="microseconds"))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("size", [*SIZES[:1], pytest.param((120, 40), id="120x40"), *SIZES[1:]])
def test_madero_recall(snap_compare, tmp_path, fixed_time, size):
    """F3 after two rounds played through the keys: each event with its time, the
    settlement with every box's bets and payouts under it."""
    async def run_before(pilot) -> None:
        await pilot.pause()
        await keys(pilot, *SETTLEMENT, "enter", *SETTLEMENT, "enter", "f3")

    assert snap_compare(live_app(tmp_path), run_before=run_before, terminal_size=size)


def midi_played(tmp_path):
    """Three coups played (roads and recall not empty), then nine busy boxes."""
    app = live_in_bets(tmp_path)
    m = app.midi
    for cards in ("9kk5", "3443", "a33k8"):
        m.play.place_bet(1, BetKind.PUNTO, 100)
        m.play.place_bet(2, BetKind.TIE, 10)
        m.play.no_va_mas()
        for rank in cards:
            m.play.key_card(rank)
        m.play.settle()
    busy_boxes(m)
    return app


MIDI_SCREENS = {
    "table": ["n", "4", "k", "a"],
    "settlement": ["n", "2", "k", "3", "2", "8", "4"],
    "supervisor": ["n", "a", "3", "3", "k", "8", "f2", "down", "enter", "S", "1"],
    "recall": ["f3"],
    "help": ["f1"],
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", MIDI_SCREENS)
def test_midi(snap_compare, tmp_path, screen, size):
    assert snap_compare(midi_played(tmp_path), press=MIDI_SCREENS[screen], terminal_size=size)
