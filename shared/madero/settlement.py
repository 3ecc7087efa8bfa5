"""Settlement of one finished Madero round: pure, from the cards and the bets.

``settle_round`` is the single place where a round's money is decided; the engine
calls it at showdown and the ``settle`` command-line tool calls it with typed cards.
For each box and each bet it says the outcome, what to pay, collect or return, and
why (the hands' names and the article), so the croupier is told exactly what to do.

Money: every stake ends up either returned or collected (``returned + collected ==
stake``); winnings are paid on top. Payouts are rounded down to the smallest chip;
``exact`` keeps the unrounded amount for display (console.md "Money").

Decisions (madero-rules.md): the Ante of a winner below Color is returned; a dead
hand loses its bets like a fold; a collusion-voided box gets every bet back; the
Jackpot credits are always collected (they go into the slot, §42) and a winning line
is paid on top; a box is paid only its single highest Jackpot line, in the order the
paytable lists them (§48, §50); royal flushes come first and share the (linked)
meter equally (§52, §58), straight flushes follow on the table's own meter, highest
first, each paid 10 % of what remains (§53).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from shared.cards import Card, parse_cards
from shared.errors import InputError
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.paytables import (
    BONUS_ARTICLE,
    BONUS_BY_LINE,
    JackpotLine,
    JackpotPay,
    JackpotPayKind,
    bonus_line,
)
from shared.money import ZERO, round_down_to_chip, to_money

if TYPE_CHECKING:
    from shared.poker.evaluator import HandValue

# The evaluator (its lookup tables load at import) is imported by the functions that rank
# hands: a console starts between rounds and needs it only at the first showdown.


class Bet(StrEnum):
    ANTE = "ante"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    BONUS = "bonus"
    JACKPOT = "jackpot"


MAIN_BETS = (Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER)


class BoxStatus(StrEnum):
    ACTIVE = "active"
    FOLDED = "folded"
    """"Me retiro" (Art. 8 §26.1)."""
    DEAD = "dead"
    """Mano muerta (Art. 10 §38)."""
    VOIDED = "voided"
    """Nulidad de la mano por colusión (Art. 14 §69), or the whole round void (§37, §70)."""


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    """The stake is returned, nothing is won."""


@dataclass(frozen=True)
class BoxBets:
    ante: Decimal = ZERO
    flop: Decimal = ZERO
    turn: Decimal = ZERO
    river: Decimal = ZERO
    bonus: Decimal = ZERO
    jackpot_credits: int = 0

    def stake(self, bet: Bet, credit_value: Decimal) -> Decimal:
        if bet is Bet.JACKPOT:
            return self.jackpot_credits * credit_value
        return getattr(self, bet.value)

    def total(self, credit_value: Decimal) -> Decimal:
        return sum((self.stake(b, credit_value) for b in Bet), ZERO)


@dataclass(frozen=True)
class BoxInput:
    box: int
    bets: BoxBets
    cards: tuple[Card, ...] | None = None
    """The two hole cards; required for an active box, optional otherwise."""
    status: BoxStatus = BoxStatus.ACTIVE


@dataclass(frozen=True)
class MeterReading:
    """The progressive meter as read when the round is settled (before its contribution)."""

    own: Decimal
    """This table's meter."""
    linked_total: Decimal
    """The royal prize: the sum of the Carrusel's meters, this table's included (§58)."""
    own_seed: Decimal
    """What this table's meter restarts at after a royal (§51)."""


@dataclass(frozen=True)
class MeterMovement:
    contribution: Decimal
    """This round's share of the Jackpot bets added to the table's meter (§51)."""
    royal_prize: Decimal
    """The whole (linked) meter won by the royal flush(es); 0 when none (§52)."""
    royal_paid: Decimal
    """What the royal winners are actually paid (the equal shares, rounded to the chip)."""
    straight_flush_paid: Decimal
    """Deducted from this table's meter for straight flushes (§53, §54)."""
    royal_hit: bool
    """Every linked meter restarts at its seed (§58 Decision)."""
    own_after: Decimal
    """This table's meter once the round is settled."""


