"""The score card at the end of a session: accuracy, median seconds, mistakes by kind.

A graded table's session (its grades given) also shows each skill's accuracy, median
time and hints against the trainee's earlier sessions and the pass marks, and its misses
with the right answer and the article.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.widgets import Static

from shared.training import Grade, ScoreCard
from shared.training.core import answer_text
from shared.training.drills import kind_name, session_title
from shared.training.graded import SkillFigure, grade_answers, marks_met, skill_figures, skill_name
from tui_common.training.context import TrainingContext
from tui_common.training.score_text import fmt_seconds, grade_text
from tui_common.training.screens.base import TrainingScreen, leave
from tui_common.training.screens.history import HistoryScreen
from tui_common.training.text import tr
from tui_common.widgets.training_banner import TrainingBanner


def mistakes_table(card: ScoreCard, lang: str) -> Table | Text:
    if not card.mistakes:
        return Text(tr("no_mistakes", lang), style="bold green")
    table = Table(title=tr("mistakes", lang), title_justify="left", show_edge=False, expand=False)
    table.add_column(tr("col_decision", lang))
    table.add_column(tr("col_wrong", lang), justify="right", style="bold red")
    table.add_column(tr("col_asked", lang), justify="right")
    for kind, wrong in card.mistakes.items():
        table.add_row(kind_name(kind, lang), str(wrong), str(card.asked.get(kind, wrong)))
    return table


MISSES_SHOWN = 6


def skills_table(figures: dict[str, SkillFigure], before: dict[str, SkillFigure], marks: dict[str, int],
                 lang: str) -> Table:
    """One row a skill: right/asked, accuracy, median seconds, hints, the earlier sessions, the mark."""
    table = Table(title=tr("skills_title", lang), title_justify="left", show_edge=False, expand=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("col_skill", "left"), ("col_accuracy", "right"), ("col_median", "right"), ("col_hints", "right"),
        ("col_trend", "right"), ("col_mark", "right"))
    for key, justify in columns:
        table.add_column(tr(key, lang), justify=justify)
    for skill, figure in figures.items():
        earlier = before.get(skill)
        trend = Text("—" if earlier is None else f"{earlier.percent} %")
        if earlier is not None:
            change = figure.percent - earlier.percent
            trend.append(f" {'↑' if change > 0 else '↓' if change < 0 else '='}",
                         style="green" if change > 0 else "red" if change < 0 else "")
        mark = marks.get(skill)
        mark_text = Text("—" if mark is None else f"{mark} % ")
        if mark is not None:
            mark_text.append("✔" if figure.percent >= mark else "✘",
                             style="bold green" if figure.percent >= mark else "bold red")
        table.add_row(skill_name(skill, lang), f"{figure.right}/{figure.asked}  {figure.percent} %",
                      fmt_seconds(figure.median_seconds, lang), str(figure.hints), trend, mark_text)
    return table


def misses_text(grades: list[Grade], lang: str) -> Text:
    """Each miss: the decision, what was given, the right answer and its article."""
    misses = [g for g in grades if not g.right]
    out = Text(tr("misses_title", lang), style="bold")
    for grade in misses[:MISSES_SHOWN]:
        q = grade.question
        out.append(f"\n✘ {kind_name(q.kind, lang)}: ", style="bold red")
        out.append(f"{answer_text(q, grade.given).render(lang)} → ")
        out.append(q.correct_text.render(lang), style="bold")
        out.append(f"  {q.article}", style="bold yellow")
    if len(misses) > MISSES_SHOWN:
        out.append("\n" + tr("misses_more", lang, n=len(misses) - MISSES_SHOWN), style="dim")
    return out


def pass_text(figures: dict[str, SkillFigure], marks: dict[str, int], lang: str) -> Text | None:
    met = marks_met(figures, marks)
    if met is None:
        return None
    if met:
        return Text(tr("marks_met", lang), style="bold green")
    short = [skill_name(s, lang) for s, m in marks.items() if s not in figures or figures[s].percent < m]
    return Text(tr("marks_not_met", lang, skills=", ".join(short)), style="bold red")


class ScoreCardScreen(TrainingScreen):
    BINDINGS = [
        Binding("r", "repeat", show=False),
        Binding("n", "another", show=False),
        Binding("h", "history", show=False),
        Binding("q", "leave", show=False),
        Binding("escape", "another", show=False),
    ]

    def __init__(self, context: TrainingContext, card: ScoreCard, last: Grade | None, game: str, name: str,
                 *, grades: list[Grade] | None = None, session_id: int | None = None,
                 repeat: Callable[[], TrainingScreen] | None = None) -> None:
        super().__init__(id="training-score")
        self.context = context
        self.card = card
        self.last = last
        self.game = game
        self.drill_name = name
        self.grades = grades
        """A graded table's answers: the card then shows skills, trend, marks and misses."""
        self.session_id = session_id
        self.repeat = repeat
        """The same drill again (given by the drill that ends here; a graded table has none)."""

    def compose(self) -> ComposeResult:
        lang, card = self.context.lang, self.card
        title = session_title(self.game, self.drill_name)
        yield TrainingBanner(lang, self.context.seed)
        with Vertical(classes="dialog -wide", id="score"):
            yield Static(tr("score_title", lang, drill=f"{tr('game_' + self.game, lang)} · {title.render(lang)}")
                         + f" — {escape(card.trainee)}", classes="dialog-title")
            pct = round(100 * card.accuracy)
            yield Static(Text(tr("accuracy", lang, right=card.right, questions=card.questions, pct=pct),
                              style="bold " + ("green" if pct >= 90 else "yellow" if pct >= 70 else "red")),
                         id="score-accuracy")
            yield Static(tr("median", lang, seconds=fmt_seconds(card.median_seconds, lang)), id="score-median")
            seed = tr("seed", lang, seed=card.seed) if card.seed is not None else tr("no_seed", lang)
            yield Static(f"{seed} · {tr('saved', lang, trainee=escape(card.trainee))}", classes="dialog-body")
            if self.grades is None:
                yield Static(mistakes_table(card, lang), id="score-mistakes", classes="dialog-body")
                if self.last is not None:
                    yield Static(grade_text(self.last, lang), id="grade")
                yield Static(tr("score_keys", lang), classes="dialog-keys")
                return
            yield from self._graded(lang)
            yield Static(tr("graded_score_keys", lang), classes="dialog-keys")

    def _graded(self, lang: str) -> ComposeResult:
        assert self.grades is not None
        store, card = self.context.store, self.card
        figures = skill_figures(grade_answers(self.grades))
        before = skill_figures(store.earlier_answers(card.trainee, card.game, self.session_id))
        marks = store.pass_marks(card.game)
        yield Static(skills_table(figures, before, marks, lang), id="score-skills", classes="dialog-body")
        verdict = pass_text(figures, marks, lang)
        if verdict is not None:
            yield Static(verdict, id="score-pass")
        if card.right < card.questions:
            yield Static(misses_text(self.grades, lang), id="score-misses", classes="dialog-body")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A graded table's session is not a drill to repeat (it has no ``repeat``) or leave for another.
        if action == "repeat":
            return self.repeat is not None
        return not (self.grades is not None and action == "another")

    def action_repeat(self) -> None:
        assert self.repeat is not None  # check_action offers the key only then
        self.app.switch_screen(self.repeat())

    def action_another(self) -> None:
        self.app.pop_screen()

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.context))

    def action_leave(self) -> None:
        leave(self.context, self.app)

