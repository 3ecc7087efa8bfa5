"""``TableApp``: the Textual app base both consoles extend.

It owns what every table shares — the start-up sequence (first-run enrolment, shift
sign-in, recovery notice), the global keys (F1 help, F2 supervisor panel, F3 recall,
ctrl+q quit with confirmation during a round), the message line and the training banner
— and leaves the game to the subclass, which supplies:

- ``make_table_screen()`` — the game's main screen; it composes a ``MessageLine`` (and a
  ``TrainingBanner`` when ``self.training``; ``table_widgets()`` yields both);
- optionally ``describe_entry(entry)``: a supervisor's journal entry as the F2 panel confirms it
  (the panel's lines and their one dispatch are the engine's command table's, ``shared.commands``);
- ``refresh_table()`` — redraw from the engine after each command;
- ``KEYS`` — the game's key table (``tui_common.keys``: each key by the engine command it
  runs) and ``BINDINGS = [*KEYS.bindings, *TableApp.BINDINGS]``: with the base's, the console's
  one key table. Every binding has an id (``set_keymap`` remaps it) and its words rendered in
  the console's language when the app is built; ``check_action`` asks the key's declaration
  (one of its commands in ``legal()``, the engine's, and its ``when``). A binding with a
  ``description`` is a line of the key bar (when ``show``n and allowed) and of F1 help;
- optionally ``describe_event(event, lang)`` for the recall screen;
- ``place_amount(tag, amount)`` — the engine command for an amount typed into the table's
  ``AmountEntry`` (opened with ``open_amount(label, tag)``), and ``last_amount(tag)``, the
  amount ``enter`` places when nothing is typed (the box's amount of that bet in the last
  round: the engine's record);
- optionally ``unbound_key(key, character)`` (a key nothing takes now; by default the
  message line says the key does nothing now and what ``prompt_text(lang)``, the engine's
  prompt, expects).

Letter keys are case-insensitive: a binding of ``k`` also takes ``K`` (caps lock or shift
must never turn a card into a silently dropped key).

On the table screen every key is handled by ``on_event`` itself, one at a time in the
order typed (``key_path``). A key that runs its command as it is names ``run('<command>')``;
other game commands go through ``command(fn, *args)``, which calls the engine, shows a
refusal on the message line (typed input untouched) or refreshes the table.

The app holds its collaborators, each in its own module: ``startup`` (who is at the table:
start-up, the PIN after a relaunch, F4), ``panel`` (F2's flow, ``panel_flow``), ``amounts``
(the amount entry), ``graded_keys`` and ``key_path``; they see the app as a ``Console``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import signal
import sys
from collections.abc import Callable, Iterator
from datetime import tzinfo
from decimal import Decimal
from pathlib import Path
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import events
from textual.actions import parse
from textual.app import App
from textual.binding import Binding, Keymap
from textual.screen import Screen
from textual.widget import Widget

from shared import record
from shared.anchor import AnchorWriter, anchor_url
from shared.config import TableFile
from shared.engine import EntryUndone, TableEngine
from shared.errors import ConsoleError, InputError, JournalWriteError, os_reason
from shared.events import ClockCorrected, utc_seconds
from shared.journal import Event, Journal, format_event
from shared.messages import Msg, Written, langs
from shared.staff import StaffRegistry
from shared.table_file import open_table
from shared.text import printable
from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.i18n import input_error, t
from tui_common import collector, parsed_css
from tui_common.amounts import Amounts
from tui_common.graded_keys import GradedKeys, function_key
from tui_common.key_path import KeyPath
from tui_common.keys import Key, KeyTable
from tui_common.panel_flow import SupervisorFlow
from tui_common.startup import StartUp
from tui_common.options import LaunchOptions
from tui_common.widgets.message_line import MessageLine
from tui_common.widgets.training_banner import TrainingBanner

if TYPE_CHECKING:
    from shared.config import TableConfig
    from shared.training.core import Question
    from tui_common.training.context import TrainingContext
    from tui_common.training.graded import GradedTable
    from tui_common.supervisor import SupervisorResult

# The screens are imported where they are pushed: their widgets (Input, OptionList) are not
# needed to draw the table, and launch time counts (console.md: usable well under a second).

BASE_CSS = Path(__file__).with_name("base.tcss")
T = TypeVar("T")

# Textual's tab and shift+tab.
FOCUS_ACTIONS = frozenset({"focus_next", "focus_previous"})

def _amount_open(app: TableApp) -> bool:
    return app.amounts.is_open()


def _question_waits(app: TableApp) -> bool:
    return app.graded is not None and app.graded.question is not None


# The keys every table has, after the game's on the key bar (the modal screens guard themselves).
BASE_KEYS = KeyTable([
    Key("enter", (), "entry_accept", "entry_accept", when=_amount_open, over_question=True),
    Key("escape", (), "entry_cancel", "entry_cancel", display="esc", when=_amount_open, over_question=True),
    Key("question_mark", (), "hint", "graded_hint", display="?", when=_question_waits, over_question=True,
        training_only=True),
    Key("f1", (), "help", "help", display="F1", over_question=True),
    Key("f2", (), "supervisor", "supervisor", display="F2", priority=True, over_question=True),
    Key("f3", (), "recall", "recall", display="F3", over_question=True),
    # Listed by F1 help, not on the key bar (the shift changes a few times a day, not a round).
    Key("f4", (), "shift", "shift_key", display="F4", show=False, over_question=True),
    Key("ctrl+q", (), "quit_table", "quit", display="ctrl+q", priority=True, over_question=True, id="quit"),
])


def key_name(key: str) -> str:
    """A key as the console's key bar and help write it: «F5», «ctrl+z», «enter», «esc»."""
    if function_key(key):
        return key.upper()
    return "esc" if key == "escape" else key


