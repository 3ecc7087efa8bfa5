"""Training screens driven by key presses: every drill answered right and wrong, the
score card checked against the answers given, sign-in, early finish, history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console
from test_training import right_keys, wrong_keys

from tui_helpers import SIZE, aio
from shared.training import CATALOGUE, TrainingStore
from shared.training.core import AnswerKind
from tui_common.training.app import TrainingApp
from tui_common.training.context import TrainingContext
from tui_common.training.screens.drill import DrillScreen
from tui_common.training.screens.history import HistoryScreen, history_table
from tui_common.training.screens.pick import DrillPicker
from tui_common.training.screens.score_card import ScoreCardScreen


KEY_NAMES = {".": "full_stop", ",": "comma"}


class StepClock:
    """Each reading is one second after the previous: every decision takes exactly 1 s."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def fixed_now():
    moments = iter(datetime(2026, 3, 2, 9, 0, tzinfo=UTC) + timedelta(minutes=7 * i) for i in range(1000))
    return lambda: next(moments)


def context(tmp_path: Path, **kw) -> TrainingContext:
    store = TrainingStore(tmp_path / "training" / "training.sqlite3")
    return TrainingContext(store, clock=StepClock(), now=fixed_now(), **kw)


def keys_to_press(question, text: str) -> list[str]:
    keys = [KEY_NAMES.get(ch, ch) for ch in text]
    if question.answer_kind is AnswerKind.CARDS or (
        question.answer_kind is AnswerKind.PAYOUT and text not in ("c", "d")
    ):
        keys.append("enter")
    return keys


async def answer_all(pilot, app, pattern) -> list[bool]:
    """Answer every question of the drill on screen, right or wrong as ``pattern(n)`` says."""
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    session = screen.session
    given = []
    n = 0
    while not session.finished:
        q = session.question
        right = pattern(n)
        await pilot.press(*keys_to_press(q, right_keys(q) if right else wrong_keys(q)))
        assert len(session.grades) == n + 1, f"question {n + 1} ({q.kind}) was not graded"
        assert session.grades[-1].right is right
        given.append(right)
        n += 1
    await pilot.pause()
    return given


@pytest.mark.parametrize(("game", "name"), [(d.game, d.name) for d in CATALOGUE])
@aio
async def test_each_drill_through_the_keyboard_right_and_wrong(tmp_path, game, name):
    ctx = context(tmp_path, game=game, trainee="0142", seed=9, count=2)
    app = TrainingApp(ctx, drill=name)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert "ENTRENAMIENTO" in str(app.screen.query_one("#training-banner").render())
        given = await answer_all(pilot, app, lambda n: n % 3 != 1)
        assert isinstance(app.screen, ScoreCardScreen)
        card = app.screen.card
        assert card.questions == len(given) and card.right == sum(given)
        assert card.median_seconds == 1.0
        assert sum(card.mistakes.values()) == len(given) - sum(given)
        text = str(app.screen.query_one("#score-accuracy").render())
        assert f"{sum(given)}/{len(given)}" in text
    (record,) = ctx.store.history("0142")
    assert (record.card.game, record.card.drill, record.card.seed) == (game, name, 9)
    assert record.card.right == sum(given)


@aio
async def test_sign_in_pick_and_grade_line(tmp_path):
    ctx = context(tmp_path, game="midi", seed=4, count=3)
    app = TrainingApp(ctx)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # nothing typed: refused
        assert "Escriba" in str(app.screen.query_one("#signin-error").render())
        await pilot.press(*"Ana", "enter")
        assert isinstance(app.screen, DrillPicker) and ctx.trainee == "Ana"
        await pilot.press("down", "enter")  # the second Midi drill: the BANCA tableau
        assert isinstance(app.screen, DrillScreen) and app.screen.drill_name == "tableau"
        q = app.screen.session.question
        await pilot.press(wrong_keys(q))
        line = str(app.screen.query_one("#grade").render())
        assert line.startswith("✘ MAL") and q.article in line and q.correct_text.render("es") in line
        q = app.screen.session.question
        await pilot.press(right_keys(q))
        assert str(app.screen.query_one("#grade").render()).startswith("✔ BIEN")


