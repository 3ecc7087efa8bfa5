"""``tui_common.parsed_css``: the stylesheets shipped parsed are current (a launch parses no
CSS), are what Textual parses from the same text, and are left alone for another theme or
another Textual release."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
import textual.css.stylesheet
from tui_helpers import aio
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

from madero_tui.app import make_app as make_madero
from midi_tui.app import make_app as make_midi
from tui_common import parsed_css
from tui_common.app import PRELOAD_SECONDS
from tui_common.options import LaunchOptions

STALE = ("stale: python -m tui_common.parsed_css madero_tui.app midi_tui.app "
         "after editing a .tcss, a DEFAULT_CSS, or upgrading Textual")


def shipped() -> dict[str, Any]:
    stored: dict[str, Any] = pickle.loads(parsed_css.SHIPPED.read_bytes())
    return stored


def shape(rules: list[RuleSet]) -> list[tuple[object, ...]]:
    """What a rule set says, compared by value (a layout is a new object at each parse)."""
    return [({name: repr(value) if name == "layout" else value for name, value in rule.styles.get_rules().items()},
             rule.styles.important, rule.selector_set, rule.selector_names, rule.pseudo_classes,
             rule.is_default_rules, rule.tie_breaker, rule.errors) for rule in rules]


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """Every CSS text Textual parses while the test runs."""
    made: list[tuple[object, ...]] = []
    parse = textual.css.stylesheet.parse

    def counted(scope: str, css: str, read_from: object, **options: Any) -> Any:
        made.append((read_from, scope))
        return parse(scope, css, read_from, **options)

    monkeypatch.setattr(textual.css.stylesheet, "parse", counted)
    return made


@pytest.mark.parametrize("make", [make_madero, make_midi], ids=["madero", "midi"])
@pytest.mark.parametrize("training", [True, False], ids=["training", "live"])
@aio
async def test_a_launch_parses_no_css(make: Any, training: bool, tmp_path: Path,
                                      parses: list[tuple[object, ...]]) -> None:
    app = make(LaunchOptions(db=tmp_path / "j.db", training=training))
    async with app.run_test(size=(120, 40), tooltips=True, notifications=True) as pilot:
        await pilot.pause()
        assert app.screen.is_mounted
    assert parses == [], STALE


def test_each_shipped_source_is_what_textual_parses_from_its_text() -> None:
    stored = shipped()
    assert len(stored["rules"]) > 20
    for (css, is_default_rules, tie_breaker, scope), pickled in stored["rules"].items():
        rules = pickle.loads(pickled)
        fresh = Stylesheet(variables=stored["variables"])._parse_rules(
            css, ("", "test"), is_default_rules=is_default_rules, tie_breaker=tie_breaker, scope=scope)
        assert shape(rules) == shape(fresh), (scope, STALE)


@aio
async def test_another_theme_parses_its_own_colours(tmp_path: Path, parses: list[tuple[object, ...]]) -> None:
    """The theme's colours are in the parsed rules: a console in another theme parses its CSS
    as Textual always did, and its screen has that theme's background."""
    app = make_madero(LaunchOptions(db=tmp_path / "j.db", training=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert parses == []
        dark = app.screen.styles.background
        app.theme = "textual-light"
        await pilot.pause()
        assert parses, "the light theme's CSS was not parsed"
        assert app.screen.styles.background != dark


def test_rules_of_another_release_are_not_used(tmp_path: Path) -> None:
    stored = shipped()
    other = tmp_path / "parsed_css.pickle"
    other.write_bytes(pickle.dumps(dict(stored, textual="0.0.1")))
    stylesheet = Stylesheet(variables=stored["variables"])
    cache = stylesheet._parse_cache
    assert parsed_css.use_shipped(stylesheet, other) is False
    assert stylesheet._parse_cache is cache
    assert parsed_css.use_shipped(stylesheet) is True


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps({"rules": {}})[:-3]])
def test_a_missing_or_broken_file_leaves_textual_to_parse(tmp_path: Path, content: bytes) -> None:
    stylesheet = Stylesheet()
    cache = stylesheet._parse_cache
    assert parsed_css.use_shipped(stylesheet, tmp_path / "none.pickle") is False
    broken = tmp_path / "broken.pickle"
    broken.write_bytes(content)
    assert parsed_css.use_shipped(stylesheet, broken) is False
    assert stylesheet._parse_cache is cache


@aio
async def test_the_css_variables_are_tokenized_by_the_preload_not_by_a_key(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A launch that parses no CSS leaves the variables' tokens to Textual's markup, at the
    first styled text: Midi's first bet entry paid for it (~1 ms). The preload thread makes them."""
    made: list[int] = []
    tokenize = textual.css.stylesheet.tokenize_values
    monkeypatch.setattr(textual.css.stylesheet, "tokenize_values", lambda variables: made.append(1) or tokenize(variables))
    app = make_midi(LaunchOptions(db=tmp_path / "j.db", training=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert made == []
        await pilot.pause(PRELOAD_SECONDS)
        await app.workers.wait_for_complete()
        assert made == [1]
        await pilot.press("1", "p")  # a bet entry opens: its words are styled
        await pilot.pause()
        assert made == [1]
