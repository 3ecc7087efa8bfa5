"""Settlement of one finished Madero round: pure, from the cards and the bets.

``settle_round`` is the single place where a round's money is decided; the engine
calls it at showdown and the ``settle`` command-line tool calls it with typed cards.
For each box and each bet it says the outcome, what to pay, collect or return, and
why (the hands' names and the article), so the croupier is told exactly what to do.

Money: every stake ends up either returned or collected (``returned + collected ==
stake``); winnings are paid on top. Every payout is a whole number of chips by the table's
configuration, except a share of the progressive meter, which is rounded UP to the chip
(never less than the regulated share: the house gives the difference); ``exact`` keeps the
unrounded amount for display.

Decisions (madero-rules.md): the Ante of a winner below Color is returned; a dead
hand loses its bets like a fold; a collusion-voided box gets every bet back; the
Jackpot credits are always collected (they go into the slot, §42) and what a box wins
is paid on top: its single highest *hand* line (a royal is not also a flush) plus each
special prize it wins, Carta Mágica and Jugador Afortunado (§55 "además … independientes
de la mano"). Fixed amounts are paid exactly (§48, §50: the table's chip divides them,
``MaderoTableConfig`` refuses any other). Royal flushes come first and share the (linked)
jackpot equally (§52, §58); straight flushes follow on the same (linked) jackpot, highest
first, each paid 10 % of what remains (§53, §58); on a Carrusel each deduction is spread
over the linked meters in proportion to their values, so each table's meter stays its own
contributions less its share of the prizes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from decimal import ROUND_DOWN, Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

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
from shared.money import ZERO, round_up_to_chip, to_money

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
        stake: Decimal = getattr(self, bet.value)
        return stake

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
class LinkedMeter:
    """Another table's meter of the same Carrusel, as read with this one (§58)."""

    meter_id: str
    value: Decimal
    seed: Decimal


@dataclass(frozen=True)
class MeterReading:
    """The progressive meter as read when the round is settled (before its contribution)."""

    own: Decimal
    """This table's meter."""
    linked_total: Decimal
    """The jackpot of §50 and §53: the sum of the Carrusel's meters, this table's included (§58)."""
    own_seed: Decimal
    """What this table's meter restarts at after a royal (§51)."""
    others: tuple[LinkedMeter, ...] = ()
    """The other linked meters (empty on a table of its own); they sum with ``own`` to
    ``linked_total`` and take their share of a straight flush's deduction."""


@dataclass(frozen=True)
class MeterMovement:
    contribution: Decimal
    """This round's share of the Jackpot bets added to the table's meter (§51)."""
    royal_prize: Decimal
    """The whole (linked) jackpot won by the royal flush(es); 0 when none (§52)."""
    royal_paid: Decimal
    """What the royal winners are actually paid (the equal shares, rounded to the chip)."""
    straight_flush_paid: Decimal
    """Deducted from the (linked) jackpot for straight flushes (§53, §54)."""
    royal_hit: bool
    """Every linked meter restarts at its seed (§58 Decision)."""
    own_after: Decimal
    """This table's meter once the round is settled."""
    others_paid: tuple[tuple[str, Decimal], ...] = ()
    """Each other linked meter's share of ``straight_flush_paid`` (§58); this table's meter
    carries the rest."""


@dataclass(frozen=True)
class JackpotLinePaid:
    """One Jackpot line a box won, with what it pays (§48, §50, §55)."""

    line: str
    paid: Decimal
    exact: Decimal | None = None
    """The exact amount when a share of the meter was rounded to the chip."""


