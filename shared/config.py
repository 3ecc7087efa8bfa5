"""Table configuration: frozen dataclasses that check the regulation themselves, read from TOML.

Each game defines its own settings on top of ``TableConfig`` (``shared.madero.config``,
``shared.midi.config``) and ships a default table, so an app starts without any file.

Two steps, each in one place:

- **The rules** live in each class's ``_check``, run whenever a table is made (from a file,
  from code or with ``dataclasses.replace``): a table that breaks the regulation cannot
  exist, and the error names the field and the article.
- **Reading** a file or a mapping (``from_toml``, ``from_mapping``) is ``_read``'s job, with
  the standard library alone: each value must be of its field's declared kind (a boolean is
  not a number, ``7.5`` is not a count of boxes, a number is not a name), amounts become
  exact, bounded Decimals, unknown and missing fields are named, and every problem is
  gathered into one ``InputError`` in the catalog's words.

Why the standard library and not pydantic's strict mode: a table has six kinds of value,
read here in one pass; pydantic's strict mode refuses the TOML integer of an amount
(``minimum = 10``) and a command line's text («5»), and speaks English, so every one of its
error types would still need a translation beside it — two readers again, plus a
dependency whose first read of a file cost 250–390 ms (6–14 ms now, mostly ``tomllib``).
The journal's record of a table is written and read by the one codec (``shared.codec``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import MISSING, asdict, fields
from decimal import Decimal
from enum import Enum
from functools import cache
from pathlib import Path
from types import UnionType
from typing import Any, ClassVar, Literal, Self, get_args, get_origin

from shared.codec import hints as type_hints
from shared.errors import InputError, os_reason
from shared.messages import Joined, Localized, Msg
from shared.money import to_money
from shared.record import record
from shared.regex import Regex
from shared.text import CURRENCY, TABLE_NAME

TABLE_ID = Regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}", re.ASCII)
"""A plain identifier (it names the table's journal file): ASCII letters, digits, «_» and
«-», starting with a letter or digit; no «.», so no «..»."""
ANCHOR_SETTING = "anchor_url"
"""The table file's address of the server that keeps the table's journal head (``shared.anchor``)."""
MAX_TABLE_FILE_BYTES = 64 * 1024
"""A table file is a few hundred bytes; anything this big is not one."""
SOURCE = Msg.of("config.source")
"""What a refusal names as the table's source when it came from no file (a mapping in code)."""
AMOUNT_PLACES = 6
"""Decimals an amount of a table may have: enough for any chip, and every amount divided
by the chip stays within Decimal's exact digits."""


@record(kw_only=True)
class TableConfig:
    """Settings every table has, whatever the game."""

    SERVER_SETTINGS: ClassVar[frozenset[str]] = frozenset({ANCHOR_SETTING})
    """A file's server addresses: read at each launch where they are used (``shared.anchor``),
    never table values and never journaled (an address may hold a password)."""
    RETIRED: ClassVar[frozenset[str]] = frozenset()
    """Settings a journal may have recorded that are no longer settings (their rule is now the
    regulation's): read back from a journal and dropped, refused in a table file."""
    CHIPS_ARTICLE: ClassVar[str]
    """The game's article saying a bet is made of the casino's chips only, so that every limit
    is a whole number of the smallest chip."""

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
                raise ValueError(Msg.of("config.chip_multiple", field=field, article=self.CHIPS_ARTICLE, chip=self.chip))

    @classmethod
    def from_toml(cls, path: str | Path) -> Self:
        """Load and validate a table file; any problem becomes one readable InputError."""
        return cls.from_file(TableFile.read(path))

    @classmethod
    def from_file(cls, file: TableFile) -> Self:
        """The table a file describes: its values of the documented types only (an amount is a
        TOML number, never a string such as ``contribution_percent = "50"``), then the rules."""
        return cls.from_mapping(file.mapping, source=str(file.path), amounts_as_text=False)

    @classmethod
    def from_mapping(cls, data: dict[str, Any], source: str | Localized = SOURCE, *,
                     amounts_as_text: bool = True) -> Self:
        """The table ``data`` describes, read as ``_read`` says, then the rules; every problem
        is one InputError naming its field. ``amounts_as_text``: an amount may be given as
        text («5», from a command line) as well as a number."""
        data = {k: v for k, v in data.items() if k not in cls.SERVER_SETTINGS}
        values, problems = _read(cls, cls._prepare(data), amounts_as_text)
        if not problems:
            try:
                return cls(**values)
            except ValueError as exc:
                problem = exc.args[0]
                problems = [problem if isinstance(problem, Localized) else Msg.of("config.problem", problem=problem)]
        raise InputError(Msg.of("common.table_invalid", source=source, problems=Joined(tuple(problems), "\n")))

    def with_changes(self, **changes: Any) -> Self:
        """This table with some fields changed, read and checked as a file's would be."""
        return self.from_mapping({**asdict(self), **changes}, source=self.table_id)

    @classmethod
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A game's reading of values a file may spell loosely, before the types are checked."""
        return data


@record
class TableFile:
    """A table file's bytes, their SHA-256 and the TOML they hold."""

    path: Path
    sha256: str
    mapping: dict[str, Any]

    @classmethod
    def read(cls, path: str | Path) -> TableFile:
        path = Path(path)
        try:
            with path.open("rb") as file:
                data = file.read(MAX_TABLE_FILE_BYTES + 1)
            if len(data) > MAX_TABLE_FILE_BYTES:
                raise InputError(Msg.of("common.table_file_too_long", path=path, kib=MAX_TABLE_FILE_BYTES // 1024))
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(Msg.of("common.table_file_unreadable", path=path, reason=unreadable_reason(exc))) from None
        mapping = flat_toml(text)
        if mapping is None:
            mapping = _toml(path, text)
        return cls(path, hashlib.sha256(data).hexdigest(), mapping)

    def table_id(self, kind: type[TableConfig]) -> str:
        """The table's id as the file gives it (read fully, with its errors, when malformed)."""
        table_id = self.mapping.get("table_id")
        if isinstance(table_id, str) and TABLE_ID.fullmatch(table_id):
            return table_id
        return kind.from_mapping(self.mapping, source=str(self.path)).table_id


def _toml(path: Path, text: str) -> dict[str, Any]:
    """``text`` as ``tomllib`` reads it, its refusal told as the console tells one."""
    import tomllib  # a file flat_toml does not read: importing it costs ~9 M instructions

    try:
        # Decimals stay exact: «chip = 0.1» is one tenth, not the float nearest to it.
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(Msg.of("common.table_file_unreadable", path=path, reason=unreadable_reason(exc))) from None
    except RecursionError:
        raise InputError(Msg.of("common.table_file_too_deep", path=path)) from None


def flat_toml(text: str) -> dict[str, Any] | None:
    """A table file as ``tomllib.loads(text, parse_float=Decimal)`` reads it, when it is what a
    table file is: lines of ``key = value`` (a bare key; a string without escapes, an integer,
    a decimal, true or false), blank lines and comments. Anything else is None: ``tomllib``
    reads it (and refuses what TOML refuses). Importing ``tomllib`` compiles its regular
    expressions, ~9 M instructions, ~1 % of a console's launch (issue 32); this is ~0.1 M.
    ``tests/test_table_file.py`` compares both on made-up files."""
    values: dict[str, Any] = {}
    for line in text.replace("\r\n", "\n").split("\n"):  # a lone CR stays, and is not printable
        if not line.replace("\t", " ").isprintable():
            return None  # a control character (TOML refuses most), or a character to look into
        line = line.strip(" \t")
        if not line or line[0] == "#":
            continue
        key, equals, rest = line.partition("=")
        key = key.rstrip(" \t")
        if not equals or not _bare_key(key) or key in values:
            return None
        rest = rest.lstrip(" \t")
        if rest[:1] == '"':
            end = rest.find('"', 1)
            if end < 0 or "\\" in rest[1:end]:
                return None
            value: Any = rest[1:end]
            after = rest[end + 1:].lstrip(" \t")
        else:
            token, hash_, comment = rest.partition("#")
            value = _scalar(token.rstrip(" \t"))
            after = hash_ + comment
        if value is None or after[:1] not in ("", "#"):
            return None
        values[key] = value
    return values


def _bare_key(key: str) -> bool:
    """A TOML bare key: ASCII letters, digits, «_» and «-»."""
    return key.isascii() and key.replace("_", "a").replace("-", "a").isalnum()


def _scalar(token: str) -> int | Decimal | bool | None:
    """A TOML integer or decimal without «_» or exponent, as tomllib reads it; true or false."""
    if token in ("true", "false"):
        return token == "true"
    whole, point, fraction = (token[1:] if token[:1] in ("+", "-") else token).partition(".")
    if not (whole.isascii() and whole.isdigit()) or (len(whole) > 1 and whole[0] == "0"):
        return None
    if not point:
        return int(token)
    if fraction.isascii() and fraction.isdigit():
        return Decimal(token)
    return None


def _read(cls: type[TableConfig], data: dict[str, Any], amounts_as_text: bool) -> tuple[dict[str, Any], list[Localized]]:
    """Each value of its field's declared kind, in one pass over ``data``, then the fields it
    lacks: gives the values (amounts as Decimals, choices of an Enum as its members) and the
    problems, as «field: why»."""
    hints = _hints(cls)  # type: ignore[arg-type]  # a class is hashable (mypy reads the instances' __hash__)
    values, problems = {}, list[Localized]()
    for name, value in data.items():
        if name in cls.RETIRED:
            problems.append(Msg.of("config.retired", field=name))
        elif name not in hints:
            problems.append(Msg.of("config.unknown", field=name))
        else:
            hint = hints[name]
            optional = isinstance(hint, UnionType) and type(None) in get_args(hint)
            kind = next(k for k in get_args(hint) if k is not type(None)) if optional else hint
            if value is None:
                problem = None if optional else _no_value(kind, name)
            else:
                value, problem = _read_value(kind, name, value, amounts_as_text)
            if problem is None:
                values[name] = value
            else:
                problems.append(problem)
    problems += [Msg.of("config.missing", field=name) for name in _required(cls) if name not in data]  # type: ignore[arg-type]
    return values, problems


def _read_value(kind: Any, name: str, value: Any, amounts_as_text: bool) -> tuple[Any, Localized | None]:
    """``value`` as the field ``name`` of ``kind`` holds it, or the problem with it."""
    if kind is Decimal:
        return _read_amount(name, value, amounts_as_text)
    if kind is bool:
        return value, None if isinstance(value, bool) else Msg.of("config.boolean", field=name)
    if kind is int:
        return value, None if isinstance(value, int) and not isinstance(value, bool) else Msg.of("config.integer", field=name)
    choices = _choices(kind)
    if kind is not str and not choices:
        raise TypeError(f"{name}: no reading of a table field of type {kind!r}")
    if not isinstance(value, str):
        return value, Msg.of("config.text", field=name)
    if choices and value not in choices:
        return value, Msg.of("config.choice", field=name, choices=", ".join(choices))
    return (kind(value) if isinstance(kind, type) and issubclass(kind, Enum) else value), None


def _read_amount(name: str, value: Any, as_text: bool) -> tuple[Any, Localized | None]:
    """An amount: exact (a whole number or a Decimal, text too if ``as_text``), bounded, and of
    at most ``AMOUNT_PLACES`` decimals."""
    if isinstance(value, str) and not as_text:
        return value, Msg.of("config.number", field=name)
    try:
        amount = to_money(value)
    except InputError as exc:
        return value, Msg.of("config.field_problem", field=name, problem=exc)
    if amount.as_tuple().exponent < -AMOUNT_PLACES:  # type: ignore[operator]
        return value, Msg.of("config.places", field=name, places=AMOUNT_PLACES)
    return amount, None


def _no_value(kind: Any, name: str) -> Localized:
    """The problem with a field that must have a value given none (None, from code)."""
    choices = _choices(kind)
    return Msg.of("config.choice", field=name, choices=", ".join(choices)) if choices else Msg.of("config.invalid", field=name)


@cache
def _hints(cls: type[TableConfig]) -> dict[str, Any]:
    """Each field's declared type."""
    hints = type_hints(cls)
    return {f.name: hints[f.name] for f in fields(cls)}


@cache
def _required(cls: type[TableConfig]) -> tuple[str, ...]:
    """The fields a table must be given: those without a default, in their declared order."""
    return tuple(f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING)


def _choices(hint: Any) -> tuple[str, ...]:
    """The values a field of choices takes (a Literal's or an Enum's), else none."""
    if get_origin(hint) is Literal:
        return tuple(map(str, get_args(hint)))
    if isinstance(hint, type) and issubclass(hint, Enum):
        return tuple(str(member.value) for member in hint)
    return ()


# tomllib's words for what is wrong (Python 3.11's parser), each as a catalog message: the
# person fixing a table file reads it in the console's language. A wording not here (another
# Python's) is shown as the parser wrote it, after the place in the catalog's words. Patterns,
# not compiled ones: only a table file that fails to parse needs them (``re`` compiles each on its
# first use; compiling all 22 at import cost every launch ~3 ms).
_TOML_PROBLEMS: tuple[tuple[str, str], ...] = (
    (r"Cannot overwrite a value", "overwrite"),
    (r"Escaped character is not a Unicode scalar value", "escape_not_scalar"),
    (r"Expected '=' after a key in a key/value pair", "expected_equals"),
    (r"Expected '\]' at the end of a table declaration", "expected_bracket"),
    (r"Expected '\]\]' at the end of an array declaration", "expected_brackets"),
    (r"Expected newline or end of document after a statement", "expected_newline"),
    (r"Expected (?P<what>.+)", "expected"),
    (r"Invalid date or datetime", "bad_date"),
    (r"Invalid hex value", "bad_hex"),
    (r"Invalid initial character for a key part", "bad_key"),
    (r"Invalid statement", "bad_statement"),
    (r"Invalid value", "bad_value"),
    (r"Unclosed array", "unclosed_array"),
    (r"Unclosed inline table", "unclosed_inline_table"),
    (r"Unescaped '\\' in a string", "unescaped_backslash"),
    (r"Unterminated string", "unterminated_string"),
    (r"Cannot declare (?P<what>.+) twice", "declared_twice"),
    (r"Cannot mutate immutable namespace (?P<what>.+)", "immutable"),
    (r"Cannot redefine namespace (?P<what>.+)", "redefined"),
    (r"Duplicate inline table key (?P<what>.+)", "duplicate_key"),
    (r"Found invalid character (?P<what>.+)", "invalid_character"),
    (r"Illegal character (?P<what>.+)", "illegal_character"),
)
_TOML_PLACE = r"(?P<problem>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)"


def unreadable_reason(error: Exception) -> Localized | str:
    """Why a table file could not be read, in the catalog's words: the operating system's and
    the TOML parser's own messages are English."""
    if isinstance(error, OSError):
        return os_reason(error)
    if isinstance(error, UnicodeDecodeError):
        return Msg.of("common.file_not_utf8", position=error.start + 1)
    place = re.fullmatch(_TOML_PLACE, str(error), re.S)
    if place is None:
        return str(error)
    where = (Msg.of("toml.at_end") if place["line"] is None
             else Msg.of("toml.at", line=int(place["line"]), column=int(place["column"])))
    problem: Localized | str = place["problem"]
    for pattern, code in _TOML_PROBLEMS:
        found = re.fullmatch(pattern, place["problem"])
        if found is not None:
            problem = Msg.of(f"toml.{code}", **found.groupdict())
            break
    return Msg.of("toml.invalid", problem=problem, where=where)
