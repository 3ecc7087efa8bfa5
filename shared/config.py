"""Table configuration: frozen dataclasses that check the regulation themselves, read from TOML.

Each game defines its own settings on top of ``TableConfig`` (``shared.madero.config``,
``shared.midi.config``) and ships a default table, so an app starts without any file.

Two steps, each in one place:

- **The rules** live in each class's ``_check``, run whenever a table is made (from a file,
  from code or with ``dataclasses.replace``): a table that breaks the regulation cannot
  exist, and the error names the field and the article.
- **Reading** a file or a mapping is pydantic's job (``from_toml``, ``from_mapping``): it turns
  text and numbers into the declared types, refuses unknown fields and gathers every
  problem into one readable ``InputError``. pydantic is imported only when a table is read,
  so a console on its shipped default table starts without it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass
from decimal import Decimal
from enum import Enum
from functools import cache
from pathlib import Path
from types import UnionType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, get_args, get_origin, get_type_hints

from shared.errors import InputError
from shared.messages import Joined, Localized, Msg
from shared.money import to_money
from shared.text import CURRENCY, TABLE_NAME

if TYPE_CHECKING:
    from pydantic import TypeAdapter

TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", re.ASCII)
"""A plain identifier (it names the table's journal file): ASCII letters, digits, «_» and
«-», starting with a letter or digit; no «.», so no «..»."""
ANCHOR_SETTING = "anchor_url"
"""The table file's address of the server that keeps the table's journal head (``shared.anchor``)."""
MAX_TABLE_FILE_BYTES = 64 * 1024
"""A table file is a few hundred bytes; anything this big is not one."""
AMOUNT_PLACES = 6
"""Decimals an amount of a table may have: enough for any chip, and every amount divided
by the chip stays within Decimal's exact digits."""


@dataclass(frozen=True, kw_only=True)
class TableConfig:
    """Settings every table has, whatever the game."""

    # Read by pydantic when it parses a table: a misspelt field is an error, not a default.
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "forbid"}
    SERVER_SETTINGS: ClassVar[frozenset[str]] = frozenset({ANCHOR_SETTING})
    """A file's server addresses: read at each launch where they are used (``shared.anchor``),
    never table values and never journaled (an address may hold a password)."""
    RETIRED: ClassVar[frozenset[str]] = frozenset()
    """Settings a journal may have recorded that are no longer settings (their rule is now the
    regulation's): read back from a journal and dropped, refused in a table file."""

    table_id: str
    """Short identifier shown on screen and stored with every journal entry (e.g. MPB-01)."""
    name: str = ""
    """Human name of the table."""
    currency: str = "ARS"
    """Currency shown beside every amount."""
    chip: Decimal = Decimal(1)
    """The smallest chip: every bet and every payment is a whole number of it."""
    minimum: Decimal
    """Table minimum bet."""
    maximum: Decimal
    """Table maximum bet."""
    boxes: int
    """Number of boxes (casilleros) on the layout."""
    tray_tolerance: Decimal = Decimal(0)
    """The largest difference between the counted and the expected chip tray at the close that
    needs no supervisor's reason (``shared.tray``)."""
    tray_fill_threshold: Decimal = Decimal(0)
    """Below this expected tray the console asks for a fill (0: never)."""

    def __post_init__(self) -> None:
        self._check()

    def _check(self) -> None:
        """Raise ``ValueError(Msg)`` («field: why», a ``config.*`` code) for the first rule the table breaks.

        A subclass adds its game's rules after calling this one.
        """
        if not TABLE_ID.fullmatch(self.table_id):
            raise ValueError(Msg.of("config.table_id"))
        for spec, value in ((TABLE_NAME, self.name), (CURRENCY, self.currency)):
            if (error := spec.problem(value)) is not None:
                raise ValueError(error)
        for field in ("chip", "minimum", "maximum"):
            if getattr(self, field) <= 0:
                raise ValueError(Msg.of("config.positive", field=field))
        if self.boxes < 1:
            raise ValueError(Msg.of("config.boxes_one"))
        if self.tray_tolerance < 0:
            raise ValueError(Msg.of("config.tray_tolerance"))
        if self.tray_fill_threshold < 0:
            raise ValueError(Msg.of("config.tray_fill_threshold"))
        if self.minimum > self.maximum:
            raise ValueError(Msg.of("config.minimum_above_maximum"))
        for field in ("minimum", "maximum"):
            if getattr(self, field) % self.chip:
                raise ValueError(Msg.of("config.chip_multiple", field=field, chip=self.chip))

    @classmethod
    def from_toml(cls, path: str | Path) -> Self:
        """Load and validate a table file; any problem becomes one readable InputError."""
        return cls.from_file(TableFile.read(path))

    @classmethod
    def from_file(cls, file: TableFile) -> Self:
        """The table a file describes: its values of the documented types only (an amount is a
        TOML number, never a string such as ``contribution_percent = "50"``), then the rules."""
        hints = _hints(cls)  # type: ignore[arg-type]  # a class is hashable (mypy reads the instances' __hash__)
        amounts = [name for name, value in file.mapping.items()
                   if isinstance(value, str) and Decimal in (hints.get(name), *get_args(hints.get(name)))]
        if amounts:
            problems = tuple(Msg.of("config.number", field=name) for name in amounts)
            raise InputError(Msg.of("common.table_invalid", source=str(file.path), problems=Joined(problems, "\n")))
        return cls.from_mapping(file.mapping, source=str(file.path))

    @classmethod
    def from_mapping(cls, data: dict[str, Any], source: str = "configuración") -> Self:
        from pydantic import ValidationError

        data = {k: v for k, v in data.items() if k not in cls.SERVER_SETTINGS}
        data, problems = _strict(cls, cls._prepare(data))
        try:
            if not problems:
                table: Self = _reader(cls).validate_python(data)  # type: ignore[arg-type]  # a class is hashable
                return table
        except ValidationError as exc:
            problems = [_error_line(cls, error) for error in exc.errors()]
        raise InputError(Msg.of("common.table_invalid", source=source, problems=Joined(tuple(problems), "\n")))

    def to_record(self) -> dict[str, Any]:
        """The table as JSON values, for the journal (``from_record`` reads it back)."""
        return {name: _to_json(value) for name, value in asdict(self).items()}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Self:
        """A table written by ``to_record``, read back without pydantic: only money and
        choices are turned back into their types, and every rule runs again on them."""
        hints = get_type_hints(cls)
        return cls(**{name: _from_json(hints[name], value) for name, value in record.items()
                      if name not in cls.RETIRED})

    def with_changes(self, **changes: Any) -> Self:
        """This table with some fields changed, read and checked as a file's would be."""
        return self.from_mapping({**asdict(self), **changes}, source=self.table_id)

    @classmethod
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A game's reading of values a file may spell loosely, before the types are checked."""
        return data


