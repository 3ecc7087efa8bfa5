"""The apps' words: the ``[ui]`` section of the one catalog per language (``shared/locale``).

``t(key, lang, **values)`` is the apps' short form of ``shared.messages.text("ui." + key, …)``;
``tests/test_i18n.py`` checks that every key the code asks for exists in every catalog with the
same ``{fields}``. Engine messages carry their own codes (``ConsoleError.message(lang)``).
"""

from __future__ import annotations

from shared.errors import InputError
from shared.messages import Msg, langs, text

LANGS = langs()
SECTION = "ui"


def t(key: str, lang: str = "es", /, **values: object) -> str:
    """The text for ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    return text(f"{SECTION}.{key}", lang, **values)


def input_error(key: str, /, **values: object) -> InputError:
    """An ``InputError`` carrying a catalog entry (for refusals the UI itself makes)."""
    return InputError(Msg.of(f"{SECTION}.{key}", **values))
