"""Money as exact decimals, never binary floats."""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_DOWN, Decimal, InvalidOperation

from shared.errors import InputError
from shared.messages import DEFAULT_LANG, MINUS, Msg, money_text
from shared.regex import Regex

ZERO = Decimal(0)
_AMOUNT_TEXT = Regex(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
"""An amount as staff and files write it: ASCII digits, one decimal point (a comma reads as
one). Python's Decimal would also read fullwidth or Arabic-Indic digits, underscores and
exponents («２０», «٢٠», «2_0», «2e1»: all 20), which nobody means as a sum of money."""
MAX_AMOUNT = Decimal(10) ** 12
"""No amount, bet or meter comes near a trillion; above it, arithmetic at Decimal's 28
digits would no longer be exact (an amount divided by a chip of a millionth)."""


def to_money(value: object) -> Decimal:
    """Read an amount typed by staff or stored in a file; floats are refused."""
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, bool) or isinstance(value, float):
        raise InputError(Msg.of("common.amount_inexact", value=repr(value)))
    elif isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            if not _AMOUNT_TEXT.fullmatch(text):
                raise InvalidOperation
            amount = Decimal(text)
        except InvalidOperation:
            raise InputError(Msg.of("common.amount_unreadable", value=_shown(value))) from None
    else:
        raise InputError(Msg.of("common.amount_unreadable", value=_shown(value)))
    if not amount.is_finite():
        raise InputError(Msg.of("common.amount_unreadable", value=_shown(value)))
    if amount < 0:
        raise InputError(Msg.of("common.amount_negative", value=_shown(value)))
    if amount >= MAX_AMOUNT:
        raise InputError(Msg.of("common.amount_out_of_range", limit=MAX_AMOUNT))
    return amount


def _shown(value: object) -> str:
    """What was typed, short enough to quote in a message."""
    if isinstance(value, str):
        text = repr(value)
    elif isinstance(value, Decimal) or (isinstance(value, int) and value.bit_length() <= 256):
        text = str(value)
    else:
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def round_down_to_chip(amount: Decimal, chip: Decimal) -> Decimal:
    """The amount actually paid: the exact amount rounded down to the smallest chip."""
    if chip <= 0:
        raise ValueError("chip must be positive")
    return (amount / chip).to_integral_value(rounding=ROUND_DOWN) * chip


def round_up_to_chip(amount: Decimal, chip: Decimal) -> Decimal:
    """The amount paid when the exact one is not a whole number of chips and the player must
    not get less (the next chip up)."""
    if chip <= 0:
        raise ValueError("chip must be positive")
    return (amount / chip).to_integral_value(rounding=ROUND_CEILING) * chip


def fmt_signed(amount: Decimal, lang: str = DEFAULT_LANG) -> str:
    """A net or a movement on a console, the same in both games: +1.000, −500, 0."""
    return ("+" if amount > 0 else "") + money_text(amount, lang)


def fmt_money(amount: Decimal, currency: str = "", lang: str = DEFAULT_LANG) -> str:
    """Display form as ``lang`` writes amounts (1.000 or 12,50 in Spanish, 1,000 or 12.50 in
    English; no float on the way), after the currency when one is given; a debit with the true
    minus sign, as ``fmt_signed`` writes it."""
    if amount < 0 and currency:
        return MINUS + fmt_money(-amount, currency, lang)
    if not currency:
        return money_text(amount, lang)
    return f"{currency} {money_text(amount, lang)}"
