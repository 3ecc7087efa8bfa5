"""Recall lines for Midi journal events, in the croupier's words (the F3 screen).

Each event becomes one line (a settlement adds one line per bet): time, entry number, who,
then what happened — bets, cards and to which hand, the announcements of the result, the
payout of every bet, undos and supervisor overrides with their reasons. The words of each
Midi event are its own (``recall`` of ``shared.midi.table.events``); unknown types fall back to
``shared.journal.format_event``.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from shared.base_events import common_recall
from shared.journal import Event, format_event, signers
from shared.midi.config import MidiTableConfig
from shared.midi.payouts import BET_LABEL, Outcome, SettlementLine
from shared.midi.table.events import MIDI_CODEC, CoupSettled, CoupVoided, recall
from shared.money import fmt_money, fmt_signed
from tui_common.i18n import t


def _lines(lines: tuple[SettlementLine, ...], lang: str) -> list[str]:
    out = []
    for line in lines:
        amount = fmt_signed(line.paid, lang) if line.paid else (fmt_signed(-line.stake, lang) if line.collected else "=")
        if line.outcome is Outcome.WIN and line.exact != line.paid:
            amount += f" [{t('midi_exact', lang)} {fmt_money(line.exact, lang=lang)}]"
        out.append(f"      {t('midi_box', lang)} {line.spot} {BET_LABEL[line.kind]} {fmt_money(line.stake, lang=lang)}: "
                   f"{amount}  ({line.reason.render(lang)})")
    return out


def recall_text(event: Event, lang: str, config: MidiTableConfig) -> str:
    """A Midi entry's recall words alone (no time, no settlement lines)."""
    if event.type in MIDI_CODEC.types:
        return recall(MIDI_CODEC.decode(event.type, event.payload), config).render(lang)
    common = common_recall(event.type, event.payload)
    return format_event(event, lang) if common is None else common.render(lang)


def describe(event: Event, lang: str, config: MidiTableConfig, tz: tzinfo | None = None) -> str:
    p = event.payload
    kind = event.type
    if kind in MIDI_CODEC.types:
        body = MIDI_CODEC.decode(kind, p)
        text = recall(body, config).render(lang)
        if isinstance(body, (CoupSettled, CoupVoided)):
            text = "\n".join([text, *_lines(body.lines, lang)])
    elif (common := common_recall(kind, p)) is not None:
        text = common.render(lang)
    else:
        return format_event(event, lang, tz=tz)
    when = datetime.fromisoformat(event.ts).astimezone(tz).strftime("%H:%M:%S")
    who = f"{signers(event)}/{event.role}" if event.staff_id else "—"
    return f"{when} #{event.seq:<5} {who:<18} {text}"
