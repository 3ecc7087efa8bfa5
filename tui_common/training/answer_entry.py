"""Typing an answer, the same on the drill screen and on a graded table's prompt line.

A choice takes one key; a payout is ``c`` (collect), ``d`` (return) or an amount then
enter; a number is digits then enter; cards are marked by position (1–7) then enter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

from shared.training.core import AnswerKind, Question
from tui_common.training.text import tr

RED_SUITS = r"\S+[♥♦]"


def card_text(text: str, style: str = "") -> Text:
    """Red suits in red, as on the cloth."""
    out = Text(text, style=style)
    out.highlight_regex(RED_SUITS, "bold red")
    return out


@dataclass
class AnswerEntry:
    typed: str = ""
    marked: list[int] = field(default_factory=list)
    note: str = ""
    """Why the last key did not submit (need five cards), in the interface language."""

    def clear(self) -> None:
        self.typed = ""
        self.marked = []
        self.note = ""

    def press(self, question: Question, key: str, character: str | None, lang: str) -> tuple[bool, str | None]:
        """(taken, text to submit or None)."""
        char = (character or "").lower()
        self.note = ""
        kind = question.answer_kind
        if kind is AnswerKind.CHOICE:
            return (True, char) if char and char.isprintable() and not char.isspace() else (False, None)
        if kind is AnswerKind.CARDS:
            return self._cards(question, key, char, lang)
        if kind is AnswerKind.PAYOUT and char in ("c", "d"):
            return True, char
        decimal = kind is AnswerKind.PAYOUT and char in (",", ".") and self.typed and not any(p in self.typed for p in ",.")
        if char.isdigit() or decimal:
            self.typed += char
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "enter" and self.typed:
            return True, self.typed
        else:
            return False, None
        return True, None

    def _cards(self, question: Question, key: str, char: str, lang: str) -> tuple[bool, str | None]:
        if char.isdigit() and 1 <= int(char) <= len(question.cards):
            pos = int(char) - 1
            if pos in self.marked:
                self.marked.remove(pos)
            elif len(self.marked) < 5:
                self.marked.append(pos)
        elif key == "backspace" and self.marked:
            self.marked.pop()
        elif key == "enter":
            if len(self.marked) == 5:
                return True, "".join(str(p + 1) for p in sorted(self.marked))
            self.note = tr("need_five", lang)
        else:
            return False, None
        return True, None

    def render(self, question: Question | None, lang: str) -> Text:
        """What has been typed so far (an amount, a number, the cards marked), and the note."""
        text = Text()
        if question is not None and question.answer_kind in (AnswerKind.PAYOUT, AnswerKind.NUMBER):
            key = "typed" if question.answer_kind is AnswerKind.PAYOUT else "typed_number"
            text.append(tr(key, lang, amount=self.typed + "▏"))
        elif question is not None and question.answer_kind is AnswerKind.CARDS:
            chosen = "  ".join(f"{i + 1}:{question.cards[i].display}" for i in sorted(self.marked)) or "—"
            text = card_text(tr("selected", lang, cards=chosen) + f"  ({len(self.marked)}/5)")
        if self.note:
            text.append("   " + self.note, style="bold red")
        return text


def options_text(question: Question, lang: str, width: int | None = None, indent: int = 0) -> Text:
    """The keys that answer a question, each as it is labelled. Given the ``width`` of the
    rows (the first one starting ``indent`` columns in), a row ends between two options, never
    inside one: Rich breaks at any space, the no-break space too («3» ended a row at 100
    columns and «Trío» began the next)."""
    options = [(f" {o.key} ", " " + o.label.render(lang).replace(" ", "\u00a0")) for o in question.options]
    if question.answer_kind is AnswerKind.CARDS:
        options = []
    if question.answer_kind in (AnswerKind.PAYOUT, AnswerKind.NUMBER):
        key = "answer_amount" if question.answer_kind is AnswerKind.PAYOUT else "answer_number"
        options.append((" 0–9 ", " " + tr(key, lang)))
    out = Text()
    column = indent
    for key_text, label in options:
        size = len(key_text) + len(label)
        if out and width is not None and column + 3 + size > width:
            out.append("\n" + " " * indent)
            column = indent
        elif out:
            out.append("   ")
            column += 3
        out.append(key_text, style="bold reverse")
        out.append(label)
        column += size
    return out
