"""Golden settlements on rigged cards: every settlement case and every paytable line."""

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import pytest

from shared.cards import Card, parse_cards
from shared.errors import InputError
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.paytables import BONUS_PAYTABLE, FIXED_JACKPOT_PAYTABLE, PROGRESSIVE_JACKPOT_PAYTABLE
from shared.messages import Msg
from shared.madero.settlement import (
    Bet,
    BoxBets,
    BoxInput,
    BoxStatus,
    LinkedMeter,
    MeterReading,
    Outcome,
    settle_round,
    share_meter,
    void_settlement,
)
from shared.money import ZERO, to_money

# The settle tool's own reader is madero_tui/commands/settle.py; these read a round given as plain
# data for the tests below.
def settle_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    """Settle from plain data (the ``settle`` CLI's JSON): see ``parse_round``."""
    config, bank, board, boxes, kwargs = parse_round(data)
    return settle_round(config, bank, board, boxes, **kwargs).record().words(BOTH)


def parse_round(
    data: Mapping[str, Any],
) -> tuple[MaderoTableConfig, list[Card], list[Card], list[BoxInput], dict[str, Any]]:
    """Read ``{"bank": "As Kd", "board": "...", "boxes": [{"box": 1, "cards": "...",
    "ante": "10", "flop": "20", "turn": "10", "river": "0", "bonus": "5",
    "jackpot_credits": 1, "status": "active"}], "meter": {...}, "carta_magica": "Qh",
    "jugador_afortunado": 3}`` with an optional ``config`` mapping."""
    config = MaderoTableConfig.from_mapping(data["config"]) if "config" in data else DEFAULT_MADERO_TABLE
    boxes = []
    for item in data.get("boxes", ()):
        bets = BoxBets(
            **{k: to_money(item.get(k, 0)) for k in ("ante", "flop", "turn", "river", "bonus")},
            jackpot_credits=int(item.get("jackpot_credits", 0)),
        )
        cards = tuple(parse_cards(item["cards"])) if item.get("cards") else None
        boxes.append(BoxInput(int(item["box"]), bets, cards, BoxStatus(item.get("status", "active"))))
    kwargs: dict[str, Any] = {}
    if data.get("meter"):
        m = data["meter"]
        kwargs["meter"] = MeterReading(to_money(m["own"]), to_money(m.get("linked_total", m["own"])),
                                       to_money(m.get("own_seed", config.seed)))
    if data.get("carta_magica"):
        kwargs["carta_magica"] = parse_cards(data["carta_magica"])[0]
    if data.get("jugador_afortunado") is not None:
        kwargs["jugador_afortunado"] = int(data["jugador_afortunado"])
    return config, parse_cards(data["bank"]), parse_cards(data["board"]), boxes, kwargs


D = Decimal
BOTH = ("es", "en")  # the record with its words written out, as rows kept them before issue 33
FIXED = DEFAULT_MADERO_TABLE
PROG = MaderoTableConfig.from_mapping(dict(table_id="P1", minimum=10, maximum=500, jackpot_mode="progressive",
                         contribution_percent=10))


def box(n, cards, ante=10, flop=20, turn=0, river=0, bonus=0, credits=0, status=BoxStatus.ACTIVE):
    return BoxInput(n, BoxBets(D(ante), D(flop), D(turn), D(river), D(bonus), credits),
                    tuple(parse_cards(cards)) if cards else None, status)


def well_formed(s, boxes, config):
    """What every settlement owes the croupier: one result per bet placed, in the box's own
    numbers, each with both languages' reason and its article; every stake returned or
    collected, never both nor neither."""
    assert [b.box for b in s.boxes] == [b.box for b in boxes]
    for b, given in zip(s.boxes, boxes, strict=True):
        assert b.status is given.status or (s.void and b.status is BoxStatus.VOIDED)
        placed = [bet for bet in Bet if given.bets.stake(bet, config.jackpot_credit_value) > 0]
        assert [r.bet for r in b.bets] == placed
        for r in b.bets:
            assert r.stake == given.bets.stake(r.bet, config.jackpot_credit_value)
            assert r.reason.render("es") and r.reason.render("en") and r.reason.render("es") != r.reason.render("en")
            assert r.article.startswith("Art. ")
            assert r.returned + r.collected == r.stake
            if r.outcome is Outcome.LOSE:
                assert r.collected == r.stake and not r.paid
            elif r.outcome is Outcome.PUSH:
                assert r.returned == r.stake and not r.paid
            else:  # a Jackpot's credits stay in the slot (§42); any other winning stake comes back
                assert r.paid > 0 and (r.collected if r.bet is Bet.JACKPOT else r.returned) == r.stake
        if b.hand is None:
            assert b.hand_text("es") == b.hand_text("en") == "" and b.main is None
    assert s.returned + s.collected == s.staked
    assert (s.bank_text("es") == s.bank_text("en") == "") is (s.bank is None)


def settle(bank, board, boxes, config=FIXED, **kw):
    s = settle_round(config, parse_cards(bank), parse_cards(board), boxes, **kw)
    well_formed(s, boxes, config)
    return s


def outcomes(bs):
    return {r.bet: (r.outcome, r.paid) for r in bs.bets}


# --- main bets (Art. 9 §33–35) ----------------------------------------------------