@dataclass(frozen=True)
class BetResult:
    bet: Bet
    stake: Decimal
    outcome: Outcome
    paid: Decimal
    """Winnings to pay on top of any returned stake (rounded up to the chip, never less)."""
    returned: Decimal
    collected: Decimal
    reason_es: str
    reason_en: str
    article: str
    line: str | None = None
    """The paytable line that paid (Bonus/Jackpot)."""
    exact: Decimal | None = None
    """The exact winnings when rounding to the chip changed them."""
    lines: tuple[JackpotLinePaid, ...] = ()
    """Jackpot: every line paid (the hand line, then the special prizes); ``paid`` is their sum."""


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

    def to_dict(self) -> dict[str, Any]:
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
                k: (v if isinstance(v, bool) else [[m, money(a)] for m, a in v] if isinstance(v, tuple) else money(v))
                for k, v in asdict(self.meter).items()
            },
            "boxes": [
                {
                    "box": b.box, "status": b.status.value, "hand_es": b.hand_es, "hand_en": b.hand_en,
                    "main": b.main.value if b.main else None,
                    "bets": [
                        {"bet": r.bet.value, "stake": money(r.stake), "outcome": r.outcome.value,
                         "paid": money(r.paid), "returned": money(r.returned),
                         "collected": money(r.collected), "line": r.line, "exact": money(r.exact),
                         "lines": [{"line": x.line, "paid": money(x.paid), "exact": money(x.exact)}
                                   for x in r.lines],
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
         *, line: str | None = None) -> BetResult:
    paid = round_up_to_chip(win, chip)  # never less than the paytable says
    return BetResult(bet, stake, Outcome.WIN, paid, stake, ZERO, es, en, article, line=line,
                     exact=win if paid != win else None)


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
        hand = hands[b.box] = evaluate([*b.cards, *board]) if b.status is BoxStatus.ACTIVE and b.cards else None
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
                assert hand is not None and bank_hand is not None  # _check_cards: a box in play has its cards
                res.append(_main_bet(bet, stake, hand, bank_hand, chip))
        if b.status is BoxStatus.ACTIVE:
            assert hand is not None and bank_hand is not None
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
            describe(hand, "es") if (hand := hands[b.box]) else "",
            describe(hand, "en") if hand else "",
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
    assert b.cards is not None  # _check_cards: a box in play has its cards
    c1, c2 = b.cards
    # The bank's two cards matter only for the optional A-A vs A-A line (§63).
    line = bonus_line((c1.rank.value, c2.rank.value), c1.suit is c2.suit, bank_ranks, config.bonus_1000_line)
    if line is None:
        return _lose(Bet.BONUS, stake, "sin combinación de Bonus", "no Bonus hand", BONUS_ARTICLE)
    pay = BONUS_BY_LINE[line]
    return _win(Bet.BONUS, stake, stake * pay.odds, config.chip,
                f"Bonus {pay.es}: paga {pay.odds} a 1", f"Bonus {pay.en}: pays {pay.odds} to 1",
                BONUS_ARTICLE, line=line.value)


def _jackpot_lines(b: BoxInput, board: Sequence[Card], config: MaderoTableConfig,
                   carta_magica: Card | None, jugador_afortunado: int | None) -> tuple[list[JackpotPay], HandValue]:
    """The lines a box wins (hole cards + flop, §44): its one hand line, if any, then each
    special prize it holds (§55: "independientes de la mano")."""
    from shared.poker.evaluator import evaluate

    assert b.cards is not None  # only a box in play reaches here, and _check_cards saw its cards
    hand = evaluate([*b.cards, *board[:3]])
    won = [pay for pay in config.jackpot_paytable
           if pay.category is not None and pay.category == hand.category]
    for pay in config.jackpot_paytable:
        if (pay.line is JackpotLine.CARTA_MAGICA and carta_magica in b.cards) or (
                pay.line is JackpotLine.JUGADOR_AFORTUNADO and jugador_afortunado == b.box):
            won.append(pay)
    return won, hand


@dataclass(frozen=True)
class MeterPrizes:
    """What the meter lines pay (§52, §53), worked out apart from the cards."""

    paid: dict[int, JackpotLinePaid]
    """Box → its royal share or straight flush payment."""
    movement: MeterMovement


def share_meter(reading: MeterReading, contribution: Decimal, royals: Sequence[int],
                straight_flushes: Sequence[tuple[int, int]], chip: Decimal) -> MeterPrizes:
    """The royal flushes share the whole (linked) jackpot equally (§52, §58); then the
    straight flushes, ``(box, strength)``, are paid highest first 10 % of what remains, equal
    ones each 10 % of the jackpot as it stood when their payments began (§53). Each payment
    is rounded up to the chip, and the meter gives what was paid."""
    own = reading.own + contribution
    others = {m.meter_id: m.value for m in reading.others}
    total = reading.linked_total + contribution
    paid: dict[int, JackpotLinePaid] = {}
    royal_paid = ZERO
    if royals:
        share = total / len(royals)
        for box in royals:
            paid[box] = _meter_line(JackpotLine.ESCALERA_REAL, share, chip)
            royal_paid += paid[box].paid
        # every linked meter restarts at its seed (§51, §58)
        own = reading.own_seed
        others = {m.meter_id: m.seed for m in reading.others}
    start = own + sum(others.values(), ZERO) if royals else total
    sf_paid = ZERO
    ranked = sorted(straight_flushes, key=lambda bs: bs[1], reverse=True)
    for box, strength in ranked:
        equal = sum(1 for _, s in ranked if s == strength) > 1
        paid[box] = _meter_line(JackpotLine.ESCALERA_DE_COLOR, (start if equal else start - sf_paid) / 10, chip)
        sf_paid += paid[box].paid
    others_paid = _spread(sf_paid, own, others)
    own_after = own - (sf_paid - sum((a for _, a in others_paid), ZERO))
    return MeterPrizes(paid, MeterMovement(contribution, total if royals else ZERO, royal_paid, sf_paid,
                                           bool(royals), own_after, others_paid))


def _meter_line(line: JackpotLine, exact: Decimal, chip: Decimal) -> JackpotLinePaid:
    # §52–§53: 100 % or 10 % of the Jackpot; a share that is not whole chips is rounded up (the
    # player is never paid less than the regulated share; the house gives the difference).
    rounded = round_up_to_chip(exact, chip)
    return JackpotLinePaid(line.value, rounded, exact if rounded != exact else None)


_CENT = Decimal("0.01")


def _spread(amount: Decimal, own: Decimal, others: Mapping[str, Decimal]) -> tuple[tuple[str, Decimal], ...]:
    """Each other linked meter's share of a deduction, in proportion to its value (to the
    cent, rounded down: this table's meter carries the remainder)."""
    whole = own + sum(others.values(), ZERO)
    if not amount or not others or whole <= 0:
        return ()
    return tuple((mid, (amount * value / whole).quantize(_CENT, rounding=ROUND_DOWN))
                 for mid, value in sorted(others.items()))


def jackpot_contribution(boxes: Sequence[BoxInput], config: MaderoTableConfig) -> Decimal:
    """The round's share of the Jackpot bets for the meter (§51): every Jackpot bet but a void
    hand's (returned, §69)."""
    credit = config.jackpot_credit_value
    staked = sum((b.bets.stake(Bet.JACKPOT, credit) for b in boxes if b.status is not BoxStatus.VOIDED), ZERO)
    return staked * config.contribution_percent / 100


def _jackpots(
    boxes: Sequence[BoxInput], board: Sequence[Card], config: MaderoTableConfig,
    meter: MeterReading | None, carta_magica: Card | None, jugador_afortunado: int | None,
) -> tuple[dict[int, BetResult], MeterMovement | None]:
    from shared.poker.evaluator import describe

    credit = config.jackpot_credit_value
    out: dict[int, BetResult] = {}
    won: dict[int, list[JackpotLinePaid]] = {}
    hands: dict[int, HandValue] = {}
    royals: list[int] = []
    straight_flushes: list[tuple[int, int]] = []
    jackpot_boxes = [b for b in boxes if b.bets.stake(Bet.JACKPOT, credit) > 0]
    for b in jackpot_boxes:
        stake = b.bets.stake(Bet.JACKPOT, credit)
        if b.status is BoxStatus.VOIDED:
            out[b.box] = _push(Bet.JACKPOT, stake, "mano nula: se devuelve", "hand void: returned", "Art. 14 §69")
            continue
        if b.status is not BoxStatus.ACTIVE:
            out[b.box] = _lose(Bet.JACKPOT, stake, "sin derecho al Jackpot: la mano no siguió en juego",
                               "no Jackpot right: the hand left the round", "Art. 11 §46")
            continue
        pays, hands[b.box] = _jackpot_lines(b, board, config, carta_magica, jugador_afortunado)
        won[b.box] = []
        for pay in pays:
            if pay.line is JackpotLine.ESCALERA_REAL and pay.kind is JackpotPayKind.METER_SHARE:
                royals.append(b.box)
            elif pay.kind is JackpotPayKind.METER_SHARE:
                straight_flushes.append((b.box, hands[b.box].strength))
            else:
                # §48–50: a currency amount (per credit but for §49's two): the table's chip
                # divides every one of them, so it is paid exactly.
                amount = pay.amount if pay.kind is JackpotPayKind.FIXED else pay.amount * b.bets.jackpot_credits
                won[b.box].append(JackpotLinePaid(pay.line.value, amount))
    movement = None
    if config.progressive:
        assert meter is not None
        prizes = share_meter(meter, jackpot_contribution(boxes, config), royals, straight_flushes, config.chip)
        movement = prizes.movement
        for box, line in prizes.paid.items():
            won[box].insert(0, line)
    for b in jackpot_boxes:
        if b.box in out:
            continue
        stake, lines, hand = b.bets.stake(Bet.JACKPOT, credit), tuple(won[b.box]), hands[b.box]
        if not lines:
            out[b.box] = _lose(Bet.JACKPOT, stake, f"Jackpot: {describe(hand, 'es')} no tiene premio",
                               f"Jackpot: {describe(hand, 'en')} wins no prize", "Art. 11 §44")
            continue
        by_line = {p.line.value: p for p in config.jackpot_paytable}
        named = [(by_line[x.line], x) for x in lines]
        total = sum((x.paid for x in lines), ZERO)
        exact = sum((x.exact or x.paid for x in lines), ZERO)
        out[b.box] = BetResult(
            Bet.JACKPOT, stake, Outcome.WIN, total, ZERO, stake,
            "Jackpot " + " + ".join(f"{p.es}: {x.paid}" for p, x in named),
            "Jackpot " + " + ".join(f"{p.en}: {x.paid}" for p, x in named),
            ", ".join(dict.fromkeys(p.article for p, _ in named)),
            line=lines[0].line, exact=exact if exact != total else None, lines=lines,
        )
    return out, movement


def settle_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    """Settle from plain data (the ``settle`` CLI's JSON): see ``parse_round``."""
    config, bank, board, boxes, kwargs = parse_round(data)
    return settle_round(config, bank, board, boxes, **kwargs).to_dict()


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
