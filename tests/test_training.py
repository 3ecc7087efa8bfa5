"""Training engine: seeded drills, grading against the game engines, score cards, history."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from shared.baccarat import banca_draws
from shared.cards import make_rng
from shared.madero.settlement import Bet
from shared.poker.evaluator import evaluate, strength
from shared.training import CATALOGUE, AnswerKind, Question, TrainingStore, start_session
from shared.training.core import COLLECT, RETURN, keys_for, normalize
from shared.training.midi_drills import TABLEAU_CELLS, BancaTableauDrill, tableau_weights

ARTICLE = re.compile(r"^Art\. \d+")
DRILLS = [(d.game, d.name) for d in CATALOGUE]


def right_keys(q: Question) -> str:
    return keys_for(q, q.correct)


def wrong_keys(q: Question) -> str:
    """Something readable that the drill must mark wrong."""
    if q.answer_kind is AnswerKind.CHOICE:
        return next(o.key for o in q.options if o.key != q.correct)
    if q.answer_kind is AnswerKind.PAYOUT:
        return "d" if q.correct == COLLECT else "c"
    for combo in itertools.combinations(range(len(q.cards)), 5):
        chosen = tuple(q.cards[i] for i in combo)
        if not q.accept(chosen):
            return "".join(str(i + 1) for i in combo)
    raise AssertionError("every five is right")


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def fingerprint(session) -> list[tuple]:
    return [(q.kind, q.prompt.render("es"), q.correct, tuple(s.render("es") for s in q.situation))
            for ex in session.exercises for q in ex.questions]


@pytest.mark.parametrize(("game", "name"), DRILLS)
def test_same_seed_same_questions(game, name):
    a = start_session(game, name, trainee="t1", seed=42)
    b = start_session(game, name, trainee="t2", seed=42)
    c = start_session(game, name, trainee="t1", seed=43)
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(a) != fingerprint(c)
    assert a.total_questions > 0


@pytest.mark.parametrize(("game", "name"), DRILLS)
def test_every_question_cites_an_article_and_explains_in_both_languages(game, name):
    s = start_session(game, name, trainee="t", seed=5)
    for ex in s.exercises:
        for q in ex.questions:
            assert ARTICLE.match(q.article), q.article
            assert q.why.render("es") and q.why.render("en") and q.correct_text.render("es") and q.correct_text.render("en")
            assert q.prompt.render("es") != q.prompt.render("en")


@pytest.mark.parametrize(("game", "name"), DRILLS)
def test_right_answers_graded_right_and_wrong_answers_wrong(game, name):
    s = start_session(game, name, trainee="t", seed=11)
    n = 0
    while not s.finished:
        q = s.question
        answer = right_keys(q) if n % 2 == 0 else wrong_keys(q)
        grade = s.answer(answer)
        assert grade.right is (n % 2 == 0)
        line = grade.line("es")
        assert line.startswith("BIEN" if grade.right else "MAL")
        assert q.article in line and q.correct_text.render("es") in line
        n += 1
    card = s.score_card()
    assert card.questions == n and card.right == (n + 1) // 2


def test_unreadable_answer_is_refused_and_not_graded():
    s = start_session("midi", "tableau", trainee="t", seed=1)
    assert not s.can_answer("x")
    with pytest.raises(ValueError):
        s.answer("x")
    assert s.grades == [] and s.question_number == 1


def test_score_card_from_a_scripted_session_with_a_fake_clock():
    clock = FakeClock()
    s = start_session("midi", "tableau", trainee="ana", seed=3, count=4, clock=clock)
    script = [(2.0, True), (4.0, False), (1.0, True), (9.0, False)]
    for seconds, right in script:
        clock.now += seconds
        q = s.question
        s.answer(right_keys(q) if right else wrong_keys(q))
    card = s.score_card()
    assert s.finished
    assert (card.questions, card.right, card.accuracy) == (4, 2, 0.5)
    assert card.median_seconds == 3.0
    assert card.mistakes == {"tableau": 2} and card.asked == {"tableau": 4}
    assert [g.seconds for g in s.grades] == [2.0, 4.0, 1.0, 9.0]


def test_present_restarts_the_decision_clock():
    clock = FakeClock()
    s = start_session("madero", "board", trainee="t", seed=3, count=1, clock=clock)
    clock.now += 30  # reading the previous grade does not count
    s.present()
    clock.now += 5
    assert s.answer(right_keys(s.question)).seconds == 5


def test_mistakes_counted_by_kind():
    s = start_session("madero", "board", trainee="t", seed=8, count=2)
    kinds = []
    while not s.finished:
        q = s.question
        wrong = q.kind != "best_five"
        if wrong:
            kinds.append(q.kind)
        s.answer(wrong_keys(q) if wrong else right_keys(q))
    card = s.score_card()
    assert card.mistakes == {"combination": 2, "winner": 2}
    assert card.asked == {"best_five": 2, "combination": 2, "winner": 2}


# --- the answers come from the engines -------------------------------------------------------


def test_tableau_answers_follow_the_baccarat_rules():
    s = start_session("midi", "tableau", trainee="t", seed=9, count=200)
    for ex in s.exercises:
        (q,) = ex.questions
        bt, p = q.case.split("-")
        _punto_line, banca_line = q.situation
        assert int(bt[1]) == int(banca_line.render("es").rsplit("= ", 1)[1])
        third = None if p == "stood" else int(p[1])
        assert q.correct == ("c" if banca_draws(int(bt[1]), third) else "p")
        assert q.article == "Art. 6, tercera carta §2"


def test_tableau_cards_match_their_case():
    drill = BancaTableauDrill()
    rng = make_rng(4)
    for cell in TABLEAU_CELLS:
        ex = drill._exercise(rng, 1, cell)
        (q,) = ex.questions
        assert q.case == cell


def test_tableau_weights_favour_the_cells_a_trainee_misses():
    base = tableau_weights()
    assert base["B4-P8"] > base["B0-stood"]  # the exceptions weigh more than "always draws"
    missed = tableau_weights({"B0-stood": (4, 4)})
    assert missed["B0-stood"] > base["B0-stood"] and missed["B1-stood"] == base["B1-stood"]
    drill = BancaTableauDrill({c: (1000.0 if c == "B5-P3" else 1.0) for c in TABLEAU_CELLS})
    cases = [ex.questions[0].case for ex in drill.exercises(make_rng(1), 100)]
    assert cases.count("B5-P3") > 80


def test_board_best_five_accepts_any_five_of_equal_value():
    s = start_session("madero", "board", trainee="t", seed=21, count=30)
    for ex in s.exercises:
        q = ex.questions[0]
        value = evaluate(q.cards)
        assert q.correct == " ".join(str(c) for c in value.best)
        accepted = [combo for combo in itertools.combinations(q.cards, 5) if q.accept(combo)]
        assert accepted and all(strength(c) == value.strength for c in accepted)
        canonical = normalize(q, right_keys(q))
        assert canonical is not None


def test_board_drill_deals_ties():
    s = start_session("madero", "board", trainee="t", seed=2, count=30)
    winners = [ex.questions[2].correct for ex in s.exercises]
    assert winners.count("e") >= 5 and {"j", "b"} & set(winners)


def test_madero_payouts_come_from_the_settlement():
    s = start_session("madero", "payouts", trainee="t", seed=12, count=30)
    kinds = {q.kind for ex in s.exercises for q in ex.questions}
    assert {"payout_ante", "payout_bonus", "payout_jackpot"} <= kinds
    answers = {q.correct for ex in s.exercises for q in ex.questions}
    assert COLLECT in answers and RETURN in answers and any(a.startswith("pay:") for a in answers)
    for ex in s.exercises:
        for q in ex.questions:
            if q.kind == "payout_bonus" and q.correct.startswith("pay:"):
                assert q.article == "Art. 13 §67"
            if q.kind == "payout_ante" and q.correct == RETURN:
                assert q.article == "Art. 9 §33"


def test_madero_round_asks_the_bank_then_winners_then_every_bet():
    s = start_session("madero", "round", trainee="t", seed=4, count=5)
    for ex in s.exercises:
        kinds = [q.kind for q in ex.questions]
        assert kinds[0] == "combination"
        first_payout = next(i for i, k in enumerate(kinds) if k.startswith("payout_"))
        assert set(kinds[1:first_payout]) <= {"winner"}
        assert all(k.startswith("payout_") for k in kinds[first_payout:])
        assert {f"payout_{b.value}" for b in (Bet.ANTE,)} <= set(kinds)


def test_payout_answers_are_read_as_typed():
    s = start_session("madero", "payouts", trainee="t", seed=12, count=3)
    q = s.question
    assert normalize(q, "c") == COLLECT and normalize(q, "d") == RETURN
    assert normalize(q, "12,5") == "pay:12.5" and normalize(q, "40") == "pay:40"
    assert normalize(q, "-3") is None and normalize(q, "x") is None


# --- the training database -----------------------------------------------------------------


def test_store_keeps_score_cards_and_history_per_trainee(tmp_path):
    store = TrainingStore(tmp_path / "training" / "training.sqlite3")
    for trainee, seed in (("ana", 1), ("ana", 2), ("beto", 1)):
        s = start_session("midi", "tableau", trainee=trainee, seed=seed, count=5)
        while not s.finished:
            q = s.question
            s.answer(wrong_keys(q) if q.correct == "p" else right_keys(q))
        store.save(s.score_card(), s.grades, started_at=datetime(2026, 1, 1, tzinfo=UTC))
    store.close()
    store = TrainingStore(tmp_path / "training" / "training.sqlite3")
    ana = store.history("ana")
    assert [r.card.seed for r in ana] == [1, 2]
    assert all(r.card.questions == 5 for r in ana)
    assert store.history("beto", game="madero") == []
    record = store.cell_record("ana", "tableau")
    assert sum(asked for asked, _ in record.values()) == 10
    assert all(missed in (0, asked) for asked, missed in record.values())
    # An unseeded tableau session draws on that record.
    s = start_session("midi", "tableau", trainee="ana", store=store, count=5)
    assert s.seed is None and len(s.exercises) == 5


def test_store_is_its_own_file_under_training():
    from shared.training import default_training_db

    path = default_training_db()
    assert path.parent.name == "training" and path.suffix == ".sqlite3"


def _coup_cards(q: Question) -> tuple[list, list]:
    """PUNTO and BANCA ranks from a coup question's hand lines ("PUNTO: 4♦ A♦ = 5")."""
    from shared.cards import Rank

    hands = {}
    for line in q.situation:
        name, _, rest = line.render("es").partition(": ")
        if name in ("PUNTO", "BANCA"):
            hands[name] = [Rank.parse(tok[:-1]) for tok in rest.split(" = ")[0].split()]
    return hands["PUNTO"], hands["BANCA"]