def test_flush_beats_bank_everything_pays_one_to_one():
    s = settle("2c 3d", "Ah 9h 4h 8s Kd", [box(1, "Th 6h", turn=10, river=10)])
    b = s.box(1)
    assert b.main is Outcome.WIN and b.hand_text("es").startswith("Color")
    assert outcomes(b) == {Bet.ANTE: (Outcome.WIN, 10), Bet.FLOP: (Outcome.WIN, 20),
                           Bet.TURN: (Outcome.WIN, 10), Bet.RIVER: (Outcome.WIN, 10)}
    assert b.to_hand_over == 100 and s.bank_text("es") == "La banca tiene Carta mayor: As"


@pytest.mark.parametrize("hole, board, hand", [
    ("As 6h", "Ah 9h 4c 8s Kd", "Pareja"),
    ("As Ad", "Ah 9h 4c 8s Kd", "Trío"),
    ("8c 9d", "5c 6d 7h Kd 2s", "Escalera"),  # the hand just below Color: the Ante is still returned
])
def test_winner_below_flush_gets_the_ante_back(hole, board, hand):
    s = settle("2c 3d", board, [box(1, hole, turn=10)])
    assert s.box(1).hand_text("es").startswith(hand)
    o = outcomes(s.box(1))
    assert o[Bet.ANTE] == (Outcome.PUSH, 0) and o[Bet.FLOP] == (Outcome.WIN, 20) and o[Bet.TURN] == (Outcome.WIN, 10)
    assert "Color" in s.box(1).result(Bet.ANTE).reason.render("es") and s.box(1).result(Bet.ANTE).article == "Art. 9 §33"


@pytest.mark.parametrize("hole, board, hand", [
    ("Th 6h", "Ah 9h 4h 8s Kd", "Color"),  # Color, the least hand that pays the Ante
    ("9s 9d", "9h 4c 4d Kd 2s", "Full"),
    ("8h 9h", "5h 6h 7h Kd 2s", "Escalera de color"),
])
def test_winner_with_flush_or_better_is_paid_the_ante(hole, board, hand):
    s = settle("2c 3d", board, [box(1, hole)])
    assert s.box(1).hand_text("es").startswith(hand)
    assert outcomes(s.box(1))[Bet.ANTE] == (Outcome.WIN, 10) and s.box(1).result(Bet.ANTE).article == "Art. 9 §33"


def test_bank_wins_everything_collected():
    s = settle("Ac Ad", "Ah 9h 4c 8s Kd", [box(1, "Ks 6h", turn=10, river=10)])
    assert all(r.outcome is Outcome.LOSE for r in s.box(1).bets)
    assert s.collected == 50 and s.paid == 0 and s.house_result == 50


def test_tie_returns_every_main_bet():
    s = settle("2c 3d", "Ah Kh Qs Jd Tc", [box(1, "4s 5s", turn=10)])
    assert s.box(1).main is Outcome.PUSH and s.returned == 40 and s.paid == 0


def test_folded_dead_and_voided_boxes():
    s = settle("2c 3d", "Ah 9h 4c 8s Kd", [
        box(1, None, flop=0, bonus=5, credits=1, status=BoxStatus.FOLDED),
        box(2, "Ac Ad", bonus=5, credits=2, status=BoxStatus.DEAD),
        box(3, "Kc Ks", bonus=5, credits=3, status=BoxStatus.VOIDED),
    ])
    assert {r.outcome for r in s.box(1).bets} == {Outcome.LOSE} and s.box(1).collected == 16
    assert s.box(1).result(Bet.ANTE).article == "Art. 8 §26.1"
    assert s.box(1).result(Bet.JACKPOT).article == "Art. 11 §46"
    # §38, Decision: a dead hand's bets are all returned, its A-A Bonus unpaid (nothing decided on it).
    assert {(r.outcome, r.article) for r in s.box(2).bets} == {(Outcome.PUSH, "Art. 10 §38")}
    assert (s.box(2).returned, s.box(2).collected, s.box(2).paid) == (37, 0, 0)
    assert {r.outcome for r in s.box(3).bets} == {Outcome.PUSH} and s.box(3).returned == 38
    assert s.paid == 0
    # Nothing is decided on a box out of play, its hand included (the dead box holds A-A).
    assert s.box(1).hand is None and s.box(2).hand is None and s.box(3).hand is None


def test_the_settlements_words_name_the_hands_the_line_and_the_odds():
    s = settle("2c 3d", "Ah 9h 4c 8s Kd", [box(1, "As Ac", bonus=5, credits=1)])
    trips = s.box(1).result(Bet.ANTE).reason.render("es")
    assert trips.startswith("Trío") and "gana a" in trips and "de la banca; el Ante se paga sólo con Color" in trips
    assert s.box(1).result(Bet.BONUS).reason.render("es") == "Bonus A-A: paga 30 a 1"
    jackpot = s.box(1).result(Bet.JACKPOT).reason.render("es")
    assert jackpot.startswith("Jackpot: Trío") and jackpot.endswith("no tiene premio") and "None" not in jackpot


