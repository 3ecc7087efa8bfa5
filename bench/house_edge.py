"""The Madero main game's house edge, exact, and the strategy it is computed under.

    .venv/bin/python bench/house_edge.py [--out shared/madero/house_edge.json] [--batch 400]
                                         [--checkpoint /tmp/house_edge.npz] [--limit N]

Every deal is counted (no simulation): the 2,598,960 five-card boards, taken as their
134,459 classes under the 24 relabellings of the suits (suits never matter, Art. 5 §6) each
weighted by its size; on each board every player holding of the 47 cards left against every
bank holding of the 45 after it (``house_edge_core.dealer_counts``), and the 20 orders in
which the board can come (which three are the flop, which card the turn).

The player's decisions never change who wins, only what is staked: a Turn bet adds +1 or −1
Ante as the final hands compare, whatever else was bet. So each decision is worth, on its
own, the sum of the results of the deals where it is taken, and the pass accumulates, per
two-card class (the 169 of the chart) and per situation after the flop or turn
(``TURN_SITUATIONS``, ``RIVER_SITUATIONS``), the result of betting it. The strategy is
chosen from those sums: bet a situation when betting it gains over the hands played, and
play a two-card class when its value playing is above the −1 Ante of folding; the two
choices are repeated until neither changes. The result is the best strategy found within
these teachable rules, not the game's optimum (which decides each exact hand apart).

The sums are integers and the figures are exact fractions. ``--limit`` counts only the
first N board classes (a smoke run; its figures are not the game's). The run checkpoints
every ``--checkpoint-every`` batches and resumes from the checkpoint file when it matches.

The same pass counts the game's optimum, for comparison: per suit class of (board cards,
holding) after the flop and after the turn, the result of betting; every deal of a class
has the same chances, so the optimum bets exactly the classes whose result is positive.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from itertools import combinations, permutations
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.house_edge_core import (
    BANK_HOLDINGS, HOLD_A, HOLD_B, RIVER_SITUATIONS, TURN_SITUATIONS, Ints, dealer_counts,
    hole_class, left_after, river_class, strength, turn_class,
)
from shared.poker.evaluator import CATEGORY_SHIFT, Category

ORDERS = 20  # which 3 of the 5 board cards are the flop (10) × which of the other 2 the turn
FLOPS = list(combinations(range(5), 3))
TURN_BOARDS = list(combinations(range(5), 4))
# A flop is in 2 of the 20 orders, a four-card turn board in 4.
PER_FLOP, PER_TURN_BOARD = 2, 4
BOARDS_PER_HOLDING = comb(50, 5)
PERMS = np.array([[(c & ~3) | p[c & 3] for c in range(52)] for p in permutations(range(4))], dtype=np.int64)
PAIR_ID = np.full((52, 52), -1, dtype=np.int64)
for _i, (_a, _b) in enumerate(combinations(range(52), 2)):
    PAIR_ID[_a, _b] = PAIR_ID[_b, _a] = _i


def canonical(cards: Ints) -> tuple[Ints, Ints]:
    """Each row's code under the suit relabelling that makes it least, and that relabelling."""
    mapped = np.sort(PERMS[:, cards], axis=2)  # 24 × rows × k
    codes = np.zeros(mapped.shape[:2], dtype=np.int64)
    for j in range(cards.shape[1]):
        codes = codes * 52 + mapped[:, :, j]
    best = codes.argmin(axis=0)
    return codes[best, np.arange(cards.shape[0])], best


def decode(codes: Ints, k: int) -> Ints:
    out = np.empty((codes.size, k), dtype=np.int64)
    for j in range(k - 1, -1, -1):
        codes, out[:, j] = np.divmod(codes, 52)
    return out


def all_sets(k: int) -> Ints:
    return np.array(list(combinations(range(52), k)), dtype=np.int64)


def board_classes() -> tuple[Ints, Ints]:
    """The suit classes of the five-card boards: a representative of each and its size."""
    codes = np.concatenate([canonical(chunk)[0] for chunk in np.array_split(all_sets(5), 40)])
    unique, counts = np.unique(codes, return_counts=True)
    return decode(unique, 5), counts


