"""The README's two set-up commands are what CI runs, and what they install is pinned.

CI (``.ci/run``) must call the README's test command verbatim; both commands install through
``constraints.txt``, which pins every package the project and its test extra depend on, so a
run next month installs what the snapshots were drawn with.
"""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^(python3 -m venv \.venv && .+)$", readme, flags=re.MULTILINE)


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    return pins


def test_ci_runs_the_readmes_test_command_verbatim():
    install, test = _readme_commands()
    assert "madero-tui" in install and "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test.removeprefix("python3 -m venv .venv && ") in ci


def test_both_readme_commands_install_through_the_constraints():
    for command in _readme_commands():
        assert "pip install -q -c constraints.txt -e " in command, command


def test_every_declared_dependency_is_pinned():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = project["dependencies"] + project["optional-dependencies"]["test"]
    pins = _pins()
    for requirement in declared:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None
        key = re.sub(r"[-_.]+", "-", name.group()).lower()
        assert key in pins, f"{requirement} is not pinned in constraints.txt"
