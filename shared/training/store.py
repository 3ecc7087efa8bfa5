"""The training database: score cards and every graded answer, per trainee.

Its own SQLite file (under the user's data directory, ``training/``) — never a live
table's journal or meters. Sessions and answers are only ever inserted.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from shared.journal import APP_NAME
from shared.training.core import Grade, ScoreCard

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    trainee TEXT NOT NULL,
    game TEXT NOT NULL,
    drill TEXT NOT NULL,
    seed INTEGER,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    questions INTEGER NOT NULL,
    right INTEGER NOT NULL,
    median_seconds REAL,
    mistakes TEXT NOT NULL,
    asked TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_trainee ON sessions (trainee, id);
CREATE TABLE IF NOT EXISTS answers (
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    cell TEXT,
    given TEXT NOT NULL,
    correct TEXT NOT NULL,
    right INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (session_id, n)
);
"""


def default_training_db() -> Path:
    """``<user data dir>/training/training.sqlite3``: apart from every table's journal."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME) / "training" / "training.sqlite3"


@dataclass(frozen=True)
class SessionRecord:
    id: int
    started_at: str
    finished_at: str
    card: ScoreCard


class TrainingStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def save(self, card: ScoreCard, grades: list[Grade], *, started_at: datetime,
             finished_at: datetime | None = None) -> int:
        """Store a finished session and its answers in one transaction; returns its id."""
        finished_at = finished_at or datetime.now(UTC)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            cur = db.execute(
                "INSERT INTO sessions (trainee, game, drill, seed, started_at, finished_at, questions,"
                " right, median_seconds, mistakes, asked) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (card.trainee, card.game, card.drill, card.seed, started_at.isoformat(),
                 finished_at.isoformat(), card.questions, card.right, card.median_seconds,
                 json.dumps(card.mistakes), json.dumps(card.asked)),
            )
            session_id = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO answers (session_id, n, kind, cell, given, correct, right, seconds)"
                " VALUES (?,?,?,?,?,?,?,?)",
                [(session_id, n, g.kind, g.question.case, g.given, g.question.correct, int(g.right), g.seconds)
                 for n, g in enumerate(grades, 1)],
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return session_id

    def history(self, trainee: str, game: str | None = None) -> list[SessionRecord]:
        """The trainee's sessions, oldest first (optionally one game only)."""
        sql = ("SELECT id, trainee, game, drill, seed, started_at, finished_at, questions, right,"
               " median_seconds, mistakes, asked FROM sessions WHERE trainee = ?")
        params: list[object] = [trainee]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        rows = self._db.execute(sql + " ORDER BY id", params).fetchall()
        return [
            SessionRecord(
                id=r[0], started_at=r[5], finished_at=r[6],
                card=ScoreCard(trainee=r[1], game=r[2], drill=r[3], seed=r[4], questions=r[7], right=r[8],
                               median_seconds=r[9], mistakes=json.loads(r[10]), asked=json.loads(r[11])),
            )
            for r in rows
        ]

    def cell_record(self, trainee: str, kind: str) -> dict[str, tuple[int, int]]:
        """For one kind of decision: each cell's (times asked, times missed) by this trainee."""
        rows = self._db.execute(
            "SELECT a.cell, COUNT(*), SUM(1 - a.right) FROM answers a JOIN sessions s ON s.id = a.session_id"
            " WHERE s.trainee = ? AND a.kind = ? AND a.cell IS NOT NULL GROUP BY a.cell",
            (trainee, kind),
        ).fetchall()
        return {cell: (int(asked), int(missed)) for cell, asked, missed in rows}
