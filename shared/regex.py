"""Regular expressions compiled where first used."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cached_property


class Regex:
    """``re.compile(text, flags)``, compiled at its first use: a console's launch compiled ten
    patterns of its modules and used one of them (~7 M instructions, issue 32)."""

    def __init__(self, text: str, flags: int = 0) -> None:
        self.text = text
        self.flags = flags

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.text, self.flags)

    def fullmatch(self, string: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(string)

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string)

    def sub(self, replacement: str | Callable[[re.Match[str]], str], string: str) -> str:
        return self.compiled.sub(replacement, string)

    def split(self, string: str) -> list[str]:
        return self.compiled.split(string)
