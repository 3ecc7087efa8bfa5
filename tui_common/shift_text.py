"""The shift report as rows of text, for the close-of-shift screen and ``report --shift``
alike (no Textual here): one row per figure, one column per croupier, then the total."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo
from decimal import Decimal

from shared.messages import money_text
from shared.money import fmt_money
from shared.report import DutyLine, ShiftClose
from shared.tray import TrayLedger
from tui_common.i18n import t

FIGURES: tuple[tuple[str, Callable[[DutyLine, str], str]], ...] = (
    ("rep_rounds", lambda line, lang: str(line.rounds)),
    ("rep_time", lambda line, lang: _duration(line.seconds_on_duty)),
    ("rep_rate", lambda line, lang: "—" if line.rounds_per_hour is None else money_text(line.rounds_per_hour, lang, 1)),
    ("rep_bet", lambda line, lang: fmt_money(line.handle, lang=lang)),
    ("rep_paid", lambda line, lang: fmt_money(line.paid, lang=lang)),
    ("rep_collected", lambda line, lang: fmt_money(line.collected, lang=lang)),
    ("rep_commission", lambda line, lang: fmt_money(line.commission, lang=lang)),
    ("rep_adjustments", lambda line, lang: fmt_money(line.adjustments, lang=lang)),
    ("rep_win", lambda line, lang: fmt_money(line.win, lang=lang)),
    ("rep_hold", lambda line, lang: hold_text(line.hold_percent, lang)),
    ("rep_voids", lambda line, lang: str(line.voided)),
    ("rep_dead_hands", lambda line, lang: str(line.dead_hands)),
    ("rep_arbitrations", lambda line, lang: str(line.arbitrated)),
    ("rep_corrections", lambda line, lang: str(line.corrections)),
    ("rep_rounding", lambda line, lang: fmt_money(line.rounding, lang=lang)),
)


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60} h {minutes % 60:02d} min"


def shift_heading(shift: ShiftClose, lang: str, tz: tzinfo | None = None) -> list[str]:
    """Title, when it opened and closed, and the journal's head at the close."""
    def at(moment: datetime) -> str:
        return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M")

    lines = [t("rep_title", lang, number=shift.number),
             t("rep_opened", lang, when=at(shift.opened))]
    if shift.closed is None:
        lines.append(t("rep_still_open", lang))
    else:
        lines.append(t("rep_closed", lang, when=at(shift.closed), staff_id=shift.closed_by))
        lines.append(t("rep_journal_head", lang, entries=shift.entries, hash=shift.head_hash))
    return lines


def shift_table(shift: ShiftClose, lang: str) -> list[list[str]]:
    """The figures: a header row (croupiers, then TOTAL), then one row per figure."""
    lines: list[DutyLine] = [*shift.by_croupier.values(), shift.total]
    header = [t("rep_figure", lang), *(line.staff_id for line in lines)]
    return [header, *([t(key, lang), *(value(line, lang) for line in lines)] for key, value in FIGURES)]


def hold_text(hold_percent: Decimal | None, lang: str) -> str:
    """The hold as a percentage with two decimals, «—» when nothing was bet."""
    return "—" if hold_percent is None else f"{money_text(hold_percent, lang, 2)} %"


TRAY_FIGURES = (
    ("tray_opening", "opening"), ("tray_fills", "fills"), ("tray_credits", "credits"),
    ("tray_collected", "collected"), ("tray_commission", "commission"), ("tray_paid", "paid"),
    ("tray_buy_ins", "buy_ins"), ("tray_expected", "expected"), ("tray_counted", "counted"),
    ("tray_difference", "difference"),
)


def tray_lines(ledger: TrayLedger, lang: str) -> list[str]:
    """The reconciliation: each flow, the expected tray beside the counted one, the difference;
    then the chips counted by denomination."""
    rows = []
    for key, name in TRAY_FIGURES:
        value = getattr(ledger, name)
        rows.append([t(key, lang), "—" if value is None else fmt_money(value, lang=lang)])
    lines = aligned(rows)
    for moment in ("opening", "closing"):
        count = ledger.breakdown.get(moment)
        if count:
            chips = " · ".join(f"{fmt_money(Decimal(value), lang=lang)}×{n}" for value, n in
                               sorted(count.items(), key=lambda item: -Decimal(item[0])))
            lines.append(f"{t(f'tray_count_{moment}', lang)}: {chips}")
    return lines


def aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
            for row in rows]


def shift_text(shift: ShiftClose, lang: str, tz: tzinfo | None = None, *, title: bool = True,
               trays: Sequence[TrayLedger] = ()) -> str:
    """The whole report as aligned plain text (``title=False``: a dialog shows the title itself),
    with the reconciliation of each tray closed during the shift."""
    heading = shift_heading(shift, lang, tz)
    lines = [*(heading if title else heading[1:]), "", *aligned(shift_table(shift, lang))]
    arbitrated = shift.total.arbitrated_rounds
    if arbitrated:  # flagged as the plain report flags it, each round listed
        lines += ["", t("report_arbitrated", lang, rounds=len(arbitrated)),
                  t("rep_arbitrated_rounds", lang, rounds=", ".join(map(str, arbitrated)))]
    signed = shift.total.two_signed
    if signed:  # who the second signer was, entry by entry
        lines += ["", t("rep_two_signed", lang, count=len(signed)),
                  *(t("rep_two_signed_line", lang, round="—" if s.round is None else s.round,
                      what=t(f"rep_signed_{s.entry}", lang), first=s.supervisor or "—", second=s.second_supervisor)
                    for s in signed)]
    for ledger in trays:
        lines += ["", t("tray_title", lang), *tray_lines(ledger, lang)]
    return "\n".join(lines)
