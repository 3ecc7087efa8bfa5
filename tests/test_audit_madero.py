"""Independent oracle for Madero Poker Bonus settlement (madero-rules.md §33–36, §48–53, §67).

The oracle below is written from the spec only: a brute-force best-five-of-seven
evaluator and the paytables as literal tables. Hypothesis generates whole rounds on
the default fixed table and every box's every bet is compared with ``settle_round``.
"""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from itertools import combinations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shared.cards import Card
from shared.madero.config import DEFAULT_MADERO_TABLE, JackpotMode
from shared.madero.settlement import (
    Bet,
    BoxBets,
    BoxInput,
    BoxStatus,
    MeterReading,
    Outcome,
    settle_round,
)

D = Decimal
CFG = DEFAULT_MADERO_TABLE

# ---------------------------------------------------------------- oracle: hand ranking
ROYAL, SFLUSH, QUADS, FULL, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR, HIGH = 9, 8, 7, 6, 5, 4, 3, 2, 1, 0


def rank_five(cards) -> tuple:
    """(category, tie-break ranks) of exactly five cards; bigger tuple = better hand (§17, §19)."""
    ranks = sorted((c.rank.value for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            top = 5  # the wheel: the ace plays low
    if flush and top == 14:
        return (ROYAL, (14,))
    if flush and top:
        return (SFLUSH, (top,))
    counts = Counter(ranks)
    grouped = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if shape == [4, 1]:
        return (QUADS, tuple(grouped))
    if shape == [3, 2]:
        return (FULL, tuple(grouped))
    if flush:
        return (FLUSH, tuple(ranks))
    if top:
        return (STRAIGHT, (top,))
    if shape == [3, 1, 1]:
        return (TRIPS, tuple(grouped))
    if shape == [2, 2, 1]:
        return (TWO_PAIR, tuple(grouped))
    if shape == [2, 1, 1, 1]:
        return (PAIR, tuple(grouped))
    return (HIGH, tuple(ranks))


def best_of(cards) -> tuple:
    return max(rank_five(five) for five in combinations(cards, 5))


# ---------------------------------------------------------------- oracle: paytables
def bonus_odds(hole, bank, line_1000: bool) -> int:
    """§67 "X a 1" for the two hole cards (the bank matters only for the A-A vs A-A line)."""
    hi, lo = sorted((c.rank.value for c in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if hi == lo == 14:
        bank_aa = all(c.rank.value == 14 for c in bank)
        return 1000 if (line_1000 and bank_aa) else 30
    if (hi, lo) == (14, 13):
        return 25 if suited else 15
    if hi == 14 and lo in (12, 11):
        return 20 if suited else 5
    if hi == lo and hi in (11, 12, 13):
        return 10
    if hi == lo and 2 <= hi <= 10:
        return 3
    return 0


FIXED_JACKPOT = {ROYAL: ("fixed", D(5000)), SFLUSH: ("fixed", D(2000)), QUADS: ("per", D(500)),
                 FULL: ("per", D(100)), FLUSH: ("per", D(50)), STRAIGHT: ("per", D(25))}


def fixed_jackpot(hole, flop, credits: int) -> D:
    cat = rank_five([*hole, *flop])[0]
    if cat not in FIXED_JACKPOT:
        return D(0)
    kind, amount = FIXED_JACKPOT[cat]
    return amount if kind == "fixed" else amount * credits


# ---------------------------------------------------------------- oracle: one box
def expected_box(status, hole, bank, board, bets: BoxBets, credit_value: D, line_1000=True):
    """{bet: (outcome, stake, paid, returned, collected)} for the bets with a stake, and the main outcome."""
    stakes = {Bet.ANTE: bets.ante, Bet.FLOP: bets.flop, Bet.TURN: bets.turn, Bet.RIVER: bets.river,
              Bet.BONUS: bets.bonus, Bet.JACKPOT: credit_value * bets.jackpot_credits}
    out = {}

    def lose(b):
        out[b] = (Outcome.LOSE, stakes[b], D(0), D(0), stakes[b])

    def push(b):
        out[b] = (Outcome.PUSH, stakes[b], D(0), stakes[b], D(0))

    def win(b, amount):
        out[b] = (Outcome.WIN, stakes[b], amount, stakes[b], D(0))

    if status is BoxStatus.FOLDED:
        for b, s in stakes.items():
            if s:
                lose(b)
        return out, None
    me = best_of([*hole, *board])
    them = best_of([*bank, *board])
    main = Outcome.WIN if me > them else Outcome.LOSE if me < them else Outcome.PUSH
    for b in (Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER):
        if not stakes[b]:
            continue
        if main is Outcome.LOSE:
            lose(b)
        elif main is Outcome.PUSH:
            push(b)
        elif b is Bet.ANTE and me[0] < FLUSH:
            push(b)  # Decision: a winner below Color gets the Ante back
        else:
            win(b, stakes[b])
    if stakes[Bet.BONUS]:
        odds = bonus_odds(hole, bank, line_1000)
        if odds:
            win(Bet.BONUS, odds * stakes[Bet.BONUS])
        else:
            lose(Bet.BONUS)
    if stakes[Bet.JACKPOT]:
        prize = fixed_jackpot(hole, board[:3], bets.jackpot_credits)
        # The credits go into the slot (§42): always collected; a winning line is paid on top.
        out[Bet.JACKPOT] = ((Outcome.WIN if prize else Outcome.LOSE), stakes[Bet.JACKPOT], prize,
                            D(0), stakes[Bet.JACKPOT])
    return out, main


def engine_results(box_settlement):
    got = {}
    for r in box_settlement.bets:
        if r.stake == 0:
            assert r.paid == r.returned == r.collected == 0, r
            continue
        got[r.bet] = (r.outcome, r.stake, r.paid, r.returned, r.collected)
    return got


def check_round(bank, board, boxes, config=CFG):
    rs = settle_round(config, bank, board, boxes)
    assert len(rs.boxes) == len(boxes)
    for bi in boxes:
        bs = rs.box(bi.box)
        exp, main = expected_box(bi.status, bi.cards, bank, board, bi.bets, config.jackpot_credit_value,
                                 config.bonus_1000_line)
        got = engine_results(bs)
        assert got == exp, (bi, [str(c) for c in bank], [str(c) for c in board])
        if main is not None:
            assert bs.main is main
        # Money conservation, per box.
        assert bs.staked == bi.bets.total(config.jackpot_credit_value)
        assert bs.staked == bs.returned + bs.collected
        assert bs.to_hand_over == bs.paid + bs.returned
    assert rs.staked == sum(b.bets.total(config.jackpot_credit_value) for b in boxes)
    assert rs.staked == rs.returned + rs.collected
    assert rs.paid == sum(rs.box(b.box).paid for b in boxes)
    assert rs.house_result == rs.collected - rs.paid
    return rs


# ---------------------------------------------------------------- generated rounds
def _idx(rank: int, suits: str = "cdhs") -> list[int]:
    return [(rank - 2) * 4 + "cdhs".index(x) for x in suits]  # Card.index = (rank-2)*4+suit


# A "hot" set of cards is dealt first (flop, then the boxes' hole cards), the rest after, so
# the rare Jackpot lines (royal, straight flush, Póker, Full) and Bonus lines come up often.
HOT_SETS = [
    [],
    [i for r in range(8, 15) for i in _idx(r, "h")],
    [i for r in (9, 13, 14) for i in _idx(r)],
    [i for r in (2, 3, 4, 5, 14) for i in _idx(r, "hd")],
    [i for r in range(10, 15) for i in _idx(r)],
]


@st.composite
def box_bets(draw, folded: bool):
    ante = D(draw(st.integers(int(CFG.minimum), int(CFG.maximum))))
    bonus = D(draw(st.one_of(st.just(0), st.integers(int(CFG.bonus_minimum), int(CFG.bonus_maximum)))))
    credits = draw(st.integers(0, 5))
    if folded:
        return BoxBets(ante=ante, bonus=bonus, jackpot_credits=credits)
    turn = ante if draw(st.booleans()) else D(0)
    river = ante if draw(st.booleans()) else D(0)
    return BoxBets(ante=ante, flop=2 * ante, turn=turn, river=river, bonus=bonus, jackpot_credits=credits)


@st.composite
def rounds(draw):
    hot = draw(st.sampled_from(HOT_SETS))
    cold = [i for i in range(52) if i not in hot]
    order = [Card.from_index(i) for i in draw(st.permutations(hot)) + draw(st.permutations(cold))]
    seats = draw(st.lists(st.integers(1, CFG.boxes), min_size=1, max_size=CFG.boxes, unique=True))
    board = order[:3] + order[-5:-3]
    bank = order[-2:] if draw(st.booleans()) else order[-7:-5]
    boxes = []
    pos = 3
    for seat in sorted(seats):
        folded = draw(st.integers(0, 4)) == 0
        hole = tuple(order[pos:pos + 2])
        pos += 2
        status = BoxStatus.FOLDED if folded else BoxStatus.ACTIVE
        boxes.append(BoxInput(seat, draw(box_bets(folded)), None if folded else hole, status))
    return bank, board, boxes


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_random_rounds_match_oracle(rnd):
    bank, board, boxes = rnd
    check_round(bank, board, boxes)
    for b in boxes:
        if b.status is BoxStatus.ACTIVE:
            me, them = best_of([*b.cards, *board]), best_of([*bank, *board])
            event("main " + ("win" if me > them else "tie" if me == them else "lose"))
            event(f"jackpot category {rank_five([*b.cards, *board[:3]])[0]}")


# ---------------------------------------------------------------- every pair of hole cards
def test_bonus_every_hole_pair():
    """All 1326 two-card holdings: Bonus line (§67) against a fixed board, bank A-A and not."""
    for bank_txt in (("As", "Ad"), ("2c", "7d")):
        bank = [Card.parse(t) for t in bank_txt]
        board = [Card.parse(t) for t in ("3h", "8s", "9c", "Qd", "4h")]
        used = {c.index for c in bank + board}
        rest = [Card.from_index(i) for i in range(52) if i not in used]
        boxes = []
        for a, b in combinations(rest, 2):
            boxes.append(BoxInput(1, BoxBets(ante=D(10), flop=D(20), bonus=D(7)), (a, b)))
            if len(boxes) == 1:
                check_round(bank, board, boxes)
                boxes = []


def _cards(text):
    return [Card.parse(t) for t in text.split()]


@pytest.mark.parametrize("hole,bank,odds", [
    ("Ah Ac", "As Ad", 1000), ("Ah Ac", "As Kd", 30), ("Ah Kh", "2s 3d", 25), ("Ah Qh", "2s 3d", 20),
    ("Ah Jh", "2s 3d", 20), ("Ah Kc", "2s 3d", 15), ("Kh Kc", "2s 3d", 10), ("Jh Jc", "2s 3d", 10),
    ("Ah Qc", "2s 3d", 5), ("Ah Jc", "2s 3d", 5), ("Th Tc", "2s 3d", 3), ("2h 2c", "As 3d", 3),
    ("Ah Th", "2s 3d", 0), ("Kh Qh", "2s 3d", 0),
])
def test_bonus_lines_pinned(hole, bank, odds):
    board = _cards("5s 6d 8c 9h Js")
    rs = check_round(_cards(bank), board, [BoxInput(3, BoxBets(ante=D(10), flop=D(20), bonus=D(9)),
                                                     tuple(_cards(hole)))])
    r = rs.box(3).result(Bet.BONUS)
    assert r.paid == odds * 9 and (r.outcome is Outcome.WIN) == bool(odds)


@pytest.mark.parametrize("hole,flop,credits,prize", [
    ("Ah Kh", "Qh Jh Th", 1, 5000), ("Ah Kh", "Qh Jh Th", 5, 5000), ("9h 8h", "7h 6h 5h", 3, 2000),
    ("Ah 2h", "3h 4h 5h", 2, 2000), ("9h 9c", "9d 9s 2c", 2, 1000), ("9h 9c", "9d 2s 2c", 4, 400),
    ("Ah 2h", "7h 9h Kh", 5, 250), ("Ah 2c", "3h 4d 5s", 1, 25), ("Th Jc", "Qh Kd As", 3, 75),
    ("9h 9c", "9d 2s 3c", 5, 0), ("Qh Kh", "Ah 2c 3d", 5, 0),
])
def test_fixed_jackpot_lines_pinned(hole, flop, credits, prize):
    flop_c = _cards(flop)
    used = {str(c) for c in _cards(hole) + flop_c}
    spare = [c for c in _cards("2d 3s 4c 6s 7d 8s Kc Qc Jd 4s") if str(c) not in used]
    bank, turn_river = spare[:2], spare[2:4]
    rs = check_round(bank, flop_c + turn_river, [BoxInput(
        1, BoxBets(ante=D(10), flop=D(20), jackpot_credits=credits), tuple(_cards(hole)))])
    r = rs.box(1).result(Bet.JACKPOT)
    assert r.paid == prize


def test_ante_push_below_color_and_paid_on_color():
    board = _cards("2h 7h 9h Kc 3d")
    bank = _cards("4s 5c")  # K-9-7-5-4
    bets = BoxBets(ante=D(10), flop=D(20), turn=D(10), river=D(10))
    high_card = BoxInput(1, bets, tuple(_cards("8c 6s")))  # K-9-8-7-6 wins with Carta mayor
    color = BoxInput(2, bets, tuple(_cards("Ah 4h")))
    rs = check_round(bank, board, [high_card, color])
    assert rs.box(1).result(Bet.ANTE).outcome is Outcome.PUSH
    assert rs.box(1).paid == 40
    assert rs.box(2).result(Bet.ANTE).paid == 10
    assert rs.box(2).paid == 50


# ---------------------------------------------------------------- progressive §52, §53, §58
# With one 52-card deck two royals (or two equal straight flushes) cannot come in one round:
# each needs three flop cards of its own suit. §52 is therefore checked through the Carrusel
# prize (the sum of linked meters), and §53 on two straight flushes of different height.
PROG = CFG.with_changes(table_id="MPB-P", jackpot_mode=JackpotMode.PROGRESSIVE, contribution_percent=D(1))
METER = D(100000)


def _up(amount: Decimal) -> Decimal:
    """The house rule: a share of the meter between chips is paid the next chip up (never
    less than the resolution says)."""
    return math.ceil(amount / PROG.chip) * PROG.chip


def _jackpot(holes, linked=METER) -> Decimal:
    """§51: the meter as the round values it, with this round's contribution of every credit."""
    credits = sum(c for _, c in holes)
    return linked + credits * PROG.jackpot_credit_value * PROG.contribution_percent / 100


def _prog(bank, board, holes, linked=METER):
    boxes = [BoxInput(i + 1, BoxBets(ante=D(10), flop=D(20), jackpot_credits=c), tuple(_cards(h)))
             for i, (h, c) in enumerate(holes)]
    reading = MeterReading(own=METER, linked_total=linked, own_seed=PROG.seed)
    return settle_round(PROG, _cards(bank), _cards(board), boxes, meter=reading)


def test_royal_takes_the_whole_linked_meter():
    holes = [("Jh Th", 1), ("9s 9d", 2)]
    rs = _prog("2c 3c", "Ah Kh Qh 4d 5d", holes, linked=D(250001))
    prize = _jackpot(holes, D(250001))  # 250001 + 3 credits × 1 % = 250001.03
    assert rs.box(1).result(Bet.JACKPOT).paid == _up(prize) == D(250002)
    assert rs.box(2).result(Bet.JACKPOT).paid == 0
    assert rs.meter.royal_hit and rs.meter.royal_paid == _up(prize)
    assert rs.staked == rs.returned + rs.collected


@pytest.mark.parametrize("credits", [1, 5])
def test_straight_flushes_highest_first_then_remainder(credits):
    """§53: the higher straight flush gets 10 % of the meter, the lower 10 % of what remains."""
    holes = [("4h 5h", credits), ("9h Th", credits), ("2d 2s", credits)]
    rs = _prog("2c 3c", "6h 7h 8h Kd Ks", holes)
    high, low = rs.box(2).result(Bet.JACKPOT), rs.box(1).result(Bet.JACKPOT)
    # credits 1: the meter is 100000.03; 10 % = 10000.003 → 10001; 10 % of the exact remainder
    # (issue 28 §2), (100000.03 - 10000.003) / 10 = 9000.0027 → 9001 (credits 5: 100000.15,
    # 10000.015 → 10001, 9000.0135 → 9001)
    jackpot = _jackpot(holes)
    assert high.paid == _up(jackpot / 10) == 10001
    assert low.paid == _up((jackpot - jackpot / 10) / 10) == 9001
    assert rs.box(3).result(Bet.JACKPOT).paid == 0
    # the meter gives the exact shares; paying whole chips above them is the house's
    exact = jackpot / 10 + (jackpot - jackpot / 10) / 10
    assert rs.meter.straight_flush_paid == exact and rs.meter.rounding == high.paid + low.paid - exact
    assert rs.staked == rs.returned + rs.collected


def test_progressive_per_credit_lines():
    rs = _prog("2c 3c", "9h 9c 9d Kd 4s", [("9s 5h", 3), ("Kh Ks", 2), ("Ah 2d", 1)])
    assert rs.box(1).result(Bet.JACKPOT).paid == 1500
    assert rs.box(2).result(Bet.JACKPOT).paid == 200
    assert rs.box(3).result(Bet.JACKPOT).paid == 0


def _prog_special(holes, board="Qh Jd Ts 4d 5d", carta=None, lucky=None, status=None):
    boxes = [BoxInput(i + 1, BoxBets(ante=D(10), flop=D(20), jackpot_credits=cr), tuple(_cards(h)),
                      (status or {}).get(i + 1, BoxStatus.ACTIVE)) for i, (h, cr) in enumerate(holes)]
    reading = MeterReading(own=METER, linked_total=METER, own_seed=PROG.seed)
    return settle_round(PROG, _cards("2c 3c"), _cards(board), boxes, meter=reading,
                        carta_magica=Card.parse(carta) if carta else None, jugador_afortunado=lucky)


def test_carta_magica_and_lucky_player_pay_30_per_credit():
    rs = _prog_special([("Ah Kc", 2), ("8s 9d", 3)], board="Qh Jd 7s 4d 5d", carta="Kc", lucky=2)
    assert rs.box(1).result(Bet.JACKPOT).paid == 60
    assert rs.box(2).result(Bet.JACKPOT).paid == 90


def test_folded_box_loses_carta_magica_and_lucky_player():
    """§46: a folded player loses every right to the Jackpot, the special prizes included."""
    rs = _prog_special([("Ah Kc", 2), ("8s 8d", 3)], carta="Kc", lucky=2,
                       status={1: BoxStatus.FOLDED, 2: BoxStatus.FOLDED})
    for box in (1, 2):
        assert rs.box(box).paid == 0 and rs.box(box).returned == 0


def test_straight_with_carta_magica_is_paid_both():
    """§55: the special prizes are "independientes de la mano": Escalera 25 × plus Carta Mágica 30 ×."""
    rs = _prog_special([("Ah Kc", 2)], carta="Kc")
    jackpot = rs.box(1).result(Bet.JACKPOT)
    assert jackpot.paid == 25 * 2 + 30 * 2
    assert [(x.line, x.paid) for x in jackpot.lines] == [("escalera", 50), ("carta_magica", 60)]


def test_straight_as_lucky_player_is_paid_both():
    rs = _prog_special([("Ah Kc", 2)], lucky=1)
    jackpot = rs.box(1).result(Bet.JACKPOT)
    assert jackpot.paid == 25 * 2 + 30 * 2
    assert [x.line for x in jackpot.lines] == ["escalera", "jugador_afortunado"]


def test_dead_hand_and_collusion_void_return_every_bet():
    """§38 Decision: a dead hand gets every bet back, nothing decided on it (its A-A Bonus
    unpaid); §69 Decision: so does a voided box."""
    bets = BoxBets(ante=D(10), flop=D(20), turn=D(10), bonus=D(5), jackpot_credits=2)
    boxes = [BoxInput(1, bets, tuple(_cards("Ah Ac")), BoxStatus.DEAD),
             BoxInput(2, bets, tuple(_cards("Kh Kc")), BoxStatus.VOIDED)]
    rs = settle_round(CFG, _cards("2c 3c"), _cards("Qh Jd Ts 4d 5d"), boxes)
    assert rs.box(1).returned == 47 and rs.box(1).paid == 0 and rs.box(1).collected == 0
    assert rs.box(2).returned == 47 and rs.box(2).paid == 0 and rs.box(2).collected == 0


def test_aa_vs_aa_without_the_1000_line_pays_30():
    cfg = CFG.with_changes(bonus_1000_line=False)
    rs = check_round(_cards("Ac Ad"), _cards("Qh Jd Ts 4d 5d"),
                     [BoxInput(1, BoxBets(ante=D(10), flop=D(20), bonus=D(5)), tuple(_cards("Ah As")))], cfg)
    assert rs.box(1).result(Bet.BONUS).paid == 150
