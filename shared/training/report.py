"""The trainers' report (``train --report``): every trainee's progress per skill.

For each trainee and game: how many sessions (drills and graded tables), the first and
the latest accuracy per skill, the latest median time, and whether the latest graded
table session met every pass mark set for the game.
"""

from __future__ import annotations

from typing import Any

from shared.messages import Msg, money_text, text
from shared.training.graded import DEALING, marks_met, skill_name
from shared.training.store import TrainingStore


def progress_report(store: TrainingStore, games: tuple[str, ...], trainee: str | None = None) -> dict[str, Any]:
    trainees = [trainee] if trainee else store.trainees()
    rows = []
    for name in trainees:
        for game in games:
            history = store.skill_history(name, game)
            if not history:
                continue
            skills: dict[str, dict[str, Any]] = {}
            for _record, figures in history:
                for skill, figure in figures.items():
                    entry = skills.setdefault(skill, {"first_percent": figure.percent, "sessions": 0})
                    entry.update(last_percent=figure.percent, last_median_seconds=figure.median_seconds,
                                 sessions=entry["sessions"] + 1)
            graded = [(record, figures) for record, figures in history if record.card.drill == DEALING]
            marks = store.pass_marks(game)
            rows.append({
                "trainee": name,
                "game": game,
                "sessions": len(history),
                "graded_sessions": len(graded),
                "last_session": history[-1][0].finished_at,
                "skills": skills,
                "pass_marks": marks,
                "passed": marks_met(graded[-1][1], marks) if graded else None,
            })
    return {"trainees": rows}


def report_lines(report: dict[str, Any], lang: str = "es") -> list[str]:
    if not report["trainees"]:
        return [text("training.report_none", lang)]
    lines = []
    for row in report["trainees"]:
        passed = row["passed"]
        verdict = "—" if passed is None else text("training.report_passed" if passed else "training.report_not_met", lang)
        lines.append(text("training.report_row", lang, trainee=row["trainee"], game=row["game"], sessions=Msg.of("training.sessions", count=row["sessions"]),
                          graded=row["graded_sessions"], last=row["last_session"][:16], verdict=verdict))
        for skill, entry in row["skills"].items():
            mark = row["pass_marks"].get(skill)
            seconds = entry["last_median_seconds"]
            median = "—" if seconds is None else money_text(seconds, lang, 1) + " s"
            lines.append(f"    {skill_name(skill, lang):<28} {entry['first_percent']:>3} % → "
                         f"{entry['last_percent']:>3} %   {median:>7}"
                         + ("" if mark is None else "   " + text("training.report_mark", lang, mark=mark)))
    return lines
