"""Raw access to a journal file's ``events`` rows, as a forger or a second writer would have it,
whatever the row format: rows read and written in one shape of ten columns (format 5 stores no
table column; it reads as NULL, the journal's own table)."""

from __future__ import annotations

import hashlib
import json
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


def plain_hash(seq: int, ts: str, table_id: str, round_id: int, staff_id: str | None, role: str | None, type_: str,
               payload: dict[str, Any], prev_hash: str) -> str:
    """What a forger without the table key can compute for an entry: an unkeyed SHA-256 of its
    fields (as the oldest row formats hashed them)."""
    body = {"seq": seq, "ts": ts, "table_id": table_id, "round_id": round_id, "staff_id": staff_id, "role": role,
            "type": type_, "payload": payload, "prev_hash": prev_hash}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
