"""Typed errors: every refusal names the article of the regulation it enforces."""

from __future__ import annotations


class ConsoleError(Exception):
    """Base of every refusal the engine raises; carries Spanish and English text."""

    def __init__(self, es: str, en: str | None = None) -> None:
        self.es = es
        self.en = en or es
        super().__init__(es)

    def message(self, lang: str = "es") -> str:
        return self.en if lang == "en" else self.es


class RuleViolation(ConsoleError):
    """A command the regulation forbids, e.g. ``Art. 8 §26.2``.

    ``str()`` gives the Spanish text prefixed by the article, as shown to the croupier.
    """

    def __init__(self, article: str, es: str, en: str | None = None) -> None:
        self.article = article
        super().__init__(es, en)

    def message(self, lang: str = "es") -> str:
        return f"{self.article}: {super().message(lang)}"

    def __str__(self) -> str:
        return self.message("es")


class InputError(ConsoleError):
    """Malformed input (a card token, an amount) that breaks no rule but cannot be read."""


class AuthError(ConsoleError):
    """Missing or wrong credentials, a locked account, or a role not allowed to act."""
