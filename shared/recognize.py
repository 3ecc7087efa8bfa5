"""Words an older journal row recorded, read back as the catalog message that writes them.

Before settlements were journaled as codes, a row kept each reason and hand in Spanish and
English (``why_es``/``why_en``, ``hand_es``/``hand_en``). ``recognize`` finds the message of
the catalog that gives exactly those words in every language the row recorded, so the entry
reads in any catalog, one added later too; words no message gives back (a catalog reworded
since) stay the recorded words (``Written``), which is what was shown then.

The search reads the words of every recorded language at once against each template of the
sections named: a template's literal parts split each language's words into its
parameters, and a parameter is tried, in every language together, as a message of those
sections (a hand's name, a rank's word), an amount, a number or a text no language
translates. A candidate must fit every language at every level, so a wrong one is dropped
where it first differs; the winner is rendered once more to be sure.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from functools import cache

from shared.messages import DEFAULT_LANG, Localized, Msg, Written, catalog, money_text

_DEPTH = 4
"""How deep messages nest in a recorded reason: a reason («ante returned»), the comparison in
it, a hand's name, a rank's word."""

Texts = tuple[tuple[str, str], ...]
"""Words by language, sorted by language."""

Parts = tuple[tuple[str, str | None], ...]
"""A template as (literal, field) parts (``string.Formatter().parse``)."""


def recognize(texts: Mapping[str, str], sections: tuple[str, ...]) -> Localized:
    """The message of ``sections`` that writes ``texts`` (language → words) in every one of
    its languages, else the words themselves."""
    return _recognize(tuple(sorted(texts.items())), sections)


@cache
def _recognize(texts: Texts, sections: tuple[str, ...]) -> Localized:
    for candidate in _messages(texts, sections, _DEPTH):
        if all(candidate.render(lang) == said for lang, said in texts):
            return candidate
    return Written(texts)


Template = tuple[str, tuple[Parts, ...]]
"""A code and its template's parts in each recorded language."""


@cache
def _templates(sections: tuple[str, ...], langs: tuple[str, ...]) -> dict[str, tuple[Template, ...]]:
    """The codes of ``sections`` with their templates' parts in each of ``langs``, by the first
    character of their Spanish words ("" for those that begin with a field); one whose fields
    touch (nothing between them to split on) is left out."""
    prefixes = tuple(f"{s}." for s in sections)
    found: dict[str, list[Template]] = {}
    spanish = langs.index(DEFAULT_LANG)
    for code in catalog(DEFAULT_LANG):
        if not code.startswith(prefixes):
            continue
        parts = tuple(tuple((literal, name or None) for literal, name, _, _ in string.Formatter().parse(catalog(lang)[code]))
                      for lang in langs)
        if all(all(literal for literal, _ in p[1:]) for p in parts):
            found.setdefault(parts[spanish][0][0][:1], []).append((code, parts))
    return {first: tuple(templates) for first, templates in found.items()}


def _fits(words: str, parts: Parts) -> bool:
    """``words`` has every literal part of the template, where it must begin and end."""
    last, field = parts[-1]
    return (words.startswith(parts[0][0]) and (field is not None or words.endswith(last))
            and all(literal in words for literal, _ in parts))


def _messages(texts: Texts, sections: tuple[str, ...], depth: int) -> Iterator[Msg]:
    langs = tuple(lang for lang, _ in texts)
    by_first = _templates(sections, langs)
    spanish = dict(texts)[DEFAULT_LANG]
    for code, parts in (*by_first.get(spanish[:1], ()), *by_first.get("", ())):
        # Most templates are told apart by their literal words alone: no split to try.
        if not all(_fits(words, p) for (_, words), p in zip(texts, parts, strict=True)):
            continue
        for splits in itertools.product(*(list(_splits(words, p)) for (_, words), p in zip(texts, parts, strict=True))):
            names = list(splits[0])
            if any(set(s) != set(names) for s in splits[1:]):
                continue
            fields = [tuple((lang, s[name]) for lang, s in zip(langs, splits, strict=True)) for name in names]
            for values in itertools.product(*(_values(field, sections, depth - 1) for field in fields)):
                yield Msg.of(code, **dict(zip(names, values, strict=True)))


def _splits(words: str, parts: Parts) -> Iterator[dict[str, str]]:
    """Every way the template ``parts`` reads ``words``: its fields' texts, by name."""
    if not parts:
        if not words:
            yield {}
        return
    (literal, name), rest = parts[0], parts[1:]
    if not words.startswith(literal):
        return
    words = words[len(literal):]
    if name is None:
        yield from _splits(words, rest)
        return
    following = next((lit for lit, _ in rest), "")
    ends = [len(words)] if not following else [m.start() for m in re.finditer(f"(?={re.escape(following)})", words)]
    for end in ends:
        if end == 0:
            continue
        for others in _splits(words[end:], rest):
            if name not in others:
                yield {name: words[:end], **others}


_AMOUNT = re.compile(r"−?\d{1,3}(\.\d{3})*(,\d+)?")
"""An amount as Spanish writes it (``shared.messages.money_text``)."""


@cache
def _values(texts: Texts, sections: tuple[str, ...], depth: int) -> tuple[object, ...]:
    """What a parameter written as ``texts`` (by language) may have been; a hand's name
    recurs in many reasons, so each is looked for once."""
    found: list[object] = list(_messages(texts, sections, depth)) if depth > 0 else []
    words = dict(texts)
    spanish = words[DEFAULT_LANG]
    if _AMOUNT.fullmatch(spanish):
        try:
            amount = Decimal(spanish.replace(".", "").replace(",", ".").replace("−", "-"))
        except InvalidOperation:
            amount = None
        if amount is not None and all(money_text(amount, lang) == said for lang, said in texts):
            found.append(amount)
    if len(set(words.values())) == 1:
        if spanish.isdigit():
            found.append(int(spanish))
        found.append(spanish)
    return tuple(found)
