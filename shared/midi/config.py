"""The Midi table's settings, validated against the regulation when loaded."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Literal

from shared.config import TableConfig
from shared.errors import InputError
from shared.messages import Msg

MAX_BOXES = 9
"""Art. 2 §5: up to 9 boxes."""
MAX_STANDING_BETTORS = 20


@dataclass(frozen=True, kw_only=True)
class MidiTableConfig(TableConfig):
    """A Midi Punto y Banca table (Anexo I and II)."""

    BAND_MINIMUM: ClassVar[Decimal] = Decimal(10)
    BAND_MAXIMUM: ClassVar[Decimal] = Decimal(50_000)
    """Anexo II: the authorised band, in units."""
    COMMISSION: ClassVar[Decimal] = Decimal("0.05")
    """Art. 5 §3: the deduction on winning BANCA bets in commission mode (5 por 100)."""

    decks: int = 8
    """Art. 2 §1: six or eight 52-card decks."""
    banca_mode: Literal["half-six", "commission"] = "half-six"
    """Art. 5 §2 (BANCA pays 50 % when it wins with 6) or §3 (1 a 1 less 5 %)."""
    commission_handling: Literal["tally", "deduct"] = "tally"
    """Art. 5 §3, commission mode only: "tally" pays a winning BANCA 1 a 1 and keeps the exact
    5 % in the box's commission tally, collected when the player leaves or the shoe ends
    (Art. 3 §2); "deduct" pays 95 % at once, rounded up to the chip (the player's favour)."""
    exact_banca_bets: bool = False
    """Art. 5 §2–3: only BANCA bets whose payment is a whole number of chips (an even number
    of chips for the half on six, a multiple of 20 chips for the 5 %)."""
    tie_maximum: Decimal
    """Art. 5 §5: the TIE limit, at most 10 % of the table maximum."""
    multiples_of_minimum: bool = False
    """Art. 5 §4: the casino may require every bet to be a multiple of the table minimum."""
    standing_bettors: int = 0
    """Art. 4 §1: how many players standing behind the boxes may bet (0 = none)."""
    boxes: int = MAX_BOXES
    """Art. 2 §5: up to 9 boxes."""
    sabot_rotation: Literal["customary", "each-coup"] = "customary"
    """Decision (midi-rules.md): "customary" keeps the sabot with its holder while BANCA
    wins or ties and passes it right when PUNTO wins; "each-coup" passes it every coup."""

    @classmethod
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        # "false" reads as none; "true" would silently mean one spot: ask for the number.
        standing = data.get("standing_bettors")
        if standing is True:
            raise InputError(Msg.of("midi_config.standing_bettors_count"))
        return {**data, "standing_bettors": 0} if standing is False else data

    def _check(self) -> None:
        super()._check()
        if self.decks not in (6, 8):
            raise ValueError(f"decks: Art. 2 §1: se juega con 6 u 8 mazos, no {self.decks} / 6 or 8 decks")
        if self.boxes > MAX_BOXES:
            raise ValueError(f"boxes: Art. 2 §5: la mesa admite hasta {MAX_BOXES} casilleros / at most "
                             f"{MAX_BOXES} boxes")
        if not 0 <= self.standing_bettors <= MAX_STANDING_BETTORS:
            raise ValueError(f"standing_bettors: Art. 4 §1: de 0 a {MAX_STANDING_BETTORS} / 0 to "
                             f"{MAX_STANDING_BETTORS}")
        if self.tie_maximum <= 0:
            raise ValueError("tie_maximum: debe ser mayor que 0 / must be above 0")
        if self.minimum < self.BAND_MINIMUM:
            raise ValueError(
                f"minimum: Anexo II: el mínimo autorizado es {self.BAND_MINIMUM} "
                f"/ the authorised minimum is {self.BAND_MINIMUM}"
            )
        if self.maximum > self.BAND_MAXIMUM:
            raise ValueError(
                f"maximum: Anexo II: el máximo autorizado es {self.BAND_MAXIMUM} "
                f"/ the authorised maximum is {self.BAND_MAXIMUM}"
            )
        if not 30 * self.minimum <= self.maximum <= 100 * self.minimum:
            raise ValueError(
                f"maximum: Art. 5 §4: el máximo ({self.maximum}) debe ser de 30 a 100 veces el "
                f"mínimo ({30 * self.minimum}–{100 * self.minimum}) / the maximum must be 30 to "
                f"100 times the minimum"
            )
        if self.tie_maximum * 10 > self.maximum:
            raise ValueError(
                f"tie_maximum: Art. 5 §5: el máximo de TIE ({self.tie_maximum}) no puede superar el "
                f"10 % del máximo de la mesa ({self.maximum / 10}) / the TIE maximum is at most "
                f"10 % of the table maximum"
            )
        if self.tie_maximum < self.minimum:
            raise ValueError(
                "tie_maximum: Art. 7 §1: el máximo de TIE es menor que el mínimo de la mesa "
                "/ the TIE maximum is below the table minimum"
            )
        if self.tie_maximum % self.chip:
            raise ValueError(
                f"tie_maximum: debe ser múltiplo de la ficha mínima ({self.chip}) "
                f"/ must be a multiple of the smallest chip"
            )


DEFAULT_MIDI_TABLE = MidiTableConfig(
    table_id="MPB-02",
    name="Midi Punto y Banca",
    currency="ARS",
    chip=Decimal(1),
    minimum=Decimal(10),
    maximum=Decimal(1000),
    tie_maximum=Decimal(100),
    decks=8,
    banca_mode="half-six",
    multiples_of_minimum=False,
    standing_bettors=0,
    boxes=9,
)
"""The shipped default table (issue 2): what the app and the supervisor tools use by default."""