@dataclass(frozen=True)
class BetResult:
    bet: Bet
    stake: Decimal
    outcome: Outcome
    paid: Decimal
    """Winnings to pay on top of any returned stake (rounded down to the chip)."""
    returned: Decimal
    collected: Decimal
    reason_es: str
    reason_en: str
    article: str
    line: str | None = None
    """The paytable line that paid (Bonus/Jackpot)."""
    exact: Decimal | None = None
    """The exact winnings when rounding to the chip changed them."""


@dataclass(frozen=True)
class BoxSettlement:
    box: int
    status: BoxStatus
    hand: HandValue | None
    hand_es: str
    hand_en: str
    main: Outcome | None
    """Result against the bank; None when the box did not reach the showdown."""
    bets: tuple[BetResult, ...]

    @property
    def paid(self) -> Decimal:
        return sum((r.paid for r in self.bets), ZERO)

    @property
    def returned(self) -> Decimal:
        return sum((r.returned for r in self.bets), ZERO)

    @property
    def collected(self) -> Decimal:
        return sum((r.collected for r in self.bets), ZERO)

    @property
    def staked(self) -> Decimal:
        return sum((r.stake for r in self.bets), ZERO)

    @property
    def to_hand_over(self) -> Decimal:
        """Chips the croupier puts in front of the box: winnings plus returned stakes."""
        return self.paid + self.returned

    def result(self, bet: Bet) -> BetResult | None:
        return next((r for r in self.bets if r.bet is bet), None)


@dataclass(frozen=True)
class RoundSettlement:
    bank: HandValue | None
    """The bank's best five of seven (Art. 9 §31)."""
    bank_es: str
    """The announcement: "La banca tiene Color al As" (Art. 9 §32)."""
    bank_en: str
    boxes: tuple[BoxSettlement, ...]
    meter: MeterMovement | None = None
    carta_magica: Card | None = None
    jugador_afortunado: int | None = None
    void: bool = False
    bank_cards: tuple[Card, ...] = ()

    @property
    def paid(self) -> Decimal:
        return sum((b.paid for b in self.boxes), ZERO)

    @property
    def returned(self) -> Decimal:
        return sum((b.returned for b in self.boxes), ZERO)

    @property
    def collected(self) -> Decimal:
        return sum((b.collected for b in self.boxes), ZERO)

    @property
    def staked(self) -> Decimal:
        return sum((b.staked for b in self.boxes), ZERO)

    @property
    def pushed(self) -> Decimal:
        """Stakes of the bets neither won nor lost, handed back («devueltas las empatadas»,
        Art. 9 §36): what «devuelve» says on the screen of both consoles. ``returned`` also
        counts the stakes a winning bet keeps."""
        return sum((r.stake for b in self.boxes for r in b.bets if r.outcome is Outcome.PUSH), ZERO)

    @property
    def house_result(self) -> Decimal:
        """Collected minus paid: the bank's win (negative: its loss) this round."""
        return self.collected - self.paid

    def box(self, box: int) -> BoxSettlement:
        return next(b for b in self.boxes if b.box == box)

    def to_dict(self) -> dict:
        """JSON-serialisable form (money as strings) for the journal and ``--json``."""
        def money(v: Decimal | None) -> str | None:
            return None if v is None else str(v)

        return {
            "void": self.void,
            "bank_cards": [str(c) for c in self.bank_cards],
            "bank_best": [str(c) for c in self.bank.best] if self.bank else None,
            "bank_es": self.bank_es,
            "bank_en": self.bank_en,
            "carta_magica": str(self.carta_magica) if self.carta_magica else None,
            "jugador_afortunado": self.jugador_afortunado,
            "totals": {"staked": money(self.staked), "paid": money(self.paid),
                       "returned": money(self.returned), "collected": money(self.collected)},
            "meter": None if self.meter is None else {
                k: (v if isinstance(v, bool) else money(v)) for k, v in asdict(self.meter).items()
            },
            "boxes": [
                {
                    "box": b.box, "status": b.status.value, "hand_es": b.hand_es, "hand_en": b.hand_en,
                    "main": b.main.value if b.main else None,
                    "bets": [
                        {"bet": r.bet.value, "stake": money(r.stake), "outcome": r.outcome.value,
                         "paid": money(r.paid), "returned": money(r.returned),
                         "collected": money(r.collected), "line": r.line, "exact": money(r.exact),
                         "reason_es": r.reason_es, "reason_en": r.reason_en, "article": r.article}
                        for r in b.bets
                    ],
                }
                for b in self.boxes
            ],
        }


