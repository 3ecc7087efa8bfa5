"""Table configuration: frozen pydantic models loaded from TOML.

Each game defines its own model on top of ``TableConfig`` (``shared.madero.config``,
``shared.midi.config``) and ships a default table, so an app starts without any file.
A configuration that breaks the regulation is refused when it is loaded, with an error
that names the field and the article.
"""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from shared.errors import InputError


class TableConfig(BaseModel):
    """Settings every table has, whatever the game."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    table_id: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")
    """Short identifier shown on screen and stored with every journal entry (e.g. MPB-01)."""
    name: str = ""
    """Human name of the table."""
    currency: str = "ARS"
    """Currency shown beside every amount."""
    chip: Decimal = Field(default=Decimal(1), gt=0)
    """The smallest chip: payouts that are not a multiple of it are rounded down to it."""
    minimum: Decimal = Field(gt=0)
    """Table minimum bet."""
    maximum: Decimal = Field(gt=0)
    """Table maximum bet."""
    boxes: int = Field(ge=1)
    """Number of boxes (casilleros) on the layout."""

    @model_validator(mode="after")
    def _minimum_below_maximum(self) -> Self:
        if self.minimum > self.maximum:
            raise ValueError("minimum: el mínimo de la mesa supera al máximo")
        for field in ("minimum", "maximum"):
            if getattr(self, field) % self.chip:
                raise ValueError(f"{field}: debe ser múltiplo de la ficha mínima ({self.chip})")
        return self

    @classmethod
    def from_toml(cls, path: str | Path) -> Self:
        """Load and validate a table file; any problem becomes one readable InputError."""
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise InputError(f"no se pudo leer {path}: {exc}", f"cannot read {path}: {exc}") from None
        return cls.from_mapping(data, source=str(path))

    @classmethod
    def from_mapping(cls, data: dict, source: str = "configuración") -> Self:
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            lines = [f"{'.'.join(map(str, e['loc'])) or 'mesa'}: {e['msg']}" for e in exc.errors()]
            text = "\n".join(lines)
            raise InputError(f"{source}: tabla inválida\n{text}", f"{source}: invalid table\n{text}") from None