PRELOAD_SECONDS = 1.0
"""What a launch leaves out of its path (``TableApp.PRELOAD``, the records' ``__init__``
compiled at their first instance: ``shared.record.compile_waiting``, the CSS variables' tokens:
``parsed_css.tokenize_variables``, Textual's parse of the keys' actions: ``keys.parse_action``)
is loaded this long after the table is up, in a thread: not on the launch's path, nor on the
first key that needs it."""


class TableApp(App[None]):
    PRELOAD: ClassVar[tuple[str, ...]] = (
        "shared.report",  # the tray's ledger, a shift's close
        "shared.journal.archive",  # a gaming day's close
        "tui_common.screens.form",  # the PIN a relaunch asks at its first key
        "tui_common.screens.supervisor",  # F2
    )
    """Modules the first frame does not need and a key will (``PRELOAD_SECONDS``)."""
    CSS_PATH = [BASE_CSS]
    ENABLE_COMMAND_PALETTE = False
    # A game app lists its own keys' bindings first (``[*KEYS.bindings, *TableApp.BINDINGS]``):
    # Textual lets a subclass's bindings of a key replace the base's, and enter and esc are
    # bound by both.
    KEYS: ClassVar[KeyTable] = BASE_KEYS
    BINDINGS = BASE_KEYS.bindings

    def __init__(
        self,
        engine: TableEngine,
        *,
        lang: str = "es",
        training: bool = False,
        seed: int | None = None,
        recall_rounds: int = 10,
        tz: tzinfo | None = None,
        graded: GradedTable | None = None,
    ) -> None:
        """``tz``: the time zone of the recall screen's times (None: the machine's local time);
        ``graded``: a graded training table (questions before the console shows the answers)."""
        # What is alive when the first console is built (modules, Textual's
        # classes and tables, the restored engine) lives as long as the process: frozen, the
        # cyclic collector stops walking it again while the first screen is composed (~15 ms
        # of launch). Once per process, so apps built later (tests) freeze nothing more.
        if not gc.get_freeze_count():
            gc.freeze()
        super().__init__()
        parsed_css.use_shipped(self.stylesheet)
        self.engine = engine
        # A closed round's snapshot is saved once the key's frame is drawn, not before it.
        engine.snapshot_later = self.call_after_refresh
        self.lang = lang
        # Each key's words in this console's language, once (what Textual's own key displays read).
        keys = self._bindings.key_to_bindings
        for key, bound in keys.items():
            keys[key] = [replace(b, description=self.t(b.description)) if b.description else b for b in bound]
        tables = [vars(cls)["KEYS"] for cls in reversed(type(self).__mro__) if "KEYS" in vars(cls)]
        self.key_gates: dict[tuple[str, tuple[object, ...]], Key] = {
            gate: key for table in tables for gate, key in table.gates.items()}
        """A key's action and parameters → its ``Key`` (the gate ``check_action`` asks)."""
        self.key_actions: dict[str, tuple[str, tuple[object, ...]]] = {
            action: parsed for table in tables for action, parsed in table.actions.items()}
        """A key's action → its name and parameters, as Textual parses it (``keys.parse_action``)."""
        self._legal: tuple[int, frozenset[str]] | None = None
        self.training = training
        self.seed = seed
        self.recall_rounds = recall_rounds
        self.tz = tz
        self.table_screen: Screen[None] | None = None
        self.collector = collector.BetweenKeys()
        self.last_supervisor: SupervisorResult | None = None
        self.graded = graded
        # A croupier restored from the journal (a relaunch) confirms the PIN before dealing.
        self.duty_confirmed = training or engine.croupier is None
        # Its collaborators: who is at the table, F2's flow, the amount entry, the key path.
        self.startup = StartUp(self)
        self.panel = SupervisorFlow(self, tz)
        self.amounts = Amounts(self)
        self.graded_keys = GradedKeys(self)
        self.key_path = KeyPath(self, self.startup, self.amounts, self.graded_keys)
        last_step = engine.journal.last_event_of(ClockCorrected.type)
        self._clock_seen = 0 if last_step is None else last_step.seq
        """The newest clock correction the croupier was shown (or that was journaled before this
        console was built: a launch's own ``console_started`` may journal one to show)."""

    # --- hooks for the game app ---------------------------------------------------------

    def make_table_screen(self) -> Screen[None]:
        raise NotImplementedError

    def game_action_allowed(self, action: str, parameters: tuple[object, ...], key: Key | None) -> bool | None:
        """Whether a game's key works now (True shown, None dimmed, False hidden): its
        declaration ``key``'s answer (``check_action`` looked it up); an action no key declares
        is left to Textual."""
        return True if key is None else key.allowed(self)

    def legal(self) -> frozenset[str]:
        """The engine's legal commands, asked once per journal entry (keys ask many times a frame)."""
        seq = self.engine.applied_seq
        if self._legal is None or self._legal[0] != seq:
            self._legal = (seq, self.engine.legal_actions())
        return self._legal[1]

    def describe_entry(self, entry: Event) -> str:
        """A supervisor's journal entry in the words of the panel's confirmation."""
        return format_event(entry, self.lang, tz=self.tz)

    def refresh_table(self) -> None:
        """Redraw the table from the engine's state (after every command)."""

    def clock_notice(self) -> None:
        """Show the croupier, once, a clock set back since the last look: the journal recorded
        it (``clock_corrected``) before the entry it stamped. Each game's ``refresh_table``
        calls it, so the notice follows whatever command met the step back."""
        step = self.engine.journal.last_event_of(ClockCorrected.type)
        if step is None or step.seq <= self._clock_seen:
            return
        from tui_common.screens.notice import NoticeScreen

        self._clock_seen = step.seq
        body = self.t("clock_text", previous=utc_seconds(step.payload["previous"]), now=utc_seconds(step.payload["now"]),
                      seq=step.seq)
        self.push_screen(NoticeScreen(self.t("clock_title"), body, self.lang, id="clock-notice"))

    def key_table(self) -> list[Binding]:
        """Every binding of the console, the game's first: the order of the key bar and F1."""
        # A game's BINDINGS repeat the base's: each binding once, where it first comes (a dict
        # keeps the order; a list's ``in`` compared dataclasses field by field, ~7 M instructions).
        table: dict[Binding, None] = {}
        for cls in type(self).__mro__:
            if issubclass(cls, TableApp):
                table |= {b: None for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding) and b not in table
                          and self._at_this_table(b)}
        return list(table)

    def _at_this_table(self, binding: Binding) -> bool:
        """A live table has no training table's own key (its deal, the graded hint)."""
        key = self.key_gates.get(self.parsed_action(binding.action))
        return self.training or key is None or not key.training_only

    def parsed_action(self, action: str) -> tuple[str, tuple[object, ...]]:
        """A binding's action name and parameters: its key table's reading (``key_actions``),
        else Textual's (a binding no key table declares)."""
        return self.key_actions.get(action) or parse(action)[1:]

    def set_keymap(self, keymap: Keymap) -> None:
        # Textual takes every binding off a key one of them moves off (Madero's «a»: the Ante
        # and a card's rank): the others are mapped to the key they have, so they keep it.
        moved = self._normalize_keymap(keymap)
        kept = {binding.id: key for key, bound in self._bindings.key_to_bindings.items()
                if any(binding.id in moved for binding in bound)
                for binding in bound if binding.id is not None and binding.id not in moved}
        super().set_keymap({**kept, **moved})

    def update_keymap(self, keymap: Keymap) -> None:
        self.set_keymap({**self._keymap, **keymap})

    def get_key_display(self, binding: Binding) -> str:
        remapped = self._keymap.get(binding.id) if binding.id else None
        if remapped and remapped != binding.key:  # set_keymap moved the key: the key bar and F1 say the key it is now
            return key_name(remapped.split(",")[0])
        return self.unmoved_key_display(binding)

    def unmoved_key_display(self, binding: Binding) -> str:
        """A key where its declaration put it, as the key bar and F1 write it."""
        return binding.key_display or binding.key

    def describe_event(self, event: Event, lang: str) -> str:
        return format_event(event, lang, tz=self.tz)

    def place_amount(self, tag: Any, amount: Decimal) -> None:
        """The engine command for ``amount`` typed for ``tag`` (raises the engine's refusal)."""
        raise NotImplementedError

    def last_amount(self, tag: Any) -> Decimal | None:
        """What ``enter`` on the open entry for ``tag`` places when nothing is typed (None: nothing)."""
        return None

    def unbound_key(self, key: str, character: str | None) -> None:
        """A key no entry and no allowed binding takes: say why, or what the phase expects.

        A croupier who types a card while a decision is due, or presses enter, an unused
        function key or undo when nothing can be undone, must not be met with silence.
        """
        if key == "ctrl+z" and self.command(self.engine.verify_undo) is None:
            return  # what cannot be undone now, and why (or what the table waits for)
        if not self.training and self.engine.croupier is None:
            self.show_error(input_error("no_one_on_duty"))
            return
        shown = character if character and character.isprintable() else key_name(key)
        prompt = Written.of(**{lang: self.prompt_text(lang) for lang in langs()})
        self.show_error(InputError(Msg.of("ui.key_not_now", key=shown, prompt=prompt)))

    def prompt_text(self, lang: str) -> str:
        """What the phase expects now, in ``lang`` (the engine's prompt)."""
        return ""

    def table_in_front(self) -> bool:
        """Whether the table screen is the one shown. A timer's tick can come as the console
        quits, its screens already popped, where ``self.screen`` raises."""
        stack = self.screen_stack
        return bool(stack) and self.table_screen is not None and stack[-1] is self.table_screen

    # --- the amount entry ---------------------------------------------------------------------

    def open_amount(self, label: str, tag: Any, *, single_digit: bool = False) -> None:
        """Open the amount entry for ``tag`` (``Amounts.open``: an amount already typed is placed first)."""
        self.amounts.open(label, tag, single_digit=single_digit)

    def action_entry_accept(self) -> None:
        self.amounts.accept()

    def action_entry_cancel(self) -> None:
        self.amounts.cancel()

    # --- keys on the table ------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.collector.key()
            for key in self.key_path.split_alt(event):
                if not await self.key_path.route(key):
                    await super().on_event(key)
            return
        await super().on_event(event)

    # --- a graded table ---------------------------------------------------------------------

    def graded_question(self) -> Question | None:
        """The question a graded table waits for now (None: nothing to hide). The game's
        ``refresh_table`` asks first, so every moment the table reaches is caught."""
        if self.graded is None:
            return None
        return self.graded.observe(self.engine)

    def action_hint(self) -> None:
        self.graded_keys.hint()

    # --- pieces for the game's screens ----------------------------------------------------

    def table_widgets(self) -> Iterator[Widget]:
        """The shared widgets a table screen composes: the training banner (in training)."""
        if self.training:
            yield TrainingBanner(self.lang, self.seed)

    def prompt_area(self, prompt: Widget) -> Widget:
        """Where a table screen puts its prompt line: in place, or at a graded table docked at
        the bottom with the line of grades under it, so the question and its grade stay in
        view on any terminal."""
        if self.graded is None:
            return prompt
        from textual.containers import Vertical

        from tui_common.training.graded import GradeLine

        line = GradeLine(id="grade-line")
        line.show_grade(self.graded)
        return Vertical(prompt, line, id="graded-panel")

    def t(self, key: str, /, **values: object) -> str:
        return t(key, self.lang, **values)

    @property
    def message_line(self) -> MessageLine:
        assert self.table_screen is not None
        return self.table_screen.query_one(MessageLine)

    def show_error(self, error: ConsoleError) -> None:
        self.message_line.show_error(error)
        if isinstance(error, JournalWriteError):
            from tui_common.screens.notice import NoticeScreen

            # What failed and what to do take more than the message line holds beside an entry.
            self.push_screen(NoticeScreen(self.t("journal_write_title"), error.message(self.lang), self.lang,
                                          id="journal-write-failed"))

    def show_info(self, message: str) -> None:
        self.message_line.show_info(message)

    def command(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T | None:
        """Run one engine command; on refusal show it and return None, else refresh and return its value."""
        try:
            result = fn(*args, **kwargs)
        except ConsoleError as error:
            self.show_error(error)
            return None
        self.message_line.clear()
        due = self.engine.tray.fill_due()
        if due is not None:  # the tray is running short: the line asks for a fill until there is one
            self.show_info(due.render(self.lang))
        self.refresh_table()
        return result

    # --- start-up -------------------------------------------------------------------------

    def on_mount(self) -> None:
        # A subclass's own on_mount must not call super(): Textual calls this one too.
        if not self.is_headless:
            # A killed console (SIGTERM, a closed terminal) leaves like ctrl+q: the terminal is restored.
            loop = asyncio.get_running_loop()
            for number in (signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(number, self.exit)
        if self.engine.anchor is not None:
            self.engine.anchor.on_failure = self._anchor_failed
        self.set_interval(collector.QUIET / 2, self.collector.tick)
        self.set_timer(PRELOAD_SECONDS, self._preload)
        self.call_after_refresh(collector.BetweenKeys.launched)
        self.startup.begin()

    def on_unmount(self) -> None:
        self.collector.stop()

    def _preload(self) -> None:
        self.run_worker(self.load_later, thread=True, exit_on_error=False)

    def load_later(self) -> None:
        """``PRELOAD_SECONDS`` after the mount, in a thread: what the launch left out of its path."""
        # An import that fails here stops the rest; it fails again, and is shown, where it is needed.
        for name in self.PRELOAD:
            importlib.import_module(name)
        record.compile_waiting()
        parsed_css.tokenize_variables(self.stylesheet)
        for action in self.key_actions:
            parse(action)  # Textual's own, cached where a key's press reads it

    def get_default_screen(self) -> Screen[None]:
        # The table is the screen at the bottom of the stack (Textual's blank default screen
        # under it was composed, styled and resumed for nothing at every launch).
        self.table_screen = self.make_table_screen()
        return self.table_screen

    def _anchor_failed(self, why: Msg) -> None:
        """The anchor server did not take the table's head (told from its writer's thread, once
        until a write succeeds): a notice that leaves the keys alone; the next close tries again."""
        if not self.is_running:
            return
        with contextlib.suppress(RuntimeError):  # the console quit as the answer came
            self.call_from_thread(self.notify, why.render(self.lang), severity="warning", timeout=20, markup=False)

    # --- shared keys -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in FOCUS_ACTIONS:
            # The table has no fields to move between (its entries take focus as they open):
            # tab there is a key like any other, answered; a dialog's tab moves on.
            return not self.table_in_front()
        key = self.key_gates.get((action, parameters))
        if key is not None and key.over_question:
            return key.allowed(self)
        if _question_waits(self):
            return False  # a graded table's question waits: only the hint and the base's keys
        return self.game_action_allowed(action, parameters, key)

    def action_run(self, command: str) -> None:
        """A key that runs its engine command as it is (no arguments): the command table's."""
        self.command(self.engine.command_table()[command].run, self.engine)

    def action_undo(self) -> None:
        """Take back the open round's last entry and say which (the croupier sees what went)."""
        recorded = self.command(self.engine.undo)
        if not recorded:
            return
        (undone,) = recorded
        assert isinstance(undone, EntryUndone)
        taken = self.engine.journal.event(undone.seq)
        what = self.describe_event(taken, self.lang) if taken is not None else f"#{undone.seq}"
        self.show_info(self.t("undone", what=what))

    def action_help(self) -> None:
        from tui_common.screens.notice import HelpScreen

        self.push_screen(HelpScreen(self.lang))

    def action_shift(self) -> None:
        self.startup.shift()

    def action_supervisor(self) -> None:
        self.panel.open()

    def action_recall(self) -> None:
        from tui_common.screens.recall import RecallScreen

        self.push_screen(
            RecallScreen(self.engine.journal, self.lang, rounds=self.recall_rounds, describe=self.describe_event,
                         banner=list(self.table_widgets()))
        )

    def action_quit_table(self) -> None:
        from tui_common.screens.notice import ConfirmScreen

        if isinstance(self.screen, ConfirmScreen) and self.screen.id == "quit-confirm":
            self.exit()  # ctrl+q again answers the question
            return
        if self.graded_keys.finish():
            return
        if not self.engine.round_open:
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmScreen(self.t("quit_confirm"), self.lang, title=self.t("quit_title"), id="quit-confirm"),
                         answered)


E = TypeVar("E", bound=TableEngine)
C = TypeVar("C", bound="TableConfig")

# Each game's moments of a graded table (imported only for a graded session).
_GRADED_MOMENTS = {"madero": ("shared.training.madero_dealing", "madero_moments"),
                   "midi": ("shared.training.midi_dealing", "midi_moments")}


def open_console(
    game: str,
    kind: type[C],
    default: C,
    options: LaunchOptions,
    build: Callable[[Journal, StaffRegistry | None, C, TableFile | None], E],
    *,
    config: C | None = None,
    training_context: TrainingContext | None = None,
    **journal_options: Any,
) -> tuple[E, GradedTable | None]:
    """What both games' ``make_app`` open: the table's journal, the engine ``build`` makes on
    it (with the staff registry of a live table) and, at a graded table, the graded session.

    ``config`` (tests) overrides ``options.table``. Whatever refuses to start, the journal
    opened here is closed again (its writer lock released) before the refusal goes on.
    """
    file = None if options.table is None else TableFile.read(options.table)  # read once: the table, its servers
    config, journal = open_table(game, kind, default, table=file, db=options.db,
                                 training=options.training, config=config, **journal_options)
    try:
        engine = build(journal, None if options.training else StaffRegistry(journal), config, file)
        url = None if options.training else anchor_url(file)
        if url is not None:
            engine.anchor = AnchorWriter(url, journal.table_id, journal.identity)
        graded = None
        if options.training and options.graded:
            import importlib

            from tui_common.training.graded import graded_table

            module, name = _GRADED_MOMENTS[game]
            graded = graded_table(game, getattr(importlib.import_module(module), name), options, training_context)
        return engine, graded
    except BaseException:
        journal.close()
        raise


def run_console(make: Callable[[], TableApp], lang: str) -> int:
    """Launch a console: a launch refused (a broken journal, another console on it, a table
    file or journal folder that cannot be read) says why on stderr and exits 2; a live table's
    launch and close are journaled (``console_started``, ``console_closed``); however the app
    ends, a graded session is saved, the head still being written to the anchor server given a
    moment (``AnchorWriter.close``) and the journal closed."""
    try:
        app = make()
    except ConsoleError as error:
        print(printable(error.message(lang), newlines=True), file=sys.stderr)
        return 2
    except OSError as error:
        print(printable(t("launch_os_error", lang, path=error.filename, reason=os_reason(error))), file=sys.stderr)
        return 2
    live = not app.engine.journal.training
    try:
        if live:  # every launch of a live table is journaled, saying how the last session ended
            try:
                app.engine.shift.console_started()
            except ConsoleError as error:
                print(printable(error.message(lang), newlines=True), file=sys.stderr)
                return 2
        app.run()
        if live:
            app.engine.shift.console_closed()
    finally:
        if app.graded is not None:
            app.graded.save()  # a session left without its score card is kept all the same
            app.graded.context.store.close()
        if app.engine.anchor is not None:
            app.engine.anchor.close()
        app.engine.journal.close()
    return app.return_code or 0  # 2: the app ended refusing the table (a Carrusel's server did)