def test_coup_decisions_follow_the_baccarat_rules():
    from shared.baccarat import Hand, next_draw, resolve_hands

    s = start_session("midi", "coup", trainee="t", seed=17, count=60)
    natural = tie = 0
    for ex in s.exercises:
        reveal_q, punto_q, banca_q, winner_q = ex.questions[:4]
        assert reveal_q.kind == "punto_cards" and reveal_q.article == "Art. 8 §4"
        p2, b2 = _coup_cards(punto_q)
        assert punto_q.correct == ("c" if next_draw(p2, b2) is Hand.PUNTO else "p")
        p, b2_again = _coup_cards(banca_q)
        assert b2_again == b2 and p[:2] == p2
        assert banca_q.correct == ("c" if next_draw(p, b2) is Hand.BANCA else "p")
        pf, bf = _coup_cards(winner_q)
        result = resolve_hands(pf, bf)
        assert winner_q.correct == {"punto": "p", "banca": "b", "tie": "e"}[result.winner.value]
        natural += punto_q.article == "Art. 6 §2"
        tie += winner_q.correct == "e"
        assert all(q.kind.startswith("payout_") for q in ex.questions[4:]) and len(ex.questions) > 4
    assert natural and tie


def test_midi_payouts_cover_half_on_six_commission_and_tie_every_one_paid_exactly():
    s = start_session("midi", "payouts", trainee="t", seed=6, count=12)
    by_kind: dict[str, set[str]] = {}
    for ex in s.exercises:
        assert len({q.prompt.render("es").split(":")[0] for q in ex.questions}) >= 2  # several boxes at once
        for q in ex.questions:
            by_kind.setdefault(q.kind, set()).add(q.correct)
    assert {"payout_banca_six", "payout_commission", "payout_tie", "payout_tie_return"} <= set(by_kind)
    assert by_kind["payout_tie_return"] == {RETURN}
    # Art. 5 §2–3: the drill deals only BANCA bets the table takes, so no answer is rounded.
    assert not [q for ex in s.exercises for q in ex.questions if "redondeado" in q.correct_text.render("es")]
    halves = [q for ex in s.exercises for q in ex.questions if q.kind == "payout_banca_six"]
    assert halves and all("." not in q.correct for q in halves)