def test_void_round_returns_every_bet():
    boxes = [box(1, None, bonus=5, credits=2), box(2, None, flop=0)]
    s = void_settlement(boxes, FIXED, article="Art. 10 §37", reason=Msg.of("settlement.round_void", reason="x"))
    well_formed(s, boxes, FIXED)
    assert s.void and s.returned == s.staked == 47 and s.collected == s.paid == 0
    assert {(r.reason.render("es"), r.reason.render("en"), r.article) for b in s.boxes for r in b.bets} == {
        ("pase anulado: x", "round void: x", "Art. 10 §37")}
    assert [r.bet for r in s.box(2).bets] == [Bet.ANTE]  # only the bets placed
    one_chip = void_settlement([box(3, None, ante=1, flop=0)], FIXED, article="Art. 10 §37",
                               reason=Msg.of("settlement.round_void", reason="x"))
    assert one_chip.returned == 1 and [r.bet for r in one_chip.box(3).bets] == [Bet.ANTE]
    # No bank hand and no draw: the journal form says so rather than failing.
    assert (s.record().words(BOTH)["bank_best"], s.record().words(BOTH)["carta_magica"], s.record().words(BOTH)["bank_es"]) == (None, None, "")


@pytest.mark.parametrize(
    ("config", "bank", "board", "boxes", "es", "en"),
    [
        (FIXED, "2c 3d", "Ah 9h 4c 8s Kd", [box(1, None)],
         "casilla 1: faltan sus cartas para el pago", "box 1: its cards are needed to settle"),
        (FIXED, "2c 3d", "Ah 9h 4c 8s Kd", [box(1, "Ah 2s")], "A♥ figura dos veces", "A♥ appears twice"),
        (FIXED, "2c 3d", "Ah 9h 4c 8s Kd", [box(1, "Jh")], "casilla 1: hacen falta 2 cartas",
         "box 1: 2 cards are needed"),
        (FIXED, "2c 3d", "Ah 9h 4c 8s", [box(1, "Jh 2s")], "hacen falta las 2 cartas de la banca y las 5 comunitarias",
         "the bank's 2 cards and the 5 community cards are needed"),
        (FIXED, "2c", "Ah 9h 4c 8s Kd", [box(1, "Jh 2s")], "hacen falta las 2 cartas de la banca y las 5 comunitarias",
         "the bank's 2 cards and the 5 community cards are needed"),
        (PROG, "2c 3d", "Ah 9h 4c 8s Kd", [box(1, "Jh 2s")], "falta la lectura del pozo progresivo",
         "the progressive meter reading is missing"),
    ],
)
def test_missing_or_repeated_cards_are_refused(config, bank, board, boxes, es, en):
    with pytest.raises(InputError) as err:
        settle_round(config, parse_cards(bank), parse_cards(board), boxes)
    assert (err.value.msg.render("es"), err.value.msg.render("en")) == (es, en)


def test_main_bets_say_why_in_both_languages():
    s = settle("Ac Ad", "Ah 9h 4c 8s Kd", [box(1, "Ks 6h"), box(2, "9s 9d"), box(3, "2s 5h")])
    assert (s.bank_text("es"), s.bank_text("en")) == ("La banca tiene Trío de Ases", "The bank has Three of a kind, Aces")
    lose = s.box(1).result(Bet.FLOP)
    assert (lose.reason.render("es"), lose.reason.render("en"), lose.article) == (
        "Pareja de Reyes pierde con Trío de Ases de la banca", "Pair of Kings loses to the bank's Three of a kind, Aces",
        "Art. 9 §34")
    tie = settle("2c 3d", "Ah Kh Qs Jd Tc", [box(1, "4s 5s")]).box(1).result(Bet.FLOP)
    assert (tie.outcome, tie.reason.render("es"), tie.reason.render("en"), tie.article) == (
        Outcome.PUSH, "empate: Escalera al As contra Escalera al As", "tie: Straight, Ace high against Straight, Ace high",
        "Art. 9 §35")
    win = settle("2c 3d", "Ah 9h 4c 8s Kd", [box(1, "As 6h")]).box(1)
    assert (win.result(Bet.FLOP).reason.render("es"), win.result(Bet.FLOP).reason.render("en")) == (
        "Pareja de Ases gana a Carta mayor: As de la banca: paga 1 a 1",
        "Pair of Aces beats the bank's High card, Ace: pays 1 to 1")
    assert (win.hand_text("es"), win.hand_text("en"), win.main) == ("Pareja de Ases", "Pair of Aces", Outcome.WIN)


def test_a_check_then_a_river_bet_settles_the_river():
    s = settle("2c 3d", "Ah 9h 4c 8s Kd", [box(1, "As 6h", turn=0, river=10)])
    assert [(r.bet, r.paid) for r in s.box(1).bets] == [(Bet.ANTE, 0), (Bet.FLOP, 20), (Bet.RIVER, 10)]


def test_the_draws_exist_only_on_a_progressive_table():
    magic = parse_cards("Qs")[0]
    fixed = settle("Kc Kd", "7c 6s 2h Tc 3d", [box(1, "Qs 4d", credits=1)], carta_magica=magic, jugador_afortunado=1)
    assert (fixed.carta_magica, fixed.jugador_afortunado, fixed.box(1).result(Bet.JACKPOT).paid) == (None, None, 0)
    prog = settle("Kc Kd", "7c 6s 2h Tc 3d", [box(1, "Qs 4d", credits=1)], PROG, meter=METER, carta_magica=magic,
                  jugador_afortunado=1)
    assert (prog.carta_magica, prog.jugador_afortunado, prog.box(1).result(Bet.JACKPOT).paid) == (magic, 1, 60)


