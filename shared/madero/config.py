"""Madero Poker Bonus table settings (issue 2 "Table configuration").

A table file that breaks the regulation is refused when loaded, with the field and the
article in the message (``TableConfig.from_mapping`` turns them into one InputError).
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import ClassVar

from shared.config import TableConfig
from shared.messages import Msg
from shared.record import record
from shared.text import CARRUSEL_ID
from shared.madero.paytables import (
    FIXED_JACKPOT_PAYTABLE,
    JACKPOT_CREDITS_MAX,
    PROGRESSIVE_SEED_MULTIPLE,
    JackpotPay,
    JackpotPayKind,
    jackpot_paytable,
)

MAX_BOXES = 7
"""Art. 2 §8: up to 7 players, one box each."""


class JackpotMode(StrEnum):
    FIXED = "fixed"
    """§48–49: fixed amounts, paid by the house."""
    PROGRESSIVE = "progressive"
    """§50–57: an electronic meter, Carta Mágica and Jugador Afortunado."""


@record(kw_only=True)
class MaderoTableConfig(TableConfig):
    """One Madero Poker Bonus table."""

    RETIRED: ClassVar[frozenset[str]] = frozenset({"limits_on_ante"})
    """Every bet lies within the table's limits (§20): no longer a setting."""

    boxes: int = MAX_BOXES
    """Boxes on the layout (Art. 2 §8: at most 7)."""
    band_minimum: Decimal = Decimal(5)
    """Lowest bet of the band Lotería Nacional authorises for poker variants (Art. 6 §21); the
    shipped Bonus minimum of 5 lies within it (§61)."""
    band_maximum: Decimal = Decimal(50000)
    """Highest bet of that band (Art. 6 §21)."""
    bonus_enabled: bool = True
    """Whether the table offers the Bonus bet (Art. 2 §11: "en caso de que se decida")."""
    bonus_minimum: Decimal = Decimal(5)
    """Bonus minimum (Art. 13 §61)."""
    bonus_maximum: Decimal = Decimal(100)
    """Bonus maximum (Art. 13 §61)."""
    bonus_1000_line: bool = True
    """The optional A-A vs A-A 1000 a 1 line (Art. 13 §67 "(*) Opcional")."""
    jackpot_credit_value: Decimal = Decimal(1)
    """Value of one Jackpot credit; a box bets 1 to 5 credits (Art. 11 §42)."""
    jackpot_mode: JackpotMode = JackpotMode.FIXED
    """Fixed paytable (§48) or progressive meter (§50)."""
    progressive_seed: Decimal | None = None
    """Meter start and restart value; at least 5,000 × the Jackpot minimum (§51).
    Defaults to exactly that when the table is progressive."""
    contribution_percent: Decimal = Decimal(0)
    """Share of each round's Jackpot bets added to the meter (§51)."""
    alternate_decks: bool = False
    """Two decks with different backs, alternated each round (Art. 2 §7)."""
    carrusel_id: str | None = None
    """Link id of a Carrusel (Art. 12 §58); tables with the same id share the royal prize."""

    # The Carrusel's server address: ``shared.madero.carrusel`` reads it at each launch.
    SERVER_SETTINGS = TableConfig.SERVER_SETTINGS | {"carrusel_url"}
    CHIPS_ARTICLE: ClassVar[str] = "Art. 6 §20"

    @property
    def ante_maximum(self) -> Decimal:
        """The largest Ante whose Flop (2 × Ante, §26.2) is still within the table's maximum (§20)."""
        return (self.maximum / 2 // self.chip) * self.chip

    @property
    def progressive(self) -> bool:
        return self.jackpot_mode is JackpotMode.PROGRESSIVE

    @property
    def jackpot_minimum(self) -> Decimal:
        """The smallest Jackpot bet: one credit."""
        return self.jackpot_credit_value

    @property
    def seed(self) -> Decimal:
        """The meter's seed: the configured one or the §51 floor."""
        if self.progressive_seed is not None:
            return self.progressive_seed
        return PROGRESSIVE_SEED_MULTIPLE * self.jackpot_minimum

    @property
    def jackpot_paytable(self) -> tuple[JackpotPay, ...]:
        return jackpot_paytable(self.progressive)

    def _check(self) -> None:
        super()._check()
        self._check_limits()
        self._check_jackpot()

    def _check_limits(self) -> None:
        """The table's settings and betting limits, each within the band and in chips."""
        for field in ("band_minimum", "band_maximum", "bonus_minimum", "bonus_maximum", "jackpot_credit_value"):
            if getattr(self, field) <= 0:
                raise ValueError(Msg.of("config.positive", field=field))
        if not 0 <= self.contribution_percent <= 100:
            raise ValueError(Msg.of("madero_config.contribution_range"))
        if self.carrusel_id is not None and (error := CARRUSEL_ID.problem(self.carrusel_id)) is not None:
            raise ValueError(Msg.of("madero_config.carrusel_id", problem=error))
        if self.boxes > MAX_BOXES:
            raise ValueError(Msg.of("madero_config.boxes", most=MAX_BOXES))
        if self.band_minimum > self.band_maximum:
            raise ValueError(Msg.of("madero_config.band"))
        if self.minimum < self.band_minimum or self.maximum > self.band_maximum:
            raise ValueError(Msg.of("madero_config.limits_in_band", minimum=self.minimum, maximum=self.maximum,
                                    band_minimum=self.band_minimum, band_maximum=self.band_maximum))
        if self.bonus_minimum > self.bonus_maximum:
            raise ValueError(Msg.of("madero_config.bonus_limits"))
        if self.bonus_minimum < self.band_minimum or self.bonus_maximum > self.band_maximum:
            raise ValueError(Msg.of("madero_config.bonus_in_band", minimum=self.bonus_minimum,
                                    maximum=self.bonus_maximum, band_minimum=self.band_minimum,
                                    band_maximum=self.band_maximum))
        for field in ("bonus_minimum", "bonus_maximum", "jackpot_credit_value"):
            if getattr(self, field) % self.chip:
                raise ValueError(Msg.of("config.chip_multiple", field=field, article=self.CHIPS_ARTICLE, chip=self.chip))
        if JACKPOT_CREDITS_MAX * self.jackpot_credit_value > self.minimum:
            raise ValueError(Msg.of("madero_config.credits_above_minimum", credits=JACKPOT_CREDITS_MAX,
                                    value=self.jackpot_credit_value, minimum=self.minimum))
        if self.ante_maximum < self.minimum:
            raise ValueError(Msg.of("madero_config.no_ante_fits", minimum=self.minimum, maximum=self.maximum))

    def _check_jackpot(self) -> None:
        """Art. 11: the Jackpot's prizes payable in chips, the seed, and what only a progressive
        table may set."""
        # §48 applies to a progressive table too whenever its meter cannot be used.
        for pay in dict.fromkeys((*FIXED_JACKPOT_PAYTABLE, *self.jackpot_paytable)):
            if pay.kind is not JackpotPayKind.METER_SHARE and pay.amount % self.chip:
                article = "Art. 11 §48" if pay in FIXED_JACKPOT_PAYTABLE else "Art. 11 §50"
                raise ValueError(Msg.of("madero_config.prize_not_in_chips", article=article, line=pay.name,
                                        amount=pay.amount, chip=self.chip))
        floor = PROGRESSIVE_SEED_MULTIPLE * self.jackpot_minimum
        if self.progressive_seed is not None and self.progressive_seed < floor:
            raise ValueError(Msg.of("madero_config.seed_floor", multiple=PROGRESSIVE_SEED_MULTIPLE, floor=floor))
        if not self.progressive:
            if self.carrusel_id is not None:
                raise ValueError(Msg.of("madero_config.carrusel_needs_progressive"))
            if self.contribution_percent:
                raise ValueError(Msg.of("madero_config.contribution_needs_progressive"))
        elif self.contribution_percent <= 0:
            raise ValueError(Msg.of("madero_config.contribution_needed"))


DEFAULT_MADERO_TABLE = MaderoTableConfig(
    table_id="MPB-01",
    name="Madero Poker Bonus 1",
    currency="ARS",
    chip=Decimal(1),
    minimum=Decimal(10),
    maximum=Decimal(500),
    boxes=7,
    band_minimum=Decimal(5),
    band_maximum=Decimal(50000),
    bonus_minimum=Decimal(5),
    bonus_maximum=Decimal(100),
    bonus_1000_line=True,
    jackpot_credit_value=Decimal(1),
    jackpot_mode=JackpotMode.FIXED,
)
