"""A console on its shipped default table starts without pydantic; reading a table file uses it.

pydantic reads table files (``TableConfig.from_mapping``); importing it and building its
reader costs about a third of a minimal Textual app's whole launch, so the launch path
must not pull it in by accident (``bench/README.md``, launch to first usable screen).
"""

import subprocess
import sys

import pytest

CONSOLES = [("madero_tui.app", "MPB-01"), ("midi_tui.app", "MPB-02")]


def _modules_after(code: str) -> str:
    code += "\nimport sys\nprint(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pydantic_core'}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_default_table_launch_does_not_import_pydantic(module, table_id, tmp_path):
    code = (
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r})))\n"
        f"assert app.engine.config.table_id == {table_id!r}\n"
    )
    assert _modules_after(code) == "[]"


def test_reading_a_table_file_uses_pydantic(tmp_path):
    path = tmp_path / "mesa.toml"
    path.write_text('table_id = "MPB-07"\nminimum = 20\nmaximum = 2000\ntie_maximum = 200\n')
    code = f"from shared.midi.config import MidiTableConfig\nMidiTableConfig.from_toml({str(path)!r})\n"
    assert _modules_after(code) == "['pydantic', 'pydantic_core']"
