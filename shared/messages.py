"""One message catalog per language: the engine speaks in codes, the catalogs in words.

A refusal, a prompt or an announcement is a ``Msg``: a code such as ``"madero.bets_closed"``
and its parameters. The words live in ``shared/locale/<lang>.toml``, one file per language,
grouped in sections by domain (``[madero]``, ``[midi]``, ``[ui]`` …); the code is
``section.key``. Adding a language is adding one file: ``langs()`` lists it, ``--lang`` offers
it, ``env_lang`` picks it from ``LC_ALL``/``LANG``.

A parameter is written in the reader's language when the message is: an amount (``Decimal``)
by ``money_text``, anything ``Localized`` (another ``Msg``, a refusal, a field's name) by its
own ``render(lang)``. The apps' short forms ``t(key)`` and ``tr(key)`` read the ``[ui]`` and
``[training]`` sections.

Why TOML and not gettext: gettext's runtime reads only compiled ``.mo`` files, so the
catalogs would need a build step (or a Babel dependency) that an editable install does not
run; its keys are the source-language sentences, while ours are stable codes that the engine,
the journal's recall and the tests name. ``tomllib`` is in the standard library, a TOML file
is edited with any text editor (a compiled JSON copy beside it spares a launch the parse), and the completeness test (every code in every catalog, every
``{param}`` used by the code known to the catalog) replaces msgfmt's checks. argparse alone
asks gettext for its words, so ``compile_catalogs`` also writes each catalog's ``[argparse]``
section as an ``argparse.mo`` (``tui_common.cli.argparse_words`` installs it).
"""

from __future__ import annotations

import json
import os
import string
import struct
import zlib
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from shared.codec import json_form
from shared.record import record

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT_LANG = "es"


def langs() -> tuple[str, ...]:
    """The languages the console speaks: one catalog file each, Spanish first."""
    return _langs(LOCALE_DIR)


@cache
def _langs(directory: Path) -> tuple[str, ...]:
    found = sorted(p.stem for p in directory.glob("*.toml"))
    return tuple([DEFAULT_LANG] + [lang for lang in found if lang != DEFAULT_LANG])


def catalog(lang: str) -> Mapping[str, str]:
    """Every code of ``lang``'s catalog and its text (``section.key`` → template)."""
    return _catalog(LOCALE_DIR, lang)


@cache
def _catalog(directory: Path, lang: str) -> Mapping[str, str]:
    # Every message looks its catalog up: a path built and hashed anew each time cost more
    # than the rest of rendering.
    return _load(directory / f"{lang}.toml")


COMPILED_SUFFIX = ".compiled.json"
"""Beside each catalog, its parsed form as JSON with the CRC-32 of the TOML it was parsed from:
reading it takes ~0.3 ms where importing tomllib and parsing a catalog take ~12 ms of every
launch. A copy that is not of the catalog's current bytes is never used (the TOML is parsed):
the CRC tells an edited catalog from the one compiled (it guards against a stale copy, not an
attacker, who would edit the code beside it), at 0.4 M instructions where a SHA-256 of the
93 KB catalog took 2.6 M of every launch (issue 32);
``tests/test_i18n.py`` insists the shipped copies are current. After editing a catalog:
``python -c "from shared.messages import compile_catalogs; compile_catalogs()"``."""


@cache
def _load(path: Path) -> Mapping[str, str]:
    source = path.read_bytes()
    return _compiled(path, source) or _parse(source)


def _compiled(path: Path, source: bytes) -> dict[str, str] | None:
    try:
        stored = json.loads(path.with_suffix(COMPILED_SUFFIX).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict) or stored.get("source_crc32") != zlib.crc32(source):
        return None
    messages: dict[str, str] = stored["messages"]
    return messages


def _parse(source: bytes) -> dict[str, str]:
    import tomllib  # only for a catalog without a current compiled copy

    flat: dict[str, str] = {}
    for section, entries in tomllib.loads(source.decode("utf-8")).items():
        for key, text in entries.items():
            flat[f"{section}.{key}"] = text
    return flat