def test_credits_are_worth_the_tables_credit_value():
    two = MaderoTableConfig.from_mapping(dict(table_id="T2", minimum=10, maximum=500, jackpot_credit_value=2))
    s = settle("2c 3d", "Ah 9h 4c 8s Kd", [box(1, "As 6h", credits=3, bonus=1)], two)
    assert s.box(1).result(Bet.JACKPOT).stake == 6 and s.staked == 10 + 20 + 1 + 6
    assert s.box(1).result(Bet.BONUS).outcome is Outcome.LOSE  # a Bonus of one chip is settled too


def test_every_box_folded_with_only_the_banks_cards_known():
    s = settle_round(FIXED, parse_cards("2c 3d"), [], [box(1, None, flop=0, status=BoxStatus.FOLDED)])
    assert s.bank is None and s.collected == 10


# --- Bonus (Art. 13 §67) ------------------------------------------------------------

BONUS_CASES = [
    ("aa_vs_aa", "As Ad", "Ac Ah", True, 1000),
    ("aa", "As Ad", "Ac Ah", False, 30),  # Decision: 1000 line off, A-A pays 30
    ("aa", "As Ad", "Kc Kh", True, 30),
    ("ak_suited", "As Ks", "2c 3h", True, 25),
    ("aq_aj_suited", "As Qs", "2c 3h", True, 20),
    ("aq_aj_suited", "Ad Jd", "2c 3h", True, 20),
    ("ak_offsuit", "As Kd", "2c 3h", True, 15),
    ("jj_qq_kk", "Js Jd", "2c 3h", True, 10),
    ("jj_qq_kk", "Qs Qd", "2c 3h", True, 10),
    ("jj_qq_kk", "Ks Kd", "2c 3h", True, 10),
    ("aq_aj_offsuit", "As Qd", "2c 3h", True, 5),
    ("aq_aj_offsuit", "As Jd", "2c 3h", True, 5),
    ("pair_2_to_10", "2s 2d", "4c 3h", True, 3),
    ("pair_2_to_10", "Ts Td", "4c 3h", True, 3),
    (None, "As Td", "4c 3h", True, 0),
    (None, "Ks Qs", "4c 3h", True, 0),
]


@pytest.mark.parametrize(("line", "hole", "bank", "with_1000", "odds"), BONUS_CASES)
def test_bonus_lines(line, hole, bank, with_1000, odds):
    config = FIXED.with_changes(bonus_1000_line=with_1000)
    s = settle(bank, "5h 6h 8c 9c 7d", [box(1, hole, bonus=5)], config)
    r = s.box(1).result(Bet.BONUS)
    assert r.line == line and r.paid == 5 * odds and r.article == "Art. 13 §67"
    assert r.outcome is (Outcome.WIN if line else Outcome.LOSE)


def test_every_bonus_line_is_exercised():
    assert {c[0] for c in BONUS_CASES} - {None} == {p.line.value for p in BONUS_PAYTABLE}


def test_bonus_is_paid_even_when_the_main_hand_loses():
    s = settle("As Ah", "Qh 9h 4c 8s 2d", [box(1, "Kc Kd", bonus=10)])
    assert s.box(1).main is Outcome.LOSE and s.box(1).result(Bet.BONUS).paid == 100


# --- Jackpot, fixed (§48–49) -----------------------------------------------------------

FIXED_JACKPOT_CASES = [  # hole, flop+turn+river, line, paid for 3 credits
    ("Ah Kh", "Qh Jh Th 2c 3d", "escalera_real", 5000),
    ("9h 8h", "7h 6h 5h 2c 3d", "escalera_de_color", 2000),
    ("9h 9d", "9c 9s 5h 2c 3d", "poker", 1500),
    ("9h 9d", "9c 5s 5h 2c 3d", "full", 300),
    ("Ah 9h", "7h 6h 2h Kc 3d", "color", 150),
    ("9h 8d", "7c 6s 5h 2c 3d", "escalera", 75),
    ("9h 9d", "9c 5s 4h 5c 3d", None, 0),  # the full house needs the turn: not a Jackpot hand (§44)
]


@pytest.mark.parametrize(("hole", "board", "line", "paid"), FIXED_JACKPOT_CASES)
def test_fixed_jackpot_lines(hole, board, line, paid):
    s = settle("Tc Td" if "T" not in board else "Kc Kd", board, [box(1, hole, credits=3)])
    r = s.box(1).result(Bet.JACKPOT)
    assert (r.line, r.paid, r.collected) == (line, paid, 3)
    assert s.meter is None


def test_every_fixed_jackpot_line_is_exercised():
    assert {c[2] for c in FIXED_JACKPOT_CASES} - {None} == {p.line.value for p in FIXED_JACKPOT_PAYTABLE}


@pytest.mark.parametrize("credits", [1, 3, 5])
def test_fixed_royal_and_straight_flush_do_not_depend_on_credits(credits):
    # §49: the royal pays 5,000 and the straight flush 2,000, whatever the credits bet (the
    # other lines pay per credit).
    royal = settle("Kc Kd", "Qh Jh Th 2c 3d", [box(1, "Ah Kh", credits=credits)])
    assert royal.box(1).result(Bet.JACKPOT).paid == 5000
    straight_flush = settle("Kc Kd", "8s 7s 6s 2c 3d", [box(1, "9s Ts", credits=credits)])
    assert straight_flush.box(1).result(Bet.JACKPOT).paid == 2000


# --- Jackpot, progressive (§50–58) -------------------------------------------------------

