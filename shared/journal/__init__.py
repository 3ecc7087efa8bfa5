"""The table journal: an append-only, hash-chained SQLite event log, one database per table
(``core.Journal``; see its module for the guarantees).

The parts: ``format`` (row formats, the hashed text, the stored columns' codecs), ``keys``
(owner-only files, the table key, the writer lock), ``verify`` (checking the chain), ``archive``
(archive files), ``read`` (streamed reads), ``recall`` (past rounds as text or JSON), ``errors``.
"""

from shared.journal.core import SNAPSHOTS_KEPT, Journal
from shared.journal.errors import JournalError, VerifyReport
from shared.journal.format import (
    GENESIS_HASH,
    SCHEMA_VERSION,
    Event,
    canonical_json,
    payload_dictionary,
    payload_text,
    ts_text,
)
from shared.journal.keys import (
    APP_NAME,
    KEY_BYTES,
    KEY_SUFFIX,
    LOCK_SUFFIX,
    TableKey,
    WriterLock,
    default_journal_path,
    key_path,
    private_dir,
    private_file,
)
from shared.journal.read import ReadView
from shared.journal.recall import format_event, recall_json, recall_text, signers

__all__ = [
    "APP_NAME",
    "GENESIS_HASH",
    "KEY_BYTES",
    "KEY_SUFFIX",
    "LOCK_SUFFIX",
    "SCHEMA_VERSION",
    "SNAPSHOTS_KEPT",
    "Event",
    "Journal",
    "JournalError",
    "ReadView",
    "TableKey",
    "VerifyReport",
    "WriterLock",
    "canonical_json",
    "default_journal_path",
    "format_event",
    "key_path",
    "payload_dictionary",
    "payload_text",
    "private_dir",
    "private_file",
    "recall_json",
    "recall_text",
    "signers",
    "ts_text",
]
