"""The console benchmarks run, small: a few keys' worth of rounds and one launch of each app.

No time is asserted (a loaded machine must not fail the suite); what is asserted is that each
benchmark still measures the table — its own assertions stop it when a key lands on another
screen (the PIN a relaunch asks for) or is not taken — and gets through its launches, which
take the journal the key phase used.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bench_modules import BENCH, bench_module

RUNS = {
    "bench_midi_tui.py": ["--coups", "1", "--launches", "1"],
    "bench_madero_tui.py": ["--rounds", "3", "--measured", "1", "--launches", "1"],
}


@pytest.mark.parametrize("script", RUNS)
def test_console_benchmark_types_into_the_table_and_launches(script, tmp_path):
    result = subprocess.run(
        [sys.executable, str(BENCH / script), *RUNS[script], "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=240, cwd=BENCH.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "settled (last frame of the key's effect): keys" in out
    assert "card" in out.split("settled, by key:")[1]  # cards were keyed into the table
    for line in ("minimal Textual app:", "--table FILE (same table):", "resident at the first frame"):
        assert line in out, out


@pytest.mark.parametrize("game", ["midi", "madero"])
def test_the_paired_launch_benchmark_launches_both_trees(game, tmp_path):
    """``launch_pair.py`` against this very tree as "before": it builds its journal and gets
    through a launch of each tree, with and without a table file, beside the minimal app."""
    result = subprocess.run(
        [sys.executable, str(BENCH / "launch_pair.py"), str(BENCH.parent), game, "--launches", "1",
         "--rounds", "3", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=240, cwd=BENCH.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for label in ("minimal Textual app:", f"before: {game}-tui:", f"after: {game}-tui --table FILE:"):
        assert label in result.stdout, result.stdout
    assert result.stdout.count(" MiB = ") == 5  # the minimal app, and each tree with and without a file


@pytest.mark.parametrize("game", ["midi", "madero"])
def test_the_instruction_counts_type_a_round_and_read_each_keys_dump(game, tmp_path):
    """``key_instructions.py``'s counted child types its round into this tree's table without
    valgrind (the suite does not wait minutes for it), and each key's count is read from the
    dumps callgrind writes at the marks: the start, then a key and the step to the next, in turn."""
    bench = bench_module(f"bench_{game}_tui")
    key_counts = bench_module("key_instructions").key_counts
    db = tmp_path / "table.db"
    bench.prepare(db, 3 if game == "madero" else 1)
    out = tmp_path / "counts"
    out.mkdir()
    result = subprocess.run(
        [sys.executable, str(BENCH / "key_instructions.py"), "--child", str(BENCH.parent), "--game", game,
         "--db", str(db), "--out", str(out)],
        capture_output=True, text=True, timeout=240, cwd=BENCH.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    kinds = json.loads((out / "kinds.json").read_text())
    assert any("card" in kind for kind in kinds) and kinds[-1].startswith("enter")
    for part, totals in enumerate([9000, *[n for i in range(len(kinds)) for n in (1000 + i, 7)], 5], start=1):
        (out / f"cg.1.{part}").write_text(f"part: {part}\nsummary: {totals}\ntotals: {totals}\n")
    assert key_counts(out) == [(kind, 1000 + i) for i, kind in enumerate(kinds)]


@pytest.mark.parametrize("kind", ["minimal", "midi", "madero"])
def test_the_launch_instruction_count_reaches_each_first_usable_frame_and_reads_its_phases(kind, tmp_path):
    """``launch_instructions.py``'s counted child launches this tree's console (or the minimal
    app) to its first usable frame and stops there, without valgrind (the suite does not wait
    for it); the phases are read from the dumps callgrind writes at the marks."""
    bench = bench_module(f"bench_{'midi' if kind == 'minimal' else kind}_tui")
    bench_module("key_instructions")  # phase_counts reads the dumps with it
    phase_counts = bench_module("launch_instructions").phase_counts
    db = tmp_path / "table.db"
    bench.prepare(db, 3 if kind == "madero" else 10)
    result = subprocess.run(
        [sys.executable, str(BENCH / "launch_instructions.py"), "--child", str(BENCH.parent), "--kind", kind,
         "--db", str(db)],
        capture_output=True, text=True, timeout=240, cwd=BENCH.parent,
    )
    assert result.returncode == 0 and result.stdout == "first usable frame\n", result.stdout + result.stderr
    out = tmp_path / "dumps"
    out.mkdir()
    for part, totals in enumerate([800, 300, 50, 290, 1], start=1):
        (out / f"cg.1.{part}").write_text(f"part: {part}\nsummary: {totals}\ntotals: {totals}\n")
    assert phase_counts(out) == [800, 300, 50, 290]


@pytest.mark.parametrize("game", ["midi", "madero"])
def test_a_kept_year_is_built_once_and_each_run_prepares_its_own_copy(game, tmp_path, monkeypatch):
    """``--journal PATH``: the kept journal is built when missing (here 40 rounds, not a year),
    under a temporary name until whole; each run prepares a copy, with its key, to the state its
    keys start from (Madero: the open round settled; Midi: a new shoe to its last coup, 9 boxes'
    bets to repeat), and leaves the kept journal as built."""
    from shared.journal import Journal
    from shared.staff import StaffRegistry

    bench_module("bench_journal")  # the benchmarks import it when they build
    launch = bench_module("launch")
    bench = bench_module(f"bench_{game}_tui")
    monkeypatch.setattr(launch, "YEAR", 40)
    kept = tmp_path / "year.db"
    built: bytes = b""
    for run in ("first", "second"):
        db = tmp_path / run / "table.db"
        db.parent.mkdir()
        bench.prepare_year(kept, db) if game == "madero" else bench.prepare_year(kept, db, 1)
        if not built:
            built = kept.read_bytes()
            assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "year.db", "year.db.key"]
        assert kept.read_bytes() == built
        journal = Journal(db, "MPB-01" if game == "madero" else "MPB-02", game)
        try:
            assert journal.verify().ok
            if game == "madero":
                from shared.madero.table import MaderoTable

                m = MaderoTable(journal, StaffRegistry(journal))
                assert m.round_id == 41 and not m.round_open
            else:
                from shared.midi.table import MidiTable, Phase

                midi = MidiTable(journal, StaffRegistry(journal))
                assert midi.phase is Phase.BETS and midi.shoe.cards_left <= 17
                assert len(midi.play.verify_repeat_last_bets(None)) == 9  # the benchmark's ctrl+r
                assert midi.round_id > 40 + len(midi.history)  # the year's coups, then this shoe's
        finally:
            journal.close()
