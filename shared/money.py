"""Money as exact decimals, never binary floats."""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_DOWN, Decimal, InvalidOperation

from shared.errors import InputError

ZERO = Decimal(0)


def to_money(value: object) -> Decimal:
    """Read an amount typed by staff or stored in a file; floats are refused."""
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, bool) or isinstance(value, float):
        raise InputError(
            f"importe no exacto: {value!r} (use enteros o texto decimal)",
            f"inexact amount: {value!r} (use integers or decimal text)",
        )
    elif isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            amount = Decimal(text)
        except InvalidOperation:
            raise InputError(f"importe ilegible: {value!r}", f"unreadable amount: {value!r}") from None
    else:
        raise InputError(f"importe ilegible: {value!r}", f"unreadable amount: {value!r}")
    if not amount.is_finite():
        raise InputError(f"importe ilegible: {value!r}", f"unreadable amount: {value!r}")
    if amount < 0:
        raise InputError(f"importe negativo: {value}", f"negative amount: {value}")
    return amount


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


def fmt_money(amount: Decimal, currency: str = "", thousands: str = ".") -> str:
    """Display form in the Argentine convention: 1.000 or 12,50 (no float on the way)."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    units = int(amount)
    cents = amount - units
    whole = f"{units:,}".replace(",", thousands)
    text = whole
    if cents:
        frac = format(cents.normalize(), "f").split(".")[1]
        text = f"{whole},{frac}"
    return f"{sign}{currency + ' ' if currency else ''}{text}"
