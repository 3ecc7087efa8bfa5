"""The trainers' report (``train --report``): every trainee's progress per skill.

For each trainee and game: how many sessions (drills and graded tables), the first and
the latest accuracy per skill, the latest median time, and whether the latest graded
table session met every pass mark set for the game.
"""

from __future__ import annotations

from typing import Any

from shared.training.graded import DEALING, SKILL_NAMES, marks_met
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
    es = lang != "en"
    if not report["trainees"]:
        return ["Todavía no hay sesiones." if es else "No sessions yet."]
    lines = []
    for row in report["trainees"]:
        passed = row["passed"]
        verdict = ("—" if passed is None else ("APROBADO" if es else "PASSED") if passed
                   else ("no alcanza las marcas" if es else "pass marks not met"))
        lines.append(f"{row['trainee']} · {row['game']} · "
                     + (f"{row['sessions']} sesiones ({row['graded_sessions']} en mesa) · última {row['last_session'][:16]}"
                        if es else f"{row['sessions']} sessions ({row['graded_sessions']} at the table) · last "
                        f"{row['last_session'][:16]}")
                     + f" · {verdict}")
        for skill, entry in row["skills"].items():
            mark = row["pass_marks"].get(skill)
            median = entry["last_median_seconds"]
            lines.append(f"    {SKILL_NAMES[skill]('es' if es else 'en'):<28} {entry['first_percent']:>3} % → "
                         f"{entry['last_percent']:>3} %   {'—' if median is None else f'{median:.1f} s':>7}"
                         + ("" if mark is None else f"   {'marca' if es else 'mark'} {mark} %"))
    return lines
