"""Seven-card evaluations per second: shared.poker.evaluator.strength() against treys.

Run from the repository root:

    .venv/bin/python bench/bench_evaluator.py [--hands 200000] [--repeat 3] [--seed 1]

Both evaluators see the same random seven-card hands in the same run, each in its
own card form (ours: shared.cards.Card; treys: its ints from treys.Card.new, built
before timing). Each is timed with the same loop; the best of --repeat runs counts.
Import time and table memory are measured in fresh interpreters. Prints numbers
only; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

import treys

from shared.cards import FULL_DECK
from shared.poker.evaluator import evaluate, strength

IMPORT_TIME = (
    "import time; t = time.perf_counter(); import shared.poker.evaluator; "
    "print(time.perf_counter() - t)"
)
IMPORT_MEMORY = (
    "import shared.cards, tracemalloc; tracemalloc.start(); import shared.poker.evaluator; "
    "print(tracemalloc.get_traced_memory()[0])"
)


def fresh(code: str) -> float:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout)


def rate(run, count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    hands = [rng.sample(FULL_DECK, 7) for _ in range(args.hands)]
    to_treys = {c: treys.Card.new(str(c)) for c in FULL_DECK}
    treys_hands = [([to_treys[c] for c in h[:2]], [to_treys[c] for c in h[2:]]) for h in hands]
    treys_eval = treys.Evaluator()

    # Each loop binds its evaluator to a local name, so the loops are identical.
    def ours() -> None:
        ev = strength
        for h in hands:
            ev(h)

    def ours_full() -> None:
        ev = evaluate
        for h in hands:
            ev(h)

    def theirs() -> None:
        ev = treys_eval.evaluate
        for h, b in treys_hands:
            ev(h, b)

    # Same hands, same order: both must rank them alike (a wrong fast evaluator is no win).
    sample = range(0, args.hands, max(1, args.hands // 2000))
    ranked = sorted(sample, key=lambda i: strength(hands[i]))
    treys_ranks = [treys_eval.evaluate(*treys_hands[i]) for i in ranked]
    assert treys_ranks == sorted(treys_ranks, reverse=True), "ordering differs from treys"

    ours_rate = rate(ours, args.hands, args.repeat)
    treys_rate = rate(theirs, args.hands, args.repeat)
    full_rate = rate(ours_full, args.hands, args.repeat)
    imports = min(fresh(IMPORT_TIME) for _ in range(3))
    memory = fresh(IMPORT_MEMORY)

    print(f"python {sys.version.split()[0]}, {args.hands} random 7-card hands, best of {args.repeat}")
    print(f"strength()  {ours_rate:>12,.0f} evals/s  {1e6 / ours_rate:6.2f} µs/eval")
    print(f"treys       {treys_rate:>12,.0f} evals/s  {1e6 / treys_rate:6.2f} µs/eval")
    print(f"ratio       {ours_rate / treys_rate:12.1f} x treys (target >= 10)")
    print(f"evaluate()  {full_rate:>12,.0f} evals/s  (with the best five chosen for display)")
    print(f"import      {imports * 1000:12.0f} ms (shared.poker.evaluator, tables loaded from the shipped tables.bin)")
    print(f"memory      {memory / 2**20:12.1f} MiB (allocated by the import, tracemalloc)")


if __name__ == "__main__":
    main()
