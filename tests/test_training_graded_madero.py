"""Graded dealing at the Madero table (issue 20): rounds dealt on the real table screen with
the showdown's questions answered right and wrong through the keyboard, the score card
checked against the answers given; no answer changes the cards or the settlement; the
screen hides the settlement until the last answer; snapshots of a question, a graded miss
and the score card."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_training import right_keys, wrong_keys
from test_training_graded import shown
from test_training_tui import StepClock, fixed_now, keys_to_press

from tui_helpers import SIZE, aio
from madero_tui.app import make_app
from shared.codec import encode
from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.settlement import Bet
from shared.madero.table import MaderoTable, Phase
from shared.training import TrainingStore
from shared.training.core import AnswerKind
from shared.training.graded import DEALING, GradedDealing, skill_of
from shared.training.madero_dealing import adaptive_seed, madero_moments, miss_weight, rehearse
from tui_common.options import LaunchOptions
from tui_common.training.context import TrainingContext
from tui_common.training.graded import GradeLine
from tui_common.training.screens.score_card import ScoreCardScreen
from tests.madero_helpers import deal_to_settlement

TRAINEE = "0142"
PROGRESSIVE = MaderoTableConfig.from_mapping(dict(table_id="MPB-05", minimum=10, maximum=500,
                                                  jackpot_mode="progressive", contribution_percent=50))

# Box 1: Ante 25, Bonus 5, Jackpot 2 credits; box 3: Ante 20 and Jackpot 1 credit.
BET_KEYS = ("1", "a", "2", "5", "enter", "b", "5", "enter", "j", "2", "3", "a", "2", "0", "enter", "j", "1")
TABLE_KEYS = {Phase.BETS: ("n",), Phase.FIRST: ("v",), Phase.FLOP: ("d",), Phase.SECOND: ("t",),
              Phase.TURN: ("d",), Phase.THIRD: ("p",), Phase.RIVER: ("d",), Phase.SETTLEMENT: ("enter",)}


def graded_app(tmp_path: Path, seed: int | None = 4, lang: str = "es", store: TrainingStore | None = None,
               config: MaderoTableConfig | None = None):
    store = store or TrainingStore(tmp_path / "training.sqlite3")
    ctx = TrainingContext(store, lang=lang, game="madero", trainee=TRAINEE, seed=seed, clock=StepClock(),
                          now=fixed_now())
    options = LaunchOptions(training=True, seed=seed, graded=True, trainee=TRAINEE, lang=lang,
                            db=tmp_path / "madero.sqlite3")
    return make_app(options, config=config, clock=lambda: "21:14", draw_rng=random.Random(seed),
                    training_context=ctx)


def wrong_text(q) -> str:
    return wrong_keys(q) if q.answer_kind is not AnswerKind.PAYOUT or q.correct != "collect" else "d"


async def answer(pilot, q, right: bool) -> None:
    await pilot.press(*keys_to_press(q, right_keys(q) if right else wrong_text(q)))


async def deal_graded(pilot, app, rounds: int, pattern) -> list[tuple[str, bool]]:
    """Deal ``rounds`` rounds from the keyboard, answering each question right or wrong as
    ``pattern(n)`` says; returns (kind, right) of every answer given."""
    given_answers: list[tuple[str, bool]] = []
    settled = 0
    while settled < rounds:
        q = app.graded.question
        if q is not None:
            right = pattern(len(given_answers))
            await answer(pilot, q, right)
            last = app.graded.dealing.grades[-1]
            assert last.question is q and last.right is right, q.kind
            if not right:  # the miss beside the right answer, with its article
                line = shown(app.table_screen.query_one(GradeLine))
                assert "✘" in line and q.article in line and q.correct_text.render(app.lang)[:20] in line
            given_answers.append((q.kind, right))
            continue
        phase = app.engine.phase
        await pilot.press(*(BET_KEYS if phase is Phase.IDLE else TABLE_KEYS[phase]))
        settled += phase is Phase.SETTLEMENT
    return given_answers


def table_record(app) -> list[tuple]:
    """What was dealt, bet and paid: the training journal's events."""
    return [(e.type, e.payload) for e in app.engine.journal.events()]


