"""Graded dealing (issue 20): a Midi shoe segment dealt on the real table screen with the
questions answered right and wrong through the keyboard, the score card checked against
the answers given; no answer changes the table; the prompt line hides what would answer
the question; snapshots of a question, a graded miss and the score card."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from test_training import right_keys, wrong_keys
from test_training_tui import StepClock, fixed_now, keys_to_press

from tui_helpers import SIZE, aio
from midi_tui.app import make_app
from shared.journal import Journal
from shared.midi.table import MidiTable, Phase
from shared.training import TrainingStore
from shared.training.core import AnswerKind
from shared.training.graded import DEALING, GradedDealing, skill_of
from shared.training.midi_dealing import midi_moments
from shared.training.midi_drills import place_players_bets
from tui_common.options import LaunchOptions
from tui_common.training.context import TrainingContext
from tui_common.training.graded import GradeLine
from tui_common.training.screens.score_card import ScoreCardScreen
from midi_tui.widgets.prompt import PromptLine

TRAINEE = "0142"


def shown(widget) -> str:
    """What a Static shows, as plain text."""
    console = Console(width=120, record=True)
    console.print(widget.content)
    return console.export_text()


def hands_shown(app) -> str:
    """What PUNTO's and BANCA's boxes show, as plain text."""
    return "\n".join(text.plain for text in app.table_screen.hands.texts[:2])


def graded_app(tmp_path: Path, seed: int | None = 5, lang: str = "es", store: TrainingStore | None = None,
               journal: str = "midi.sqlite3"):
    store = store or TrainingStore(tmp_path / "training.sqlite3")
    ctx = TrainingContext(store, lang=lang, game="midi", trainee=TRAINEE, seed=seed, clock=StepClock(), now=fixed_now())
    options = LaunchOptions(db=tmp_path / journal, training=True, seed=seed, graded=True, trainee=TRAINEE, lang=lang)
    return make_app(options, training_context=ctx)


TABLE_KEY = {Phase.NO_SHOE: "enter", Phase.BURN: "enter", Phase.BETS: "n", Phase.CARDS: "enter",
             Phase.RESULT: "enter", Phase.SHOE_END: "enter"}


def wrong_text(q) -> str:
    if q.answer_kind is AnswerKind.NUMBER:
        return str(int(q.correct) + 1)
    return wrong_keys(q)


async def deal_graded(pilot, app, coups: int, pattern) -> list[tuple[str, bool]]:
    """Deal ``coups`` coups from the keyboard, answering each question right or wrong as
    ``pattern(n)`` says; returns (kind, right) of every answer given."""
    given_answers: list[tuple[str, bool]] = []
    settled = 0
    while settled < coups:
        q = app.graded.question
        if q is not None:
            right = pattern(len(given_answers))
            text = right_keys(q) if right else wrong_text(q)
            await pilot.press(*keys_to_press(q, text) + (["enter"] if q.answer_kind is AnswerKind.NUMBER else []))
            last = app.graded.dealing.grades[-1]
            assert last.question is q and last.right is right, (q.kind, text)
            if not right:  # the miss beside the right answer, with its article
                line = shown(app.table_screen.query_one(GradeLine))
                assert "✘" in line and q.article in line and q.correct_text.render(app.lang)[:20] in line
            given_answers.append((q.kind, right))
            continue
        phase = app.midi.phase
        await pilot.press(TABLE_KEY[phase])
        settled += phase is Phase.RESULT
    return given_answers


def table_record(app) -> list[tuple]:
    """What was dealt, bet and paid: the training journal's events."""
    return [(e.type, e.payload) for e in app.midi.journal.events()]


@aio
async def test_a_graded_midi_shoe_segment_right_and_wrong(tmp_path):
    app = graded_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        answers = await deal_graded(pilot, app, 5, lambda n: n % 3 != 1)
        kinds = Counter(kind for kind, _ in answers)
        # Every moment of each coup was asked: the burn, who turns PUNTO's cards, both draws,
        # both totals, the winner; and one payout per bet.
        assert kinds["burn_count"] == 1
        for kind in ("punto_cards", "punto_draw", "banca_draw", "punto_total", "banca_total", "winner"):
            assert kinds[kind] == 5, kind
        assert sum(n for k, n in kinds.items() if k.startswith("payout_")) >= 5
        await pilot.press("ctrl+q")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ScoreCardScreen)
        card = screen.card
        assert card.drill == DEALING
        assert card.questions == len(answers)
        assert card.right == sum(right for _, right in answers)
        assert card.median_seconds == 1.0  # the step clock: every answer took one second
        assert card.asked == dict(sorted(kinds.items()))
        figures = app.graded.dealing.skills()
        for skill, figure in figures.items():
            mine = [right for kind, right in answers if skill_of(kind) == skill]
            assert (figure.asked, figure.right) == (len(mine), sum(mine)), skill
        skills_shown = shown(screen.query_one("#score-skills"))
        assert "regla de tercera carta" in skills_shown
        misses = shown(screen.query_one("#score-misses"))
        for grade in [g for g in app.graded.dealing.grades if not g.right][:6]:
            assert grade.question.article in misses
    store = app.graded.context.store
    [record] = store.history(TRAINEE)
    assert record.card.questions == len(answers) and record.card.drill == DEALING


