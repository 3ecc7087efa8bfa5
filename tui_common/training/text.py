"""The training screens' own words: the ``[training]`` section of the catalogs (``shared/locale``)."""

from __future__ import annotations

from shared.messages import text


def tr(key: str, lang: str = "es", /, **values: object) -> str:
    return text(f"training.{key}", lang, **values)
