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
contributions less its share of the prizes (``shared.madero.meter_share``).

The reasons are message codes (``settlement.*``), written in the reader's language when shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from shared.cards import Card
from shared.errors import InputError, journaled
from shared.madero.config import MaderoTableConfig
# The meter's prizes are their own module; their names stay importable from here.
from shared.madero.meter_share import JackpotLinePaid as JackpotLinePaid
from shared.madero.meter_share import LinkedMeter as LinkedMeter
from shared.madero.meter_share import MeterMovement as MeterMovement
from shared.madero.meter_share import MeterPrizes as MeterPrizes
from shared.madero.meter_share import MeterReading as MeterReading
from shared.madero.meter_share import share_meter as share_meter
from shared.madero.paytables import (
    BONUS_ARTICLE,
    BONUS_BY_LINE,
    JackpotLine,
    JackpotPay,
    JackpotPayKind,
    bonus_line,
)
from shared.codec import encode
from shared.messages import Joined, Localized, Msg, message_json
from shared.money import ZERO, round_up_to_chip
from shared.record import record

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


@record
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


@record
class BoxInput:
    box: int
    bets: BoxBets
    cards: tuple[Card, ...] | None = None
    """The two hole cards; required for an active box, optional otherwise."""
    status: BoxStatus = BoxStatus.ACTIVE


@record
class BetResult:
    bet: Bet
    stake: Decimal
    outcome: Outcome
    paid: Decimal
    """Winnings to pay on top of any returned stake (rounded up to the chip, never less)."""
    returned: Decimal
    collected: Decimal
    reason: Localized
    """Why, in the croupier's words: the hands compared, the line paid (a ``settlement.*``
    message; the words an older journal row recorded when no message gives them back)."""
    article: str
    line: str | None = None
    """The paytable line that paid (Bonus/Jackpot)."""
    exact: Decimal | None = None
    """The exact winnings when rounding to the chip changed them."""
    lines: tuple[JackpotLinePaid, ...] = ()
    """Jackpot: every line paid (the hand line, then the special prizes); ``paid`` is their sum."""


@record
class BoxSettlement:
    box: int
    status: BoxStatus
    hand: HandValue | None
    main: Outcome | None
    """Result against the bank; None when the box did not reach the showdown."""
    bets: tuple[BetResult, ...]

    def hand_text(self, lang: str) -> str:
        """The box's hand in ``lang`` ("Pareja de Ases"); empty when it did not reach the showdown."""
        return self.hand.name.render(lang) if self.hand else ""

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


def _pushed(boxes: Sequence[BoxSettlement | BoxRecord]) -> Decimal:
    return sum((r.stake for b in boxes for r in b.bets if r.outcome is Outcome.PUSH), ZERO)


@record
class RoundSettlement:
    bank: HandValue | None
    """The bank's best five of seven (Art. 9 §31)."""
    boxes: tuple[BoxSettlement, ...]
    meter: MeterMovement | None = None
    carta_magica: Card | None = None
    jugador_afortunado: int | None = None
    void: bool = False
    bank_cards: tuple[Card, ...] = ()

    @property
    def bank_words(self) -> Msg | None:
        """The announcement: "La banca tiene Color al As" (Art. 9 §32); None for a void round."""
        return Msg.of("settlement.bank_has", hand=self.bank.name) if self.bank else None

    def bank_text(self, lang: str) -> str:
        """``bank_words`` in ``lang``, empty when there is no bank hand."""
        return self.bank_words.render(lang) if self.bank_words else ""

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
        return _pushed(self.boxes)

    @property
    def house_result(self) -> Decimal:
        """Collected minus paid: the bank's win (negative: its loss) this round."""
        return self.collected - self.paid

    def box(self, box: int) -> BoxSettlement:
        return next(b for b in self.boxes if b.box == box)

    def record(self) -> SettlementRecord:
        """The settlement as the journal keeps it: amounts and message codes, no hand values."""
        return SettlementRecord(
            void=self.void, bank_cards=self.bank_cards, bank_best=self.bank.best if self.bank else None,
            bank=self.bank_words, carta_magica=self.carta_magica, jugador_afortunado=self.jugador_afortunado,
            totals=Totals(self.staked, self.paid, self.returned, self.collected), meter=self.meter,
            boxes=tuple(BoxRecord(b.box, b.status, b.hand.name if b.hand else None, b.main, b.bets)
                        for b in self.boxes),
        )


@record
class Totals:
    staked: Decimal
    paid: Decimal
    returned: Decimal
    collected: Decimal