def compile_catalogs(directory: Path = LOCALE_DIR) -> list[Path]:
    """Write the compiled copy beside every catalog of ``directory``, and its argparse words
    as gettext's ``argparse`` domain (``argparse_mo``); returns their paths."""
    written = []
    for path in sorted(directory.glob("*.toml")):
        source = path.read_bytes()
        messages = _parse(source)
        compiled = {"source_crc32": zlib.crc32(source), "messages": messages}
        target = path.with_suffix(COMPILED_SUFFIX)
        target.write_text(json.dumps(compiled, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        mo = argparse_mo_path(path.stem, directory)
        mo.parent.mkdir(parents=True, exist_ok=True)
        mo.write_bytes(argparse_mo(messages))
        written += [target, mo]
    return written


ARGPARSE_WORDS = {
    "usage: ": "argparse.usage",
    "positional arguments": "argparse.positional",
    "options": "argparse.options",
    "show this help message and exit": "argparse.help",
    "%(prog)s: error: %(message)s\n": "argparse.error",
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "the following arguments are required: %s": "argparse.required",
    "one of the arguments %s is required": "argparse.one_required",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid_choice",
    "invalid %(type)s value: %(value)r": "argparse.invalid_value",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "not allowed with argument %s": "argparse.not_allowed",
    "expected one argument": "argparse.expected_one",
    "expected at most one argument": "argparse.expected_at_most_one",
    "expected at least one argument": "argparse.expected_at_least_one",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
}
"""argparse asks gettext for its own words by their English text (its msgids, Python 3.11):
those a command line of ours can meet, and their codes in the catalogs' ``[argparse]`` section."""

def gettext_dir(directory: Path = LOCALE_DIR) -> Path:
    """gettext's folder of the catalogs: ``<lang>/LC_MESSAGES/argparse.mo`` for each catalog."""
    return directory / "gettext"


def argparse_mo_path(lang: str, directory: Path = LOCALE_DIR) -> Path:
    return gettext_dir(directory) / lang / "LC_MESSAGES" / "argparse.mo"


def argparse_mo(messages: Mapping[str, str]) -> bytes:
    """A catalog's argparse words as a GNU ``.mo`` file (the format gettext's runtime reads:
    a header, then the sorted msgids and their translations, each with its length and offset)."""
    pairs = {"": "Content-Type: text/plain; charset=UTF-8\n"}
    pairs |= {msgid: messages[code] for msgid, code in ARGPARSE_WORDS.items() if code in messages}
    keys = sorted(key.encode() for key in pairs)
    values = [pairs[key.decode()].encode() for key in keys]
    header_size, count = 7 * 4, len(keys)
    ids_start = header_size + 16 * count
    strs_start = ids_start + sum(len(key) + 1 for key in keys)
    table: list[int] = []
    for blobs, start in ((keys, ids_start), (values, strs_start)):
        offset = start
        for blob in blobs:
            table += [len(blob), offset]
            offset += len(blob) + 1
    head = struct.pack("<7I", 0x950412DE, 0, count, header_size, header_size + 8 * count, 0, 0)
    return head + struct.pack(f"<{len(table)}I", *table) + b"".join(blob + b"\0" for blob in (*keys, *values))


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of ``LC_ALL``, else ``LANG`` (POSIX precedence), if the console speaks it;
    Spanish otherwise. ``--lang`` on the command line wins over both."""
    environ = os.environ if environ is None else environ
    for var in ("LC_ALL", "LANG"):
        value = environ.get(var, "")
        if value:
            lang = value.split(".")[0].split("_")[0].lower()
            return lang if lang in langs() else DEFAULT_LANG
    return DEFAULT_LANG


def lang_of(args: object) -> str:
    """The ``--lang`` a command line gave (an argparse namespace), else ``env_lang()``."""
    return getattr(args, "lang", None) or env_lang()


MINUS = "−"
"""A true minus sign, so a debit on screen cannot be misread as a dash."""


def money_text(amount: Decimal | float, lang: str, places: int | None = None) -> str:
    """An amount as the language writes it: 1.000,50 in Spanish, 1,000.50 in English; with
    ``places``, any number to that many decimals (a rate, a percentage: «8,540647» / «8.540647»),
    so every number a language shows has one writer (a negative one with the true minus)."""
    thousands, decimal_mark = text("format.thousands", lang), text("format.decimal", lang)
    if places is not None:
        # Decimal(float) is exact and the rounding half-even, as f"{x:.6f}" rounds a float.
        fixed = Decimal(amount).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
        digits = f"{abs(fixed):,.{places}f}"
        sign = MINUS if fixed < 0 else ""
        return sign + digits.translate({ord(","): thousands, ord("."): decimal_mark})
    amount = Decimal(amount)
    sign = MINUS if amount < 0 else ""
    amount = abs(amount)
    units = int(amount)
    cents = amount - units
    whole = f"{units:,}".replace(",", thousands)
    if cents:
        frac = format(cents.normalize(), "f").split(".")[1]
        return f"{sign}{whole}{decimal_mark}{frac}"
    return f"{sign}{whole}"


@runtime_checkable
class Localized(Protocol):
    """Anything written in the reader's language when shown: a ``Msg``, a refusal."""

    def render(self, lang: str) -> str: ...


def param_text(value: object, lang: str) -> str:
    """One parameter as the language writes it."""
    if isinstance(value, (str, int)) and not isinstance(value, Enum):
        return str(value)  # most parameters; checking them against the Protocol first is slow
    if type(value) is Msg:
        return value.render(lang)  # a nested message (a hand's name in a reason): as slow to check
    if isinstance(value, Localized):
        return value.render(lang)
    if isinstance(value, Decimal):
        return money_text(value, lang)
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


@record
class Money:
    """An amount with its currency, as a message parameter: «ARS 1.000» / «ARS 1,000»."""

    amount: Decimal
    currency: str = ""

    def render(self, lang: str) -> str:
        text = money_text(self.amount, lang)
        return f"{self.currency} {text}" if self.currency else text


@record
class Plain:
    """Text no language translates (cards, totals, what a trainee typed): the same in every
    language, so it is a parameter or a line beside catalog messages, never a catalog entry."""

    text: str

    def render(self, lang: str) -> str:
        return self.text


@record
class Written:
    """Words as they were written once, one text per language the console wrote then: an
    older journal row's words that no catalog message gives back (``shared.recognize``), so
    what is recalled is what was shown; a language with no text here reads the Spanish."""

    texts: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, **texts: str) -> Written:
        return cls(tuple(sorted(texts.items())))

    def render(self, lang: str) -> str:
        texts = dict(self.texts)
        return texts.get(lang, texts[DEFAULT_LANG])


@record
class Joined:
    """Several parameters written one after the other, ``sep`` between them (a mark that no
    language translates: « + », a line break)."""

    items: tuple[Localized, ...]
    sep: str

    def render(self, lang: str) -> str:
        return self.sep.join(item.render(lang) for item in self.items)


@record
class Msg:
    """A message by code and parameters, rendered in any language when shown."""

    code: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, code: str, /, **params: object) -> Msg:
        return cls(code, tuple(sorted(params.items())))

    def render(self, lang: str = DEFAULT_LANG) -> str:
        return text(self.code, lang, **dict(self.params))

    def __str__(self) -> str:
        return self.render(DEFAULT_LANG)