def test_midi_payout_answer_for_a_known_commission_case():
    from shared.midi.config import DEFAULT_MIDI_TABLE
    from shared.baccarat import resolve_hands
    from shared.cards import Rank
    from shared.midi.payouts import BetKind, settle_bets
    from shared.training.midi_drills import line_question

    config = DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission", commission_handling="deduct")
    result = resolve_hands([Rank.TEN, Rank.TWO, Rank.TEN], [Rank.SEVEN, Rank.TEN])
    (line,) = settle_bets({3: {BetKind.BANCA: Decimal(40)}}, result, config)
    q = line_question(line, result, config, ())
    assert q.correct == "pay:38" and q.article == "Art. 5 §3" and q.kind == "payout_commission"
    assert "38" in q.correct_text.render("es") and "38" in q.correct_text.render("en")
    tally = config.with_changes(commission_handling="tally")
    (line,) = settle_bets({3: {BetKind.BANCA: Decimal(25)}}, result, tally)
    q = line_question(line, result, tally, ())
    assert q.correct == "pay:25" and "(1,25) va a la cuenta" in q.why.render("es")


@pytest.mark.parametrize(("game", "name"), DRILLS)
def test_every_kind_of_decision_has_a_name_on_the_score_card(game, name):
    from shared.training.drills import KINDS

    s = start_session(game, name, trainee="t", seed=2, count=8)
    assert {q.kind for ex in s.exercises for q in ex.questions} <= set(KINDS)


def test_punto_cards_go_to_the_largest_punto_bet_lowest_box_on_ties():
    s = start_session("midi", "coup", trainee="t", seed=23, count=80)
    seen = set()
    for ex in s.exercises:
        q = ex.questions[0]
        punto_bets = {}
        for line in q.situation[1:]:
            box, _, bets = line.render("es").partition(": ")
            for bet in bets.split(" · "):
                if bet.startswith("PUNTO "):
                    punto_bets[int(box[1:])] = Decimal(bet.split()[1])
        if not punto_bets:
            expected = "0"
        else:
            top = max(punto_bets.values())
            expected = str(min(b for b, v in punto_bets.items() if v == top))
            seen.add("tie" if list(punto_bets.values()).count(top) > 1 else "single")
        seen.add(expected == "0" and "croupier" or "box")
        assert q.correct == expected
    assert {"tie", "single", "croupier", "box"} <= seen
