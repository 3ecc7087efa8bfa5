"""Time the exact Midi odds (issue 5/8: under a second).

Run: .venv/bin/python bench/bench_midi_odds.py
"""

import time

from shared.midi.odds import table_odds


def main() -> None:
    for decks in (8, 6):
        for mode in ("half-six", "commission"):
            start = time.perf_counter()
            result = table_odds(decks, mode)
            elapsed = time.perf_counter() - start
            o = result.odds
            edges = " ".join(f"{k}={float(v):.6f}" for k, v in result.house_edge.items())
            print(f"decks={decks} mode={mode:<10} p_banca={float(o.p_banca):.6f} p_punto={float(o.p_punto):.6f} "
                  f"p_tie={float(o.p_tie):.6f} p_banca_six={float(o.p_banca_six):.6f} edge: {edges} "
                  f"time={elapsed * 1000:.1f} ms")


if __name__ == "__main__":
    main()