@aio
async def test_a_graded_madero_round_right_and_wrong(tmp_path):
    app = graded_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        answers = await deal_graded(pilot, app, 2, lambda n: n % 3 != 1)
        kinds = Counter(kind for kind, _ in answers)
        # Each round: the bank's combination, who wins at both boxes, box 1's Bonus line,
        # both Jackpot lines, and one payout per bet (Ante, Flop, Turn at each box; Bonus
        # at box 1; Jackpot at both).
        assert kinds["combination"] == 2
        assert kinds["winner"] == 4
        assert kinds["bonus_line"] == 2 and kinds["jackpot_line"] == 4
        for kind, n in (("payout_ante", 4), ("payout_flop", 4), ("payout_turn", 4), ("payout_bonus", 2),
                        ("payout_jackpot", 4)):
            assert kinds[kind] == n, kind
        assert "special_prize" not in kinds  # a fixed paytable has none
        await pilot.press("ctrl+q")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ScoreCardScreen)
        card = screen.card
        assert card.drill == DEALING and card.game == "madero"
        assert card.questions == len(answers)
        assert card.right == sum(right for _, right in answers)
        assert card.median_seconds == 1.0  # the step clock: every answer took one second
        assert card.asked == dict(sorted(kinds.items()))
        assert card.mistakes == dict(sorted(Counter(k for k, right in answers if not right).items(),
                                            key=lambda kv: (-kv[1], kv[0])))
        figures = app.graded.dealing.skills()
        assert set(figures) == {"hand_reading", "payouts", "side_bets"}
        for skill, figure in figures.items():
            mine = [right for kind, right in answers if skill_of(kind) == skill]
            assert (figure.asked, figure.right) == (len(mine), sum(mine)), skill
            assert f"{figure.right}/{figure.asked}" in shown(screen.query_one("#score-skills"))
        misses = shown(screen.query_one("#score-misses"))
        for grade in [g for g in app.graded.dealing.grades if not g.right][:6]:
            assert grade.question.article in misses
    [record] = app.graded.context.store.history(TRAINEE)
    assert record.card.questions == len(answers) and record.card.game == "madero"


