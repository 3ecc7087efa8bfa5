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
        assert len(widgets) > 20
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