PLURAL = "count"
"""The parameter whose number picks a plural form. A message with plural forms is written in
a catalog as ``key_one`` and ``key_other`` and called by ``key`` with ``count``: the catalog's
``format.plural_one`` lists the counts its ``_one`` form is for («1» in Spanish and English),
so no call site chooses between a singular and a plural."""


def plural_form(count: object, lang: str) -> str:
    """``"one"`` or ``"other"``: the form ``lang`` writes ``count`` things in."""
    return "one" if str(count) in text("format.plural_one", lang).split(",") else "other"


def _template(code: str, lang: str, params: Mapping[str, object]) -> str:
    found = catalog(lang)
    template = found.get(code)
    if template is None and f"{code}_other" in found:
        template = found[f"{code}_{plural_form(params[PLURAL], lang)}"]
    if template is None:
        raise KeyError(code)
    return template


def has_code(code: str, lang: str = DEFAULT_LANG) -> bool:
    """``code`` is in ``lang``'s catalog, as one text or as plural forms."""
    found = catalog(lang)
    return code in found or f"{code}_other" in found


def templates(code: str, lang: str = DEFAULT_LANG) -> tuple[str, ...]:
    """``code``'s text in ``lang``'s catalog, or its plural forms (for the completeness tests)."""
    found = catalog(lang)
    if code in found:
        return (found[code],)
    return tuple(found[f"{code}_{form}"] for form in ("one", "other"))