def _lose(bet: Bet, stake: Decimal, es: str, en: str, article: str) -> BetResult:
    return BetResult(bet, stake, Outcome.LOSE, ZERO, ZERO, stake, es, en, article)


def _push(bet: Bet, stake: Decimal, es: str, en: str, article: str) -> BetResult:
    return BetResult(bet, stake, Outcome.PUSH, ZERO, stake, ZERO, es, en, article)


def _win(bet: Bet, stake: Decimal, win: Decimal, chip: Decimal, es: str, en: str, article: str,
         *, line: str | None = None, keep_stake: bool = True) -> BetResult:
    paid = round_down_to_chip(win, chip)
    return BetResult(
        bet, stake, Outcome.WIN, paid,
        stake if keep_stake else ZERO, ZERO if keep_stake else stake,
        es, en, article, line=line, exact=win if paid != win else None,
    )


def void_settlement(boxes: Sequence[BoxInput], config: MaderoTableConfig, *,
                    article: str, reason_es: str, reason_en: str) -> RoundSettlement:
    """The whole round annulled (misdeal §37, bank card exposed §70): every bet returned."""
    out = []
    for b in boxes:
        results = tuple(
            _push(bet, b.bets.stake(bet, config.jackpot_credit_value), reason_es, reason_en, article)
            for bet in Bet if b.bets.stake(bet, config.jackpot_credit_value) > 0
        )
        out.append(BoxSettlement(b.box, BoxStatus.VOIDED, None, "", "", None, results))
    return RoundSettlement(None, "", "", tuple(out), void=True)


def _check_cards(bank: Sequence[Card], board: Sequence[Card], boxes: Sequence[BoxInput]) -> None:
    # With no box left in play (all folded, dead or void) no card is needed to settle.
    showdown = any(b.status is BoxStatus.ACTIVE for b in boxes)
    if showdown and (len(bank) != 2 or len(board) != 5):
        raise InputError(
            "hacen falta las 2 cartas de la banca y las 5 comunitarias",
            "the bank's 2 cards and the 5 community cards are needed",
        )
    seen: set[Card] = set()
    for card in [*bank, *board, *(c for b in boxes for c in (b.cards or ()))]:
        if card in seen:
            raise InputError(f"{card.display} figura dos veces", f"{card.display} appears twice")
        seen.add(card)
    for b in boxes:
        if b.cards is not None and len(b.cards) != 2:
            raise InputError(f"casilla {b.box}: hacen falta 2 cartas", f"box {b.box}: 2 cards are needed")
        if b.status is BoxStatus.ACTIVE and b.cards is None:
            raise InputError(
                f"casilla {b.box}: faltan sus cartas para el pago",
                f"box {b.box}: its cards are needed to settle",
            )


