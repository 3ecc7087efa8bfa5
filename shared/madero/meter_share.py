"""The progressive meter's prizes (Art. 11 §51–§53, Art. 12 §58): what a royal flush and a
straight flush take from the (linked) jackpot, and how each linked meter gives its share.

Apart from the cards: ``shared.madero.settlement`` finds the hands, this module the money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import ROUND_DOWN, Decimal

from shared.madero.paytables import JackpotLine
from shared.money import ZERO, round_up_to_chip
from shared.record import record


@record
class LinkedMeter:
    """Another table's meter of the same Carrusel, as read with this one (§58)."""

    meter_id: str
    value: Decimal
    seed: Decimal


@record
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


@record
class MeterMovement:
    contribution: Decimal
    """This round's share of the Jackpot bets added to the table's meter (§51)."""
    royal_prize: Decimal
    """The whole (linked) jackpot won by the royal flush(es); 0 when none (§52)."""
    royal_paid: Decimal
    """What the royal winners are actually paid (the equal shares, rounded to the chip)."""
    straight_flush_paid: Decimal
    """Deducted from the (linked) jackpot for straight flushes (§53, §54): the exact 10 %
    shares, never their payments rounded up to the chip (the round-up is ``rounding``)."""
    royal_hit: bool
    """Every linked meter restarts at its seed (§58 Decision)."""
    own_after: Decimal
    """This table's meter once the round is settled."""
    others_paid: tuple[tuple[str, Decimal], ...] = ()
    """Each other linked meter's share of ``straight_flush_paid`` (§58); this table's meter
    carries the rest."""
    rounding: Decimal = ZERO
    """What paying the meter's shares in whole chips gave the players above the exact shares:
    the house's, never the meter's (issue 28 §2)."""


@record
class JackpotLinePaid:
    """One Jackpot line a box won, with what it pays (§48, §50, §55)."""

    line: str
    paid: Decimal
    exact: Decimal | None = None
    """The exact amount when a share of the meter was rounded to the chip."""


@record
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
    is rounded up to the chip; the meter gives the exact shares, each share is valued on the
    exact remainder, and the round-up is the house's (``MeterMovement.rounding``)."""
    own = reading.own + contribution
    others = {m.meter_id: m.value for m in reading.others}
    total = reading.linked_total + contribution
    paid: dict[int, JackpotLinePaid] = {}
    royal_paid = rounding = ZERO
    if royals:
        share = total / len(royals)
        for box in royals:
            paid[box] = _meter_line(JackpotLine.ESCALERA_REAL, share, chip)
            royal_paid += paid[box].paid
            rounding += paid[box].paid - share
        # every linked meter restarts at its seed (§51, §58)
        own = reading.own_seed
        others = {m.meter_id: m.seed for m in reading.others}
    start = own + sum(others.values(), ZERO) if royals else total
    sf_paid = ZERO
    ranked = sorted(straight_flushes, key=lambda bs: bs[1], reverse=True)
    for box, strength in ranked:
        equal = sum(1 for _, s in ranked if s == strength) > 1
        exact = (start if equal else start - sf_paid) / 10
        paid[box] = _meter_line(JackpotLine.ESCALERA_DE_COLOR, exact, chip)
        sf_paid += exact
        rounding += paid[box].paid - exact
    others_paid = _spread(sf_paid, own, others)
    own_after = own - (sf_paid - sum((a for _, a in others_paid), ZERO))
    return MeterPrizes(paid, MeterMovement(contribution, total if royals else ZERO, royal_paid, sf_paid,
                                           bool(royals), own_after, others_paid, rounding))


def _meter_line(line: JackpotLine, exact: Decimal, chip: Decimal) -> JackpotLinePaid:
    # §52–§53: 100 % or 10 % of the Jackpot; a share that is not whole chips is rounded up (the
    # player is never paid less than the regulated share; the house, not the meter, gives the
    # difference: the only rounding of a payment the rules allow).
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