METER = MeterReading(own=D(8000), linked_total=D(20000), own_seed=D(5000))


def test_progressive_royal_wins_the_linked_meter_and_resets():
    s = settle("Kc Kd", "Qh Jh Th 2c 3d", [box(1, "Ah Kh", credits=5), box(2, "9s 9d", credits=5)],
               PROG, meter=METER)
    r = s.box(1).result(Bet.JACKPOT)
    assert r.line == "escalera_real" and r.paid == D(20001)  # 20000 + 10 % of the 10 credits bet
    assert r.exact is None and r.lines[0].exact is None  # whole chips: nothing rounded, no exact beside it
    m = s.meter
    assert m.contribution == 1 and m.royal_hit and m.royal_prize == D(20001) and m.own_after == 5000


def test_straight_flushes_are_paid_highest_first_on_what_remains():
    meter = MeterReading(own=D(8000), linked_total=D(8000), own_seed=D(5000))
    s = settle("2c 3d", "9h 8h 7h Ks Qd", [box(1, "6h 5h", credits=1), box(2, "Jh Th", credits=1)],
               PROG, meter=meter)
    top, low = s.box(2).result(Bet.JACKPOT), s.box(1).result(Bet.JACKPOT)
    own = D("8000.2")
    # 10 % of 8000.2 = 800.02, rounded up to the chip (1): 801
    assert top.paid == 801 and top.exact == D("800.02")
    # 10 % of the exact remainder (§53; issue 28 §2): (8000.2 - 800.02) / 10 = 720.018, up: 721
    assert low.paid == 721 and low.exact == D("720.018")
    # the meter gives the exact shares; the round-ups (0.98 + 0.982) are the house's
    assert s.meter.straight_flush_paid == D("1520.038") and s.meter.own_after == own - D("1520.038")
    assert s.meter.rounding == D("1.962") == (801 + 721) - s.meter.straight_flush_paid


CARRUSEL = MeterReading(own=D(8000), linked_total=D(20000), own_seed=D(5000),
                        others=(LinkedMeter("B", D(7000), D(5000)), LinkedMeter("C", D(5000), D(5000))))


def test_carrusel_straight_flush_is_ten_percent_of_the_linked_sum_spread_over_the_meters():
    # §53 with §58: "el acumulado" of a linked table is the sum of the Carrusel's jackpots.
    s = settle("2c 3d", "9h 8h 7h Ks Qd", [box(1, "6h 5h", credits=1)], PROG, meter=CARRUSEL)
    r = s.box(1).result(Bet.JACKPOT)
    # 10 % of (20000 + 0.1 contribution) = 2000.01, rounded up to the chip: 2001
    assert r.paid == 2001 and r.exact == D("2000.01")
    m = s.meter
    assert m.straight_flush_paid == D("2000.01") and not m.royal_hit and m.royal_prize == m.royal_paid == 0
    assert m.rounding == D("0.99")  # the house's, not the meter's (issue 28 §2)
    # each meter gives, in proportion to its value, of the exact share (to the cent, down):
    # B 2000.01 × 7000 / 20000.1 = 700, C 2000.01 × 5000 / 20000.1 = 500;
    # this table carries the rest: 2000.01 - 700 - 500 = 800.01
    assert dict(m.others_paid) == {"B": D("700.00"), "C": D("500.00")}
    assert m.own_after == D("8000.1") - D("800.01")


def test_carrusel_royal_takes_the_sum_and_a_straight_flush_then_takes_ten_percent_of_the_seeds():
    s = settle("2c 3d", "Qs Js Ts 4h 4d", [box(1, "As Ks", credits=1), box(2, "9s 8s", credits=1)],
               PROG, meter=CARRUSEL)
    royal, sf = s.box(1).result(Bet.JACKPOT), s.box(2).result(Bet.JACKPOT)
    # the linked sum 20000 + 0.2 contribution, rounded up to the chip: 20001
    assert royal.paid == 20001 and royal.exact == D("20000.2")
    assert sf.paid == 1500 and sf.exact is None  # 10 % of the three seeds: 15000
    m = s.meter
    assert m.royal_hit and m.royal_prize == D("20000.2") and m.royal_paid == 20001
    assert dict(m.others_paid) == {"B": 500, "C": 500} and m.own_after == 4500


def test_royal_is_paid_before_the_straight_flushes_which_use_the_seed():
    meter = MeterReading(own=D(8000), linked_total=D(8000), own_seed=D(5000))
    s = settle("2c 3d", "Qs Js Ts 4h 4d", [box(1, "As Ks", credits=1), box(2, "9s 8s", credits=1)],
               PROG, meter=meter)
    # the royal: 8000 + 0.2 contribution = 8000.2, up to 8001; the straight flush 10 % of the seed
    assert s.box(1).result(Bet.JACKPOT).paid == 8001 and s.box(2).result(Bet.JACKPOT).paid == 500
    assert s.meter.own_after == 4500 and s.meter.others_paid == ()


def test_a_linked_jackpot_known_only_as_a_sum_still_pays_ten_percent_of_it():
    # The settle tool's "jackpot_value", or a reading without each linked meter: the sum decides.
    s = settle("2c 3d", "9h 8h 7h Ks Qd", [box(1, "6h 5h", credits=1)], PROG, meter=METER)
    # 10 % of (20000 + 0.1) = 2000.01, up to 2001; the table's own meter gives all of it
    assert s.box(1).result(Bet.JACKPOT).paid == 2001 and s.meter.others_paid == ()
    assert s.meter.own_after == D("8000.1") - D("2000.01")


