"""Training mode (issue 9): graded drills for new croupiers, score cards, history.

Pure engine, no UI: drills deal virtual cards from a seeded generator and ask the
decisions a croupier makes; the games' engines give every correct answer; a session
grades and times each answer; the training database keeps score cards per trainee.
"""

from shared.training.core import (
    AnswerKind,
    Exercise,
    Grade,
    Option,
    Question,
    ScoreCard,
    Session,
)
from shared.training.drills import CATALOGUE, GAMES, DrillInfo, check_session, drills_for, find_drill, start_session
from shared.training.store import SessionRecord, TrainingStore, default_training_db

__all__ = [
    "AnswerKind", "CATALOGUE", "DrillInfo", "Exercise", "GAMES", "Grade", "Option", "Question",
    "ScoreCard", "Session", "SessionRecord", "TrainingStore", "check_session", "default_training_db", "drills_for",
    "find_drill", "start_session",
]
