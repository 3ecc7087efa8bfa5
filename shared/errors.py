"""Typed errors: every refusal names the article of the regulation it enforces.

A refusal carries a ``Msg`` (a catalog code and its parameters, ``shared.messages``) and is
rendered in the reader's language when shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.messages import DEFAULT_LANG, Localized, Msg


class ConsoleError(Exception):
    """Base of every refusal the engine raises."""

    def __init__(self, msg: Msg) -> None:
        self.msg = msg
        super().__init__(msg.render(DEFAULT_LANG))

    def message(self, lang: str = DEFAULT_LANG) -> str:
        return self.msg.render(lang)

    def render(self, lang: str) -> str:
        """The refusal as a ``Localized`` parameter of another message (``shared.messages``)."""
        return self.message(lang)


class RuleViolation(ConsoleError):
    """A command the regulation forbids, e.g. ``Art. 8 §26.2``.

    ``str()`` gives the Spanish text prefixed by the article, as shown to the croupier.
    """

    def __init__(self, article: str, msg: Msg) -> None:
        self.article = article
        super().__init__(msg)

    def message(self, lang: str = DEFAULT_LANG) -> str:
        return f"{self.article}: {super().message(lang)}"

    def __str__(self) -> str:
        return self.message(DEFAULT_LANG)


class InputError(ConsoleError):
    """Malformed input (a card token, an amount) that breaks no rule but cannot be read."""


class AuthError(ConsoleError):
    """Missing or wrong credentials, a locked account, or a role not allowed to act."""


class JournalWriteError(ConsoleError):
    """The journal could not record a command (a full disk, a busy file, another writer got
    there first). The write was rolled back: nothing of the command was recorded, the table is
    as it was, and the sentence says what to do."""


def os_reason(error: OSError) -> Localized | str:
    """Why a file could not be opened, in the catalog's words (the operating system's own are
    English); one it has no words for, as the system said it."""
    if isinstance(error, FileNotFoundError):
        return Msg.of("common.file_missing")
    if isinstance(error, PermissionError):
        return Msg.of("common.file_forbidden")
    if isinstance(error, IsADirectoryError):
        return Msg.of("common.file_is_folder")
    return error.strerror or str(error)


def unreadable(what: str) -> InputError:
    """The refusal of a journal entry or snapshot that cannot be read (a hand-edited or forged
    one: the console writes none): ``what`` names the entry's type or the part missing."""
    return InputError(Msg.of("journal.unreadable", what=what))


def journaled(data: Mapping[str, Any], key: str) -> Any:
    """``data[key]``, part of a journal entry or snapshot; missing, the refusal naming it."""
    if not isinstance(data, Mapping) or key not in data:
        raise unreadable(key)
    return data[key]