def test_a_carrusel_round_without_a_meter_prize_moves_no_other_meter():
    s = settle("2c 3d", "9h 8h 7h Ks Qd", [box(1, "2h 3s", credits=1)], PROG, meter=CARRUSEL)
    assert s.meter.others_paid == () and s.meter.straight_flush_paid == 0 and s.meter.own_after == D("8000.1")


def test_equal_royals_share_the_linked_jackpot_equally():
    # §52: at one table two royals cannot meet (one deck, one flop): the sharing is proved
    # on the meter arithmetic alone.
    p = share_meter(CARRUSEL, D("0.2"), [2, 5, 6], [], D(1))
    assert {b: (x.line, x.paid, x.exact) for b, x in p.paid.items()} == {
        # 20000.2 / 3 = 6666.733…, rounded up to the chip: 6667 each; 3 × 6667 = 20001
        n: ("escalera_real", D(6667), D("20000.2") / 3) for n in (2, 5, 6)}
    assert p.movement.royal_prize == D("20000.2") and p.movement.royal_paid == 20001
    assert p.movement.own_after == 5000 and p.movement.royal_hit
    two = share_meter(CARRUSEL, ZERO, [1, 3], [], D(1))
    assert [x.paid for x in two.paid.values()] == [10000, 10000] and two.movement.royal_paid == 20000


def test_a_share_of_the_meter_between_chips_is_paid_rounded_up_never_below_exact():
    # House rule: never pay anyone less than the resolution says; round only in the player's
    # favour. With a chip of 5: royal 20000.2 / 3 = 6666.733… lies between 6665 and 6670 → 6670;
    # a straight flush 10 % of 20000 = 2000 is whole chips → 2000, no rounding, no ``exact``;
    # then 10 % of what remains, (20000 - 2000) / 10 = 1800 → 1800; an equal pair each 10 % of
    # 20003 = 2000.3 → 2005.
    royals = share_meter(CARRUSEL, D("0.2"), [2, 5, 6], [], D(5))
    for x in royals.paid.values():
        assert x.paid == 6670 and x.exact == D("20000.2") / 3 and x.paid >= x.exact
        assert x.paid - x.exact < 5  # the next chip up, not one more
    flushes = share_meter(CARRUSEL, ZERO, [], [(1, 50), (2, 40)], D(5))
    assert [(x.paid, x.exact) for x in flushes.paid.values()] == [(2000, None), (1800, None)]
    pair = share_meter(CARRUSEL, D(3), [], [(1, 50), (2, 50)], D(5))
    assert [(x.paid, x.exact) for x in pair.paid.values()] == [(2005, D("2000.3"))] * 2
    # the meters give the exact shares, no more, no less; the round-ups are the house's
    m = pair.movement
    assert m.straight_flush_paid == D("4000.6") and m.rounding == 4010 - D("4000.6")
    others = dict(m.others_paid)
    after = m.own_after + (7000 - others["B"]) + (5000 - others["C"])
    assert after == D(20003) - D("4000.6")  # the linked sum less exactly the exact shares
    assert min(m.own_after, 7000 - others["B"], 5000 - others["C"]) >= 0


def test_equal_straight_flushes_are_each_paid_ten_percent_of_the_start():
    # §53 last sentence; a lower one is then paid 10 % of what remains.
    p = share_meter(CARRUSEL, ZERO, [], [(1, 50), (2, 50), (3, 40)], D(1))
    assert {b: x.paid for b, x in p.paid.items()} == {1: 2000, 2: 2000, 3: 1600}
    assert p.movement.straight_flush_paid == 5600 and not p.movement.royal_hit


@pytest.mark.parametrize(
    ("hole", "board", "magic", "lucky", "lines", "paid"),
    [
        ("9h 9d", "9c 9s 5h 2c 3d", None, None, [("poker", 1000)], 1000),
        ("9h 9d", "9c 5s 5h 2c 3d", None, None, [("full", 200)], 200),
        ("Ah 9h", "7h 6h 2h Qc 3d", None, None, [("color", 100)], 100),
        ("9h 8d", "7c 6s 5h 2c 3d", None, None, [("escalera", 50)], 50),
        ("Qs 4d", "7c 6s 2h Tc 3d", "Qs", None, [("carta_magica", 60)], 60),
        ("Qs 4d", "7c 6s 2h Tc 3d", None, 1, [("jugador_afortunado", 60)], 60),
        # §55: the special prizes are paid in addition to the hand and to each other
        ("Qs 4d", "7c 6s 2h Tc 3d", "Qs", 1, [("carta_magica", 60), ("jugador_afortunado", 60)], 120),
        ("9h 8d", "7c 6s 5h 2c 3d", "9h", None, [("escalera", 50), ("carta_magica", 60)], 110),
        ("9h 9d", "9c 5s 5h 2c 3d", "9d", 1,
         [("full", 200), ("carta_magica", 60), ("jugador_afortunado", 60)], 320),
        ("Qs 4d", "7c 6s 2h Tc 3d", "Qh", 2, [], 0),
    ],
)
def test_progressive_lines(hole, board, magic, lucky, lines, paid):
    s = settle("Kc Kd", board, [box(1, hole, credits=2)], PROG, meter=METER,
               carta_magica=parse_cards(magic)[0] if magic else None, jugador_afortunado=lucky)
    r = s.box(1).result(Bet.JACKPOT)
    assert [(x.line, x.paid) for x in r.lines] == lines
    assert r.paid == paid and r.collected == 2 and r.line == (lines[0][0] if lines else None)
    assert r.outcome is (Outcome.WIN if lines else Outcome.LOSE)


