"""Every event class's ``==``, ``hash`` and ``repr`` (``EventBody``'s, written once) are what
``dataclass(frozen=True)`` generates for the same fields, on every row of the three fixture
journals: compared with a twin dataclass made from the same fields and values."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from fixture_journals import upgraded
from shared.base_events import COMMON_CODEC
from shared.events import EventBody, EventCodec
from shared.journal import Journal
from shared.madero.table.events import CODEC as MADERO_CODEC
from shared.midi.table.events import MIDI_CODEC


def bodies(codec: EventCodec, rows: list[tuple[str, dict[str, Any]]]) -> list[EventBody]:
    return [codec.decode(kind, payload) for kind, payload in rows if kind in codec.types]


def journal_rows(name: str, tmp_path: Path) -> list[tuple[str, dict[str, Any]]]:
    with Journal.open_existing(upgraded(name, tmp_path)) as journal:
        return [(e.type, e.payload) for e in journal.events()]


def madero_rows() -> list[tuple[str, dict[str, Any]]]:
    fixture = json.loads((Path(__file__).with_name("data") / "madero-journal-v1.json").read_text())
    return [(row["type"], row["payload"]) for which in fixture.values() for row in which["rows"]]


_TWINS: dict[type, Any] = {}


def twin(body: EventBody) -> Any:
    """The same values in a plain frozen dataclass of the same name and fields (one per class)."""
    fields = dataclasses.fields(body)  # type: ignore[arg-type]
    made = _TWINS.get(type(body))
    if made is None:
        made = _TWINS[type(body)] = dataclasses.make_dataclass(
            type(body).__qualname__, [(f.name, Any) for f in fields], frozen=True)
    return made(**{f.name: getattr(body, f.name) for f in fields})


def hashed(value: object) -> int | str:
    """The hash, or the error hashing raises (a field holding a dict or list)."""
    try:
        return hash(value)
    except TypeError as error:
        return str(error)


@pytest.mark.parametrize("which", ["base", "midi", "madero"])
def test_events_compare_hash_and_show_as_their_dataclass_twins(which, tmp_path):
    if which == "madero":
        codec = MADERO_CODEC + COMMON_CODEC
        found = bodies(codec, madero_rows())
    else:
        codec = COMMON_CODEC if which == "base" else MIDI_CODEC + COMMON_CODEC
        found = bodies(codec, journal_rows(f"{which}-events-v1", tmp_path))
    assert len({type(b) for b in found}) > 5
    for body in found:
        assert repr(body) == repr(twin(body))
        assert hashed(body) == hashed(twin(body))
        assert body == dataclasses.replace(body)  # type: ignore[type-var]
        with pytest.raises(dataclasses.FrozenInstanceError):
            body.type_ = 1  # type: ignore[attr-defined]
    # Equal exactly when the twins are: the same class and equal fields, never another class's.
    pairs = list(itertools.combinations(found, 2))
    assert any(a == b for a, b in pairs) and any(type(a) is type(b) and a != b for a, b in pairs)
    for a, b in pairs:
        assert (a == b) is (twin(a) == twin(b)) is (not a != b)
    # The same values in another class of the same fields (a tray's opening and its fill, a
    # burnt card and a dealt one) are another event.
    names = {cls: [f.name for f in dataclasses.fields(cls)] for cls in codec.by_type.values()}  # type: ignore[arg-type]
    alike = [(body, other) for body in found for other, fields in names.items()
             if other is not type(body) and fields == names[type(body)]]
    assert alike
    for body, other in alike:
        assert body != other(**{name: getattr(body, name) for name in names[other]})
