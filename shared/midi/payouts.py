"""What every Midi bet wins, loses or gets back (Art. 5, Art. 6 §1, Art. 9 §3).

Winnings are computed exactly (Decimal) and paid exactly, never rounded (Art. 5 §2–3 "se
pagará el 50 %", "deducción del 5 por 100"): a BANCA bet whose payment the table's chip
cannot make is refused when placed (``verify_payable``). In commission mode with the tally
(Art. 5 §3, the table's ``commission_handling``), a winning BANCA is paid 1 a 1 and the exact
5 % goes to the box's commission tally, collected later (``collect_commission``); only that
collection, a payment by the player, rounds (down).
"""

from __future__ import annotations

from dataclasses import field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from shared.baccarat import CoupResult, Winner
from shared.midi.config import MidiTableConfig
from shared.errors import RuleViolation, journaled
from shared.messages import Localized, Msg, message_json
from shared.money import ZERO
from shared.record import record


class BetKind(StrEnum):
    PUNTO = "punto"
    BANCA = "banca"
    TIE = "tie"


BET_LABEL = {BetKind.PUNTO: "PUNTO", BetKind.BANCA: "BANCA", BetKind.TIE: "TIE"}


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    """PUNTO/BANCA bet on a tie: returned (Art. 6 §1)."""
    VOID = "void"
    """The coup was declared NULO: every bet returned (Art. 9 §3)."""


@record(slots=True)
class SettlementLine:
    """One bet of one box: what the croupier does with it and why."""

    spot: int
    kind: BetKind
    stake: Decimal
    outcome: Outcome
    exact: Decimal
    """The winnings the regulation gives the player (0 unless the bet won)."""
    paid: Decimal
    """Winnings handed over now: ``exact``, or (commission tally) the full 1 a 1 with
    ``commission`` owed to the tally. A journal row written before payments were exact may
    hold an amount rounded up to the chip."""
    reason: Localized = field(compare=False)
    """Why, with the article: a ``payouts.*`` message (journaled as its code), or the words an
    older journal row recorded that no message gives back."""
    commission: Decimal = ZERO
    """Art. 5 §3, commission tally: the exact 5 % this bet adds to the box's tally."""

    @property
    def returned(self) -> Decimal:
        """The stake given back to the player (with the winnings when it won)."""
        return ZERO if self.outcome is Outcome.LOSE else self.stake

    @property
    def collected(self) -> Decimal:
        """The stake the establishment collects."""
        return self.stake if self.outcome is Outcome.LOSE else ZERO

    @property
    def net(self) -> Decimal:
        """What the bet makes for the player: winnings paid, minus the stake lost, or 0."""
        return -self.stake if self.outcome is Outcome.LOSE else self.paid


WHY_SECTIONS = ("payouts", "retired")
"""Where the words of a line journaled before its reason was a code are found again."""


def upcast_line(data: dict[str, Any]) -> dict[str, Any]:
    """A settlement line as journaled before its reason was a message code (its words in
    Spanish and English, ``why_es``/``why_en``; no ``commission`` before the tally) in
    today's shape: the reason as the message that writes those words (``shared.recognize``)."""
    if "why_es" not in data:
        return data
    from shared.recognize import recognize  # an older journal's rows alone: not at every launch

    line = {k: v for k, v in data.items() if k not in ("why_es", "why_en")}
    line["reason"] = message_json(recognize({lang: journaled(data, f"why_{lang}") for lang in ("es", "en")}, WHY_SECTIONS))
    line.setdefault("commission", "0")
    return line


def settle_bet(spot: int, kind: BetKind, stake: Decimal, result: CoupResult, config: MidiTableConfig) -> SettlementLine:
    """The settlement of one bet on a finished coup."""
    winner = result.winner
    if kind is BetKind.TIE:
        if winner is Winner.TIE:
            return _win(spot, kind, stake, stake * 8, Msg.of("payouts.tie_pays"))
        return _lose(spot, kind, stake, winner)
    if winner is Winner.TIE:
        return SettlementLine(spot, kind, stake, Outcome.PUSH, ZERO, ZERO,
                              Msg.of("payouts.push", total=result.punto_total))
    if kind.value != winner.value:
        return _lose(spot, kind, stake, winner)
    if kind is BetKind.PUNTO:
        return _win(spot, kind, stake, stake, Msg.of("payouts.punto_pays"))
    if config.banca_mode == "commission":
        commission = stake * config.COMMISSION
        if config.commission_handling == "tally":
            return SettlementLine(
                spot, kind, stake, Outcome.WIN, stake - commission, stake,
                Msg.of("payouts.banca_tally", commission=commission), commission)
        return _win(spot, kind, stake, stake - commission, Msg.of("payouts.banca_less_commission"))
    if result.banca_six:
        return _win(spot, kind, stake, stake / 2, Msg.of("payouts.banca_six"))
    return _win(spot, kind, stake, stake, Msg.of("payouts.banca_pays"))