def settle_round(
    config: MaderoTableConfig,
    bank: Sequence[Card],
    board: Sequence[Card],
    boxes: Sequence[BoxInput],
    *,
    meter: MeterReading | None = None,
    carta_magica: Card | None = None,
    jugador_afortunado: int | None = None,
) -> RoundSettlement:
    """Settle a round that reached the showdown. ``meter`` is required on progressive tables."""
    from shared.poker.evaluator import describe, evaluate

    _check_cards(bank, board, boxes)
    if config.progressive and meter is None:
        raise InputError("falta la lectura del pozo progresivo", "the progressive meter reading is missing")
    chip = config.chip
    bank_hand = evaluate([*bank, *board]) if len(bank) == 2 and len(board) == 5 else None
    bank_es = f"La banca tiene {describe(bank_hand, 'es')}" if bank_hand else ""
    bank_en = f"The bank has {describe(bank_hand, 'en')}" if bank_hand else ""
    bank_ranks = tuple(sorted((c.rank.value for c in bank), reverse=True))

    results: dict[int, list[BetResult]] = {}
    hands: dict[int, HandValue | None] = {}
    mains: dict[int, Outcome | None] = {}
    for b in boxes:
        res = results[b.box] = []
        hand = hands[b.box] = evaluate([*b.cards, *board]) if b.status is BoxStatus.ACTIVE else None
        mains[b.box] = None
        for bet in MAIN_BETS:
            stake = b.bets.stake(bet, config.jackpot_credit_value)
            if stake <= 0:
                continue
            if b.status is BoxStatus.FOLDED:
                res.append(_lose(bet, stake, "se retiró: el Ante va a la banca", "folded: the Ante goes to the bank", "Art. 8 §26.1"))
            elif b.status is BoxStatus.DEAD:
                res.append(_lose(bet, stake, "mano muerta: fuera de juego", "dead hand: out of the round", "Art. 10 §38"))
            elif b.status is BoxStatus.VOIDED:
                res.append(_push(bet, stake, "mano nula: se devuelve", "hand void: returned", "Art. 14 §69"))
            else:
                res.append(_main_bet(bet, stake, hand, bank_hand, chip))
        if b.status is BoxStatus.ACTIVE:
            cmp = (hand.strength > bank_hand.strength) - (hand.strength < bank_hand.strength)
            mains[b.box] = {1: Outcome.WIN, 0: Outcome.PUSH, -1: Outcome.LOSE}[cmp]
        if b.bets.bonus > 0:
            res.append(_bonus(b, bank_ranks, config))

    jackpot_results, movement = _jackpots(boxes, board, config, meter, carta_magica, jugador_afortunado)
    for box_no, r in jackpot_results.items():
        results[box_no].append(r)

    settled = tuple(
        BoxSettlement(
            b.box, b.status, hands[b.box],
            describe(hands[b.box], "es") if hands[b.box] else "",
            describe(hands[b.box], "en") if hands[b.box] else "",
            mains[b.box], tuple(results[b.box]),
        )
        for b in boxes
    )
    return RoundSettlement(
        bank_hand, bank_es, bank_en, settled,
        meter=movement,
        carta_magica=carta_magica if config.progressive else None,
        jugador_afortunado=jugador_afortunado if config.progressive else None,
        bank_cards=tuple(bank),
    )


def _main_bet(bet: Bet, stake: Decimal, hand: HandValue, bank: HandValue, chip: Decimal) -> BetResult:
    from shared.poker.evaluator import Category, describe

    mine_es, mine_en = describe(hand, "es"), describe(hand, "en")
    bank_es, bank_en = describe(bank, "es"), describe(bank, "en")
    if hand.strength < bank.strength:
        return _lose(bet, stake, f"{mine_es} pierde con {bank_es} de la banca",
                     f"{mine_en} loses to the bank's {bank_en}", "Art. 9 §34")
    if hand.strength == bank.strength:
        return _push(bet, stake, f"empate: {mine_es} contra {bank_es}",
                     f"tie: {mine_en} against {bank_en}", "Art. 9 §35")
    es, en = f"{mine_es} gana a {bank_es} de la banca", f"{mine_en} beats the bank's {bank_en}"
    if bet is Bet.ANTE and hand.category < Category.COLOR:
        return _push(bet, stake, f"{es}; el Ante cobra sólo con Color o más: se devuelve",
                     f"{en}; the Ante pays only on a Flush or better: returned", "Art. 9 §33")
    return _win(bet, stake, stake, chip, f"{es}: paga 1 a 1", f"{en}: pays 1 to 1", "Art. 9 §33")


