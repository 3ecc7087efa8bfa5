#!/bin/sh
# Mutation testing of the Madero rule modules with mutmut: a measurement, not part of .ci/run.
#
#   bench/mutation_madero.sh [REV] [WORKDIR]
#
# Run from the repository root with the project's .venv (mutmut installed in it:
# `.venv/bin/pip install mutmut`). REV (default HEAD) is exported with `git archive` into
# WORKDIR (default a new /tmp directory), so the worktree is never touched; mutmut's
# configuration is appended to that copy's pyproject.toml only. SOURCES (default both
# modules) picks the modules to mutate; MAX_CHILDREN (default 1: the machine is shared) sets
# mutmut's workers.
set -eu
sources=${SOURCES:-shared/madero/settlement.py shared/madero/meter_share.py shared/madero/paytables.py}
rev=${1:-HEAD}
work=${2:-$(mktemp -d /tmp/madero-mutmut.XXXXXX)}
root=$(pwd)
mkdir -p "$work"
git archive "$rev" | tar -x -C "$work"
cat >> "$work/pyproject.toml" <<CFG

[tool.mutmut]
source_paths = [$(printf '"%s", ' $sources)]
pytest_add_cli_args_test_selection = ["tests/test_madero_settlement.py", "tests/test_madero_config.py",
                                      "tests/test_madero_meter.py", "tests/test_madero_paytables.py"]
also_copy = ["shared", "tests", "tui_common", "madero_tui", "midi_tui"]
CFG
cd "$work"
"$root/.venv/bin/mutmut" run --max-children "${MAX_CHILDREN:-1}" >mutmut.log 2>&1 || true
"$root/.venv/bin/python" "$root/bench/mutation_classify.py" "$work"
