"""The code checks run with the suite: ruff, the import contracts and mypy --strict on the engine and the apps.

Each is the tool installed beside this interpreter by the ``[test]`` extra, run at the
repository root on the configuration in pyproject.toml; a finding fails with the tool's own
report, so the fix is read from the test output.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent  # not resolved: a venv's python is a link to the system's

CHECKS = {
    "ruff": ["ruff", "check", "."],
    "import-linter": ["lint-imports"],
    "mypy": ["mypy"],
}


@pytest.mark.parametrize("check", CHECKS)
def test_code_check_finds_nothing(check):
    tool, *args = CHECKS[check]
    result = subprocess.run([str(VENV_BIN / tool), *args], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"{check} found problems:\n{result.stdout}{result.stderr}"
