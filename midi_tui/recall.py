"""Recall lines for Midi journal events, in the croupier's words (the F3 screen).

Each event becomes one line (a settlement adds one line per bet): time, entry number, who,
then what happened — bets, cards and to which hand, the announcements of the result, the
payout of every bet, undos and supervisor overrides with their reasons. Unknown types fall
back to ``shared.journal.format_event``.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from decimal import Decimal

from shared.baccarat import resolve_coup
from shared.cards import Rank
from shared.engine import TABLE_CONFIG
from shared.journal import Event, format_event
from shared.midi.config import MidiTableConfig
from shared.midi.payouts import BET_LABEL, BetKind, Outcome, SettlementLine
from shared.midi.table import result_announcements
from shared.money import fmt_money
from tui_common.i18n import staff_event_text, t, table_config_text

HAND = {"punto": "PUNTO", "banca": "BANCA", "burn": "quema"}


def _bets(bets: dict[str, dict[str, str]], lang: str) -> str:
    return ", ".join(
        f"{spot}:{BET_LABEL[BetKind(kind)]} {fmt_money_text(amount, lang)}"
        for spot, kinds in bets.items()
        for kind, amount in kinds.items()
    ) or "—"


def fmt_money_text(amount: str, lang: str) -> str:
    """Money as the journal stores it (a string) in the display form."""
    return fmt_money(Decimal(amount), lang=lang)


def _card(payload: dict) -> str:
    rank = Rank.parse(payload["rank"]).label
    suit = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}.get(payload.get("suit") or "", "")
    return rank + suit


def _lines(data: list[dict], lang: str) -> list[str]:
    out = []
    for line in (SettlementLine.from_dict(d) for d in data):
        amount = f"+{fmt_money(line.paid, lang=lang)}" if line.paid else ("−" + fmt_money(line.stake, lang=lang) if line.collected else "=")
        if line.outcome is Outcome.WIN and line.exact != line.paid:
            amount += f" [{t('midi_exact', lang)} {fmt_money(line.exact, lang=lang)}]"
        out.append(f"      {t('midi_box', lang)} {line.spot} {BET_LABEL[line.kind]} {fmt_money(line.stake, lang=lang)}: "
                   f"{amount}  ({line.why(lang)})")
    return out


def describe(event: Event, lang: str, config: MidiTableConfig, tz: tzinfo | None = None) -> str:
    p = event.payload
    kind = event.type
    if kind == "shoe_opened":
        text = t("midi_rc_shoe", lang, shoe=p["shoe"], decks=p["decks"], size=p["size"])
    elif kind == "burn_card":
        text = t("midi_rc_burn_card", lang, card=_card(p))
    elif kind == "burned":
        text = t("midi_rc_burned", lang, n=p["count"])
    elif kind == "bet_placed":
        text = t("midi_rc_bet", lang, box=p["spot"], bet=BET_LABEL[BetKind(p["kind"])],
                 amount=fmt_money_text(p["amount"], lang), previous=fmt_money_text(p["previous"], lang))
    elif kind == "bet_removed":
        text = t("midi_rc_bet_removed", lang, box=p["spot"], bet=BET_LABEL[BetKind(p["kind"])],
                 amount=fmt_money_text(p["previous"], lang))
    elif kind == "bets_repeated":
        text = t("midi_rc_repeated", lang, bets=_bets(p["bets"], lang))
    elif kind == "no_va_mas":
        text = t("midi_rc_no_va_mas", lang, bets=_bets(p["bets"], lang))
    elif kind == "card":
        text = t("midi_rc_card", lang, card=_card(p), hand=HAND.get(p["to"], p["to"]))
    elif kind == "entry_undone":
        text = t("midi_rc_undone", lang, type=p["type"], seq=p["seq"])
    elif kind == "card_corrected":
        text = t("midi_rc_corrected", lang, n=p["index"] + 1, old=p["old"], new=p["new"], reason=p["reason"])
    elif kind == "coup_settled":
        result = resolve_coup([Rank.parse(c[0]) for c in p["cards"]])
        said = " · ".join(f"«{a.en if lang == 'en' else a.es}»" for a in result_announcements(result, config))
        text = "\n".join([t("midi_rc_settled", lang, cards=" ".join(p["cards"]), said=said), *_lines(p["lines"], lang)])
    elif kind == "coup_voided":
        text = "\n".join([t("midi_rc_voided", lang, reason=p["reason"]), *_lines(p["lines"], lang)])
    elif kind == "shoe_ended":
        text = t("midi_rc_shoe_ended", lang, reason=p.get("note") or p["reason"])
    elif kind == "sabot_assigned":
        text = t("midi_rc_sabot", lang, box=p["box"])
    elif kind == "sabot_passed":
        text = t("midi_rc_sabot_passed", lang, box=p["to"] if p["to"] is not None else "—")
    elif kind == "commission_collected":
        boxes = ", ".join(f"{t('midi_box', lang)} {box} {fmt_money_text(b['tally'], lang)} → {fmt_money_text(b['collected'], lang)}"
                          for box, b in p["boxes"].items())
        text = t("midi_rc_commission", lang, boxes=boxes)
    elif kind == "supervisor_deals":
        text = t("midi_rc_supervisor_deals", lang, reason=p["reason"])
    elif kind == TABLE_CONFIG:
        text = table_config_text(p, lang)
    elif (staff := staff_event_text(kind, p, lang)) is not None:
        text = staff
    else:
        return format_event(event, lang, tz=tz)
    when = datetime.fromisoformat(event.ts).astimezone(tz).strftime("%H:%M:%S")
    who = f"{event.staff_id}/{event.role}" if event.staff_id else "—"
    return f"{when} #{event.seq:<5} {who:<18} {text}"