@aio
async def test_a_wrong_answer_never_changes_the_table(tmp_path):
    records = []
    for pattern in (lambda n: True, lambda n: False, lambda n: n % 2 == 0):
        app = graded_app(tmp_path / str(len(records)), seed=11)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await deal_graded(pilot, app, 3, pattern)
            records.append(table_record(app))
    assert records[0] == records[1] == records[2]


@aio
async def test_the_screen_hides_the_answer_until_it_is_given(tmp_path):
    app = graded_app(tmp_path, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while not (app.graded.question is not None and app.graded.question.kind == "punto_draw"):
            q = app.graded.question
            if q is not None:
                await pilot.press(*keys_to_press(q, right_keys(q)) + (["enter"] if q.answer_kind is AnswerKind.NUMBER else []))
            else:
                await pilot.press(TABLE_KEY[app.midi.phase])
        prompt = shown(app.table_screen.query_one(PromptLine))
        assert "PREGUNTA" in prompt and "PUNTO" in prompt
        assert "«" not in prompt  # no announcement of the engine's
        hands = hands_shown(app)
        assert "=" not in hands and "▶" not in hands  # neither the totals nor where the next card goes
        # Game keys wait for the answer; the key bar offers the hint.
        before = len(list(app.midi.journal.events()))
        await pilot.press("n", "x")  # letters that answer nothing: said on the prompt line
        assert len(list(app.midi.journal.events())) == before
        assert "Respuesta ilegible: «x»" in shown(app.table_screen.query_one(PromptLine))
        await pilot.press("escape")
        assert "Responda primero" in app.message_line.text
        assert not app.graded.dealing.grades or app.graded.dealing.grades[-1].kind != "punto_draw"
        await pilot.press("?")
        assert app.graded.dealing.hinted
        await pilot.press(*keys_to_press(app.graded.question, right_keys(app.graded.question)))
        assert app.graded.dealing.grades[-1].hinted


@aio
async def test_the_score_card_shows_trend_and_pass_marks(tmp_path):
    store = TrainingStore(tmp_path / "training.sqlite3")
    store.set_pass_mark("midi", "third_card", 90, set_by="sup1")
    store.set_pass_mark("midi", "payouts", 50, set_by="sup1")
    for n, (pattern, expect) in enumerate(((lambda n: n % 2 == 0, "No alcanza"), (lambda n: True, "APROBADO"))):
        app = graded_app(tmp_path, seed=5, store=store, journal=f"midi-{n}.sqlite3")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await deal_graded(pilot, app, 2, pattern)
            await pilot.press("ctrl+q")
            await pilot.pause()
            screen = app.screen
            assert expect in shown(screen.query_one("#score-pass"))
            skills = shown(screen.query_one("#score-skills"))
    # The second session reads against the first: its figures are in the "Antes" column.
    assert "↑" in skills
    assert [r.card.drill for r in store.history(TRAINEE)] == [DEALING, DEALING]


@aio
async def test_graded_table_writes_only_its_training_journal(tmp_path):
    app = graded_app(tmp_path, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await deal_graded(pilot, app, 1, lambda n: True)
        assert app.midi.journal.training
        assert "ENTRENAMIENTO" in shown(app.table_screen.query_one("#training-banner"))
    # The training journal given and the training database: no other file was written.
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".sqlite3") == ["midi.sqlite3", "training.sqlite3"]


# --- the property: no answer changes the cards or the settlement ------------------------------------

def deal_on_the_engine(seed: int, coups: int, answer, trainee: str = "t") -> tuple[list[tuple], GradedDealing | None]:
    """The training engine driven as the console drives it, with ``answer(question)`` typed
    at every question (None: no grading at all); the journal's events and the grading."""
    journal = Journal(":memory:", "MPB-02", "midi", training=True)
    table = MidiTable(journal, training=True, seed=seed)
    players = random.Random(f"players-{seed}")
    dealing = None if answer is None else GradedDealing(midi_moments, trainee=trainee, game="midi", seed=seed)
    settled = 0
    while settled < coups:
        if dealing is not None and dealing.observe(table) is not None:
            q = dealing.question
            text = answer(q)
            dealing.answer(text if dealing.can_answer(text) else right_keys(q))
            continue
        phase = table.phase
        if phase in (Phase.NO_SHOE, Phase.SHOE_END):
            table.play.new_shoe()
        elif phase is Phase.BURN:
            table.play.deal() if table.shoe.burn_card is None else table.play.confirm_burn()
        elif phase is Phase.BETS:
            if not table.bets:
                place_players_bets(players, table)
            table.play.no_va_mas()
        elif phase is Phase.CARDS:
            table.play.deal()
        else:
            table.play.settle()
            settled += 1
    return [(e.type, e.payload) for e in journal.events()], dealing


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), answers=st.lists(st.sampled_from(["right", "wrong", "garbage", "digits"]),
                                                     min_size=1, max_size=40))