@aio
async def test_the_answers_are_the_settlement_the_table_pays(tmp_path):
    app = graded_app(tmp_path, seed=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.graded.question is None:
            phase = app.engine.phase
            await pilot.press(*(BET_KEYS if phase is Phase.IDLE else TABLE_KEYS[phase]))
        settlement = app.engine.carrusel.pending_settlement()
        questions = list(app.graded.dealing.pending)
        await deal_graded(pilot, app, 1, lambda n: n % 2 == 0)
    [confirmed] = [p for t, p in table_record(app) if t == "round_settled"]
    assert confirmed["settlement"] == encode(settlement.record())  # what was asked is what was paid
    payouts = {q.prompt.render("en").split(":")[0] + " " + q.kind: q.correct for q in questions if q.kind.startswith("payout_")}
    for box in settlement.boxes:
        for r in box.bets:
            want = f"pay:{r.paid.normalize():f}" if r.outcome.value == "win" else (
                "return" if r.outcome.value == "push" else "collect")
            assert payouts[f"Box {box.box} payout_{r.bet.value}"] == want


@aio
async def test_the_screen_hides_the_settlement_until_the_last_answer(tmp_path):
    app = graded_app(tmp_path, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.graded.question is None:
            phase = app.engine.phase
            await pilot.press(*(BET_KEYS if phase is Phase.IDLE else TABLE_KEYS[phase]))
        screen = app.table_screen
        assert app.engine.phase is Phase.SETTLEMENT
        prompt = screen.prompt.text
        assert "PREGUNTA" in prompt and "banca" in prompt and "La banca tiene" not in prompt
        assert screen.top.bank_text.count("\n") == 0  # the bank's cards, not its combination
        assert screen.lower.current == "log"  # not the settlement
        assert not any(view.result or view.pay for view in screen.boxes.views)  # nobody's result, no NETO
        # Game keys wait for the answer; what answers nothing is said and loses nothing.
        before = len(table_record(app))
        await pilot.press("enter", "x")
        assert len(table_record(app)) == before
        assert "Respuesta ilegible: «x»" in screen.prompt.text
        await pilot.press("?")
        assert app.graded.dealing.hinted
        await answer(pilot, app.graded.question, True)
        assert app.graded.dealing.grades[-1].hinted
        while app.graded.question is not None:
            await answer(pilot, app.graded.question, True)
        assert screen.lower.current == "settlement" and "La banca tiene" in screen.top.bank_text + screen.prompt.text


@aio
async def test_a_progressive_table_asks_the_special_prizes(tmp_path):
    app = graded_app(tmp_path, seed=2, config=PROGRESSIVE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.graded.question is None:
            phase = app.engine.phase
            await pilot.press(*(BET_KEYS if phase is Phase.IDLE else TABLE_KEYS[phase]))
        settlement = app.engine.carrusel.pending_settlement()
        specials = [q for q in app.graded.dealing.pending if q.kind == "special_prize"]
        assert len(specials) == 2  # both boxes bet the Jackpot
        for q, box in zip(specials, (1, 3), strict=True):
            lines = {x.line for x in settlement.box(box).result(Bet.JACKPOT).lines}
            magic, lucky = "carta_magica" in lines, "jugador_afortunado" in lines
            assert q.correct == {(False, False): "0", (True, False): "m", (False, True): "f", (True, True): "2"}[
                (magic, lucky)]
            assert q.hint is not None and "Carta Mágica" in q.hint.render("es")


@aio
async def test_graded_madero_writes_only_its_training_journal(tmp_path):
    app = graded_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await deal_graded(pilot, app, 1, lambda n: True)
        assert app.engine.journal.training
        assert "ENTRENAMIENTO" in shown(app.table_screen.query_one("#training-banner"))
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".sqlite3") == ["madero.sqlite3",
                                                                                   "training.sqlite3"]


# --- the property: no answer changes the cards or the settlement ------------------------------------

def deal_on_the_engine(seed: int, rounds: int, answer_with, config: MaderoTableConfig) -> list[tuple]:
    """The training engine driven as the console drives it, with ``answer_with(question)``
    typed at every question (None: no grading at all); the journal's events."""
    journal = Journal(":memory:", config.table_id, "madero", training=True)
    table = MaderoTable(journal, config=config, training=True, seed=seed, draw_rng=random.Random(seed))
    dealing = None if answer_with is None else GradedDealing(madero_moments, trainee="t", game="madero", seed=seed)
    settled = 0
    while settled < rounds:
        if dealing is not None and dealing.observe(table) is not None:
            q = dealing.question
            text = answer_with(q)
            dealing.answer(text if dealing.can_answer(text) else right_keys(q))
            continue
        phase = table.phase
        if phase is Phase.IDLE:
            table.play.place_bet(1, Bet.ANTE, 25)
            table.play.place_bet(1, Bet.BONUS, 5)
            table.play.place_bet(1, Bet.JACKPOT, 2)
            table.play.place_bet(4, Bet.ANTE, 10)
        elif phase is Phase.BETS:
            table.play.no_va_mas()
        elif phase is Phase.FIRST:
            (table.play.fold if table.to_act == 4 and settled % 2 else table.play.voy)(table.to_act)
        elif phase in (Phase.SECOND, Phase.THIRD):
            (table.play.bet if phase is Phase.SECOND else table.play.check)(table.to_act)
        elif phase is Phase.SETTLEMENT:
            table.play.confirm_settlement()
            settled += 1
        else:
            table.play.deal()
    # ``meter_ref`` names the round by its entry's hash, keyed by each journal's own table key:
    # two journals never share it, whatever was dealt.
    return [(e.type, {k: v for k, v in e.payload.items() if k != "meter_ref"}) for e in journal.events()]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), progressive=st.booleans(),
       answers=st.lists(st.sampled_from(["right", "wrong", "garbage", "digits"]), min_size=1, max_size=40))
def test_no_answer_changes_the_dealt_cards_or_the_settlement(seed, progressive, answers):
    typed = iter(answers * 200)

    def answer_with(q):
        how = next(typed)
        if how == "right":
            return right_keys(q)
        if how == "wrong":
            return wrong_text(q)
        return "zz" if how == "garbage" else "7"

    config = PROGRESSIVE if progressive else DEFAULT_MADERO_TABLE
    assert deal_on_the_engine(seed, 2, answer_with, config) == deal_on_the_engine(seed, 2, None, config)


# --- snapshots ----------------------------------------------------------------------------------

SIZES = {"120x40": (120, 40), "100x30": (100, 30)}


