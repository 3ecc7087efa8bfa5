"""The rules of the bets placed before the deal (Art. 6 §20, Art. 11 §42–§45, Art. 13 §61–§64),
each a function of the table's config: what ``place_bet`` and ``repeat_bets`` check."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from shared.errors import InputError, RuleViolation
from shared.madero.config import MaderoTableConfig
from shared.madero.paytables import JACKPOT_CREDITS_MAX, JACKPOT_CREDITS_MIN
from shared.madero.settlement import Bet
from shared.madero.table.state import BoxState
from shared.messages import Msg


def verify_stake(config: MaderoTableConfig, bet: Bet, value: Decimal, current: BoxState | None) -> Decimal | int:
    """``value`` as ``bet``'s stake on a box holding ``current`` (a Jackpot's in credits)."""
    return _RULES.get(bet, _street)(config, bet, value, current)


def _jackpot(config: MaderoTableConfig, bet: Bet, value: Decimal, current: BoxState | None) -> int:
    credits = int(value)
    if Decimal(credits) != value:
        raise InputError(Msg.of("madero.credits_whole_number"))
    if credits and not JACKPOT_CREDITS_MIN <= credits <= JACKPOT_CREDITS_MAX:
        raise RuleViolation("Art. 11 §42", Msg.of("madero.jackpot_takes_credits"))
    if credits and (current is None or not current.ante):
        raise RuleViolation("Art. 11 §45", Msg.of("madero.jackpot_needs_ante_first"))
    return credits


def _chips(config: MaderoTableConfig, value: Decimal) -> None:
    if value % config.chip:
        raise RuleViolation("Art. 6 §20", Msg.of("madero.bets_in_chips", chip=config.chip))


def _ante(config: MaderoTableConfig, bet: Bet, value: Decimal, current: BoxState | None) -> Decimal:
    _chips(config, value)
    if value:
        verify_ante(config, value)
    if not value and current is not None and (current.bonus or current.jackpot_credits):
        raise RuleViolation("Art. 11 §45", Msg.of("madero.remove_jackpot_and_bonus_first"))
    return value


def _bonus(config: MaderoTableConfig, bet: Bet, value: Decimal, current: BoxState | None) -> Decimal:
    _chips(config, value)
    if not config.bonus_enabled and value:
        raise RuleViolation("Art. 2 §11", Msg.of("madero.no_bonus_at_this_table"))
    if value and (current is None or not current.ante):
        raise RuleViolation("Art. 13 §64", Msg.of("madero.bonus_needs_ante_first"))
    if value and not config.bonus_minimum <= value <= config.bonus_maximum:
        raise RuleViolation("Art. 13 §61",
                            Msg.of("madero.bonus_range", bonus_minimum=config.bonus_minimum, bonus_maximum=config.bonus_maximum))
    return value


def _street(config: MaderoTableConfig, bet: Bet, value: Decimal, current: BoxState | None) -> Decimal:
    _chips(config, value)
    raise RuleViolation("Art. 8 §26", Msg.of("madero.street_bet_in_its_round", bet=bet.value))


def verify_ante(config: MaderoTableConfig, value: Decimal) -> None:
    """An Ante within the table's range (Art. 6 §20)."""
    if value < config.minimum:
        # The real range: the largest Ante is the one whose Flop still fits (§20 with §26.2).
        raise RuleViolation("Art. 6 §20", Msg.of("madero.ante_range", minimum=config.minimum, maximum=config.ante_maximum))
    if value > config.ante_maximum:
        # §20: the Flop, exactly 2 × Ante (§26.2), must lie within the maximum too.
        raise RuleViolation(
            "Art. 6 §20",
            Msg.of("madero.ante_max_flop", ante_maximum=config.ante_maximum, maximum=config.maximum))


_RULES: dict[Bet, Callable[[MaderoTableConfig, Bet, Decimal, BoxState | None], Decimal | int]] = {
    Bet.JACKPOT: _jackpot, Bet.ANTE: _ante, Bet.BONUS: _bonus}
"""The rules of each bet placed before the deal; the street bets are made in their round."""
