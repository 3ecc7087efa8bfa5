"""Archive files: the entries of closed gaming days moved out of the live journal into a file
of their own that verifies on its own (``Journal.archive`` records it and drops them)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from shared.journal.errors import VerifyReport, _damaged
from shared.journal.keys import _sync_folder, _write_private, key_path, private_file

# Opens and verifies a finished archive file: (its report, its last seq).
Verifier = Callable[[Path], tuple[VerifyReport, int]]


def write_archive(live: Path, target: Path, through: int, schema: list[str], columns: str, meta: dict[str, str],
                  verify: Verifier) -> None:
    """The archive file of the live journal's entries up to ``through`` (``schema`` the
    statements of its row format, ``columns`` its ``events`` columns, ``meta`` its meta rows),
    complete, synced and verified, with its key, in place at ``target``."""
    temp = Path(f"{target}.tmp")
    temp.unlink(missing_ok=True)
    private_file(temp)
    conn = sqlite3.connect(temp, isolation_level=None)
    source = sqlite3.connect(f"{live.absolute().as_uri()}?mode=ro", uri=True)
    try:
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("BEGIN")
        for statement in schema:
            conn.execute(statement)
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
        # The rows as stored, streamed from the live file's own connection (no ATTACH, as every read).
        marks = ", ".join("?" * len(columns.split(",")))
        conn.executemany(f"INSERT INTO events ({columns}) VALUES ({marks})",
                         source.execute(f"SELECT {columns} FROM events WHERE seq <= ? ORDER BY seq", (through,)))
        conn.execute("COMMIT")
    finally:
        source.close()
        conn.close()
    _write_private(key_path(target), key_path(live).read_bytes())
    os.replace(temp, target)
    _sync_folder(target.parent)
    report, last_seq = verify(target)
    if not report.ok or last_seq != through:
        raise _damaged(report)