@record
class BoxRecord:
    """One box of a journaled settlement: its hand as the message naming it."""

    box: int
    status: BoxStatus
    hand: Localized | None
    """The box's best hand ("Pareja de Ases"); None when it did not reach the showdown."""
    main: Outcome | None
    bets: tuple[BetResult, ...]


@record
class SettlementRecord:
    """A round's settlement as the journal keeps it (``RoundSettled``, ``RoundVoided``):
    through the one codec, amounts as their text and every word a message code with its
    parameters, so a catalog added later writes a journaled round too."""

    void: bool
    bank_cards: tuple[Card, ...]
    bank_best: tuple[Card, ...] | None
    bank: Localized | None
    """«La banca tiene …» (Art. 9 §32); None for a void round."""
    carta_magica: Card | None
    jugador_afortunado: int | None
    totals: Totals
    meter: MeterMovement | None
    boxes: tuple[BoxRecord, ...]

    @property
    def pushed(self) -> Decimal:
        """Stakes of the bets neither won nor lost (see ``RoundSettlement.pushed``)."""
        return _pushed(self.boxes)

    @property
    def voided_stakes(self) -> Decimal:
        """Stakes of the boxes voided for collusion (§69): returned like a voided round's."""
        return sum((r.stake for b in self.boxes if b.status is BoxStatus.VOIDED for r in b.bets), ZERO)

    def words(self, langs: Sequence[str]) -> dict[str, Any]:
        """The record as JSON with each message written out in ``langs`` under its key and
        the language (``bank_es`` …), as settlements were journaled before issue 33."""
        data: dict[str, Any] = encode(self)

        def written(item: dict[str, Any], key: str, value: Localized | None) -> None:
            del item[key]
            for lang in langs:
                item[f"{key}_{lang}"] = value.render(lang) if value is not None else ""

        written(data, "bank", self.bank)
        for box, item in zip(self.boxes, data["boxes"], strict=True):
            written(item, "hand", box.hand)
            for bet, bet_item in zip(box.bets, item["bets"], strict=True):
                written(bet_item, "reason", bet.reason)
        return data


WORD_SECTIONS = ("settlement", "hand", "rank", "paytable", "retired")
"""Where the words of a settlement journaled before its words were codes are found again."""


def upcast_record(data: dict[str, Any]) -> dict[str, Any]:
    """A settlement journaled before issue 33 (its words in Spanish and English: ``bank_es``,
    ``hand_es``, ``reason_es`` …) in today's shape: each as the message that writes those
    words (``shared.recognize``), None where none was written."""
    if "bank_es" not in data:
        return data
    from shared.recognize import recognize  # an older journal's rows alone: not at every launch

    def coded(item: dict[str, Any], key: str) -> dict[str, Any]:
        texts = {lang: journaled(item, f"{key}_{lang}") for lang in ("es", "en")}
        rest = {k: v for k, v in item.items() if k not in (f"{key}_es", f"{key}_en")}
        return rest | {key: message_json(recognize(texts, WORD_SECTIONS)) if any(texts.values()) else None}

    boxes = [coded(box, "hand") | {"bets": [coded(bet, "reason") for bet in journaled(box, "bets")]}
             for box in journaled(data, "boxes")]
    return coded(data, "bank") | {"boxes": boxes}


def _lose(bet: Bet, stake: Decimal, reason: Msg, article: str) -> BetResult:
    return BetResult(bet, stake, Outcome.LOSE, ZERO, ZERO, stake, reason, article)


def _push(bet: Bet, stake: Decimal, reason: Msg, article: str) -> BetResult:
    return BetResult(bet, stake, Outcome.PUSH, ZERO, stake, ZERO, reason, article)


def _win(bet: Bet, stake: Decimal, win: Decimal, chip: Decimal, reason: Msg, article: str,
         *, line: str | None = None) -> BetResult:
    paid = round_up_to_chip(win, chip)  # never less than the paytable says
    return BetResult(bet, stake, Outcome.WIN, paid, stake, ZERO, reason, article, line=line,
                     exact=win if paid != win else None)


def void_settlement(boxes: Sequence[BoxInput], config: MaderoTableConfig, *,
                    article: str, reason: Msg) -> RoundSettlement:
    """The whole round annulled (misdeal §37, bank card exposed §70): every bet returned."""
    out = []
    for b in boxes:
        results = tuple(
            _push(bet, b.bets.stake(bet, config.jackpot_credit_value), reason, article)
            for bet in Bet if b.bets.stake(bet, config.jackpot_credit_value) > 0
        )
        out.append(BoxSettlement(b.box, BoxStatus.VOIDED, None, None, results))
    return RoundSettlement(None, tuple(out), void=True)


