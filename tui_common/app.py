"""``TableApp``: the Textual app base both consoles extend.

It owns what every table shares — the start-up sequence (first-run enrolment, shift
sign-in, recovery notice), the global keys (F1 help, F2 supervisor panel, F3 recall,
ctrl+q quit with confirmation during a round), the message line and the training banner
— and leaves the game to the subclass, which supplies:

- ``make_table_screen()`` — the game's main screen; it composes a ``MessageLine`` (and a
  ``TrainingBanner`` when ``self.training``; ``table_widgets()`` yields both);
- ``game_action_allowed(action, parameters)`` — the engine's answer for a game binding
  (True shown, None dimmed, False hidden); ``check_action`` delegates to it;
- optionally ``describe_entry(entry)``: a supervisor's journal entry as the F2 panel confirms it
  (the panel's lines and their one dispatch are the engine's command table's, ``shared.commands``);
- ``refresh_table()`` — redraw from the engine after each command;
- ``BINDINGS`` — the game's keys: with the base's, the console's one key table. A binding
  with a ``description`` (a catalog key) is a line of the key bar (when ``show``n and
  allowed) and of F1 help;
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
order typed, and resolved against the bindings allowed at that moment: Textual would hand
a key to whatever has focus when the key is read, before the previous key's action has
run, so "a 30 enter" typed in one burst sent the digits to the box selection instead of
the entry the ``a`` opened.

Game commands go through ``command(fn, *args)``, which calls the engine, shows a refusal
on the message line (typed input untouched) or refreshes the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import sys
from collections.abc import Awaitable, Callable, Iterator
from datetime import tzinfo
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget

from shared.anchor import AnchorWriter, anchor_url
from shared.base_events import BASE_CODEC, RoundClosed
from shared.engine import EntryUndone, TableEngine
from shared.errors import ConsoleError, InputError, JournalWriteError
from shared.events import ClockCorrected, GamingDayClosed, utc_seconds
from shared.journal import Event, Journal, format_event
from shared.money import fmt_money
from shared.report import base_reading
from shared.messages import Msg, Written, langs, text
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry
from shared.table_file import open_table
from shared.text import printable
from tui_common.i18n import input_error, t
from tui_common.options import LaunchOptions
from tui_common.screens.form import FormScreen
from tui_common.supervisor import SupervisorAction, SupervisorField, SupervisorRequest, SupervisorResult
from tui_common.widgets.amount_entry import AmountEntry, AmountKey
from tui_common.widgets.key_bar import KeyBar
from tui_common.widgets.message_line import MessageLine
from tui_common.widgets.training_banner import TrainingBanner

if TYPE_CHECKING:
    from shared.config import TableConfig
    from shared.training.core import Question
    from shared.tray import TrayLedger
    from tui_common.screens.enrol import Enrolment
    from tui_common.training.context import TrainingContext
    from tui_common.training.graded import GradedTable, GradeLine

# The screens are imported where they are pushed: their widgets (Input, OptionList) are not
# needed to draw the table, and launch time counts (console.md: usable well under a second).

BASE_CSS = Path(__file__).with_name("base.tcss")
T = TypeVar("T")

# Actions of the base that are always available (the modal screens guard themselves).
BASE_ACTIONS = frozenset({"help", "supervisor", "recall", "shift", "quit_table"})
# Keys that work before the croupier on duty has confirmed the PIN after a relaunch.
UNLOCKED_KEYS = frozenset({"f1", "f2", "f3", "f4", "ctrl+q"})
# A graded table: the hint is offered while a question waits (and nothing else of the game).
GRADED_ACTIONS = frozenset({"hint"})
# What Textual reads esc then a key as, typed within the escape delay, when it is not
# ``alt+key`` (textual/_ansi_sequences.py): none of these means anything at a table.
ESC_READINGS = {"ctrl+left": "b", "ctrl+right": "f",
                **{glyph: digit for glyph, digit in zip("¡™£¢∞§¶•ªº", "1234567890", strict=True)}}
# Textual's tab and shift+tab.
FOCUS_ACTIONS = frozenset({"focus_next", "focus_previous"})
# The open amount entry's enter and esc.
ENTRY_ACTIONS = frozenset({"entry_accept", "entry_cancel"})

# The staff registry's commands on F2 (the registry checks the supervisor, or for one's own PIN
# the person); the engine's commands come from its command table.
_STAFF_ID = SupervisorField("staff_id", "staff_target_id")
STAFF_ACTIONS = (
    SupervisorAction("staff_enrol", "sup_staff_enrol", (
        _STAFF_ID, SupervisorField("name", "name"), SupervisorField("role", "staff_role", "croupier / supervisor / instructor"),
        SupervisorField("pin", "staff_new_pin", secret=True), SupervisorField("pin2", "pin_repeat", secret=True))),
    SupervisorAction("staff_deactivate", "sup_staff_deactivate", (_STAFF_ID,)),
    SupervisorAction("staff_reset_pin", "sup_staff_reset_pin", (
        _STAFF_ID, SupervisorField("pin", "staff_temp_pin", secret=True))),
    SupervisorAction("staff_unlock", "sup_staff_unlock", (_STAFF_ID,)),
    SupervisorAction("own_pin", "sup_own_pin", (
        SupervisorField("pin", "staff_new_pin", secret=True), SupervisorField("pin2", "pin_repeat", secret=True)),
        needs_reason=False),
)
TRAY_COUNTS = frozenset({"tray_open", "tray_fill", "tray_credit"})


def _function_key(key: str) -> bool:
    return key[:1] == "f" and key[1:].isdigit()


def key_name(key: str) -> str:
    """A key as the console's key bar and help write it: «F5», «ctrl+z», «enter», «esc»."""
    if _function_key(key):
        return key.upper()
    return "esc" if key == "escape" else key


