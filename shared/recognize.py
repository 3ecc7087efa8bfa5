"""Words an older journal row recorded, read back as the catalog message that writes them.

Before settlements were journaled as codes, a row kept each reason and hand in Spanish and
English (``why_es``/``why_en``, ``hand_es``/``hand_en``). ``recognize`` finds the message of
the catalog that gives exactly those words in every language the row recorded, so the entry
reads in any catalog, one added later too; words no message gives back (a catalog reworded
since) stay the recorded words (``Written``), which is what was shown then.

The search reads the Spanish words against the Spanish templates of the sections named:
each template's literal parts split the words into its parameters, and each parameter is
tried as a message of those sections (a hand's name, a rank's word), an amount, a number or
a text no language translates; the first candidate whose every recorded language matches
wins.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterator, Mapping
from decimal import Decimal
from functools import cache

from shared.messages import DEFAULT_LANG, Localized, Msg, Written, catalog

_DEPTH = 4
"""How deep messages nest in a recorded reason: a reason («ante returned»), the comparison in
it, a hand's name, a rank's word."""

_AMOUNT = re.compile(r"−?\d{1,3}(\.\d{3})*(,\d+)?")
"""An amount as Spanish writes it (``shared.messages.money_text``)."""


def recognize(texts: Mapping[str, str], sections: tuple[str, ...]) -> Localized:
    """The message of ``sections`` that writes ``texts`` (language → words) in every one of
    its languages, else the words themselves."""
    return _recognize(tuple(sorted(texts.items())), sections)


@cache
def _recognize(texts: tuple[tuple[str, str], ...], sections: tuple[str, ...]) -> Localized:
    words = dict(texts)
    for candidate in _messages(words[DEFAULT_LANG], sections, _DEPTH):
        if all(candidate.render(lang) == said for lang, said in texts):
            return candidate
    return Written(texts)


@cache
def _templates(sections: tuple[str, ...]) -> tuple[tuple[str, tuple[tuple[str, str | None], ...]], ...]:
    """Each Spanish template of ``sections`` as its code and (literal, field) parts; a
    template whose fields touch (nothing between them to split on) is left out."""
    found = []
    prefixes = tuple(f"{s}." for s in sections)
    for code, template in catalog(DEFAULT_LANG).items():
        if not code.startswith(prefixes):
            continue
        parts = tuple((literal, name or None) for literal, name, _, _ in string.Formatter().parse(template))
        if any(not literal for literal, _ in parts[1:] if _ is not None) and len(parts) > 1:
            continue
        found.append((code, parts))
    return tuple(found)


def _messages(words: str, sections: tuple[str, ...], depth: int) -> Iterator[Msg]:
    for code, parts in _templates(sections):
        for split in _splits(words, parts):
            for values in itertools.product(*(list(_values(text, sections, depth - 1)) for text in split.values())):
                yield Msg.of(code, **dict(zip(split, values, strict=True)))


def _splits(words: str, parts: tuple[tuple[str, str | None], ...]) -> Iterator[dict[str, str]]:
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


def _values(text: str, sections: tuple[str, ...], depth: int) -> Iterator[object]:
    """What a parameter written as ``text`` may have been."""
    if depth > 0:
        yield from _messages(text, sections, depth)
    if _AMOUNT.fullmatch(text):
        yield Decimal(text.replace(".", "").replace(",", ".").replace("−", "-"))
    if text.isdigit():
        yield int(text)
    yield text