def _check_cards(bank: Sequence[Card], board: Sequence[Card], boxes: Sequence[BoxInput]) -> None:
    # With no box left in play (all folded, dead or void) no card is needed to settle.
    showdown = any(b.status is BoxStatus.ACTIVE for b in boxes)
    if showdown and (len(bank) != 2 or len(board) != 5):
        raise InputError(Msg.of("settlement.need_cards"))
    seen: set[Card] = set()
    for card in [*bank, *board, *(c for b in boxes for c in (b.cards or ()))]:
        if card in seen:
            raise InputError(Msg.of("settlement.card_twice", card=card.display))
        seen.add(card)
    for b in boxes:
        if b.cards is not None and len(b.cards) != 2:
            raise InputError(Msg.of("settlement.box_two_cards", box=b.box))
        if b.status is BoxStatus.ACTIVE and b.cards is None:
            raise InputError(Msg.of("settlement.box_cards_missing", box=b.box))


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
    from shared.poker.evaluator import evaluate

    _check_cards(bank, board, boxes)
    if config.progressive and meter is None:
        raise InputError(Msg.of("settlement.meter_missing"))
    bank_hand = evaluate([*bank, *board]) if len(bank) == 2 and len(board) == 5 else None
    bank_ranks = tuple(sorted((c.rank.value for c in bank), reverse=True))

    results: dict[int, list[BetResult]] = {}
    hands: dict[int, HandValue | None] = {}
    mains: dict[int, Outcome | None] = {}
    for b in boxes:
        hand = hands[b.box] = evaluate([*b.cards, *board]) if b.status is BoxStatus.ACTIVE and b.cards else None
        res = results[b.box] = _main_bets(b, hand, bank_hand, config)
        mains[b.box] = _main_outcome(hand, bank_hand) if b.status is BoxStatus.ACTIVE else None
        if b.bets.bonus > 0:
            res.append(_bonus(b, bank_ranks, config))

    jackpot_results, movement = _jackpots(boxes, board, config, meter, carta_magica, jugador_afortunado)
    for box_no, r in jackpot_results.items():
        results[box_no].append(r)

    settled = tuple(
        BoxSettlement(b.box, b.status, hands[b.box], mains[b.box], tuple(results[b.box]))
        for b in boxes
    )
    return RoundSettlement(
        bank_hand, settled,
        meter=movement,
        carta_magica=carta_magica if config.progressive else None,
        jugador_afortunado=jugador_afortunado if config.progressive else None,
        bank_cards=tuple(bank),
    )


def _main_bets(b: BoxInput, hand: HandValue | None, bank_hand: HandValue | None,
               config: MaderoTableConfig) -> list[BetResult]:
    """A box's Ante and later bets: lost when it folded (§26.1), returned when its hand is
    dead (§38) or void (§69), else against the bank's hand (Art. 9)."""
    results = []
    returned = _returned(b)
    for bet in MAIN_BETS:
        stake = b.bets.stake(bet, config.jackpot_credit_value)
        if stake <= 0:
            continue
        if b.status is BoxStatus.FOLDED:
            results.append(_lose(bet, stake, Msg.of("settlement.folded_ante"), "Art. 8 §26.1"))
        elif returned is not None:
            results.append(_push(bet, stake, *returned))
        else:
            assert hand is not None and bank_hand is not None  # _check_cards: a box in play has its cards
            results.append(_main_bet(bet, stake, hand, bank_hand, config.chip))
    return results


def _returned(b: BoxInput) -> tuple[Msg, str] | None:
    """Why every bet of a box out of play is returned, nothing decided on its hand: a dead hand
    (§38, Decision: the irregularity is the house's) or a void one (§69); None for any other box."""
    if b.status is BoxStatus.DEAD:
        return Msg.of("settlement.dead_hand"), "Art. 10 §38"
    if b.status is BoxStatus.VOIDED:
        return Msg.of("settlement.hand_void"), "Art. 14 §69"
    return None


def _main_outcome(hand: HandValue | None, bank_hand: HandValue | None) -> Outcome:
    """An active box's hand against the bank's (Art. 9 §33–35)."""
    assert hand is not None and bank_hand is not None
    cmp = (hand.strength > bank_hand.strength) - (hand.strength < bank_hand.strength)
    return {1: Outcome.WIN, 0: Outcome.PUSH, -1: Outcome.LOSE}[cmp]


