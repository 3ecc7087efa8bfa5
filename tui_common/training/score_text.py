"""How a graded answer and a decision time are written: the drill, its score card, the
history and a graded table's grade line all show them alike."""

from __future__ import annotations

from rich.text import Text

from shared.messages import money_text, text
from shared.training import Grade
from shared.training.core import answer_text, verdict
from tui_common.training.answer_entry import RED_SUITS


def grade_text(grade: Grade, lang: str) -> Text:
    q = grade.question
    head = Text()
    if grade.right:
        head.append(f"✔ {verdict(True).render(lang)} ", style="bold green")
    else:
        head.append(f"✘ {verdict(False).render(lang)} ", style="bold red")
        head.append(text("drill.given", lang, answer=answer_text(q, grade.given)) + " ", style="red")
    head.append(f"→ {q.correct_text.render(lang)}", style="bold")
    head.append(f"  {q.article}: ", style="bold yellow")
    head.append(q.why.render(lang))
    head.highlight_regex(RED_SUITS, "bold red")
    return head


def fmt_seconds(seconds: float | None, lang: str) -> str:
    if seconds is None:
        return "—"
    return money_text(seconds, lang, 1)
