"""The limits of a Midi bet (Art. 5 §2–5, Art. 7 §1, Art. 9 §7), functions of the table's
config: what ``place_bet`` and ``repeat_last_bets`` check."""

from __future__ import annotations

from decimal import Decimal

from shared.errors import InputError, RuleViolation
from shared.messages import Money, Msg
from shared.midi.config import MidiTableConfig
from shared.midi.payouts import BetKind, verify_payable
from shared.money import ZERO


def check_bet(config: MidiTableConfig, kind: BetKind, amount: Decimal, bets: dict[BetKind, Decimal]) -> None:
    """The limits of one bet, given the spot's other bets (amount > 0)."""
    _check_limits(config, kind, amount)
    _check_multiples(config, kind, amount)
    other = {BetKind.PUNTO: BetKind.BANCA, BetKind.BANCA: BetKind.PUNTO}.get(kind)
    if other is not None:
        other_amount = bets.get(other, ZERO)
        if other_amount > 0 and abs(other_amount - amount) < config.minimum:
            raise RuleViolation("Art. 9 §7", Msg.of("midi.err_punto_banca_differ",
                                                    minimum=config.minimum))


def _check_limits(config: MidiTableConfig, kind: BetKind, amount: Decimal) -> None:
    """Chips only, within the table's minimum and maximum (Art. 7 §1), TIE's own (Art. 5 §5)."""
    cur = config.currency
    if amount % config.chip:
        raise InputError(Msg.of("midi.err_not_chip_multiple", amount=amount, chip=config.chip))
    if amount < config.minimum:
        raise RuleViolation("Art. 7 §1", Msg.of("midi.err_below_minimum", minimum=Money(config.minimum, cur)))
    if kind is BetKind.TIE:
        if amount > config.tie_maximum:
            raise RuleViolation("Art. 5 §5", Msg.of("midi.err_tie_maximum", maximum=Money(config.tie_maximum, cur)))
    elif amount > config.maximum:
        raise RuleViolation("Art. 7 §1", Msg.of("midi.err_above_maximum", maximum=Money(config.maximum, cur)))


def _check_multiples(config: MidiTableConfig, kind: BetKind, amount: Decimal) -> None:
    """The multiples asked for: BANCA paid exactly (Art. 5 §2–3), and the table's multiples
    of the minimum (Art. 5 §4)."""
    verify_payable(kind, amount, config)
    if config.multiples_of_minimum and amount % config.minimum:
        raise RuleViolation("Art. 5 §4", Msg.of("midi.err_minimum_multiples", minimum=config.minimum))