def _bonus(b: BoxInput, bank_ranks: tuple[int, ...], config: MaderoTableConfig) -> BetResult:
    stake = b.bets.bonus
    if b.status is BoxStatus.FOLDED:
        return _lose(Bet.BONUS, stake, "se retiró: pierde el Bonus", "folded: the Bonus is lost", "Art. 13 §65")
    if b.status is BoxStatus.DEAD:
        return _lose(Bet.BONUS, stake, "mano muerta: pierde el Bonus", "dead hand: the Bonus is lost", "Art. 10 §38")
    if b.status is BoxStatus.VOIDED:
        return _push(Bet.BONUS, stake, "mano nula: se devuelve", "hand void: returned", "Art. 14 §69")
    c1, c2 = b.cards
    # The bank's two cards matter only for the optional A-A vs A-A line (§63).
    line = bonus_line((c1.rank.value, c2.rank.value), c1.suit is c2.suit, bank_ranks, config.bonus_1000_line)
    if line is None:
        return _lose(Bet.BONUS, stake, "sin combinación de Bonus", "no Bonus hand", BONUS_ARTICLE)
    pay = BONUS_BY_LINE[line]
    return _win(Bet.BONUS, stake, stake * pay.odds, config.chip,
                f"Bonus {pay.es}: paga {pay.odds} a 1", f"Bonus {pay.en}: pays {pay.odds} to 1",
                BONUS_ARTICLE, line=line.value)


def _jackpot_line(b: BoxInput, board: Sequence[Card], config: MaderoTableConfig,
                  carta_magica: Card | None, jugador_afortunado: int | None) -> tuple[JackpotPay | None, HandValue]:
    """The single highest-paying line a box makes (hole cards + flop, §44; spec decision).

    A meter line (royal, straight flush) always beats a per-credit one: 10 % of a meter of at
    least 5,000 × the Jackpot minimum (§51) exceeds 30 × 5 credits. Otherwise the larger amount
    wins, so a straight (25 ×) holding the Carta Mágica (30 ×) is paid as Carta Mágica.
    """
    from shared.poker.evaluator import evaluate

    hand = evaluate([*b.cards, *board[:3]])
    matches = [
        pay for pay in config.jackpot_paytable
        if (pay.category is not None and pay.category == hand.category)
        or (pay.line is JackpotLine.CARTA_MAGICA and carta_magica is not None and carta_magica in b.cards)
        or (pay.line is JackpotLine.JUGADOR_AFORTUNADO and jugador_afortunado == b.box)
    ]
    if not matches:
        return None, hand
    meter_lines = [pay for pay in matches if pay.kind is JackpotPayKind.METER_SHARE]
    if meter_lines:
        return meter_lines[0], hand
    return max(matches, key=lambda pay: pay.amount), hand


