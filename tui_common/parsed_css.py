"""The consoles' stylesheets shipped parsed, as their message catalogs are shipped compiled.

Textual tokenizes and parses every CSS source a launch needs (the consoles' ``.tcss`` files, each
widget's ``DEFAULT_CSS``, Textual's own) at every launch: ~20 ms of a console's, the largest
single cost it adds to a bare Textual app (issue 32). ``parsed_css.pickle`` beside this module
holds what Textual made of those sources at the launches ``compile_parsed_css`` plays; a
launch takes a source's rules from it when Textual asks for a source it has not parsed yet.

A shipped entry is used only when all of these hold, else Textual parses as it always does:

- the same CSS text, defaults flag, tie-breaker and scope (Textual's own cache key, less the
  file's path, which the parsed rules do not hold);
- the same CSS variables (the theme's colours are substituted as the text is parsed);
- the Textual and Rich releases it was parsed with are the ones installed (their dist-info
  directories are beside the packages; a stat each).

The file is written by the developer's command below and shipped in the package, never
written by a running console: it is read with ``pickle`` as trusted as the code beside it.
``tests/test_parsed_css.py`` insists it is current (a launch parses no CSS) and that each
entry equals what Textual parses now. After editing a ``.tcss`` or a ``DEFAULT_CSS``, or
upgrading Textual:
``python -m tui_common.parsed_css madero_tui.app midi_tui.app``.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rich
import textual
from textual.cache import LRUCache

if TYPE_CHECKING:
    from textual.app import App
    from textual.css.model import RuleSet
    from textual.css.stylesheet import Stylesheet

    from tui_common.options import LaunchOptions

SHIPPED = Path(__file__).with_name("parsed_css.pickle")

Source = tuple[str, bool, int, str]
"""A parsed source: its CSS text, whether it is a widget's defaults, its tie-breaker, its scope."""


def _installed(package: Any, release: str) -> bool:
    """Whether ``package`` is that release (pip's dist-info directory beside it)."""
    site = Path(package.__file__).parent.parent
    return (site / f"{package.__name__}-{release}.dist-info").is_dir()


class ShippedRules(LRUCache[tuple[Any, ...], "list[RuleSet]"]):
    """A stylesheet's parse cache that also answers from the shipped rules: Textual looks a
    source up in it before it parses (``Stylesheet._parse_rules``)."""

    def __init__(self, stylesheet: Stylesheet, variables: dict[str, str], rules: dict[Source, bytes]) -> None:
        super().__init__(64)  # Textual's own size for this cache
        self._stylesheet = stylesheet
        self._variables = variables
        self._rules = rules

    def __getitem__(self, key: tuple[Any, ...]) -> list[RuleSet]:
        try:
            return super().__getitem__(key)
        except KeyError:
            css, _read_from, is_default_rules, tie_breaker, scope = key
            if self._stylesheet._variables != self._variables:  # another theme's colours
                raise
            try:
                parsed: list[RuleSet] = pickle.loads(self._rules[css, is_default_rules, tie_breaker, scope])
            except (pickle.UnpicklingError, TypeError, AttributeError, ImportError, EOFError) as error:
                raise KeyError(key) from error  # Textual parses it
            self[key] = parsed
            return parsed


def use_shipped(stylesheet: Stylesheet, shipped: Path = SHIPPED) -> bool:
    """Let ``stylesheet`` take the shipped rules of the sources it has not parsed; False (and
    nothing changed) when there are none to take."""
    try:
        stored = pickle.loads(shipped.read_bytes())
        releases, variables, rules = (stored["textual"], stored["rich"]), stored["variables"], stored["rules"]
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, KeyError, TypeError):
        return False
    if not (_installed(textual, releases[0]) and _installed(rich, releases[1])):
        return False
    stylesheet._parse_cache = ShippedRules(stylesheet, variables, rules)
    return True


def tokenize_variables(stylesheet: Stylesheet) -> None:
    """Tokenize ``stylesheet``'s CSS variables, as its first parse did: Textual's markup reads
    them at the first styled text (~1 ms), which, with no CSS parsed at the launch, was a key's
    (Midi's first bet entry). A console does it in its preload thread."""
    stylesheet._variable_tokens  # noqa: B018  (a property that tokenizes once)


def compile_parsed_css(make_apps: Sequence[Callable[[LaunchOptions], App[Any]]], target: Path = SHIPPED) -> Path:
    """Play each console's launches (its table in training, and its first live launch with its
    enrolment), keep every source Textual parsed for them and write ``target``."""
    import asyncio
    import tempfile
    from importlib.metadata import version

    from textual.css.stylesheet import Stylesheet

    from tui_common.options import LaunchOptions

    parsed: dict[Source, list[RuleSet]] = {}
    variables: list[dict[str, str]] = []
    parse = Stylesheet._parse_rules

    def keeping(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        if isinstance(self._parse_cache, ShippedRules):  # what Textual parses now, not what was shipped
            self._parse_cache = LRUCache(64)
        rules = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
        parsed[css, is_default_rules, tie_breaker, scope] = rules
        if self._variables not in variables:
            variables.append(self._variables)
        return rules

    async def launch(app: App[Any]) -> None:
        async with app.run_test(size=(120, 40), tooltips=True, notifications=True) as pilot:
            await pilot.pause()

    Stylesheet._parse_rules = keeping  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for number, make_app in enumerate(make_apps):
                for training in (True, False):
                    db = Path(tmp) / f"{number}-{training}.db"
                    asyncio.run(launch(make_app(LaunchOptions(db=db, training=training))))
    finally:
        Stylesheet._parse_rules = parse  # type: ignore[method-assign]
    if len(variables) != 1:
        raise RuntimeError(f"the launches parsed with {len(variables)} sets of CSS variables, not one")
    # Each source's rules pickled apart: a launch unpickles only those it asks for.
    rules = {source: pickle.dumps(parsed_rules, protocol=pickle.HIGHEST_PROTOCOL) for source, parsed_rules in parsed.items()}
    stored = {"textual": version("textual"), "rich": version("rich"), "variables": variables[0], "rules": rules}
    target.write_bytes(pickle.dumps(stored, protocol=pickle.HIGHEST_PROTOCOL))
    return target


if __name__ == "__main__":
    import importlib
    import sys

    if len(sys.argv) < 2:
        raise SystemExit("usage: python -m tui_common.parsed_css CONSOLE_MODULE... (each with its make_app)")
    print(compile_parsed_css([importlib.import_module(name).make_app for name in sys.argv[1:]]))
