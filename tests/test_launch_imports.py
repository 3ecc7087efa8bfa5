"""What a console's launch imports: not what it need not pay for (``bench/README.md``,
launch to first usable screen)."""

import subprocess
import sys

import pytest

CONSOLES = [("madero_tui.app", "MPB-01"), ("midi_tui.app", "MPB-02")]


def _modules_after(code: str, watched: tuple[str, ...]) -> str:
    code += f"\nimport sys\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & {set(watched)!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


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


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_a_launch_with_a_table_file_reads_it_without_tomllib(module, table_id, tmp_path):
    """A table file is flat (``key = value``): ``flat_toml`` reads it, and importing tomllib
    (~9 M instructions, ~1 % of a launch) is left to a file it cannot read (issue 32)."""
    table = tmp_path / "mesa.toml"
    tie = "tie_maximum = 100\n" if module.startswith("midi") else ""
    table.write_text(f'table_id = "{table_id}"  # as a casino writes it\nminimum = 10\nmaximum = 1000\n{tie}')
    code = (
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r}), table=Path({str(table)!r})))\n"
        f"assert app.engine.journal.table_id == {table_id!r}\n"
    )
    assert _modules_after(code, ("tomllib",)) == "[]"


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_a_launch_on_a_current_journal_reads_no_older_rows_words(module, table_id, tmp_path):
    """``shared.recognize`` reads back the words an older journal's settlements recorded; a
    journal of today's rows never needs it, and its import was ~1 M instructions of every
    launch (issue 32)."""
    code = (
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r})))\n"
        "import sys\n"
        "print('shared.recognize' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split()[-1] == "False"


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_a_launch_starts_no_process_pool(module, table_id, tmp_path):
    """The journal's verify walks a long file's second half in another process; its pool's
    modules (~9 ms) are imported on such a walk, not by every launch up to its table."""
    code = (
        "import asyncio\n"
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r})))\n"
        "async def main():\n"
        "    async with app.run_test() as pilot:\n"
        "        await pilot.pause()\n"
        "asyncio.run(main())\n"
    )
    assert _modules_after(code, ("multiprocessing",)) == "[]"


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_what_a_key_needs_and_the_first_frame_does_not_loads_after_it(module, table_id, tmp_path):
    """The reports, the PIN form, the supervisor's panel (and Madero's poker evaluator, whose
    tables cost its first showdown's key ~100 ms) load in a thread once the table is up, not on
    the launch's path, and every record's ``__init__`` is compiled then, and Textual's parse of
    every key's action (issue 32)."""
    code = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from tui_common.app import PRELOAD_SECONDS\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r}), training=True))\n"
        "async def main():\n"
        "    async with app.run_test() as pilot:\n"
        "        await pilot.pause()\n"
        "        print(sorted(set(app.PRELOAD) & set(sys.modules)))\n"
        "        await pilot.pause(PRELOAD_SECONDS)\n"
        "        await app.workers.wait_for_complete()\n"
        "        print(sorted(set(app.PRELOAD) - set(sys.modules)), len(app.PRELOAD))\n"
        "        from shared.record import _WAITING\n"
        "        print(len(_WAITING))\n"
        "        from textual.actions import parse\n"
        "        misses = parse.cache_info().misses\n"
        "        for action in app.key_actions:\n"
        "            parse(action)\n"
        "        print(parse.cache_info().misses - misses, len(app.key_actions))\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    at_launch, missing_after, records_waiting, unparsed = done.stdout.strip().splitlines()[-4:]
    assert at_launch == "[]", "imported at launch"
    assert missing_after.startswith("[] ") and int(missing_after.split()[-1]) >= 3
    assert records_waiting == "0", "records whose __init__ a first key would compile"
    assert unparsed.startswith("0 ") and int(unparsed.split()[1]) > 20, "actions Textual parses at a key's first press"


@pytest.mark.parametrize(("module", "table_id"), CONSOLES)
def test_a_launch_compiles_only_the_regular_expression_it_uses(module, table_id, tmp_path):
    """Ten patterns of the consoles' modules were compiled at every import, and a launch to its
    table used one: the table id's, checked as the shipped table is made (~5 M instructions,
    issue 32). Each is compiled where first used."""
    code = (
        "import asyncio, re, sys\n"
        "from pathlib import Path\n"
        f"from {module} import make_app\n"
        "from shared.regex import Regex\n"
        "from tui_common.options import LaunchOptions\n"
        f"app = make_app(LaunchOptions(db=Path({str(tmp_path / 'j.db')!r}), training=True))\n"
        "async def main():\n"
        "    async with app.run_test() as pilot:\n"
        "        await pilot.pause()\n"
        "        import shared.recognize  # an older journal's: its pattern counted, not compiled\n"
        "        ours = [(f'{name}.{key}', value) for name, m in list(sys.modules.items()) if name.split('.')[0] in\n"
        "                ('shared', 'tui_common', 'madero_tui', 'midi_tui') for key, value in vars(m).items()]\n"
        "        print(sum(isinstance(v, Regex) for _, v in ours), sorted(name for name, v in ours if\n"
        "              isinstance(v, re.Pattern) or isinstance(v, Regex) and 'compiled' in vars(v)))\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lazy, compiled = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert int(lazy) >= 10 and compiled == "['shared.config.TABLE_ID']", done.stdout