class TableApp(App[None]):
    CSS_PATH = [BASE_CSS]
    ENABLE_COMMAND_PALETTE = False
    # The keys every table has, after the game's on the key bar. A game app lists these after
    # its own (``[*game, *TableApp.BINDINGS]``): Textual lets a subclass's bindings of a key
    # replace the base's, and enter and esc are bound by both.
    BINDINGS = [
        Binding("enter", "entry_accept", "entry_accept"),
        Binding("escape", "entry_cancel", "entry_cancel", key_display="esc"),
        Binding("question_mark", "hint", "graded_hint", key_display="?", id="hint"),
        Binding("f1", "help", "help", key_display="F1", id="help"),
        Binding("f2", "supervisor", "supervisor", key_display="F2", priority=True, id="supervisor"),
        Binding("f3", "recall", "recall", key_display="F3", id="recall"),
        # Listed by F1 help, not on the key bar (the shift changes a few times a day, not a round).
        Binding("f4", "shift", "shift_key", key_display="F4", show=False, id="shift"),
        Binding("ctrl+q", "quit_table", "quit", key_display="ctrl+q", priority=True, id="quit"),
    ]

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
        self.engine = engine
        self.lang = lang
        self.training = training
        self.seed = seed
        self.recall_rounds = recall_rounds
        self.tz = tz
        self.table_screen: Screen[None] | None = None
        self._amount_entry: AmountEntry | None = None
        self.last_supervisor: SupervisorResult | None = None
        self.graded = graded
        # A croupier restored from the journal (a relaunch) confirms the PIN before dealing.
        self.duty_confirmed = training or engine.croupier is None
        self._after_panel: Callable[[], object] | None = None
        """What a supervisor action shows once its panel is closed (a report): set by the
        action, which runs in a worker thread, and shown from the event loop."""
        last_step = engine.journal.last_event_of(ClockCorrected.type)
        self._clock_seen = 0 if last_step is None else last_step.seq
        """The newest clock correction the croupier was shown (or that was journaled before this
        console was built: a launch's own ``console_started`` may journal one to show)."""

    # --- hooks for the game app ---------------------------------------------------------

    def make_table_screen(self) -> Screen[None]:
        raise NotImplementedError

    def game_action_allowed(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True

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
        table: list[Binding] = []
        for cls in type(self).__mro__:
            if issubclass(cls, TableApp):
                table += (b for b in cls.__dict__.get("BINDINGS", ()) if isinstance(b, Binding) and b not in table)
        return table

    def get_key_display(self, binding: Binding) -> str:
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

    # --- the amount entry -------------------------------------------------------------------

    def amount_entry(self) -> AmountEntry | None:
        """The table screen's amount entry, once the screen is mounted (None if it has none)."""
        screen = self.table_screen
        if screen is None or not screen.is_mounted:
            return None
        if self._amount_entry is None:
            # Looked up once: the bindings' checks ask for it dozens of times a key, and a
            # query walks the whole screen (about a tenth of a key's time).
            self._amount_entry = next(iter(screen.query(AmountEntry)), None)
        return self._amount_entry

    def amount_open(self) -> bool:
        """Whether an amount is being typed (the key bar then says enter / esc)."""
        entry = self.amount_entry()
        return entry is not None and entry.is_open

    def open_amount(self, label: str, tag: Any, *, single_digit: bool = False) -> None:
        """Open the amount entry for ``tag`` (whatever ``place_amount`` needs to know).

        An amount typed in the entry already open is placed first (``a 25 b 5``: two bets, no
        enter between them); if the engine refuses it, it stays typed and the entry stays.
        """
        entry = self.amount_entry()
        assert entry is not None and self.table_screen is not None
        if entry.is_open and entry.amount is not None:
            try:
                self.place_amount(entry.tag, entry.amount)
            except ConsoleError as error:
                self.show_error(error)
                return
            self.message_line.clear()
            self.refresh_table()
        repeat = self.last_amount(tag)
        if repeat:
            label += " " + self.t("amount_repeat", amount=fmt_money(repeat, lang=self.lang))
        entry.start(label, tag=tag, single_digit=single_digit)
        self.table_screen.query_one(KeyBar).refresh_hints()  # now enter / esc

    def _amount_key(self, key: str, character: str | None) -> bool:
        """A key typed into the open amount entry (the digit of a one-digit entry places it)."""
        entry = self.amount_entry()
        if entry is None or not entry.is_open:
            return False
        pressed = entry.press(key, character)
        if pressed is AmountKey.SUBMITTED:
            self.action_entry_accept()
        return pressed is not None

    def action_entry_accept(self) -> None:
        """Place the open amount (or the last pase's, when nothing is typed); a refused
        amount stays typed to be corrected."""
        entry = self.amount_entry()
        assert entry is not None
        amount = entry.amount if entry.amount is not None else self.last_amount(entry.tag)
        if amount is None:
            self.show_error(input_error("amount_missing"))
            return
        try:
            self.place_amount(entry.tag, amount)
        except ConsoleError as error:
            self.show_error(error)
            return
        entry.close()
        self.message_line.clear()
        self.refresh_table()

    def action_entry_cancel(self) -> None:
        entry = self.amount_entry()
        assert entry is not None
        entry.close()
        self.message_line.clear()
        self.refresh_table()

    # --- keys on the table ------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            for key in self._split_alt(event):
                if not await self._route_key(key):
                    await super().on_event(key)
            return
        await super().on_event(event)

    def _split_alt(self, event: events.Key) -> list[events.Key]:
        """``esc`` and a key typed within the terminal's escape delay (~50 ms) arrive as one
        key: ``alt+letter``, or what Textual reads ``ESC b``, ``ESC f`` and ``ESC digit`` as
        (word moves, macOS option glyphs). Unless the screen binds it, it is the two keys."""
        key = event.key
        following = ESC_READINGS.get(event.character or "") or ESC_READINGS.get(key)
        if following is None and key.startswith("alt+"):
            letter = key.removeprefix("alt+")
            following = letter.removeprefix("shift+").upper() if letter.startswith("shift+") else letter
        # The screen's bindings asked only for such a key: building them checks every action.
        if following is None or len(following) != 1 or key in self.screen.active_bindings:
            return [event]
        return [events.Key("escape", "\x1b"), events.Key(following, following)]

    async def _route_key(self, event: events.Key) -> bool:
        """One key to the screen it was typed for (False: left to Textual)."""
        screen = self.screen
        if event.key == "ctrl+q":
            # Here, not only as a binding: a modal screen (enrolment, sign-in) does not
            # see the app's bindings, and the way out must work from every screen.
            self.action_quit_table()
            return True
        if screen is self.table_screen and not self.duty_confirmed and event.key not in UNLOCKED_KEYS:
            self._confirm_on_duty(event)
            return True
        if screen is self.table_screen:
            await self._key_in_order(event, lambda: self._table_key(event), self.unbound_key)
            return True
        if isinstance(screen, FormScreen):
            await self._key_in_order(event, lambda: screen.take_key(event.key, event.character))
            return True
        return False

    async def _table_key(self, event: events.Key) -> bool:
        """A key the table screen's open question or amount entry takes."""
        return self._graded_key(event.key, event.character) or self._amount_key(event.key, event.character)

    async def _key_in_order(
        self,
        event: events.Key,
        take: Callable[[], Awaitable[bool]],
        unbound: Callable[[str, str | None], None] | None = None,
    ) -> None:
        """One key, finished (engine command, journal, redraw) before the next is read:
        a priority binding, else the screen's own taker ``take`` (an entry, a field), else the
        binding allowed now, else ``unbound``."""
        bindings = self.screen.active_bindings
        active = bindings.get(event.key)
        if active is None and len(event.key) == 1 and event.key.isupper():
            active = bindings.get(event.key.lower())
        allowed = active if active is not None and active.enabled else None
        if allowed is not None and allowed.binding.priority:
            await self.run_action(allowed.binding.action, allowed.node)
        elif await take():
            return
        elif allowed is not None:
            await self.run_action(allowed.binding.action, allowed.node)
        elif unbound is not None:
            unbound(event.key, event.character)

    # --- a graded table ---------------------------------------------------------------------

    def graded_question(self) -> Question | None:
        """The question a graded table waits for now (None: nothing to hide). The game's
        ``refresh_table`` asks first, so every moment the table reaches is caught."""
        if self.graded is None:
            return None
        return self.graded.observe(self.engine)

    def _graded_key(self, key: str, character: str | None) -> bool:
        """While a question waits every key answers it, but the hint, F-keys and priority keys."""
        graded = self.graded
        if graded is None or graded.question is None or key == "question_mark" or _function_key(key):
            return False
        taken, text = graded.entry.press(graded.question, key, character, self.lang)
        if not taken:
            self.show_info(t("graded_answer_first", self.lang))
            return True
        if text is not None and graded.submit(text) is not None:
            self._grade_line().show_grade(graded)
            self.message_line.clear()
        self.refresh_table()
        return True

    def _grade_line(self) -> GradeLine:
        from tui_common.training.graded import GradeLine

        assert self.table_screen is not None
        return self.table_screen.query_one(GradeLine)

    def action_hint(self) -> None:
        graded = self.graded
        if graded is None or graded.question is None:
            return
        self._grade_line().show_grade(graded, hint=graded.dealing.hint().render(self.lang))

    def _finish_graded(self) -> bool:
        """Store the graded session and show its score card; False if nothing was answered."""
        from tui_common.training.screens.score_card import ScoreCardScreen

        graded = self.graded
        if graded is None or graded.saved or not graded.dealing.grades:
            return False
        session_id = graded.save()
        card = graded.dealing.score_card()
        graded.context.leave = self.exit
        self.push_screen(ScoreCardScreen(graded.context, card, graded.last, card.game, card.drill,
                                         grades=graded.dealing.grades, session_id=session_id))
        return True

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
        due = self.engine.tray_fill_due()
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
        self.table_screen = self.make_table_screen()
        self.push_screen(self.table_screen)
        self._startup_steps = list(self._startup_plan())
        self._next_startup_step()

    def _anchor_failed(self, why: Msg) -> None:
        """The anchor server did not take the table's head (told from its writer's thread, once
        until a write succeeds): a notice that leaves the keys alone; the next close tries again."""
        if not self.is_running:
            return
        with contextlib.suppress(RuntimeError):  # the console quit as the answer came
            self.call_from_thread(self.notify, why.render(self.lang), severity="warning", timeout=20, markup=False)

    def _startup_plan(self) -> Iterator[Callable[[], None]]:
        staff = self.engine.staff
        if not self.training and staff is not None and not staff.has_supervisor():
            yield self._enrol_supervisor
        if not self.training and self.engine.croupier is None:
            yield self._sign_in
        if self.engine.recovered:
            yield self._recovery_notice

    def _next_startup_step(self) -> None:
        if self._startup_steps:
            self._startup_steps.pop(0)()
        else:
            self.refresh_table()

    def _step_done(self, _result: object = None) -> None:
        self._next_startup_step()

    def _recovery_notice(self) -> None:
        from tui_common.screens.notice import recovery_notice

        self.push_screen(recovery_notice(self.engine.round_id, self.lang), self._step_done)

    def _enrol_supervisor(self) -> None:
        from tui_common.screens.enrol import EnrolScreen

        staff = self.engine.staff
        assert staff is not None

        def enrol(form: Enrolment) -> None:
            staff.enrol(form.staff_id, form.name, Role.SUPERVISOR, form.pin, by=None)

        def enrolled(form: Enrolment | None) -> None:
            if form is None:  # esc: no supervisor, no live table
                self.exit()
                return
            supervisor = Credentials(form.staff_id, form.pin)

            def enrol_croupier(croupier: Enrolment) -> None:
                staff.enrol(croupier.staff_id, croupier.name, Role.CROUPIER, croupier.pin, by=supervisor)

            screen = EnrolScreen(
                enrol_croupier,
                title=self.t("enrol_croupier_title"),
                help_text=self.t("enrol_croupier_help", staff_id=form.staff_id),
                lang=self.lang,
                optional=True,
                id="enrol-croupier",
            )
            self.push_screen(screen, self._step_done)

        screen = EnrolScreen(enrol, title=self.t("enrol_title"), help_text=self.t("enrol_help"), lang=self.lang)
        self.push_screen(screen, enrolled)

    def _sign_in(self) -> None:
        from tui_common.screens.sign_in import SignInScreen

        def signed_in(actor: Actor | None) -> None:
            self._signed_in(actor)
            self._next_startup_step()

        self.push_screen(SignInScreen(self.engine.open_shift, self.lang, change_pin=self._change_pin), signed_in)

    def _signed_in(self, actor: Actor | None, previous: str | None = None) -> None:
        if actor is None:
            if self.engine.croupier is None:
                self.show_info(self.t("no_one_on_duty"))
            return
        self.duty_confirmed = True
        if previous is not None and previous != actor.staff_id:
            self.show_info(self.t("relieved", staff_id=actor.staff_id, previous=previous))
        else:
            self.show_info(self.t("signed_in", staff_id=actor.staff_id))
        self.refresh_table()

    @property
    def _change_pin(self) -> Callable[[Credentials, str], object] | None:
        """The registry's ``change_pin`` (a sign-in with a reset PIN sets a new one)."""
        return None if self.engine.staff is None else self.engine.staff.change_pin

    def _confirm_on_duty(self, first_key: events.Key) -> None:
        """The first croupier key after a relaunch: the croupier on duty types the PIN once,
        then ``first_key`` does what it was typed for."""
        from tui_common.screens.sign_in import SignInScreen

        croupier = self.engine.croupier
        assert croupier is not None
        engine = self.engine
        waiting = (self.t("duty_round_waits", round_id=engine.round_id) if engine.round_open
                   else self.t("duty_no_round"))

        async def confirmed(actor: Actor | None) -> None:
            # Called right after the PIN's enter, before any key typed behind it.
            if actor is not None:
                self.duty_confirmed = True
                self.show_info(self.t("duty_confirmed", staff_id=actor.staff_id))
                self.refresh_table()
                await self._route_key(first_key)

        self.push_screen(SignInScreen(
            engine.verify_confirm_on_duty, self.lang, staff_id=croupier.staff_id, id="duty-pin",
            change_pin=self._change_pin,
            title=self.t("duty_title", staff_id=croupier.staff_id),
            help_text=self.t("duty_help", staff_id=croupier.staff_id, waiting=waiting),
        ), confirmed)

    # --- shared keys -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in BASE_ACTIONS:
            return True
        if action in FOCUS_ACTIONS:
            # The table has no fields to move between (its entries take focus as they open):
            # tab there is a key like any other, answered; a dialog's tab moves on.
            return not self.table_in_front()
        if action in ENTRY_ACTIONS:
            return self.amount_open()
        waiting = self.graded is not None and self.graded.question is not None
        if action in GRADED_ACTIONS or waiting:
            return action in GRADED_ACTIONS and waiting
        return self.game_action_allowed(action, parameters)

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
        """F4: open the shift when nobody is on duty, else a relief (between rounds only)."""
        from tui_common.screens.sign_in import SignInScreen

        if self.training:
            self.show_info(self.t("shift_training"))
            return
        outgoing = self.engine.croupier
        if outgoing is None:
            self.push_screen(SignInScreen(self.engine.open_shift, self.lang, change_pin=self._change_pin), self._signed_in)
            return
        try:
            self.engine.verify_relief_allowed()
        except ConsoleError as error:
            self.show_error(error)
            return
        self.push_screen(
            SignInScreen(self.engine.open_shift, self.lang, id="relief", change_pin=self._change_pin, title=self.t("relief_title"),
                         help_text=self.t("relief_help", staff_id=outgoing.staff_id)),
            lambda actor: self._signed_in(actor, outgoing.staff_id),
        )

    def action_supervisor(self) -> None:
        from tui_common.screens.supervisor import SupervisorPanel

        if isinstance(self.screen, SupervisorPanel):
            return

        def done(result: SupervisorResult | None) -> None:
            if result is not None:
                self.last_supervisor = result
                if self.table_screen is not None:
                    self.show_info(self.t("supervisor_done", staff_id=result.staff_id, action=result.message))
            self.refresh_table()
            show, self._after_panel = self._after_panel, None
            if show is not None:
                show()

        self.push_screen(SupervisorPanel(self.supervisor_actions(), self._perform_supervisor, self.lang), done)

    def supervisor_actions(self) -> list[SupervisorAction]:
        """The panel's lines: the engine's commands allowed now (from its command table, with
        a second supervisor's ID and PIN where two are needed now), then the staff's."""
        offers = [SupervisorAction(offer.id, offer.label, offer.panel_fields(two), needs_reason=declared.reason is not None,
                                   reason_optional=declared.reason_optional)
                  for declared, offer, two in self.engine.command_table().offers_now(self.engine)]
        return [*offers, *(() if self.training or self.engine.staff is None else STAFF_ACTIONS)]

    def _perform_supervisor(self, request: SupervisorRequest) -> str:
        """The panel's one dispatch: the engine's command table runs the chosen line."""
        if request.action.startswith("staff_") or request.action == "own_pin":
            return self._administer_staff(request)
        engine = self.engine
        ledger = engine.tray_ledger() if request.action == "tray_close" else None
        result = engine.command_table().perform(engine, request.action, request.credentials, request.reason,
                                                request.values)
        if isinstance(result, str):
            return result
        if isinstance(result, Actor):  # the shift closed: its report follows
            return self._shift_closed(result)
        if isinstance(result, GamingDayClosed):
            return text("archive.day_closed", self.lang, day=result.day, staff_id=request.credentials.staff_id)
        if isinstance(result, Event) and result.type in BASE_CODEC.types:
            return self._tray_done(request.action, result, ledger)
        entry = engine.journal.event(engine.journal.last_seq)
        if entry is not None and entry.type == RoundClosed.type:  # a void: its own entry, before the close
            entry = engine.journal.event(entry.seq - 1)
        assert entry is not None
        return self.describe_entry(entry)

    def _tray_done(self, action: str, event: Event, ledger: TrayLedger | None) -> str:
        """A tray record's confirmation; the close shows the reconciliation after the panel."""
        if action == "tray_close":
            assert ledger is not None
            ledger.take(base_reading(event))
            self._after_panel = lambda: self._show_tray(ledger)
            return self.t("tray_info", what=self.t("tray_difference"), amount=self._amount(event.payload["difference"]))
        key = "total" if action in TRAY_COUNTS else "amount"
        return self.t("tray_info", what=self.t(f"sup_{action}"), amount=self._amount(event.payload[key]))

    def _amount(self, journaled: str) -> str:
        """A journaled amount as this console's language writes it (6.000, −50), not as stored."""
        return fmt_money(Decimal(journaled), lang=self.lang)

    def _show_tray(self, ledger: TrayLedger) -> None:
        from tui_common.screens.notice import NoticeScreen
        from tui_common.shift_text import tray_lines

        self.push_screen(NoticeScreen(self.t("tray_title"), "\n".join(tray_lines(ledger, self.lang)),
                                      self.lang, id="tray-close", kind="-report"))

    def _administer_staff(self, request: SupervisorRequest) -> str:
        """Staff changes from F2: the registry checks the supervisor (or, for one's own PIN, the person)."""
        from shared.staff import parse_role
        from tui_common.i18n import input_error

        staff = self.engine.staff
        assert staff is not None
        action, values, by, reason = request.action, request.values, request.credentials, request.reason
        if values.get("pin2") is not None and values["pin"] != values["pin2"]:
            raise input_error("pins_differ")
        if action == "staff_enrol":
            role = parse_role(values["role"])
            staff.enrol(values["staff_id"], values["name"], role, values["pin"], by=by)
            return self.t("staff_enrolled_info", staff_id=values["staff_id"], role=self.t(f"role_{role.value}"))
        if action == "staff_deactivate":
            staff.deactivate(values["staff_id"], by=by, reason=reason)
        elif action == "staff_reset_pin":
            staff.reset_pin(values["staff_id"], values["pin"], by=by, reason=reason)
        elif action == "staff_unlock":
            staff.unlock(values["staff_id"], by=by, reason=reason)
        else:
            staff.change_pin(by, values["pin"])
            return self.t("own_pin_changed", staff_id=by.staff_id)
        return self.t(f"{action}_info", staff_id=values["staff_id"])

    def _shift_closed(self, actor: Actor) -> str:
        """The shift just closed (the engine checked the supervisor): its report follows."""
        from tui_common.report_cli import one_shift
        from tui_common.screens.notice import NoticeScreen
        from tui_common.shift_text import shift_text

        engine = self.engine
        with engine.journal.read_view() as view:
            found = one_shift(view, engine.codec, engine.game, 0)
        assert not isinstance(found, int)  # the shift just closed
        shift, trays = found
        self.duty_confirmed = True
        text = shift_text(shift, self.lang, self.tz, title=False, trays=trays)
        self._after_panel = lambda: self.push_screen(NoticeScreen(
            self.t("rep_title", number=shift.number), text, self.lang, id="shift-report", kind="-report"))
        return self.t("shift_closed_info", number=shift.number, staff_id=actor.staff_id)

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
        if self._finish_graded():
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
    build: Callable[[Journal, StaffRegistry | None, C], E],
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
    config, journal = open_table(game, kind, default, table=options.table, db=options.db,
                                 training=options.training, config=config, **journal_options)
    try:
        engine = build(journal, None if options.training else StaffRegistry(journal), config)
        url = None if options.training else anchor_url(options.table)
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
        print(printable(t("launch_os_error", lang, path=error.filename, reason=error.strerror)), file=sys.stderr)
        return 2
    live = not app.engine.journal.training
    try:
        if live:  # every launch of a live table is journaled, saying how the last session ended
            try:
                app.engine.console_started()
            except ConsoleError as error:
                print(printable(error.message(lang), newlines=True), file=sys.stderr)
                return 2
        app.run()
        if live:
            app.engine.console_closed()
    finally:
        if app.graded is not None:
            app.graded.save()  # a session left without its score card is kept all the same
            app.graded.context.store.close()
        if app.engine.anchor is not None:
            app.engine.anchor.close()
        app.engine.journal.close()
    return app.return_code or 0  # 2: the app ended refusing the table (a Carrusel's server did)
