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
where it first differs; the winner is rendered once more to be sure. A row's search takes a
bounded number of steps (``_BUDGET``): words crafted to split in a great many ways are kept as
the words they are, as words no message gives back are.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterator, Mapping
from decimal import Decimal, InvalidOperation
from functools import cache

from shared.messages import DEFAULT_LANG, Localized, Msg, Written, catalog, money_text
from shared.regex import Regex

_DEPTH = 4
"""How deep messages nest in a recorded reason: a reason («ante returned»), the comparison in
it, a hand's name, a rank's word."""

_BUDGET = 10_000
"""How many steps (a template tried, a way of splitting words on it, a candidate message) one
row's search may take. The console's own words take under 1,500 (two full houses compared, paid
1 to 1); words crafted to be read in a great many ways (one separator over and over) took
minutes, and stop here."""

_LONGEST = 2_000
"""The longest words searched: the console's longest reason, with the 200 characters a person
may type in it (``shared.text.REASON``), is a few hundred; longer ones are read as they are, so
that no step of the search walks a long text."""

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
    return _Search(sections).read(texts)


class _Exhausted(Exception):
    """The search took its ``_BUDGET`` of steps."""


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


_FOUND: dict[tuple[Texts, tuple[str, ...], int], tuple[tuple[object, ...], int]] = {}
"""Each parameter's candidates (``_Search.values``) and the steps finding them took, found once:
a hand's name recurs in many reasons."""


class _Search:
    """One row's search for the message that writes its words, in at most ``_BUDGET`` steps.

    A parameter's candidates found before are charged the steps they took then, so the steps a
    row takes, and whether it is recognized, depend on its words alone, never on the rows read
    before it."""

    def __init__(self, sections: tuple[str, ...]) -> None:
        self.sections = sections
        self.steps = 0

    def read(self, texts: Texts) -> Localized:
        """The message that writes ``texts`` in every language, else the words themselves
        (also when the words are too long to search, or the search takes its budget)."""
        if any(len(said) > _LONGEST for _, said in texts):
            return Written(texts)
        try:
            for candidate in self.messages(texts, _DEPTH):
                if all(candidate.render(lang) == said for lang, said in texts):
                    return candidate
        except _Exhausted:
            pass
        return Written(texts)

    def step(self, steps: int = 1) -> None:
        self.steps += steps
        if self.steps > _BUDGET:
            raise _Exhausted

    def messages(self, texts: Texts, depth: int) -> Iterator[Msg]:
        langs = tuple(lang for lang, _ in texts)
        by_first = _templates(self.sections, langs)
        spanish = dict(texts)[DEFAULT_LANG]
        for code, parts in (*by_first.get(spanish[:1], ()), *by_first.get("", ())):
            self.step()
            # Most templates are told apart by their literal words alone: no split to try.
            if not all(_fits(words, p) for (_, words), p in zip(texts, parts, strict=True)):
                continue
            for splits in itertools.product(*(list(self.splits(words, p)) for (_, words), p in zip(texts, parts, strict=True))):
                self.step()
                names = list(splits[0])
                if any(set(s) != set(names) for s in splits[1:]):
                    continue
                fields = [tuple((lang, s[name]) for lang, s in zip(langs, splits, strict=True)) for name in names]
                for values in itertools.product(*(self.values(field, depth - 1) for field in fields)):
                    self.step()
                    yield Msg.of(code, **dict(zip(names, values, strict=True)))

    def splits(self, words: str, parts: Parts) -> Iterator[dict[str, str]]:
        """Every way the template ``parts`` reads ``words``: its fields' texts, by name."""
        self.step()
        if not parts:
            if not words:
                yield {}
            return
        (literal, name), rest = parts[0], parts[1:]
        if not words.startswith(literal):
            return
        words = words[len(literal):]
        if name is None:
            yield from self.splits(words, rest)
            return
        following = next((lit for lit, _ in rest), "")
        ends = [len(words)] if not following else [m.start() for m in re.finditer(f"(?={re.escape(following)})", words)]
        for end in ends:
            if end == 0:
                continue
            for others in self.splits(words[end:], rest):
                if name not in others:
                    yield {name: words[:end], **others}

    def values(self, texts: Texts, depth: int) -> tuple[object, ...]:
        """What a parameter written as ``texts`` (by language) may have been: a message, an
        amount, a number or a text no language translates."""
        key = (texts, self.sections, depth)
        if key in _FOUND:
            found, steps = _FOUND[key]
            self.step(steps)
            return found
        before = self.steps
        found = (*(self.messages(texts, depth) if depth > 0 else ()), *_plain(texts))
        _FOUND[key] = found, self.steps - before
        return found


_AMOUNT = Regex(r"−?\d{1,3}(\.\d{3})*(,\d+)?")
"""An amount as Spanish writes it (``shared.messages.money_text``)."""


def _plain(texts: Texts) -> tuple[object, ...]:
    """What a parameter written as ``texts`` (by language) may have been other than a message."""
    found: list[object] = []
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
