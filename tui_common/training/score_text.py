"""How a graded answer and a decision time are written: the drill, its score card, the
history and a graded table's grade line all show them alike."""

from __future__ import annotations

from rich.text import Text

from shared.training import Grade
from shared.training.core import answer_text
from tui_common.training.answer_entry import RED_SUITS


def grade_text(grade: Grade, lang: str) -> Text:
    q = grade.question
    head = Text()
    if grade.right:
        head.append(f"✔ {'RIGHT' if lang == 'en' else 'BIEN'} ", style="bold green")
    else:
        given = answer_text(q, grade.given)(lang)
        head.append(f"✘ {'WRONG' if lang == 'en' else 'MAL'} ", style="bold red")
        head.append(f"({'you' if lang == 'en' else 'usted'}: {given}) ", style="red")
    head.append(f"→ {q.correct_text(lang)}", style="bold")
    head.append(f"  {q.article}: ", style="bold yellow")
    head.append(q.why(lang))
    head.highlight_regex(RED_SUITS, "bold red")
    return head


def fmt_seconds(seconds: float | None, lang: str) -> str:
    if seconds is None:
        return "—"
    text = f"{seconds:.1f}"
    return text if lang == "en" else text.replace(".", ",")
