"""A console's keys, declared once per game by the engine command each key runs.

A ``Key`` names the key, the engine command(s) whose legality decides whether it works now
(``legal_actions()``: the engine's command table), the app action it runs (by default
``run('<command>')``: the command itself, with no arguments) and its words (by default the
command's own catalog key). ``KeyTable`` derives from the keys, once, the Textual
``Binding``s — each with an ``id``, so ``App.set_keymap`` can remap it — and the gate the
app's ``check_action`` asks: a key's action and parameters → its ``Key``.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Any

from textual.binding import Binding, BindingType

from shared.commands import CommandTable
from shared.record import record


@record
class Key:
    """One key: ``key`` runs ``action`` when one of ``command`` is legal now and ``when`` holds."""

    key: str
    command: str | tuple[str, ...] = ()
    """The engine command id(s) the key follows (none: the key follows ``when`` alone)."""
    action: str = ""
    """The app's action with its parameters; empty: ``run('<command>')``."""
    label: str | None = None
    """Its catalog key (``ui``); None: the command's own; empty: a key with no line of its
    own on the key bar and in F1 help (another key's alias: the digits after «1»)."""
    display: str | None = None
    show: bool = True
    """On the key bar when allowed (F1 help lists it either way)."""
    priority: bool = False
    when: Callable[[Any], bool] | None = None
    """What must also hold, asked of the app (the table's own settings, the selected box)."""
    over_question: bool = False
    """Works while a graded table's question waits (the base's keys); a game's key does not."""
    id: str = ""
    """The binding's id (``set_keymap``); empty: derived from the action."""
    training_only: bool = False
    """A training table's own key (its deal, the graded hint): a live table's F1 help leaves it out."""

    @cached_property  # asked by every binding check, dozens a key
    def commands(self) -> frozenset[str]:
        return frozenset((self.command,) if isinstance(self.command, str) else self.command)

    def app_action(self) -> str:
        if self.action:
            return self.action
        assert isinstance(self.command, str), f"{self.key}: a key of several commands names its action"
        return f"run('{self.command}')"

    def allowed(self, app: Any) -> bool:
        """Whether the key works now: one of its commands legal (``app.legal()``), and ``when``."""
        commands = self.commands
        if commands and commands.isdisjoint(app.legal()):
            return False
        return self.when is None or self.when(app)


def parse_action(action: str) -> tuple[str, tuple[object, ...]]:
    """A key's action as Textual reads it (``textual.actions.parse``: its name and arguments),
    for the one form a key table declares: a name, then integers and quoted words in brackets.

    Textual reads the arguments with Python's parser (``ast.literal_eval``), ~40,000
    instructions a key at every launch; a key table's actions are read here with string
    methods (compiling a regular expression costs as much), and another form is refused where
    it is declared. Textual's own parse, cached, is run after the first frame
    (``TableApp.PRELOAD``), so a key's first press does not pay it."""
    name, bracket, rest = action.partition("(")
    inside = rest.removesuffix(")")
    if not name.isidentifier() or (bracket and inside == rest):
        raise _not_declarable(action)
    return name, tuple(_argument(action, text) for text in inside.split(",")) if inside.strip() else ()


def _argument(action: str, text: str) -> object:
    text = text.strip()
    word = text[1:-1]
    if len(text) > 1 and text[0] == text[-1] == "'" and "'" not in word and "\\" not in word:
        return word
    digits = text.removeprefix("-")
    if digits.isascii() and digits.isdigit() and (digits == "0" or digits[0] != "0"):
        return int(text)
    raise _not_declarable(action)


def _not_declarable(action: str) -> ValueError:
    return ValueError(f"action {action!r}: a key table's action is a name, then integers and 'words' in brackets")


def alias(key: str, command: str | tuple[str, ...], action: str, **options: Any) -> Key:
    """A further key doing what a described key does (no line of its own, not on the key bar)."""
    return Key(key, command, action, label="", show=False, **options)


class KeyTable:
    """The bindings and gates of ``keys``; labels left to the command come from ``commands``."""

    def __init__(self, keys: Iterable[Key], commands: CommandTable | None = None) -> None:
        self.keys = tuple(keys)
        self.bindings: list[BindingType] = []
        self.gates: dict[tuple[str, tuple[object, ...]], Key] = {}
        self.actions: dict[str, tuple[str, tuple[object, ...]]] = {}
        """Each key's action → its name and arguments (``parse_action``)."""
        ids: set[str] = set()
        declared = frozenset(c.id for c in commands) if commands is not None else frozenset()
        for key in self.keys:
            if key.commands - declared:
                raise ValueError(f"key {key.key}: no such command {sorted(key.commands - declared)}")
            if commands is not None and key.commands and not any(commands[c].live for c in key.commands):
                assert key.training_only, f"key {key.key}: its commands are a training table's alone"
            action = key.app_action()
            parsed = self.actions[action] = parse_action(action)
            known = self.gates.setdefault(parsed, key)
            # Two keys of one action (0 and t: a baccarat ten) must be allowed alike.
            assert (known.commands, known.when, known.over_question) == (key.commands, key.when, key.over_question), action
            binding_id = key.id or _binding_id(action)
            if binding_id in ids:  # the same action on another key
                binding_id = f"{binding_id}_{_binding_id(key.key)}"
            ids.add(binding_id)
            self.bindings.append(Binding(key.key, action, self._label(key, commands), show=key.show,
                                         key_display=key.display, priority=key.priority, id=binding_id))

    @staticmethod
    def _label(key: Key, commands: CommandTable | None) -> str:
        if key.label is not None:
            return key.label
        if commands is None or not isinstance(key.command, str):
            raise ValueError(f"key {key.key}: no words (a label, or the one command whose label it is)")
        return commands[key.command].label


def _binding_id(text: str) -> str:
    """``select_box(2)`` → ``select_box_2``; ``run('deal')`` → ``deal``; ``ctrl+r`` → ``ctrl_r``
    (with string methods: see ``parse_action``)."""
    command = text.removeprefix("run('").removesuffix("')")
    if len(command) == len(text) - 7 and command.isidentifier():
        return command
    return "_".join(text.translate(_NOT_IN_IDS).split())


_NOT_IN_IDS = str.maketrans(dict.fromkeys(string.punctuation.replace("_", ""), " "))
"""What ends a word of a binding's id (an action's brackets, quotes and commas, a key's «+»)."""
