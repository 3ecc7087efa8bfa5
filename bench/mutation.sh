#!/bin/sh
# Mutation testing of the baccarat and Midi payout rules (a measurement, not part of CI).
# Usage: bench/mutation.sh [WORKDIR [REV]]   (run from the repository root, with .venv set up
# and mutmut installed in it: .venv/bin/pip install mutmut). The tree of REV (default HEAD) is
# copied to WORKDIR (default: a fresh temporary directory) so mutmut's mutants/ never touch
# the worktree.
set -eu
root=$(pwd)
work=${1:-$(mktemp -d /tmp/mesa-mutation.XXXXXX)}
rev=${2:-HEAD}
git -C "$root" archive "$rev" | tar -x -C "$work"
cat > "$work/setup.cfg" <<'CFG'
[mutmut]
source_paths =
    shared/baccarat.py
    shared/midi/payouts.py
also_copy =
    shared
    midi_tui
    tui_common
    madero_tui
pytest_add_cli_args_test_selection =
    tests/test_baccarat.py
    tests/test_midi_engine.py
    tests/test_midi_golden.py
    tests/test_midi_audit.py
    tests/test_audit_midi.py::test_payouts_match_oracle
    tests/test_audit_midi.py::test_pinned_payouts
    tests/test_audit_midi.py::test_void_coup_returns_everything
    tests/test_audit_midi.py::test_resolve_refuses_missing_or_extra_cards
    tests/test_audit_midi.py::test_ranks_count_as_points
CFG
cd "$work"
"$root/.venv/bin/mutmut" run --max-children 2 >/dev/null 2>&1 || true
"$root/.venv/bin/mutmut" results --all true > results.txt
echo "$work/results.txt"
grep -c ': killed' results.txt | sed 's/^/killed /'
grep -c ': survived' results.txt | sed 's/^/survived /'