@aio
async def test_escape_ends_the_session_with_a_score_card_of_what_was_answered(tmp_path):
    ctx = context(tmp_path, game="madero", trainee="beto", seed=1, count=3)
    app = TrainingApp(ctx, drill="board")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = app.screen.session
        q = session.question
        assert q.answer_kind is AnswerKind.CARDS
        await pilot.press("1", "2", "enter")  # two cards only: not graded
        assert session.grades == []
        assert "5" in str(app.screen.query_one("#entry").render())
        await pilot.press("backspace", "backspace", *keys_to_press(q, right_keys(q)))
        await pilot.press("escape")
        assert isinstance(app.screen, ScoreCardScreen)
        assert (app.screen.card.questions, app.screen.card.right) == (1, 1)
        await pilot.press("n")
        assert isinstance(app.screen, DrillPicker)
    assert len(ctx.store.history("beto")) == 1


@aio
async def test_escape_before_any_answer_stores_nothing(tmp_path):
    ctx = context(tmp_path, game="midi", trainee="carla", seed=1, count=3)
    app = TrainingApp(ctx, drill="payouts")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        assert isinstance(app.screen, DrillPicker)
    assert ctx.store.history("carla") == []


@aio
async def test_repeat_gives_the_same_questions_and_history_shows_progress(tmp_path):
    ctx = context(tmp_path, game="midi", trainee="dani", seed=5, count=4)
    app = TrainingApp(ctx, drill="tableau")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = [ex.questions[0].situation for ex in app.screen.session.exercises]
        await answer_all(pilot, app, lambda n: n == 0)
        await pilot.press("r")
        assert [ex.questions[0].situation for ex in app.screen.session.exercises] == first
        await answer_all(pilot, app, lambda n: True)
        await pilot.press("h")
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, ScoreCardScreen)
    records = ctx.store.history("dani")
    assert [r.card.right for r in records] == [1, 4]
    console = Console(width=120, record=True)
    console.print(history_table(records, "es"))
    text = console.export_text()
    assert " 25 %" in text and "100 %" in text and "×3" in text


# --- snapshots (120×40) ------------------------------------------------------------------------


def test_snapshot_midi_coup_question(snap_compare, tmp_path):
    ctx = context(tmp_path, game="midi", trainee="0142", seed=3, count=2)
    assert snap_compare(TrainingApp(ctx, drill="coup"), terminal_size=SIZE, press=["0", "c"])


def test_snapshot_madero_board_cards(snap_compare, tmp_path):
    ctx = context(tmp_path, game="madero", trainee="0142", seed=3, count=2)
    assert snap_compare(TrainingApp(ctx, drill="board"), terminal_size=SIZE, press=["1", "3", "4"])


def test_snapshot_score_card_and_history(snap_compare, tmp_path):
    ctx = context(tmp_path, game="midi", trainee="0142", seed=7, count=4, lang="en")

    async def play(pilot):
        await answer_all(pilot, pilot.app, lambda n: n % 2 == 0)
        await pilot.press("r")
        await answer_all(pilot, pilot.app, lambda n: n != 3)

    assert snap_compare(TrainingApp(ctx, drill="tableau"), terminal_size=SIZE, run_before=play)


def test_snapshot_history(snap_compare, tmp_path):
    ctx = context(tmp_path, game="midi", trainee="0142", seed=7, count=4)

    async def play(pilot):
        for pattern in (lambda n: n == 0, lambda n: n < 3, lambda n: True):
            await answer_all(pilot, pilot.app, pattern)
            await pilot.press("r")
        await pilot.press("escape", "h")

    assert snap_compare(TrainingApp(ctx, drill="tableau"), terminal_size=SIZE, run_before=play)


def test_snapshot_midi_payout_amount_typed_in_english(snap_compare, tmp_path):
    ctx = context(tmp_path, game="midi", trainee="0142", seed=6, count=3, lang="en")
    assert snap_compare(TrainingApp(ctx, drill="payouts"), terminal_size=SIZE, press=["2", "2"])