async def _to_question(pilot, kind: str) -> None:
    """Deal with every answer right until the question of ``kind`` waits."""
    app = pilot.app
    await pilot.pause()
    while not (app.graded.question is not None and app.graded.question.kind == kind):
        q = app.graded.question
        if q is not None:
            await answer(pilot, q, True)
        else:
            phase = app.engine.phase
            await pilot.press(*(BET_KEYS if phase is Phase.IDLE else TABLE_KEYS[phase]))


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_graded_madero_question(snap_compare, tmp_path, size):
    async def play(pilot):
        await _to_question(pilot, "bonus_line")

    assert snap_compare(graded_app(tmp_path), terminal_size=SIZES[size], run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_graded_madero_miss(snap_compare, tmp_path, size):
    async def play(pilot):
        await _to_question(pilot, "payout_ante")
        await answer(pilot, pilot.app.graded.question, False)

    assert snap_compare(graded_app(tmp_path), terminal_size=SIZES[size], run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_graded_madero_score_card(snap_compare, tmp_path, size):
    async def play(pilot):
        await deal_graded(pilot, pilot.app, 1, lambda n: n % 4 != 2)
        await pilot.press("ctrl+q")

    assert snap_compare(graded_app(tmp_path), terminal_size=SIZES[size], run_before=play)


# --- adaptive deals -----------------------------------------------------------------------------

def _bets_placed(seed: int = 1) -> MaderoTable:
    table = MaderoTable(Journal(":memory:", "MPB-01", "madero", training=True), training=True, seed=seed)
    for box, bet, stake in ((1, Bet.ANTE, 25), (1, Bet.BONUS, 5), (1, Bet.JACKPOT, 2), (3, Bet.ANTE, 10)):
        table.play.place_bet(box, bet, stake)
    return table


def test_a_rehearsed_deal_is_the_deal_the_table_then_deals():
    table = _bets_placed()
    rehearsed = rehearse(table, 77)
    table.reseed_training_deal(77)
    table.play.no_va_mas()
    deal_to_settlement(table)
    dealt = [q for _, build in madero_moments(table) for q in build()]
    assert [(q.kind, q.correct, q.case) for q in rehearsed] == [(q.kind, q.correct, q.case) for q in dealt]


def test_an_adaptive_deal_leans_to_the_missed_cases():
    record = {"combination": {"DOBLE_PAREJA": (4, 4), "TRIO": (3, 3)}, "bonus_line": {"pair_2_to_10": (5, 5)}}
    rng = random.Random(3)
    leaning, plain = [], []
    for n in range(12):
        table = _bets_placed(n)
        leaning.append(miss_weight(rehearse(table, adaptive_seed(table, rng, record)), record))
        plain.append(miss_weight(rehearse(table, rng.getrandbits(64)), record))
    assert sum(leaning) > sum(plain)


def test_a_live_table_cannot_be_reseeded(tmp_path):
    from madero_helpers import live_table
    from shared.errors import RuleViolation

    with pytest.raises(RuleViolation):
        live_table(tmp_path).reseed_training_deal(1)


@aio
async def test_without_a_seed_the_graded_round_is_dealt_adaptively(tmp_path):
    store = TrainingStore(tmp_path / "training.sqlite3")
    app = graded_app(tmp_path, seed=None, store=store)
    chosen = []
    app.adaptive_rng = random.Random(8)  # the test knows which shuffles are compared
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*BET_KEYS)
        expected = adaptive_seed(app.engine, random.Random(8), {})
        chosen.append(rehearse(app.engine, expected))
        await deal_graded(pilot, app, 1, lambda n: True)
    # The cards are the chosen deal's: the same hands, winners and lines (the main bets'
    # payouts differ: the keys bet the Turn where the rehearsal checks).
    by_cards = {"combination", "winner", "bonus_line", "jackpot_line"}
    asked = [(g.question.kind, g.question.correct) for g in app.graded.dealing.grades if g.kind in by_cards]
    assert asked == [(q.kind, q.correct) for q in chosen[0] if q.kind in by_cards]


def test_the_questions_say_casilla_as_the_madero_console_does():
    """One word for a Madero box (the resolution's «casilla»), in the questions as on the table."""
    for seed in range(6):
        table = MaderoTable(Journal(":memory:", PROGRESSIVE.table_id, "madero", training=True), config=PROGRESSIVE,
                            training=True, seed=seed)
        table.play.place_bet(1, Bet.ANTE, 10)
        table.play.place_bet(1, Bet.JACKPOT, 1)
        words = " ".join(f"{q.prompt.render('es')} {q.why.render('es')} {q.hint.render('es') if q.hint else ''}"
                         for q in rehearse(table, seed))
        assert "Casilla 1" in words and "asillero" not in words