def _jackpots(
    boxes: Sequence[BoxInput], board: Sequence[Card], config: MaderoTableConfig,
    meter: MeterReading | None, carta_magica: Card | None, jugador_afortunado: int | None,
) -> tuple[dict[int, BetResult], MeterMovement | None]:
    from shared.poker.evaluator import describe

    chip, credit = config.chip, config.jackpot_credit_value
    out: dict[int, BetResult] = {}
    royals: list[tuple[BoxInput, HandValue]] = []
    straight_flushes: list[tuple[BoxInput, HandValue]] = []
    contribution = ZERO
    for b in boxes:
        stake = b.bets.stake(Bet.JACKPOT, credit)
        if stake <= 0:
            continue
        if b.status is BoxStatus.VOIDED:
            out[b.box] = _push(Bet.JACKPOT, stake, "mano nula: se devuelve", "hand void: returned", "Art. 14 §69")
            continue
        contribution += stake
        if b.status is not BoxStatus.ACTIVE:
            out[b.box] = _lose(Bet.JACKPOT, stake, "sin derecho al Jackpot: la mano no siguió en juego",
                               "no Jackpot right: the hand left the round", "Art. 11 §46")
            continue
        pay, hand = _jackpot_line(b, board, config, carta_magica, jugador_afortunado)
        if pay is None:
            out[b.box] = _lose(Bet.JACKPOT, stake, f"Jackpot: {describe(hand, 'es')} no tiene premio",
                               f"Jackpot: {describe(hand, 'en')} wins no prize", "Art. 11 §44")
        elif pay.kind is JackpotPayKind.METER_SHARE:
            (royals if pay.line is JackpotLine.ESCALERA_REAL else straight_flushes).append((b, hand))
        else:
            amount = pay.amount if pay.kind is JackpotPayKind.FIXED else pay.amount * b.bets.jackpot_credits
            out[b.box] = _win(Bet.JACKPOT, stake, amount, chip,
                              f"Jackpot {pay.es}: paga {amount}", f"Jackpot {pay.en}: pays {amount}",
                              pay.article, line=pay.line.value, keep_stake=False)
    if not config.progressive:
        return out, None

    contribution = contribution * config.contribution_percent / 100
    own = meter.own + contribution
    total = meter.linked_total + contribution
    royal_prize = royal_paid = ZERO
    if royals:
        # §52 shares the meter among royals; with one deck and a shared flop only one
        # box can hold the royal, so in practice the single winner takes it all.
        royal_prize = total
        share = total / len(royals)
        for b, _ in royals:
            r = _win(Bet.JACKPOT, b.bets.stake(Bet.JACKPOT, credit), share, chip,
                     f"Jackpot Escalera real: pozo de {total}, {len(royals)} ganador(es)",
                     f"Jackpot royal flush: meter of {total}, {len(royals)} winner(s)",
                     "Art. 11 §50, §52, §58", line=JackpotLine.ESCALERA_REAL.value, keep_stake=False)
            out[b.box] = r
            royal_paid += r.paid
        own = meter.own_seed  # every linked meter restarts at its seed (§58 Decision)
    # §53: highest straight flush first, each paid 10 % of what the meter still holds.
    # Equal straight flushes (§53's last sentence) cannot meet in one round here: both
    # would be the same five cards of the one deck (hole cards + the shared flop).
    sf_paid = ZERO
    for b, hand in sorted(straight_flushes, key=lambda bh: bh[1].strength, reverse=True):
        base = own - sf_paid
        r = _win(Bet.JACKPOT, b.bets.stake(Bet.JACKPOT, credit), base / 10, chip,
                 f"Jackpot {describe(hand, 'es')}: 10 % de {base}",
                 f"Jackpot {describe(hand, 'en')}: 10 % of {base}",
                 "Art. 11 §50, §53", line=JackpotLine.ESCALERA_DE_COLOR.value, keep_stake=False)
        out[b.box] = r
        sf_paid += r.paid
    movement = MeterMovement(contribution, royal_prize, royal_paid, sf_paid, bool(royals), own - sf_paid)
    return out, movement


def settle_mapping(data: Mapping) -> dict:
    """Settle from plain data (the ``settle`` CLI's JSON): see ``parse_round``."""
    config, bank, board, boxes, kwargs = parse_round(data)
    return settle_round(config, bank, board, boxes, **kwargs).to_dict()


def parse_round(data: Mapping):
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
    kwargs: dict = {}
    if data.get("meter"):
        m = data["meter"]
        kwargs["meter"] = MeterReading(to_money(m["own"]), to_money(m.get("linked_total", m["own"])),
                                       to_money(m.get("own_seed", config.seed)))
    if data.get("carta_magica"):
        kwargs["carta_magica"] = parse_cards(data["carta_magica"])[0]
    if data.get("jugador_afortunado") is not None:
        kwargs["jugador_afortunado"] = int(data["jugador_afortunado"])
    return config, parse_cards(data["bank"]), parse_cards(data["board"]), boxes, kwargs
