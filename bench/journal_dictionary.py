"""Write ``shared/journal_dictionary.json``: the preset dictionary new format-3 journals deflate
their payloads with (copied into each file's meta at creation, so a file and its archives stay
readable on their own; changing this file changes only journals created afterwards).

Per game, payloads of a few rounds played by the real engines (as ``bench_journal.py`` plays
them): one of each rarer type first, then whole rounds — deflate finds nearer (cheaper) matches
at the dictionary's end, where the most frequent entries are. Staff events are left out (a
dictionary is no place for a PIN hash, even a bench one).

    python bench/journal_dictionary.py
"""

from __future__ import annotations

import collections
import json
import sqlite3
import tempfile
from pathlib import Path

from bench_journal import build

from shared.journal import payload_text

GAMES = {"midi": (range(20, 24), 4096 * 3), "madero": (range(20, 24), 4096 * 5)}
TARGET = Path(__file__).resolve().parent.parent / "shared" / "journal_dictionary.json"


def samples(game: str, rounds: range, limit: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sample.sqlite3"
        build(path, rounds.stop + 1, game)
        conn = sqlite3.connect(path)
        rows = [(round_id, type_, payload_text(stored)) for round_id, type_, stored in
                conn.execute("SELECT round_id, type, payload FROM events ORDER BY seq")]
        conn.close()
    rows = [row for row in rows if not row[1].startswith("staff")]
    counts = collections.Counter(type_ for _, type_, _ in rows)
    whole = [text for round_id, _, text in rows if round_id in rounds]
    rare = {type_: text for _, type_, text in rows if counts[type_] < len(rows) // 50}
    chosen = [rare[type_] for type_ in sorted(rare, key=counts.__getitem__)] + whole
    while sum(len(text.encode("utf-8")) for text in chosen) > limit:
        chosen.pop(len(rare))  # the oldest whole-round entry: the newest are worth more
    return chosen


def main() -> None:
    data = {game: samples(game, rounds, limit) for game, (rounds, limit) in GAMES.items()}
    TARGET.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    for game, texts in data.items():
        print(f"{game}: {len(texts)} payloads, {sum(len(t.encode('utf-8')) for t in texts)} bytes")


if __name__ == "__main__":
    main()
