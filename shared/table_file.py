"""A table file is read once; the table's journal records what it said.

A console launched with ``--table FILE`` must know the table before it can open the
table's journal (the journal is named after the table). So:

- The first launch with a file (or with a changed file) reads it, as
  ``TableConfig.from_toml`` does, and journals ``table_config``: the file's name and
  SHA-256 and the table's values (written by the one codec, ``shared.codec``). The journal
  thereby also says which limits were in force from which entry on.
- A later launch with the very same bytes, for the same kind of table, reads those values
  back from the journal (``shared.codec.decode``): a file that still sets what is no longer
  a setting (``TableConfig.RETIRED``) keeps opening its table. Every rule of the regulation
  still runs on them. If they no longer pass (the rules changed since), the file is read again.

The journal is hash-chained, so the recorded values are as trustworthy as every bet in it
(``journal verify``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from shared.base_events import TABLE_CONFIG
from shared.codec import decode, encode
from shared.config import TableConfig, TableFile
from shared.journal import Journal, default_journal_path

C = TypeVar("C", bound=TableConfig)


def table_from_file(file: TableFile, kind: type[C], journal: Journal) -> C:
    """The table ``file`` describes: read back from ``journal`` if it recorded these very
    bytes, else read and recorded."""
    recorded = journal.last_event_of(TABLE_CONFIG)
    if recorded is not None:
        payload = recorded.payload
        if payload.get("sha256") == file.sha256 and payload.get("kind") == kind.__qualname__:
            try:
                table: C = decode(kind, payload["values"])
                return table
            except (TypeError, ValueError, ArithmeticError):
                pass  # recorded under other rules or fields: read the file itself again
    return _record(file, kind.from_file(file), journal)


def _record(file: TableFile, config: C, journal: Journal) -> C:
    journal.append(
        TABLE_CONFIG,
        {"file": str(file.path), "sha256": file.sha256, "kind": type(config).__qualname__,
         "values": encode(config)},
        round_id=0,
        actor=None,
    )
    return config


def open_table(
    game: str,
    kind: type[C],
    default: C,
    *,
    table: TableFile | None,
    db: Path | None,
    training: bool,
    config: C | None = None,
    **journal_options: Any,
) -> tuple[C, Journal]:
    """The table a console launches with and the table's journal, opened.

    ``config`` (tests) wins over ``table`` (a file, read once by the caller, who reads its
    servers' addresses from it too), which wins over ``default``. Without ``db`` the journal
    is the table's own under the user's data directory.
    """
    if config is None and table is not None:
        file = table
        table_id = file.table_id(kind)
        path = db or default_journal_path(game, table_id, training=training)
        if Path(path).exists():
            journal = Journal(path, table_id, game, training=training, **journal_options)
            try:
                return table_from_file(file, kind, journal), journal
            except BaseException:
                journal.close()
                raise
        # A new table: the file is read before its journal is created, so a file that breaks
        # a rule leaves no empty journal behind.
        config = kind.from_file(file)
        journal = Journal(path, table_id, game, training=training, **journal_options)
        return _record(file, config, journal), journal
    config = config or default
    path = db or default_journal_path(game, config.table_id, training=training)
    return config, Journal(path, config.table_id, game, training=training, **journal_options)
