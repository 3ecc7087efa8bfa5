"""SVG snapshots of the Madero console at 120×40, one per phase of a round.

Each was looked at (converted to PNG) before it was accepted. Update with
``pytest tests/test_madero_tui_snapshots.py --snapshot-update`` and look again.
"""

from __future__ import annotations

from tui_common.options import LaunchOptions

from madero_tui.app import make_app
from tests.test_madero_tui import BETS, SIZE, SPECIAL_PRIZES, keys, live_app, progressive_app


def snap(snap_compare, app, *tokens: str) -> bool:
    async def run_before(pilot) -> None:
        await pilot.pause()
        await keys(pilot, *tokens)

    return snap_compare(app, run_before=run_before, terminal_size=SIZE)


FIRST_ROUND = (*BETS, "n", "v", "r")
SECOND_ROUND = (*FIRST_ROUND, "v", "v", "2c", "3d", "4h", "t")
SHOWDOWN = (*SECOND_ROUND, "p", "t", "5s", "t", "p", "p", "9c", "ks", "kh", "ah", "ad")
SETTLEMENT = (*SHOWDOWN, "kc", "kd", "7c", "7d")


def test_bets(snap_compare, tmp_path):
    # Box 5 selected, its Ante being typed.
    assert snap(snap_compare, live_app(tmp_path), *BETS, "5", "a", "25")


def test_first_round(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *FIRST_ROUND)


def test_flop_cards_due(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *FIRST_ROUND, "v", "v", "2c", "3")


def test_second_round(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *SECOND_ROUND)


def test_showdown(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *SHOWDOWN)


def test_settlement(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *SETTLEMENT)


def test_settlement_in_english(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path, lang="en"), *SETTLEMENT)


def test_supervisor_panel(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *FIRST_ROUND, "f2")


def test_refused_card(snap_compare, tmp_path):
    assert snap(snap_compare, live_app(tmp_path), *SECOND_ROUND, "p", "t", "3d")


def test_training_first_round(snap_compare, tmp_path):
    app = make_app(LaunchOptions(db=tmp_path / "t.db", training=True, seed=3), clock=lambda: "21:14")
    assert snap(snap_compare, app, "a", "20", "enter", "b", "5", "enter", "3", "a", "50", "enter", "j", "2", "enter",
                "n", "v")


def test_progressive_table_after_no_va_mas(snap_compare, tmp_path):
    app = progressive_app(tmp_path)
    assert snap(snap_compare, app, "a", "10", "enter", "j", "4", "enter", "2", "a", "10", "enter", "j", "2", "enter", "n")


def test_progressive_settlement_pays_the_hand_and_both_special_prizes(snap_compare, tmp_path):
    assert snap(snap_compare, progressive_app(tmp_path), *SPECIAL_PRIZES)


def test_supervisor_panel_arbitration_after_betting_began(snap_compare, tmp_path):
    # Once a «voy» is recorded (§38) the void is an arbitration: a second supervisor's ID and PIN.
    assert snap(snap_compare, live_app(tmp_path), "a", "10", "enter", "n", "v", "f2")