def _main_bet(bet: Bet, stake: Decimal, hand: HandValue, bank: HandValue, chip: Decimal) -> BetResult:
    from shared.poker.evaluator import Category

    hands = {"mine": hand.name, "bank": bank.name}
    if hand.strength < bank.strength:
        return _lose(bet, stake, Msg.of("settlement.loses", **hands), "Art. 9 §34")
    if hand.strength == bank.strength:
        return _push(bet, stake, Msg.of("settlement.tie", **hands), "Art. 9 §35")
    beats = Msg.of("settlement.beats", **hands)
    if bet is Bet.ANTE and hand.category < Category.COLOR:
        return _push(bet, stake, Msg.of("settlement.ante_returned", beats=beats), "Art. 9 §33")
    return _win(bet, stake, stake, chip, Msg.of("settlement.pays_even", beats=beats), "Art. 9 §33")


def _bonus(b: BoxInput, bank_ranks: tuple[int, ...], config: MaderoTableConfig) -> BetResult:
    stake = b.bets.bonus
    if b.status is BoxStatus.FOLDED:
        return _lose(Bet.BONUS, stake, Msg.of("settlement.bonus_folded"), "Art. 13 §65")
    if (returned := _returned(b)) is not None:
        return _push(Bet.BONUS, stake, *returned)
    assert b.cards is not None  # _check_cards: a box in play has its cards
    c1, c2 = b.cards
    # The bank's two cards matter only for the optional A-A vs A-A line (§63).
    line = bonus_line((c1.rank.value, c2.rank.value), c1.suit is c2.suit, bank_ranks, config.bonus_1000_line)
    if line is None:
        return _lose(Bet.BONUS, stake, Msg.of("settlement.bonus_none"), BONUS_ARTICLE)
    pay = BONUS_BY_LINE[line]
    return _win(Bet.BONUS, stake, stake * pay.odds, config.chip,
                Msg.of("settlement.bonus_pays", line=pay.name, odds=pay.odds), BONUS_ARTICLE, line=line.value)


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


def jackpot_contribution(boxes: Sequence[BoxInput], config: MaderoTableConfig) -> Decimal:
    """The round's share of the Jackpot bets for the meter (§51): every Jackpot bet but those
    returned, a dead or a void hand's (§38, §69)."""
    credit = config.jackpot_credit_value
    staked = sum((b.bets.stake(Bet.JACKPOT, credit) for b in boxes if _returned(b) is None), ZERO)
    return staked * config.contribution_percent / 100


def _jackpots(
    boxes: Sequence[BoxInput], board: Sequence[Card], config: MaderoTableConfig,
    meter: MeterReading | None, carta_magica: Card | None, jugador_afortunado: int | None,
) -> tuple[dict[int, BetResult], MeterMovement | None]:
    credit = config.jackpot_credit_value
    out: dict[int, BetResult] = {}
    won: dict[int, list[JackpotLinePaid]] = {}
    hands: dict[int, HandValue] = {}
    royals: list[int] = []
    straight_flushes: list[tuple[int, int]] = []
    jackpot_boxes = [b for b in boxes if b.bets.stake(Bet.JACKPOT, credit) > 0]
    for b in jackpot_boxes:
        stake = b.bets.stake(Bet.JACKPOT, credit)
        if (returned := _returned(b)) is not None:
            out[b.box] = _push(Bet.JACKPOT, stake, *returned)
            continue
        if b.status is not BoxStatus.ACTIVE:
            out[b.box] = _lose(Bet.JACKPOT, stake, Msg.of("settlement.jackpot_no_right"), "Art. 11 §46")
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
        out[b.box] = _jackpot_result(b.bets.stake(Bet.JACKPOT, credit), tuple(won[b.box]), hands[b.box], config)
    return out, movement


def _jackpot_result(stake: Decimal, lines: tuple[JackpotLinePaid, ...], hand: HandValue,
                    config: MaderoTableConfig) -> BetResult:
    """An active box's Jackpot bet: lost without a prize line (§44), else the lines it won."""
    if not lines:
        return _lose(Bet.JACKPOT, stake, Msg.of("settlement.jackpot_no_prize", hand=hand.name), "Art. 11 §44")
    by_line = {p.line.value: p for p in config.jackpot_paytable}
    named = [(by_line[x.line], x) for x in lines]
    total = sum((x.paid for x in lines), ZERO)
    exact = sum((x.exact or x.paid for x in lines), ZERO)
    return BetResult(
        Bet.JACKPOT, stake, Outcome.WIN, total, ZERO, stake,
        Msg.of("settlement.jackpot_pays", lines=Joined(
            tuple(Msg.of("settlement.jackpot_line", line=p.name, paid=x.paid) for p, x in named),
            " + ")),
        ", ".join(dict.fromkeys(p.article for p, _ in named)),
        line=lines[0].line, exact=exact if exact != total else None, lines=lines,
    )