def test_a_royal_with_both_special_prizes_is_paid_all_three():
    s = settle("2c 3d", "Qh Jh Th 2s 3s", [box(4, "Ah Kh", credits=5)], PROG, meter=METER,
               carta_magica=parse_cards("Kh")[0], jugador_afortunado=4)
    r = s.box(4).result(Bet.JACKPOT)
    assert [(x.line, x.paid) for x in r.lines] == [
        ("escalera_real", 20001), ("carta_magica", 150), ("jugador_afortunado", 150)]
    # the royal: 20000 + 0.5 contribution = 20000.5, up to 20001; 20001 + 150 + 150
    assert r.paid == 20301 and r.exact == D("20300.5")
    assert r.reason.render("es") == "Jackpot Escalera real de color (100 % del pozo): 20.001 + Carta Mágica: 150 + Jugador Afortunado: 150"
    # Each language writes the amount its own way.
    assert r.reason.render("en") == "Jackpot Royal flush (100 % of the meter): 20,001 + Magic card: 150 + Lucky player: 150"


def test_every_progressive_line_is_exercised():
    lines = {"escalera_real", "escalera_de_color", "poker", "full", "color", "escalera",
             "carta_magica", "jugador_afortunado"}
    assert lines == {p.line.value for p in PROGRESSIVE_JACKPOT_PAYTABLE}


def test_folded_box_loses_the_magic_card_and_lucky_seat():
    s = settle("Kc Kd", "7c 6s 2h Tc 3d", [box(1, "Qs 4d", flop=0, credits=2, status=BoxStatus.FOLDED)],
               PROG, meter=METER, carta_magica=parse_cards("Qs")[0], jugador_afortunado=1)
    assert s.box(1).result(Bet.JACKPOT).outcome is Outcome.LOSE
    assert s.meter.contribution == D("0.2")


def test_box_without_jackpot_bet_wins_no_draw():
    s = settle("Kc Kd", "7c 6s 2h Tc 3d", [box(1, "Qs 4d")], PROG, meter=METER,
               carta_magica=parse_cards("Qs")[0], jugador_afortunado=1)
    assert s.box(1).result(Bet.JACKPOT) is None and s.paid == 0


def test_to_dict_is_the_whole_settlement_for_the_journal_and_json():
    s = settle("2c 3d", "9h 8h 7h 4s 4d", [box(1, "6h 5h", credits=1, bonus=5),
                                           box(3, None, flop=0, credits=2, status=BoxStatus.FOLDED)],
               PROG, meter=CARRUSEL, carta_magica=parse_cards("5h")[0], jugador_afortunado=1)
    d = json.loads(json.dumps(s.record().words(BOTH)))
    boxes = d.pop("boxes")
    assert d == {
        "void": False, "bank_cards": ["2c", "3d"], "bank_best": ["4s", "4d", "9h", "8h", "7h"],
        "bank_es": "La banca tiene Pareja de Cuatros", "bank_en": "The bank has Pair of Fours",
        "carta_magica": "5h", "jugador_afortunado": 1,
        # 10 + 20 + the Jackpot 2061 (below)
        "totals": {"staked": "48", "paid": "2091", "returned": "30", "collected": "18"},
        # 10 % of (20000 + 0.3 contribution) = 2000.03, paid 2001; the meters give the exact share:
        # B 2000.03 × 7000 / 20000.3 = 700 and C 500 (to the cent, down); this table the rest:
        # 8000.3 - (2000.03 - 700 - 500) = 7200.27; the 0.97 paid above it is the house's rounding
        "meter": {"contribution": "0.3", "royal_prize": "0", "royal_paid": "0", "straight_flush_paid": "2000.03",
                  "royal_hit": False, "own_after": "7200.27", "others_paid": [["B", "700.00"], ["C", "500.00"]],
                  "rounding": "0.97"},
    }
    assert [(b["box"], b["status"], b["hand_es"], b["hand_en"], b["main"]) for b in boxes] == [
        (1, "active", "Escalera de color al 9", "Straight flush, 9 high", "win"), (3, "folded", "", "", None)]
    keys = ("bet", "stake", "outcome", "paid", "returned", "collected", "line", "exact", "article")
    assert [[tuple(r[k] for k in keys) for r in b["bets"]] for b in boxes] == [
        [("ante", "10", "win", "10", "10", "0", None, None, "Art. 9 §33"),
         ("flop", "20", "win", "20", "20", "0", None, None, "Art. 9 §33"),
         ("bonus", "5", "lose", "0", "0", "5", None, None, "Art. 13 §67"),
         ("jackpot", "1", "win", "2061", "0", "1", "escalera_de_color", "2060.03",
          "Art. 11 §50, §53, Art. 11 §55–56, Art. 11 §55, §57")],
        [("ante", "10", "lose", "0", "0", "10", None, None, "Art. 8 §26.1"),
         ("jackpot", "2", "lose", "0", "0", "2", None, None, "Art. 11 §46")],
    ]
    jackpot = boxes[0]["bets"][3]
    assert jackpot["lines"] == [{"line": "escalera_de_color", "paid": "2001", "exact": "2000.03"},
                                {"line": "carta_magica", "paid": "30", "exact": None},
                                {"line": "jugador_afortunado", "paid": "30", "exact": None}]
    assert jackpot["reason_es"] == ("Jackpot Escalera de color (10 % del pozo): 2.001 + Carta Mágica: 30 + "
                                    "Jugador Afortunado: 30")
    assert jackpot["reason_en"] == "Jackpot Straight flush (10 % of the meter): 2,001 + Magic card: 30 + Lucky player: 30"
    assert boxes[1]["bets"][0]["reason_en"] == "folded: the Ante goes to the bank"


