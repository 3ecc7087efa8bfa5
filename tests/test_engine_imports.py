"""The engine stays pure: no module under ``shared/`` imports Textual, Rich or an app.

Each module is imported in a fresh interpreter and ``sys.modules`` is inspected, so an
indirect import (through a third module) is caught too.
"""

import pkgutil
import subprocess
import sys

import pytest

import shared

FORBIDDEN = ("textual", "rich", "madero_tui", "midi_tui", "tui_common")


def engine_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(shared.__path__, "shared."))


def test_engine_has_modules():
    assert "shared.cards" in engine_modules()


@pytest.mark.parametrize("module", engine_modules())
def test_engine_module_imports_no_ui(module):
    code = (
        "import importlib, sys, json\n"
        f"importlib.import_module({module!r})\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"{module} pulls in {out.strip()}"
