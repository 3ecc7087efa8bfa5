"""The main game's house edge (issue 28 §6): the counting of ``bench/house_edge.py`` checked
against the engine itself, and the shipped figures against the shipped counts.

* the vectorised evaluator values hands as ``shared.poker.evaluator.strength`` does;
* on seeded boards, every player holding's wins and ties against every bank holding it can
  meet (the 990 of the 45 cards left) are those the engine's evaluator finds, one by one;
* on seeded boards, a two-card class's sums — its Ante and Flop results, and per situation
  after the flop and after the turn the result of betting it — are those of the engine's
  own settlement (``settle_round``), deal by deal over the bank's holdings and the 20 orders
  the board can come in, each Turn and River decision taken as the strategy's situations;
* the shipped figures and strategy are recomputed from the shipped sums, and those sums
  cover every deal (every class counted over all its boards).
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest

from bench.house_edge import (
    FLOPS, OPTIMUM_SUMS, ORDERS, TURN_BOARDS, Tables, count_boards, empty_sums, optimum_by_class,
)
from bench.house_edge_core import (
    HOLD_A, HOLD_B, dealer_counts, hole_class, left_after, river_class, strength, turn_class,
)
from bench.house_edge_strategy import choose, class_name, result_json
from shared.cards import FULL_DECK
from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.odds import HOUSE_EDGE_FILE, main_game_edge
from shared.madero.settlement import MAIN_BETS, BoxBets, BoxInput, settle_round
from shared.poker.evaluator import strength as engine_strength

ROOT = Path(__file__).resolve().parents[1]
SUMS_FILE = ROOT / "bench" / "house_edge_sums.json"
DECK = sorted(FULL_DECK, key=lambda c: c.index)
# A random board, one with three of a suit (flushes), one paired (full houses, quads), one
# 5-6-7-8 (straights, whose Ante is returned, not paid: §33).
BOARDS = [None, [48, 40, 28, 13, 2], [44, 45, 30, 17, 9], [12, 17, 22, 27, 44]]


def _boards() -> np.ndarray:
    rng = np.random.default_rng(28)
    rows = [rng.permutation(52)[:5] if board is None else np.array(board) for board in BOARDS]
    return np.sort(np.array(rows, dtype=np.int64), axis=1)


def test_the_fast_evaluator_values_hands_as_the_engine():
    rng = np.random.default_rng(6)
    for size in (5, 6, 7):
        hands = np.argsort(rng.random((3000, 52)), axis=1)[:, :size]
        ours = strength(hands)
        assert [int(v) for v in ours] == [engine_strength([DECK[i] for i in hand]) for hand in hands]


def test_each_holding_beats_and_ties_the_bank_holdings_the_engine_finds():
    boards = _boards()
    left = left_after(boards)
    a, b = left[:, HOLD_A], left[:, HOLD_B]
    seven = np.concatenate([a[:, :, None], b[:, :, None], np.repeat(boards[:, None, :], a.shape[1], axis=1)], axis=2)
    beats, ties = dealer_counts(strength(seven.reshape(-1, 7)).reshape(len(boards), -1))
    for row, board in enumerate(boards):
        cards = [DECK[i] for i in board]
        value = {pair: engine_strength([DECK[pair[0]], DECK[pair[1]], *cards])
                 for pair in combinations(left[row].tolist(), 2)}
        for k, (mine, mine_value) in enumerate(value.items()):
            bank = [v for pair, v in value.items() if not set(pair) & set(mine)]
            assert len(bank) == 990
            assert (beats[row, k], ties[row, k]) == (sum(v < mine_value for v in bank), bank.count(mine_value))


def _settled_units(hole: list[int], bank: list[int], board: list[int]) -> dict[str, int]:
    """Each main bet's result, in Antes, as the engine settles it with every bet placed."""
    ante = DEFAULT_MADERO_TABLE.minimum
    box = BoxInput(1, BoxBets(ante, 2 * ante, ante, ante), tuple(DECK[i] for i in hole))
    settled = settle_round(DEFAULT_MADERO_TABLE, [DECK[i] for i in bank], [DECK[i] for i in board], [box]).box(1)
    units = {}
    for bet in MAIN_BETS:
        result = settled.result(bet)
        assert result is not None
        net = result.paid - result.collected
        assert net % ante == 0
        units[bet.value] = int(net / ante) // (2 if bet.value == "flop" else 1)
    return units