def void_bet(spot: int, kind: BetKind, stake: Decimal) -> SettlementLine:
    return SettlementLine(spot, kind, stake, Outcome.VOID, ZERO, ZERO, Msg.of("payouts.void"))


def _win(spot: int, kind: BetKind, stake: Decimal, exact: Decimal, why: Msg) -> SettlementLine:
    return SettlementLine(spot, kind, stake, Outcome.WIN, exact, exact, why)


def _lose(spot: int, kind: BetKind, stake: Decimal, winner: Winner) -> SettlementLine:
    """A bet on the hand that lost (never on a tie: PUNTO and BANCA are returned then)."""
    return SettlementLine(spot, kind, stake, Outcome.LOSE, ZERO, ZERO,
                          Msg.of("payouts.lose", winner=winner.value.upper(), bet=BET_LABEL[kind]))


def settle_bets(bets: dict[int, dict[BetKind, Decimal]], result: CoupResult | None,
                config: MidiTableConfig) -> list[SettlementLine]:
    """Every bet of the coup, by spot then PUNTO, BANCA, TIE; ``result=None`` is a NULO coup."""
    lines = []
    for spot in sorted(bets):
        for kind in BetKind:
            stake = bets[spot].get(kind, ZERO)
            if stake > 0:
                lines.append(void_bet(spot, kind, stake) if result is None
                             else settle_bet(spot, kind, stake, result, config))
    return lines


@record(slots=True)
class SpotSummary:
    """What the croupier does at one box: chips to hand over and chips to take."""

    spot: int
    staked: Decimal
    paid: Decimal
    """Winnings paid."""
    returned: Decimal
    """Stakes handed back (winning, pushed and void bets)."""
    collected: Decimal
    commission: Decimal = ZERO
    """Added to the box's commission tally (Art. 5 §3)."""

    @property
    def hand_over(self) -> Decimal:
        return self.paid + self.returned


def spot_summaries(lines: list[SettlementLine]) -> dict[int, SpotSummary]:
    out: dict[int, SpotSummary] = {}
    for spot in sorted({line.spot for line in lines}):
        mine = [line for line in lines if line.spot == spot]
        out[spot] = SpotSummary(spot, sum((l.stake for l in mine), ZERO), sum((l.paid for l in mine), ZERO),
                                sum((l.returned for l in mine), ZERO), sum((l.collected for l in mine), ZERO),
                                sum((l.commission for l in mine), ZERO))
    return out


def exact_banca_unit(config: MidiTableConfig) -> Decimal:
    """The BANCA stakes whose payment the chip makes exactly are the multiples of this: two
    chips for the half on six (Art. 5 §2), twenty for the 5 % deducted at payment (Art. 5 §3),
    any chip when the 5 % goes to the tally (paid 1 a 1, the tally kept exact)."""
    if config.banca_mode == "half-six":
        return config.chip * 2
    return config.chip * (20 if config.commission_handling == "deduct" else 1)


def verify_payable(kind: BetKind, stake: Decimal, config: MidiTableConfig) -> None:
    """Refuse a bet of whole chips whose payment the chip could not make exactly (Art. 5 §2–3)."""
    unit = exact_banca_unit(config)
    if kind is BetKind.BANCA and stake % unit:
        if config.banca_mode == "commission":
            raise RuleViolation("Art. 5 §3", Msg.of("midi.err_banca_unit_commission", unit=unit, chip=config.chip))
        raise RuleViolation("Art. 5 §2", Msg.of("midi.err_banca_unit_half", unit=unit, chip=config.chip))
