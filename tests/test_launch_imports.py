"""A console on its shipped default table, or on a table file its journal already recorded,
starts without pydantic; reading a new or changed table file uses it.

pydantic reads table files (``TableConfig.from_mapping``); importing it and building its
reader costs about a third of a minimal Textual app's whole launch, so the launch path
must not pull it in by accident (``bench/README.md``, launch to first usable screen).
"""

import subprocess
import sys

import pytest

CONSOLES = [("madero_tui.app", "MPB-01"), ("midi_tui.app", "MPB-02")]
TABLE_FILES = {
    "madero_tui.app": 'table_id = "MPB-11"\nminimum = 20\nmaximum = 1000\nbonus_enabled = false\n',
    "midi_tui.app": 'table_id = "MPB-12"\nminimum = 20\nmaximum = 2000\ntie_maximum = 200\n',
}


def _modules_after(code: str, watched: tuple[str, ...] = ("pydantic", "pydantic_core")) -> str:
    code += f"\nimport sys\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & {set(watched)!r}))"
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


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_launch_reads_the_compiled_catalogs_not_the_toml(module, table_id, tmp_path):
    """Parsing the message catalogs (TOML) cost ~12 ms of every launch; the shipped compiled
    copies are read instead, so tomllib is not even imported."""
    code = (
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.options import LaunchOptions\n"
        "from shared.messages import text\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r})))\n"
        "assert text('ui.help') and text('ui.help', 'en')\n"
    )
    assert _modules_after(code, ("tomllib",)) == "[]"


def test_reading_a_table_file_uses_pydantic(tmp_path):
    path = tmp_path / "mesa.toml"
    path.write_text('table_id = "MPB-07"\nminimum = 20\nmaximum = 2000\ntie_maximum = 200\n')
    code = f"from shared.midi.config import MidiTableConfig\nMidiTableConfig.from_toml({str(path)!r})\n"
    assert _modules_after(code) == "['pydantic', 'pydantic_core']"


@pytest.mark.parametrize("module", TABLE_FILES)
def test_a_table_file_is_read_with_pydantic_once_then_from_the_journal(module, tmp_path):
    table = tmp_path / "mesa.toml"
    table.write_text(TABLE_FILES[module])
    code = (
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r}), table=Path({str(table)!r})))\n"
        "assert app.engine.config.minimum == 20\n"
        "app.engine.journal.close()\n"
    )
    assert _modules_after(code) == "['pydantic', 'pydantic_core']"  # first launch: the file is read
    assert _modules_after(code) == "[]"  # the same bytes again: the journal's record
    table.write_text(TABLE_FILES[module].replace("minimum = 20", "minimum = 20\nname = \"Salón VIP\""))
    assert _modules_after(code) == "['pydantic', 'pydantic_core']"  # changed: read again