@dataclass(frozen=True)
class TableFile:
    """A table file's bytes, their SHA-256 and the TOML they hold."""

    path: Path
    sha256: str
    mapping: dict[str, Any]

    @classmethod
    def read(cls, path: str | Path) -> TableFile:
        import tomllib  # only a launch with a table file reads TOML

        path = Path(path)
        try:
            with path.open("rb") as file:
                data = file.read(MAX_TABLE_FILE_BYTES + 1)
            if len(data) > MAX_TABLE_FILE_BYTES:
                raise InputError(Msg.of("common.table_file_too_long", path=path, kib=MAX_TABLE_FILE_BYTES // 1024))
            # Decimals stay exact: «chip = 0.1» is one tenth, not the float nearest to it.
            mapping = tomllib.loads(data.decode("utf-8"), parse_float=Decimal)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise InputError(Msg.of("common.table_file_unreadable", path=path, reason=exc)) from None
        except RecursionError:
            raise InputError(Msg.of("common.table_file_too_deep", path=path)) from None
        return cls(path, hashlib.sha256(data).hexdigest(), mapping)

    def table_id(self, kind: type[TableConfig]) -> str:
        """The table's id as the file gives it (read fully, with its errors, when malformed)."""
        table_id = self.mapping.get("table_id")
        if isinstance(table_id, str) and TABLE_ID.fullmatch(table_id):
            return table_id
        return kind.from_mapping(self.mapping, source=str(self.path)).table_id


def _to_json(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    return value


def _from_json(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    if hint is Decimal or Decimal in get_args(hint):
        return Decimal(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    return value


def _strict(cls: type[TableConfig], data: dict[str, Any]) -> tuple[dict[str, Any], list[Localized]]:
    """Each value of the declared kind, before pydantic's lenient reading could turn it into
    another: a boolean is not a number, a number with decimals is not a count of boxes, a
    number is not a name. Amounts become exact, bounded Decimals. Gives the values and the
    problems, as «field: why»."""
    hints = _hints(cls)  # type: ignore[arg-type]  # a class is hashable (mypy reads the instances' __hash__)
    out, problems = dict(data), list[Localized]()
    for name, value in data.items():
        hint = hints.get(name)
        if name in cls.RETIRED:
            problems.append(Msg.of("config.retired", field=name))
            continue
        if hint is None or value is None:
            continue  # an unknown field, or an optional one left empty: pydantic says
        kind = next(k for k in get_args(hint) if k is not type(None)) if isinstance(hint, UnionType) else hint
        if kind is Decimal:
            try:
                amount = to_money(value)
            except InputError as exc:
                problems.append(Msg.of("config.field_problem", field=name, problem=exc))
                continue
            if amount.as_tuple().exponent < -AMOUNT_PLACES:  # type: ignore[operator]
                problems.append(Msg.of("config.places", field=name, places=AMOUNT_PLACES))
            out[name] = amount
        elif kind is bool and not isinstance(value, bool):
            problems.append(Msg.of("config.boolean", field=name))
        elif kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append(Msg.of("config.integer", field=name))
        elif (kind is str or get_origin(kind) is Literal or (isinstance(kind, type) and issubclass(kind, Enum))) \
                and not isinstance(value, str):
            problems.append(Msg.of("config.text", field=name))
    return out, problems


@cache
def _hints(cls: type[TableConfig]) -> dict[str, Any]:
    return get_type_hints(cls)


PYDANTIC_PROBLEM = {"missing": "config.missing", "unexpected_keyword_argument": "config.unknown",
                    "extra_forbidden": "config.unknown"}
"""pydantic's errors the console words itself: its own words are English."""


def _error_line(cls: type[TableConfig], error: Any) -> Localized:
    """One problem as «field: why», in the reader's language; the rules' own errors already
    name their field."""
    if error["type"] == "value_error" and not error["loc"]:
        problem = error["ctx"]["error"].args[0]
        return problem if isinstance(problem, Localized) else Msg.of("config.problem", problem=problem)
    field = ".".join(map(str, error["loc"])) or Msg.of("config.the_table")
    if error["type"] in PYDANTIC_PROBLEM:
        return Msg.of(PYDANTIC_PROBLEM[error["type"]], field=field)
    choices = _choices(_hints(cls).get(str(error["loc"][0])) if error["loc"] else None)  # type: ignore[arg-type]
    if choices:
        return Msg.of("config.choice", field=field, choices=", ".join(choices))
    return Msg.of("config.invalid", field=field)


def _choices(hint: Any) -> tuple[str, ...]:
    """The values a field of choices takes (a Literal's or an Enum's), else none."""
    if get_origin(hint) is Literal:
        return tuple(map(str, get_args(hint)))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return tuple(str(member.value) for member in hint)
    return ()


@cache
def _reader(cls: type[TableConfig]) -> TypeAdapter[Any]:
    """pydantic's reader of one kind of table, built once (building it is the costly part)."""
    from pydantic import TypeAdapter

    return TypeAdapter(cls)
