"""A console's launch bundle (``tui_common.launch_bundle``): the modules its launch imports,
served from one file only while every source is as it was (issue 32)."""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tui_common import launch_bundle
from tui_common.launch_bundle import ROOT, read


def _python(code: str) -> str:
    """``code`` run by a fresh interpreter in the project (what it prints)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def madero_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bundle") / "launch.bin"
    subprocess.run([sys.executable, "-m", "tui_common.launch_bundle", "madero_tui.app", str(path)], check=True,
                   capture_output=True, cwd=ROOT, timeout=120)
    return path


def test_a_launch_imports_the_console_from_its_bundle_as_python_would(madero_bundle: Path) -> None:
    """Every project module the app imports comes from the bundle, each with the file, the
    cached bytecode's path, the package path and the code an import from its folder gives it."""
    served = json.loads(_python(f"""
        import json, sys
        from pathlib import Path
        from tui_common.launch_bundle import read, serve
        entries = read(Path({str(madero_bundle)!r}))
        assert entries is not None
        serve(entries)
        import madero_tui.app
        from shared.money import fmt_money
        assert fmt_money(1234) == "1.234"
        bundled = [name for name, *_ in entries]
        print(json.dumps({{name: [type(sys.modules[name].__spec__.loader).__name__, sys.modules[name].__file__,
                                  sys.modules[name].__cached__, getattr(sys.modules[name], "__path__", None)]
                          for name in bundled if name in sys.modules}}))
    """))
    plain = json.loads(_python("""
        import json, sys
        import madero_tui.app
        print(json.dumps({name: [type(m.__spec__.loader).__name__, m.__file__, m.__cached__, getattr(m, "__path__", None)]
                          for name, m in sys.modules.items() if name.partition(".")[0] in
                          ("shared", "tui_common", "madero_tui", "midi_tui")}))
    """))
    entries = read(madero_bundle)
    assert entries is not None and len(entries) > 50
    # Imported before a launch serves the bundle (the command's own modules): not served by it.
    before = {"tui_common", "tui_common.launch_bundle", "tui_common.collector"}
    assert {name for name, (loader, *_) in served.items() if loader != "_Bundled"} <= before
    assert set(served) <= set(plain)
    for name, (_, *where) in served.items():
        assert where == plain[name][1:], name


def test_the_bundle_holds_the_code_python_compiles_from_each_source(madero_bundle: Path) -> None:
    from importlib.machinery import SourceFileLoader

    entries = read(madero_bundle)
    assert entries is not None
    for name, origin, _, _, _, code in entries:
        assert code == SourceFileLoader(name, origin).get_code(name), name


def _rewritten(bundle: Path, to: Path, change) -> Path:
    magic, version, entries = marshal.loads(bundle.read_bytes())
    to.write_bytes(marshal.dumps(change(magic, version, [list(entry) for entry in entries])))
    return to


@pytest.mark.parametrize("change", [
    pytest.param(lambda m, v, e: (m, v, [e[0][:3] + [e[0][3] + 1] + e[0][4:], *e[1:]]), id="a source edited since"),
    pytest.param(lambda m, v, e: (m, v, [e[0][:4] + [e[0][4] + 1] + e[0][5:], *e[1:]]), id="a source of another size"),
    pytest.param(lambda m, v, e: (m, v, [e[0][:1] + ["/nowhere/gone.py"] + e[0][2:], *e[1:]]), id="a source gone"),
    pytest.param(lambda m, v, e: (b"\0\0\r\n", v, e), id="another Python's bytecode"),
    pytest.param(lambda m, v, e: (m, v + 1, e), id="another format"),
])
def test_a_bundle_that_is_not_as_its_sources_are_is_not_used(madero_bundle: Path, tmp_path: Path, change) -> None:
    assert read(madero_bundle) is not None
    assert read(_rewritten(madero_bundle, tmp_path / "launch.bin", lambda m, v, e: (m, v, [tuple(x) for x in e]))) is not None
    assert read(_rewritten(madero_bundle, tmp_path / "stale.bin", change)) is None


@pytest.mark.parametrize("content", [b"", b"not a bundle", marshal.dumps([1, 2, 3]), marshal.dumps((1, 2))])
def test_a_file_that_is_no_bundle_is_not_used(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "launch.bin"
    path.write_bytes(content)
    assert read(path) is None
    assert read(tmp_path / "missing.bin") is None


def test_a_traceback_through_a_bundled_module_shows_its_source(madero_bundle: Path) -> None:
    shown = _python(f"""
        import traceback
        from pathlib import Path
        from tui_common.launch_bundle import read, serve
        serve(read(Path({str(madero_bundle)!r})))
        from shared.money import fmt_money
        try:
            fmt_money(object())
        except Exception:
            print(traceback.format_exc())
    """).splitlines()
    at = next(n for n, line in enumerate(shown) if 'shared/money.py", line' in line)
    assert shown[at + 1].strip() and not shown[at + 1].lstrip().startswith("File"), shown  # the line's source


def test_the_console_commands_serve_their_bundle_before_importing_their_app() -> None:
    """``madero-tui``/``midi-tui`` prepare their launch (the collector held, the bundle served)
    before their app's imports, as the benchmarks' launch children do."""
    import inspect

    import madero_tui.cli
    import midi_tui.cli

    for cli, app in ((madero_tui.cli, "madero_tui.app"), (midi_tui.cli, "midi_tui.app")):
        source = inspect.getsource(cli.launch)
        assert source.index(f'prepare_launch("{app}")') < source.index(f"from {app} import run")
    assert launch_bundle.CONSOLES == ("madero_tui.app", "midi_tui.app")
