"""The interface speaks Spanish by default and English with ``--lang en``.

Every user-facing string of the apps lives in ``CATALOG`` with both languages, so a
missing translation is impossible by construction; ``tests/test_i18n.py`` also checks that
every key the code asks for exists. Engine messages already carry both texts
(``ConsoleError.message(lang)``, the engine's prompts).
"""

from __future__ import annotations

LANGS = ("es", "en")

CATALOG: dict[str, tuple[str, str]] = {
    # key: (Spanish, English)
    "training_banner": ("ENTRENAMIENTO", "TRAINING"),
    "quit": ("salir", "quit"),
    "quit_confirm": ("Hay una jugada en curso. ¿Salir igual? (s/n)", "A round is in progress. Quit anyway? (y/n)"),
    "supervisor": ("supervisor", "supervisor"),
    "recall": ("historial", "recall"),
    "help": ("ayuda", "help"),
    "undo": ("deshacer", "undo"),
    "repeat_bets": ("repetir apuestas", "repeat bets"),
    "confirm": ("confirmar", "confirm"),
    "cancel": ("cancelar", "cancel"),
}


def t(key: str, lang: str = "es", /, **values: object) -> str:
    """The text for ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    es, en = CATALOG[key]
    text = en if lang == "en" else es
    return text.format(**values) if values else text