@pytest.mark.parametrize("row", range(len(BOARDS)))
def test_a_class_sums_on_a_board_are_the_engines_settlements_deal_by_deal(row):
    board = _boards()[row]
    sums, tables = empty_sums(), Tables(board[None, :])
    optimum = tables.empty_optimum()
    count_boards(board[None, :], np.array([1]), tables, sums, optimum)
    left = left_after(board[None, :])[0].tolist()
    holdings = [pair for pair in combinations(left, 2)]
    classes = hole_class(np.array([p[0] for p in holdings]), np.array([p[1] for p in holdings]))
    # A class with at most 6 holdings here (a pair or suited): the first making the board's
    # best category among such classes, so flushes, full houses and straights are settled.
    small = [k for k, c in enumerate(classes) if np.count_nonzero(classes == c) <= 6]
    hands = np.array([[*holdings[k], *board] for k in small])
    target = int(classes[small[int(np.argmax(strength(hands) >> 20))]])
    want = empty_sums()
    for hole in (list(p) for p, c in zip(holdings, classes, strict=True) if c == target):
        rest = [c for c in left if c not in hole]
        orders = [([board[i] for i in flop], [board[i] for i in flop] + [board[t]])
                  for flop in FLOPS for t in range(5) if t not in flop]
        turns = turn_class(np.array([hole] * len(orders)), np.array([f for f, _ in orders]))
        rivers = river_class(np.array([hole] * len(orders)), np.array([t for _, t in orders]))
        want["count"][0, target] += 1
        for bank in combinations(rest, 2):
            units = _settled_units(hole, list(bank), board.tolist())
            want["ante"][0, target] += ORDERS * units["ante"]
            want["flop"][0, target] += ORDERS * 2 * units["flop"]
            for t, r in zip(turns, rivers, strict=True):
                want["turn_gain"][t, target] += units["turn"]
                want["river_gain"][r, target] += units["river"]
        for t, r in zip(turns, rivers, strict=True):
            want["turn_count"][t, target] += 1
            want["river_count"][r, target] += 1
    assert len(orders) == ORDERS and len(TURN_BOARDS) * 4 == ORDERS
    for name, got in sums.items():
        assert (got[:, target] == want[name][:, target]).all(), (class_name(target), name)
    # The optimum's classes hold the same deals, and it gains at least what the best rules do.
    for street in ("turn", "river"):
        for what in ("gain", "count"):
            assert optimum[f"{street}_class_{what}"].sum() == sums[f"{street}_{what}"].sum()
        best = optimum_by_class(optimum)[f"{street}_optimal_gain"][0]
        assert best[target] >= np.maximum(want[f"{street}_gain"][:, target], 0).sum()


def _shipped_sums() -> dict[str, list[list[int]]]:
    data = json.loads(SUMS_FILE.read_text(encoding="utf-8"))
    return {name: data[name] for name in (*empty_sums(), *OPTIMUM_SUMS)}


def test_the_shipped_sums_count_every_deal():
    data = json.loads(SUMS_FILE.read_text(encoding="utf-8"))
    assert data["limit"] is None and data["boards"] == comb(52, 5)
    sums = _shipped_sums()
    for h in range(169):
        row, col = divmod(h, 13)
        holdings = 6 if row == col else 4 if row > col else 12
        assert sums["count"][0][h] == holdings * comb(50, 5)
        for street in ("turn", "river"):
            assert sum(line[h] for line in sums[f"{street}_count"]) == ORDERS * sums["count"][0][h]


def test_the_shipped_figures_and_strategy_follow_from_the_shipped_sums():
    sums = _shipped_sums()
    shipped = json.loads(HOUSE_EDGE_FILE.read_text(encoding="utf-8"))
    again = result_json(sums, choose(sums), shipped["boards"], shipped["cpu_seconds"], None)
    assert again == shipped
    game = main_game_edge()
    assert game.house_edge == Fraction(shipped["house_edge"]["exact"])
    assert game.element_of_risk == game.house_edge / game.average_wager
    # Folding is worth −1: each class folded is worth less playing, each played more.
    assert all(v < -1 for name, v in game.play_values.items() if name in game.fold)
    assert all(v > -1 for name, v in game.play_values.items() if name not in game.fold)
    assert all((row.gain_if_bet > 0) == row.bet for row in (*game.turn, *game.river))


def _odds(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "madero_tui.cli", *args], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_odds_prints_the_main_games_edge_risk_and_strategy():
    game = main_game_edge()
    es = _odds("odds")
    edge = Decimal(float(game.house_edge) * 100).quantize(Decimal("0.0001"))
    assert f"ventaja de la casa: {str(edge).replace('.', ',')} % del Ante" in es
    assert "elemento de riesgo:" in es and "contra la estrategia óptima" in es and "Me retiro con" in es and " ".join(game.fold) in es
    assert "python bench/house_edge.py" in es
    bets = [row for row in (*game.turn, *game.river) if row.bet]
    assert es.count("      apostar ") == len(bets)
    en = _odds("--lang", "en", "odds")
    assert "house edge:" in en and "element of risk:" in en and "Fold (" in en
    data = json.loads(_odds("odds", "--json"))["main_game"]
    assert data["house_edge"] == float(game.house_edge) and data["fold"] == list(game.fold)
    assert data["optimum"]["house_edge"] < data["house_edge"]  # the optimum decides each hand apart
    assert [row["bet"] for row in data["river"]] == [row.bet for row in game.river]


def test_the_console_reads_the_figures_without_numpy():
    code = "import sys, madero_tui.commands.odds as o; o.main_game_edge(); sys.exit('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=120).returncode == 0