def test_no_answer_changes_the_dealt_cards_or_the_settlement(seed, answers):
    typed = iter(answers * 200)

    def answer(q):
        how = next(typed)
        if how == "right":
            return right_keys(q)
        if how == "wrong":
            return wrong_text(q)
        return "zz" if how == "garbage" else "7"

    assert deal_on_the_engine(seed, 3, answer)[0] == deal_on_the_engine(seed, 3, None)[0]


# --- snapshots ----------------------------------------------------------------------------------

SIZES = {"120x40": (120, 40), "100x30": (100, 30)}


async def _to_question(pilot, kind: str, pattern=lambda n: True) -> None:
    """Deal with every answer right until the question of ``kind`` waits."""
    app = pilot.app
    await pilot.pause()
    n = 0
    while not (app.graded.question is not None and app.graded.question.kind == kind):
        q = app.graded.question
        if q is not None:
            text = right_keys(q) if pattern(n) else wrong_text(q)
            await pilot.press(*keys_to_press(q, text) + (["enter"] if q.answer_kind is AnswerKind.NUMBER else []))
            n += 1
        else:
            await pilot.press(TABLE_KEY[app.midi.phase])


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_graded_question(snap_compare, tmp_path, size):
    async def play(pilot):
        await _to_question(pilot, "banca_draw")

    assert snap_compare(graded_app(tmp_path, seed=5), terminal_size=SIZES[size], run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_graded_miss(snap_compare, tmp_path, size):
    async def play(pilot):
        await _to_question(pilot, "payout_tie")
        q = pilot.app.graded.question
        await pilot.press(*keys_to_press(q, wrong_text(q)))

    assert snap_compare(graded_app(tmp_path, seed=5), terminal_size=SIZES[size], run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_graded_score_card(snap_compare, tmp_path, size):
    async def play(pilot):
        await deal_graded(pilot, pilot.app, 2, lambda n: n % 4 != 2)
        await pilot.press("ctrl+q")

    assert snap_compare(graded_app(tmp_path, seed=5), terminal_size=SIZES[size], run_before=play)


def test_an_adaptive_shoe_is_a_real_shoe_leaning_to_the_missed_cases():
    from shared.cards import FULL_DECK, Card
    from shared.training.midi_dealing import _banca_cases, adaptive_order
    from shared.training.midi_drills import tableau_weights

    record = {"B5-P4": (4, 4), "B6-P7": (3, 3), "B3-P8": (5, 5)}
    weights = tableau_weights(record)

    def weight(order):
        return sum(weights[case] for case in _banca_cases([Card.parse(t) for t in order]) if case in weights)

    rng = random.Random(2)
    leaning, plain = [], []
    for _ in range(12):
        order = adaptive_order(rng, 8, record)
        assert Counter(order) == Counter(str(c) for c in FULL_DECK * 8)  # every card of the 8 decks, once each
        leaning.append(weight(order))
        deck = [str(c) for c in FULL_DECK] * 8
        rng.shuffle(deck)
        plain.append(weight(deck))
    assert sum(leaning) > sum(plain)


@aio
async def test_a_graded_coup_keeps_its_totals_until_they_are_asked(tmp_path):
    """Issue 31 item 9: while a graded coup's cards are dealt, neither the prompt nor the hands
    show a total (nor the header the cut card): «¿Total del PUNTO?» comes once the coup is
    decided, and the PUNTO total was on the prompt line before it was asked."""
    import re

    app = graded_app(tmp_path, seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dealt_lines = 0
        asked = 0
        while asked < 4:
            q = app.graded.question
            if q is not None:
                asked += q.kind == "punto_total"
                await pilot.press(*keys_to_press(q, right_keys(q)) + (["enter"] if q.answer_kind is AnswerKind.NUMBER else []))
                continue
            if app.midi.phase is Phase.CARDS:
                line = shown(app.table_screen.query_one(PromptLine))
                hands = hands_shown(app)
                assert not re.search(r"(PUNTO|BANCA|con) \d", line), line
                assert "=" not in hands and "corte: ?" in str(app.table_screen.header.render())
                dealt_lines += 1
            await pilot.press(TABLE_KEY[app.midi.phase])
        assert dealt_lines >= 8  # the lines between the questions were looked at


@aio
async def test_the_hint_helps_and_never_repeats_the_question(tmp_path):
    """«?» at «¿a quién van las cartas del PUNTO?» gave the question back: it gives the
    PUNTO bets the rule reads (Art. 8 §4), not the box."""
    app = graded_app(tmp_path, seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await _to_question(pilot, "punto_cards")
        q = app.graded.question
        await pilot.press("?")
        hint = shown(app.table_screen.query_one(GradeLine))
        assert "Pista" in hint and q.prompt.render("es") not in hint
        assert "apuestas al PUNTO: casillero 2: ARS 10 · casillero 6: ARS 25" in hint.replace("\n", " ")


def test_each_hands_total_is_asked_with_its_own_article():
    from shared.training.midi_dealing import total_question

    assert total_question("banca", [], 0).prompt.render("es") == "¿Total de la BANCA?"
    assert total_question("punto", [], 0).prompt.render("es") == "¿Total del PUNTO?"
