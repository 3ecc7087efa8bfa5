"""Raw access to a journal file's ``events`` rows, as a forger or a second writer would have it,
whatever the row format: rows read and written in one shape of ten columns (format 5 stores no
table column; it reads as NULL, the journal's own table)."""

from __future__ import annotations

import sqlite3
from typing import Any

READ_SHAPE = ("seq", "ts", "table_id", "round_id", "staff_id", "role", "type", "payload", "prev_hash", "hash")


def _columns(conn: sqlite3.Connection) -> list[str]:
    return [row[1] for row in conn.execute("PRAGMA table_info(events)")]


def select_columns(conn: sqlite3.Connection) -> str:
    """The ten columns of ``READ_SHAPE``, NULL for one the file does not have."""
    present = set(_columns(conn))
    return ", ".join(name if name in present else "NULL" for name in READ_SHAPE)


def insert_raw(conn: sqlite3.Connection, values: tuple[Any, ...]) -> None:
    """Insert one row given in ``READ_SHAPE`` (a column the file does not have is left out)."""
    present = set(_columns(conn))
    pairs = [(name, value) for name, value in zip(READ_SHAPE, values, strict=True) if name in present]
    conn.execute(f"INSERT INTO events ({', '.join(name for name, _ in pairs)}) VALUES ({', '.join('?' * len(pairs))})",
                 [value for _, value in pairs])


def stored_columns(conn: sqlite3.Connection) -> list[str]:
    """The file's own ``events`` columns, in ``READ_SHAPE`` order."""
    present = set(_columns(conn))
    return [name for name in READ_SHAPE if name in present]
