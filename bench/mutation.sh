#!/bin/sh
# Mutation testing of the baccarat and Midi payout rules (a measurement, not part of CI).
#
#   bench/mutation.sh MODULE [WORKDIR [REV]]     MODULE: baccarat | payouts
#   .venv/bin/python bench/mutation_classify.py WORKDIR --list
#
# Run from the repository root, with .venv set up and mutmut installed in it
# (.venv/bin/pip install mutmut). One module per run, each with the tests written for it, so
# a run ends in well under an hour on two shared cores: the tree of REV (default HEAD) is
# copied to WORKDIR (default: a fresh temporary directory) so mutmut's mutants/ never touch
# the worktree. The engine's whole-shoe tests and the exhaustive oracle enumerations of
# test_audit_midi.py are left out: mutmut runs, for each mutant, every selected test that
# reaches the mutated function, and those take minutes per mutant under its tracing.
# MAX_CHILDREN (default 1: the machine is shared) sets mutmut's workers; MUTANTS (default all),
# mutmut's names or globs such as "shared.baccarat.x_deal_order*", re-checks only those
# (e.g. the survivors of an earlier run, after a test was added).
set -eu
module=$1
root=$(pwd)
work=${2:-$(mktemp -d /tmp/mesa-mutation.XXXXXX)}
rev=${3:-HEAD}
case $module in
    baccarat) source=shared/baccarat.py
              tests="tests/test_baccarat.py
    tests/test_midi_audit.py
    tests/test_audit_midi.py::test_resolve_refuses_missing_or_extra_cards
    tests/test_audit_midi.py::test_ranks_count_as_points" ;;
    payouts)  source=shared/midi/payouts.py
              tests="tests/test_midi_payouts.py
    tests/test_midi_golden.py
    tests/test_audit_midi.py::test_payouts_match_oracle
    tests/test_audit_midi.py::test_pinned_payouts
    tests/test_audit_midi.py::test_void_coup_returns_everything" ;;
    *) echo "usage: bench/mutation.sh baccarat|payouts [WORKDIR [REV]]" >&2; exit 2 ;;
esac
mkdir -p "$work"
git -C "$root" archive "$rev" | tar -x -C "$work"
cat > "$work/setup.cfg" <<CFG
[mutmut]
source_paths =
    $source
also_copy =
    shared
    midi_tui
    tui_common
    madero_tui
pytest_add_cli_args_test_selection =
    $tests
CFG
cd "$work"
"$root/.venv/bin/mutmut" run --max-children "${MAX_CHILDREN:-1}" ${MUTANTS:-} >mutmut.log 2>&1 || true
"$root/.venv/bin/python" "$root/bench/mutation_classify.py" "$work"
