"""The training database: score cards and every graded answer, per trainee.

Its own SQLite file (under the user's data directory, ``training/``) — never a live
table's journal or meters. Sessions and answers are only ever inserted.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from shared.journal import APP_NAME
from shared.record import record
from shared.training.core import Grade, ScoreCard
from shared.training.graded import SKILLS, Answer, SkillFigure, skill_figures

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
    hinted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, n)
);
CREATE TABLE IF NOT EXISTS pass_marks (
    game TEXT NOT NULL,
    skill TEXT NOT NULL,
    percent INTEGER NOT NULL,
    set_by TEXT NOT NULL,
    set_at TEXT NOT NULL,
    PRIMARY KEY (game, skill)
);
"""


def default_training_db() -> Path:
    """``<user data dir>/training/training.sqlite3``: apart from every table's journal."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME) / "training" / "training.sqlite3"


@record
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
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(answers)")}
        if "hinted" not in columns:  # a training database from before graded dealing
            self._db.execute("ALTER TABLE answers ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0")

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
                "INSERT INTO answers (session_id, n, kind, cell, given, correct, right, seconds, hinted)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                [(session_id, n, g.kind, g.question.case, g.given, g.question.correct, int(g.right), g.seconds,
                  int(g.hinted)) for n, g in enumerate(grades, 1)],
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

    def _answers_by_session(self, trainee: str) -> dict[int, list[Answer]]:
        answers: dict[int, list[Answer]] = {}
        sql = ("SELECT a.session_id, a.kind, a.right, a.seconds, a.hinted FROM answers a"
               " JOIN sessions s ON s.id = a.session_id WHERE s.trainee = ? ORDER BY a.session_id, a.n")
        for session_id, kind, right, seconds, hinted in self._db.execute(sql, (trainee,)):
            answers.setdefault(session_id, []).append((kind, bool(right), seconds, bool(hinted)))
        return answers

    def skill_history(self, trainee: str, game: str | None = None) -> list[tuple[SessionRecord, dict[str, SkillFigure]]]:
        """Each of the trainee's sessions, oldest first, with its figures per skill."""
        answers = self._answers_by_session(trainee)
        return [(record, skill_figures(answers.get(record.id, []))) for record in self.history(trainee, game)]

    def earlier_answers(self, trainee: str, game: str, session_id: int | None) -> list[Answer]:
        """Every answer of the trainee's sessions of ``game`` stored before ``session_id`` (drills too)."""
        answers = self._answers_by_session(trainee)
        return [a for record in self.history(trainee, game) if session_id is None or record.id < session_id
                for a in answers.get(record.id, [])]

    def trainees(self) -> list[str]:
        """Everyone with a stored session, in order of their first one."""
        rows = self._db.execute("SELECT trainee FROM sessions GROUP BY trainee ORDER BY MIN(id)").fetchall()
        return [r[0] for r in rows]

    def set_pass_mark(self, game: str, skill: str, percent: int, *, set_by: str, at: datetime | None = None) -> None:
        """The accuracy (%) a session must reach in ``skill`` to pass; 0 removes the mark."""
        if skill not in SKILLS:
            raise ValueError(f"unknown skill {skill!r} ({', '.join(SKILLS)})")
        if not 0 <= percent <= 100:
            raise ValueError("a pass mark is a percentage, 0 to 100")
        if percent == 0:
            self._db.execute("DELETE FROM pass_marks WHERE game = ? AND skill = ?", (game, skill))
            return
        self._db.execute(
            "INSERT INTO pass_marks (game, skill, percent, set_by, set_at) VALUES (?,?,?,?,?)"
            " ON CONFLICT (game, skill) DO UPDATE SET percent = excluded.percent, set_by = excluded.set_by,"
            " set_at = excluded.set_at",
            (game, skill, percent, set_by, (at or datetime.now(UTC)).isoformat()),
        )

    def pass_marks(self, game: str) -> dict[str, int]:
        rows = self._db.execute("SELECT skill, percent FROM pass_marks WHERE game = ?", (game,)).fetchall()
        order = {skill: i for i, skill in enumerate(SKILLS)}
        return dict(sorted(((skill, int(percent)) for skill, percent in rows), key=lambda kv: order[kv[0]]))
