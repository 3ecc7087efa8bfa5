"""The Midi table's settings, validated against the regulation when loaded."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar, Literal

from shared.config import TableConfig
from shared.errors import InputError
from shared.messages import Msg
from shared.record import record

MAX_BOXES = 9
"""Art. 2 §5: up to 9 boxes."""
MAX_STANDING_BETTORS = 20


@record(kw_only=True)
class MidiTableConfig(TableConfig):
    """A Midi Punto y Banca table (Anexo I and II)."""

    BAND_MINIMUM: ClassVar[Decimal] = Decimal(10)
    BAND_MAXIMUM: ClassVar[Decimal] = Decimal(50_000)
    """Anexo II: the authorised band, in units."""
    COMMISSION: ClassVar[Decimal] = Decimal("0.05")
    """Art. 5 §3: the deduction on winning BANCA bets in commission mode (5 por 100)."""
    RETIRED: ClassVar[frozenset[str]] = frozenset({"exact_banca_bets"})
    """Only BANCA bets paid exactly are taken (Art. 5 §2–3): the rule, no longer a setting."""
    CHIPS_ARTICLE: ClassVar[str] = "Art. 7 §1"

    decks: int = 8
    """Art. 2 §1: six or eight 52-card decks."""
    banca_mode: Literal["half-six", "commission"] = "half-six"
    """Art. 5 §2 (BANCA pays 50 % when it wins with 6) or §3 (1 a 1 less 5 %)."""
    commission_handling: Literal["tally", "deduct"] = "tally"
    """Art. 5 §3, commission mode only: "tally" pays a winning BANCA 1 a 1 and keeps the exact
    5 % in the box's commission tally, collected when the player leaves or the shoe ends
    (Art. 3 §2); "deduct" pays 95 % at once, so BANCA is bet in multiples of 20 chips."""
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
            raise ValueError(Msg.of("midi_config.decks", decks=self.decks))
        if self.boxes > MAX_BOXES:
            raise ValueError(Msg.of("midi_config.boxes", most=MAX_BOXES))
        if not 0 <= self.standing_bettors <= MAX_STANDING_BETTORS:
            raise ValueError(Msg.of("midi_config.standing_bettors", most=MAX_STANDING_BETTORS))
        if self.tie_maximum <= 0:
            raise ValueError(Msg.of("config.positive", field="tie_maximum"))
        if self.minimum < self.BAND_MINIMUM:
            raise ValueError(Msg.of("midi_config.band_minimum", minimum=self.BAND_MINIMUM))
        if self.maximum > self.BAND_MAXIMUM:
            raise ValueError(Msg.of("midi_config.band_maximum", maximum=self.BAND_MAXIMUM))
        if not 30 * self.minimum <= self.maximum <= 100 * self.minimum:
            raise ValueError(Msg.of("midi_config.maximum_range", maximum=self.maximum, low=30 * self.minimum,
                                    high=100 * self.minimum))
        if self.tie_maximum * 10 > self.maximum:
            raise ValueError(Msg.of("midi_config.tie_maximum_share", tie_maximum=self.tie_maximum,
                                    most=self.maximum / 10))
        if self.tie_maximum < self.minimum:
            raise ValueError(Msg.of("midi_config.tie_below_minimum"))
        if self.tie_maximum % self.chip:
            raise ValueError(Msg.of("config.chip_multiple", field="tie_maximum", article=self.CHIPS_ARTICLE,
                                    chip=self.chip))


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
