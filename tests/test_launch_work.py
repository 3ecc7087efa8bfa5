"""What a console's launch does once and not twice (issue 32: launch within 1.25× of a bare
Textual app): the table is the only screen, and each widget is styled once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.css.stylesheet import Stylesheet
from tui_helpers import aio

from madero_tui.app import make_app as make_madero
from midi_tui.app import make_app as make_midi
from tui_common.options import LaunchOptions


@pytest.fixture
def styled(monkeypatch: pytest.MonkeyPatch) -> Counter[Any]:
    """How many times each widget had the stylesheet applied."""
    times: Counter[Any] = Counter()
    apply = Stylesheet.apply

    def counted(self: Stylesheet, node: Any, *args: Any, **kwargs: Any) -> Any:
        times[node] += 1
        return apply(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counted)
    return times


@pytest.mark.parametrize("make", [make_madero, make_midi], ids=["madero", "midi"])
@aio
async def test_the_table_is_the_only_screen_and_each_widget_is_styled_once(make: Any, tmp_path: Path,
                                                                           styled: Counter[Any]) -> None:
    """Textual's blank default screen under the table was composed, styled and resumed for
    nothing, and a screen's first resume styled every widget again just after each was styled
    as it mounted."""
    app = make(LaunchOptions(db=tmp_path / "j.db", training=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen_stack == [app.table_screen]
        widgets = list(app.table_screen.walk_children(with_self=True))
        assert len(widgets) > 10  # the table's regions (Madero: 13, Midi: 11, training), each styled once
        assert {node: styled[node] for node in widgets} == dict.fromkeys(widgets, 1)


@aio
async def test_only_the_first_resume_is_spared(tmp_path: Path, styled: Counter[Any]) -> None:
    """A later resume that asks for fresh styles (Textual's, after a screen that may have
    changed the table's classes) styles the table's widgets again."""
    app = make_madero(LaunchOptions(db=tmp_path / "j.db", training=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before = Counter(styled)
        app.table_screen.post_message(events.ScreenResume(refresh_styles=True))
        await pilot.pause()
        widgets = list(app.table_screen.walk_children(with_self=True))
        assert all(styled[node] > before[node] for node in widgets)


@pytest.mark.parametrize("training", [False, True], ids=["enrolment first", "table first"])
@aio
async def test_the_launch_runs_without_the_collector_until_its_first_frame(tmp_path: Path, training: bool) -> None:
    """Python's collector walked what the imports make (~45 M instructions of a launch, none of
    it garbage): a console's command holds it before Textual is imported, and the first frame
    gives it back, to Python while a start-up screen waits (enrolment may wait for hours), to
    the console's own between-keys collector once the table is up."""
    import gc

    from tui_common.collector import BetweenKeys

    try:
        BetweenKeys.hold_launch()
        assert not gc.isenabled() and BetweenKeys.held
        app = make_madero(LaunchOptions(db=tmp_path / "j.db", training=training))
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):  # the first frame: drawn once the start-up's first screen is up
                if not BetweenKeys.held:
                    break
                await pilot.pause(0.02)
            assert not BetweenKeys.held
            if training:
                assert app.screen is app.table_screen and app.collector.running and not gc.isenabled()
            else:
                assert app.screen is not app.table_screen and not app.collector.running and gc.isenabled()
    finally:
        BetweenKeys.held = False
        gc.enable()


@pytest.mark.parametrize("game", ["madero", "midi"])
def test_a_consoles_command_holds_the_collector_before_it_imports_textual(game: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import gc, sys\n"
        f"from {game}_tui import cli\n"
        "from tui_common.options import LaunchOptions\n"
        "seen = []\n"
        "class Watch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'textual':\n"
        "            seen.append(gc.isenabled())\n"
        "sys.meta_path.insert(0, Watch())\n"
        "print('textual' in sys.modules, gc.isenabled())\n"
        # A journal that is a folder: the launch is refused after its imports, before a frame.
        f"print(cli.launch(LaunchOptions(db=__import__('pathlib').Path({str(tmp_path)!r}))), seen)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["False True", "2 [False]"], done.stdout + done.stderr
