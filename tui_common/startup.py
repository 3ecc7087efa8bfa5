"""Who is at the table: the console's start-up sequence (first-run enrolment, the shift's
sign-in, the recovery notice), the croupier's PIN after a relaunch, and F4 (the shift opened,
or a relief)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING

from shared.actor import Actor, Role
from shared.errors import ConsoleError
from shared.staff import Credentials

if TYPE_CHECKING:
    from textual import events

    from tui_common.console import Console
    from tui_common.screens.enrol import Enrolment


class StartUp:
    def __init__(self, app: Console) -> None:
        self.app = app
        self._steps: list[Callable[[], None]] = []

    def begin(self) -> None:
        """The steps this launch needs, one screen after the other, then the table."""
        self._steps = list(self._plan())
        self._next()

    def _plan(self) -> Iterator[Callable[[], None]]:
        app = self.app
        staff = app.engine.staff
        if not app.training and staff is not None and not staff.has_supervisor():
            yield self._enrol_supervisor
        if not app.training and app.engine.croupier is None:
            yield self._sign_in
        if app.engine.recovered:
            yield self._recovery_notice

    def _next(self) -> None:
        if self._steps:
            self._steps.pop(0)()
        else:
            self.app.refresh_table()
            self.app.call_after_refresh(self.app.collector.start)  # the table is up

    def _step_done(self, _result: object = None) -> None:
        self._next()

    def _recovery_notice(self) -> None:
        from tui_common.screens.notice import recovery_notice

        app = self.app
        app.push_screen(recovery_notice(app.engine.round_id, app.lang), self._step_done)

    def _enrol_supervisor(self) -> None:
        from tui_common.screens.enrol import EnrolScreen

        app = self.app
        staff = app.engine.staff
        assert staff is not None

        def enrol(form: Enrolment) -> None:
            staff.enrol(form.staff_id, form.name, Role.SUPERVISOR, form.pin, by=None)

        def enrolled(form: Enrolment | None) -> None:
            if form is None:  # esc: no supervisor, no live table
                app.exit()
                return
            supervisor = Credentials(form.staff_id, form.pin)

            def enrol_croupier(croupier: Enrolment) -> None:
                staff.enrol(croupier.staff_id, croupier.name, Role.CROUPIER, croupier.pin, by=supervisor)

            screen = EnrolScreen(
                enrol_croupier,
                title=app.t("enrol_croupier_title"),
                help_text=app.t("enrol_croupier_help", staff_id=form.staff_id),
                lang=app.lang,
                optional=True,
                id="enrol-croupier",
            )
            app.push_screen(screen, self._step_done)

        screen = EnrolScreen(enrol, title=app.t("enrol_title"), help_text=app.t("enrol_help"), lang=app.lang)
        app.push_screen(screen, enrolled)

    def _sign_in(self) -> None:
        from tui_common.screens.sign_in import SignInScreen

        def signed_in(actor: Actor | None) -> None:
            self._signed_in(actor)
            self._next()

        app = self.app
        app.push_screen(SignInScreen(self._open_shift, app.lang, change_pin=self._change_pin), signed_in)

    def _open_shift(self, creds: Credentials) -> Actor:
        """Open the shift (the engine's command) and say who is on duty now: the sign-in
        screen closes with them."""
        engine = self.app.engine
        engine.shift.open(creds)
        assert engine.croupier is not None  # the shift just opened
        return engine.croupier

    def _signed_in(self, actor: Actor | None, previous: str | None = None) -> None:
        app = self.app
        if actor is None:
            if app.engine.croupier is None:
                app.show_info(app.t("no_one_on_duty"))
            return
        app.duty_confirmed = True
        if previous is not None and previous != actor.staff_id:
            app.show_info(app.t("relieved", staff_id=actor.staff_id, previous=previous))
        else:
            app.show_info(app.t("signed_in", staff_id=actor.staff_id))
        app.refresh_table()

    @property
    def _change_pin(self) -> Callable[[Credentials, str], object] | None:
        """The registry's ``change_pin`` (a sign-in with a reset PIN sets a new one)."""
        staff = self.app.engine.staff
        return None if staff is None else staff.change_pin

    def confirm_on_duty(self, first_key: events.Key, then: Callable[[events.Key], Awaitable[bool]]) -> None:
        """The first croupier key after a relaunch: the croupier on duty types the PIN once,
        then ``first_key`` does what it was typed for (``then``: the key path)."""
        from tui_common.screens.sign_in import SignInScreen

        app = self.app
        engine = app.engine
        croupier = engine.croupier
        assert croupier is not None
        waiting = (app.t("duty_round_waits", round_id=engine.round_id) if engine.round_open
                   else app.t("duty_no_round"))

        async def confirmed(actor: Actor | None) -> None:
            # Called right after the PIN's enter, before any key typed behind it.
            if actor is not None:
                app.duty_confirmed = True
                app.show_info(app.t("duty_confirmed", staff_id=actor.staff_id))
                app.refresh_table()
                await then(first_key)

        app.push_screen(SignInScreen(
            engine.shift.verify_confirm_on_duty, app.lang, staff_id=croupier.staff_id, id="duty-pin",
            change_pin=self._change_pin,
            title=app.t("duty_title", staff_id=croupier.staff_id),
            help_text=app.t("duty_help", staff_id=croupier.staff_id, waiting=waiting),
        ), confirmed)

    def shift(self) -> None:
        """F4: open the shift when nobody is on duty, else a relief (between rounds only)."""
        from tui_common.screens.sign_in import SignInScreen

        app = self.app
        if app.training:
            app.show_info(app.t("shift_training"))
            return
        outgoing = app.engine.croupier
        if outgoing is None:
            app.push_screen(SignInScreen(self._open_shift, app.lang, change_pin=self._change_pin), self._signed_in)
            return
        try:
            app.engine.shift.verify_relief_allowed()
        except ConsoleError as error:
            app.show_error(error)
            return
        app.push_screen(
            SignInScreen(self._open_shift, app.lang, id="relief", change_pin=self._change_pin,
                         title=app.t("relief_title"), help_text=app.t("relief_help", staff_id=outgoing.staff_id)),
            lambda actor: self._signed_in(actor, outgoing.staff_id),
        )