def situation_table(k: int, classify: Callable[[Ints, Ints], Ints], boards: Ints | None = None) -> tuple[Ints, Ints]:
    """For each suit class of k board cards (its code, sorted), the situation of every
    player holding (by ``PAIR_ID``) disjoint from it; 255 where a holding shares a card.
    Every class, or only those of the k-card subsets of ``boards``."""
    if boards is None:
        sets = all_sets(k)
    else:
        sets = np.concatenate([np.sort(boards[:, list(sub)], axis=1) for sub in combinations(range(5), k)])
    codes = np.unique(canonical(sets)[0])
    reps = decode(codes, k)
    table = np.full((codes.size, 1326), 255, dtype=np.uint8)
    pairs = np.array(list(combinations(range(52 - k), 2)), dtype=np.int64)
    for rows in np.array_split(np.arange(codes.size), max(1, codes.size // 200)):
        left = np.stack([np.setdiff1d(np.arange(52), r) for r in reps[rows]])
        a, b = left[:, pairs[:, 0]], left[:, pairs[:, 1]]
        hole = np.stack([a, b], axis=2).reshape(-1, 2)
        board = np.repeat(reps[rows], pairs.shape[0], axis=0)
        table[rows[:, None], PAIR_ID[a, b]] = classify(hole, board).reshape(a.shape)
    return codes, table


class Tables:
    """The situations after the flop and after the turn, per suit class of the board cards
    and player holding: looked up for each board instead of valued again on each."""

    def __init__(self, boards: Ints | None = None) -> None:
        self.flop_codes, self.flop_table = situation_table(3, turn_class, boards)
        self.turn_codes, self.turn_table = situation_table(4, river_class, boards)

    def look_up(self, codes: Ints, table: Ints, cards: Ints, a: Ints, b: Ints) -> tuple[Ints, Ints]:
        """The situation of holdings ``a``/``b`` (boards × 1081) with the board cards ``cards``,
        and the key of their suit class (board cards' class × 1326 + holding in its frame)."""
        code, perm = canonical(cards)
        row = np.searchsorted(codes, code)
        pair = PAIR_ID[PERMS[perm[:, None], a], PERMS[perm[:, None], b]]
        return table[row[:, None], pair].astype(np.int64), row[:, None] * 1326 + pair

    def empty_optimum(self) -> dict[str, Ints]:
        """Per suit class of (board cards, holding) after the flop and after the turn: the result
        of betting and how often it arises; a class's deals all have the same chances, so the
        game's optimum bets a class exactly when its result is positive."""
        sizes = {"turn": self.flop_codes.size * 1326, "river": self.turn_codes.size * 1326}
        return {f"{street}_class_{what}": np.zeros(size, dtype=np.int64) for street, size in sizes.items()
                for what in ("gain", "count")}


SUMS = ("count", "ante", "flop", "turn_gain", "turn_count", "river_gain", "river_count")


def empty_sums() -> dict[str, Ints]:
    shapes = {"turn_gain": len(TURN_SITUATIONS), "turn_count": len(TURN_SITUATIONS),
              "river_gain": len(RIVER_SITUATIONS), "river_count": len(RIVER_SITUATIONS)}
    return {name: np.zeros((shapes.get(name, 1), 169), dtype=np.int64) for name in SUMS}


def _add(sums: Ints, key: Ints, weights: Ints, classes: int) -> None:
    # Each batch's sums stay far below 2**53: exact in bincount's float64, then kept in int64.
    sums += np.rint(np.bincount(key.ravel(), weights.ravel().astype(np.float64),
                                minlength=classes * 169)).astype(np.int64).reshape(classes, 169)


def count_boards(boards: Ints, weights: Ints, tables: Tables, sums: dict[str, Ints],
                 optimum: dict[str, Ints] | None = None, ante_from: Category = Category.COLOR) -> None:
    """Add the deals of ``boards`` (rows of 5 cards, each standing for ``weights`` boards).

    Per board, player holding and order, summed over the bank's 990 holdings, in Ante units
    ×20 (the orders): Ante +1 won with Color or better (§33; ``ante_from`` another category,
    only to compare with figures published for other rules), −1 lost; Flop ±2; each Turn and
    River bet ±1, credited to the situation it was decided in (and to its suit class in
    ``optimum``, when given: ``Tables.empty_optimum``)."""
    left = left_after(boards)
    a, b = left[:, HOLD_A], left[:, HOLD_B]
    n = boards.shape[0]
    seven = np.concatenate([a[:, :, None], b[:, :, None], np.broadcast_to(boards[:, None, :], (n, a.shape[1], 5))], axis=2)
    values = strength(seven.reshape(-1, 7)).reshape(n, -1)
    beats, ties = dealer_counts(values)
    loses = BANK_HOLDINGS - beats - ties
    score = beats - loses
    w = weights[:, None]
    cls = hole_class(a, b)
    colour = (values >> CATEGORY_SHIFT) >= ante_from
    _add(sums["count"], cls, np.broadcast_to(w, cls.shape), 1)
    _add(sums["ante"], cls, w * ORDERS * (np.where(colour, beats, 0) - loses), 1)
    _add(sums["flop"], cls, w * ORDERS * 2 * score, 1)
    for street, subsets, per, codes, table in (
        ("turn", FLOPS, PER_FLOP, tables.flop_codes, tables.flop_table),
        ("river", TURN_BOARDS, PER_TURN_BOARD, tables.turn_codes, tables.turn_table),
    ):
        size = sums[f"{street}_gain"].shape[0]
        keys = []
        for subset in subsets:
            situation, keys_here = tables.look_up(codes, table, boards[:, list(subset)], a, b)
            key = situation * 169 + cls
            _add(sums[f"{street}_gain"], key, w * per * score, size)
            _add(sums[f"{street}_count"], key, np.broadcast_to(w * per, key.shape), size)
            keys.append(keys_here)
        if optimum is not None:
            every = np.concatenate(keys, axis=1)
            for what, value in (("gain", w * per * score), ("count", np.broadcast_to(w * per, score.shape))):
                target = optimum[f"{street}_class_{what}"]
                target += np.rint(np.bincount(every.ravel(), np.tile(value, len(subsets)).ravel().astype(np.float64),
                                              minlength=target.size)).astype(np.int64)


OPTIMUM_SUMS = ("turn_optimal_gain", "turn_optimal_count", "river_optimal_gain", "river_optimal_count")


def optimum_by_class(optimum: dict[str, Ints]) -> dict[str, Ints]:
    """Per two-card class: what the optimum's Turn and River bets gain, and how often it bets."""
    a, b = np.nonzero(np.triu(PAIR_ID >= 0, 1))
    order = np.argsort(PAIR_ID[a, b])
    pair_class = hole_class(a[order], b[order])
    out = {}
    for street in ("turn", "river"):
        gain, count = optimum[f"{street}_class_gain"], optimum[f"{street}_class_count"]
        bet = gain > 0
        cls = pair_class[np.arange(gain.size) % 1326]
        for what, value in (("gain", gain), ("count", count)):
            total = np.zeros((1, 169), dtype=np.int64)
            np.add.at(total[0], cls[bet], value[bet])
            out[f"{street}_optimal_{what}"] = total
    return out


def run(batch: int, checkpoint: Path, limit: int | None, every: int,
        ante_from: Category = Category.COLOR) -> tuple[dict[str, Ints], int, float]:
    """Count every board class (or the first ``limit``), ``batch`` at a time, saving to
    ``checkpoint`` every ``every`` batches and resuming from it."""
    started = time.process_time()
    boards, weights = board_classes()
    total = boards.shape[0] if limit is None else min(limit, boards.shape[0])
    tables = Tables()
    sums, optimum, done, spent = empty_sums(), tables.empty_optimum(), 0, 0.0
    if checkpoint.exists():
        saved = np.load(checkpoint)
        if int(saved["total"]) == total and set(sums) | set(optimum) <= set(saved.files):
            sums = {name: saved[name] for name in sums}
            optimum = {name: saved[name] for name in optimum}
            done, spent = int(saved["done"]), float(saved["cpu"])
    batches = 0
    while done < total:
        stop = min(done + batch, total)
        count_boards(boards[done:stop], weights[done:stop], tables, sums, optimum, ante_from)
        done, batches = stop, batches + 1
        cpu = spent + time.process_time() - started
        if batches % every == 0 or done == total:
            np.savez(checkpoint, total=total, done=done, cpu=cpu, **sums, **optimum)
        print(f"{done}/{total} board classes, {cpu:.0f} s CPU", flush=True)
    return {**sums, **optimum_by_class(optimum)}, int(weights[:total].sum()), spent + time.process_time() - started


if __name__ == "__main__":
    from bench.house_edge_strategy import choose, result_json

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("shared/madero/house_edge.json"))
    parser.add_argument("--batch", type=int, default=400)
    parser.add_argument("--checkpoint", type=Path, default=Path("/tmp/house_edge.npz"))
    parser.add_argument("--checkpoint-every", type=int, default=25, help="batches between checkpoints")
    parser.add_argument("--sums", type=Path, default=Path("bench/house_edge_sums.json"),
                        help="the counted sums, from which tests/test_house_edge.py recomputes the figures")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--ante-from", choices=["color", "escalera"], default="color",
                        help="the least hand whose win pays the Ante: color (§33); escalera only to compare "
                             "with the figures published for the Las Vegas rules of Texas Hold'em Bonus")
    args = parser.parse_args()
    shipped = {parser.get_default("out"), parser.get_default("sums")}
    if args.ante_from != "color" and shipped & {args.out, args.sums}:
        parser.error("--ante-from escalera is a comparison: write it elsewhere (--out, --sums), the shipped files are §33's")
    ante_from = Category.COLOR if args.ante_from == "color" else Category.ESCALERA
    sums, boards_counted, cpu = run(args.batch, args.checkpoint, args.limit, args.checkpoint_every, ante_from)
    plain = {name: [[int(x) for x in row] for row in v] for name, v in sums.items()}
    data = result_json(plain, choose(plain), boards_counted, cpu, args.limit)
    args.sums.write_text(json.dumps({"boards": boards_counted, "cpu_seconds": round(cpu), "limit": args.limit,
                                     **plain}, separators=(",", ":")) + "\n", encoding="utf-8")
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: data[k] for k in ("house_edge", "element_of_risk", "average_wager")}, indent=1))