def test_parse_round_reads_every_field():
    data = {
        "config": {"table_id": "P7", "minimum": "10", "maximum": "500", "jackpot_mode": "progressive",
                   "contribution_percent": "10", "progressive_seed": "6000"},
        "bank": "2c 3d", "board": "9h 8h 7h 4s 4d",
        "boxes": [{"box": 2, "cards": "6h 5h", "ante": "10", "flop": "20", "turn": "10", "river": "10",
                   "bonus": "5", "jackpot_credits": 3},
                  {"box": 4, "ante": "10", "status": "folded"}],
        "meter": {"own": "7000", "linked_total": "9000"},
        "carta_magica": "Kd", "jugador_afortunado": 4,
    }
    config, bank, board, boxes, kw = parse_round(data)
    assert (config.table_id, config.seed, config.progressive) == ("P7", 6000, True)
    assert (bank, board) == (parse_cards("2c 3d"), parse_cards("9h 8h 7h 4s 4d"))
    assert boxes == [
        BoxInput(2, BoxBets(D(10), D(20), D(10), D(10), D(5), 3), tuple(parse_cards("6h 5h")), BoxStatus.ACTIVE),
        BoxInput(4, BoxBets(ante=D(10)), None, BoxStatus.FOLDED)]
    assert kw == {"meter": MeterReading(D(7000), D(9000), D(6000)), "carta_magica": parse_cards("Kd")[0],
                  "jugador_afortunado": 4}
    alone = parse_round({"bank": "", "board": "", "meter": {"own": "5000", "own_seed": "5500"},
                         "jugador_afortunado": 0})
    assert alone[0] == FIXED and alone[3] == [] and alone[4] == {
        "meter": MeterReading(D(5000), D(5000), D(5500)), "jugador_afortunado": 0}


def test_settle_mapping_reads_plain_data():
    d = settle_mapping({"bank": "2c 3d", "board": "Ah 9h 4h 8s Kd",
                        "boxes": [{"box": 1, "cards": "Th 6h", "ante": "10", "flop": "20"}]})
    assert d["totals"] == {"staked": "30", "paid": "30", "returned": "30", "collected": "0"}
    assert d["boxes"][0]["bets"][0]["reason_en"].startswith("Flush")
    assert (d["carta_magica"], d["jugador_afortunado"], d["meter"]) == (None, None, None)
    # The draws and the meter reach the settlement (§55–57, §50).
    d = settle_mapping({"config": {"table_id": "P7", "minimum": "10", "maximum": "500", "jackpot_mode": "progressive",
                                   "contribution_percent": "10"},
                        "bank": "Kc Kd", "board": "7c 6s 2h Tc 3d", "meter": {"own": "60000"},
                        "boxes": [{"box": 1, "cards": "Qs 4d", "ante": "10", "flop": "20", "jackpot_credits": 1}],
                        "carta_magica": "Qs", "jugador_afortunado": 1})
    assert (d["carta_magica"], d["jugador_afortunado"]) == (str(parse_cards("Qs")[0]), 1)
    assert d["meter"] is not None and d["boxes"][0]["bets"][-1]["paid"] == "60"


def test_round_where_every_box_folded_needs_no_cards():
    s = settle_round(FIXED, [], [], [box(1, None, flop=0, bonus=5, status=BoxStatus.FOLDED)])
    assert s.bank is None and s.collected == 15 and s.paid == 0
    assert s.bank_text("es") == s.bank_text("en") == ""  # no bank hand to describe


def test_every_jackpot_box_is_settled_whatever_the_boxes_before_it():
    # §46, §69, §44, §48 in one round: a voided box's Jackpot returned, a folded one's lost, a
    # hand with no prize lost, and a Full after all three still paid (100 per credit).
    s = settle("2c 3d", "9h 9c 7h Ks 2d", [
        box(1, None, bonus=5, credits=1, status=BoxStatus.VOIDED),
        box(2, None, flop=0, credits=1, status=BoxStatus.FOLDED),
        box(3, "Ac Qd", ante=1, flop=2, credits=1),  # main bets of one chip are settled too
        box(4, "9s 7d", credits=1),
    ])
    assert [r.bet for r in s.box(3).bets] == [Bet.ANTE, Bet.FLOP, Bet.JACKPOT]
    assert [s.box(n).result(Bet.JACKPOT).outcome for n in (1, 2, 3, 4)] == [
        Outcome.PUSH, Outcome.LOSE, Outcome.LOSE, Outcome.WIN]
    assert (s.box(4).result(Bet.JACKPOT).paid, s.box(4).result(Bet.JACKPOT).exact) == (100, None)
