"""What the journal reports when it refuses or finds damage: its error, the verify report, and
the one-sentence refusals built from them."""

from __future__ import annotations

import sqlite3

from shared.errors import ConsoleError, JournalWriteError
from shared.messages import Msg, text
from shared.record import record


class JournalError(ConsoleError):
    """The journal file cannot be used: another game's or table's, damaged, or missing."""



@record
class VerifyReport:
    ok: bool
    checked: int
    first_bad_seq: int | None = None
    why: Msg | None = None  # what is wrong at ``first_bad_seq``

    @property
    def reason(self) -> str | None:
        """The reason in English, for logs and ``--json``."""
        return None if self.why is None else self.why.render("en")

    def message(self, lang: str = "es") -> str:
        if self.ok:
            return text("journal.intact", lang, entries=self.checked)
        return text("journal.broken_at", lang, seq=self.first_bad_seq, reason=self.why)

    def render(self, lang: str) -> str:
        """The report as a ``Localized`` parameter of another message (``shared.messages``)."""
        return self.message(lang)


@record
class _Problem:
    seq: int
    why: Msg


def _write_failed(exc: sqlite3.Error) -> JournalWriteError:
    if isinstance(exc, sqlite3.IntegrityError):  # the primary key: another writer's entry holds this seq
        why, todo = "journal.write_other_writer", "journal.write_reopen"
    elif "full" in str(exc):
        why, todo = "journal.write_disk_full", "journal.write_free_disk"
    else:
        why, todo = "journal.write_busy", "journal.write_retry"
    return JournalWriteError(Msg.of("journal.write_failed", why=Msg.of(why), todo=Msg.of(todo)))


def _damaged(report: VerifyReport) -> JournalError:
    """The refusal to open a journal that does not verify: nothing is dealt on it."""
    return JournalError(Msg.of("journal.damaged", report=report)
    )


def _broken(checked: int, seq: int, why: Msg) -> VerifyReport:
    return VerifyReport(False, checked, seq, why)
