"""F2, the supervisor panel's flow: its lines (the engine's command table's, then the staff
registry's), its one dispatch, and what each accepted line says or shows after the panel
closes (a tray's reconciliation, a closed shift's report)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

from shared.base_events import RoundClosed
from shared.events import GamingDayClosed
from shared.journal import Event
from shared.messages import text
from shared.money import fmt_money

if TYPE_CHECKING:
    from datetime import tzinfo

    from shared.tray import TrayLedger
    from tui_common.console import Console
    from tui_common.supervisor import SupervisorAction, SupervisorRequest, SupervisorResult

TRAY_COUNTS = frozenset({"tray_open", "tray_fill", "tray_credit"})


class SupervisorFlow:
    def __init__(self, app: Console, tz: tzinfo | None) -> None:
        """``tz``: the time zone of a closed shift's report."""
        self.app = app
        self.tz = tz
        self._after_panel: Callable[[], object] | None = None
        """What a supervisor action shows once its panel is closed (a report): set by the
        action, which runs in a worker thread, and shown from the event loop."""

    def open(self) -> None:
        from tui_common.screens.supervisor import SupervisorPanel

        app = self.app
        if isinstance(app.screen, SupervisorPanel):
            return

        def done(result: SupervisorResult | None) -> None:
            if result is not None:
                app.last_supervisor = result
                if app.table_screen is not None:
                    app.show_info(app.t("supervisor_done", staff_id=result.staff_id, action=result.message))
            app.refresh_table()
            show, self._after_panel = self._after_panel, None
            if show is not None:
                show()

        app.push_screen(SupervisorPanel(self.actions(), self.perform, app.lang), done)

    def actions(self) -> list[SupervisorAction]:
        """The panel's lines: the commands allowed now, from the engine's command table (the
        staff registry's last), with a second supervisor's ID and PIN where two are needed now."""
        from tui_common.supervisor import SupervisorAction

        engine = self.app.engine
        return [SupervisorAction(offer.id, offer.label, offer.panel_fields(two), needs_reason=declared.reason is not None,
                                 reason_optional=declared.reason_optional)
                for declared, offer, two in engine.command_table().offers_now(engine)]

    def perform(self, request: SupervisorRequest) -> str:
        """The panel's one dispatch: the engine's command table runs the chosen line."""
        engine = self.app.engine
        ledger = engine.tray.ledger() if request.action == "tray_close" else None
        declared, _offer = engine.command_table().offer(request.action)
        result = engine.command_table().perform(engine, request.action, request.credentials, request.reason,
                                                request.values)
        if declared.on == "staff":
            return self._staff_done(request)
        if isinstance(result, str):
            return result
        if declared.id == "close_shift":  # its report follows
            return self._shift_closed(request.credentials.staff_id)
        first = result[0] if result else None
        if isinstance(first, GamingDayClosed):
            return text("archive.day_closed", self.app.lang, day=first.day, staff_id=request.credentials.staff_id)
        if declared.on == "tray" and first is not None:
            journaled = engine.journal.last_event_of(first.type)
            assert journaled is not None  # the command just journaled it
            return self._tray_done(request.action, journaled, ledger)
        entry = engine.journal.event(engine.journal.last_seq)
        if entry is not None and entry.type == RoundClosed.type:  # a void: its own entry, before the close
            entry = engine.journal.event(entry.seq - 1)
        assert entry is not None
        return self.app.describe_entry(entry)

    def _tray_done(self, action: str, event: Event, ledger: TrayLedger | None) -> str:
        """A tray record's confirmation; the close shows the reconciliation after the panel."""
        from shared.report import base_reading

        t = self.app.t
        if action == "tray_close":
            assert ledger is not None
            ledger.take(base_reading(event))
            self._after_panel = lambda: self._show_tray(ledger)
            return t("tray_info", what=t("tray_difference"), amount=self._amount(event.payload["difference"]))
        key = "total" if action in TRAY_COUNTS else "amount"
        return t("tray_info", what=t(f"sup_{action}"), amount=self._amount(event.payload[key]))

    def _amount(self, journaled: str) -> str:
        """A journaled amount as this console's language writes it (6.000, −50), not as stored."""
        return fmt_money(Decimal(journaled), lang=self.app.lang)

    def _show_tray(self, ledger: TrayLedger) -> None:
        from tui_common.screens.notice import NoticeScreen
        from tui_common.shift_text import tray_lines

        app = self.app
        app.push_screen(NoticeScreen(app.t("tray_title"), "\n".join(tray_lines(ledger, app.lang)),
                                     app.lang, id="tray-close", kind="-report"))

    def _staff_done(self, request: SupervisorRequest) -> str:
        """What a staff line accepted says (the registry journaled it)."""
        from shared.staff import parse_role

        t, action, values = self.app.t, request.action, request.values
        if action == "staff_enrol":
            role = parse_role(values["role"])
            return t("staff_enrolled_info", staff_id=values["staff_id"], role=t(f"role_{role.value}"))
        if action == "own_pin":
            return t("own_pin_changed", staff_id=request.credentials.staff_id)
        return t(f"{action}_info", staff_id=values["staff_id"])

    def _shift_closed(self, supervisor_id: str) -> str:
        """The shift just closed (the engine checked the supervisor): its report follows."""
        from tui_common.report_cli import one_shift
        from tui_common.screens.notice import NoticeScreen
        from tui_common.shift_text import shift_text

        app = self.app
        engine = app.engine
        with engine.journal.read_view() as view:
            found = one_shift(view, engine.codec, engine.game, 0)
        assert not isinstance(found, int)  # the shift just closed
        shift, trays = found
        app.duty_confirmed = True
        report = shift_text(shift, app.lang, self.tz, title=False, trays=trays)
        self._after_panel = lambda: app.push_screen(NoticeScreen(
            app.t("rep_title", number=shift.number), report, app.lang, id="shift-report", kind="-report"))
        return app.t("shift_closed_info", number=shift.number, staff_id=supervisor_id)