def text(code: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """The text of ``code`` in ``lang``, with its parameters written as ``lang`` writes them
    (the form of ``count``'s number, for a message with plural forms).

    A code missing from a catalog falls back to Spanish (the completeness test keeps that from
    shipping); a code missing from every catalog is a programming error and raises KeyError."""
    if lang not in langs() or not has_code(code, lang):
        lang = DEFAULT_LANG
    template = _template(code, lang, params)
    return template.format(**{k: param_text(v, lang) for k, v in params.items()})


def template_fields(template: str) -> set[str]:
    """The ``{param}`` names a template uses (for the completeness test)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# --- messages in the journal: codes and parameters, never words --------------------------------

JsonValue = Any


def message_json(value: object) -> JsonValue:
    """A message (or a message parameter) as the journal keeps it: a ``Msg`` as its code and
    parameters (``{"code": …, "params": {…}}``), so any catalog, one added later too, writes
    it; a number or a text as it stands; an amount, a text no language translates, joined
    items and recorded words tagged by what they are."""
    if isinstance(value, Msg):
        params = {name: message_json(v) for name, v in value.params}
        return {"code": value.code, "params": params} if params else {"code": value.code}
    if isinstance(value, bool) or not isinstance(value, (str, int, Decimal, Money, Plain, Joined, Written)):
        raise TypeError(f"a journaled message cannot keep {value!r}")
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, Decimal):
        return {"amount": str(value)}
    if isinstance(value, Money):
        return {"amount": str(value.amount), "currency": value.currency}
    if isinstance(value, Plain):
        return {"plain": value.text}
    if isinstance(value, Joined):
        return {"joined": [message_json(item) for item in value.items], "sep": value.sep}
    return {"written": dict(value.texts)}


def message_of_json(data: JsonValue) -> Any:
    """What ``message_json`` wrote, read back."""
    if not isinstance(data, dict):
        return data
    if "code" in data:
        # Msg.of's order, without its keywords: a settlement reads back a hundred of these.
        params = data.get("params")
        return Msg(data["code"], tuple(sorted(
            [(name, message_of_json(v) if isinstance(v, dict) else v) for name, v in params.items()]
        )) if params else ())
    if "currency" in data:
        return Money(Decimal(data["amount"]), data["currency"])
    if "amount" in data:
        return Decimal(data["amount"])
    if "plain" in data:
        return Plain(data["plain"])
    if "joined" in data:
        return Joined(tuple(message_of_json(item) for item in data["joined"]), data["sep"])
    return Written(tuple(sorted(data["written"].items())))


# A journaled reason is a message, or the words an older row recorded when no catalog's
# message gives them back (``shared.recognize``); a field typed ``Localized`` reads either.
for _kind in (Msg, Written, Localized):
    json_form(_kind, message_json, message_of_json)
