"""Journal entries in the croupier's words: the table's recent-events line and the recall screen."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal

from shared.base_events import common_recall
from shared.events import EventBody
from shared.journal import Event, signers
from shared.madero.settlement import BetResult, BoxStatus, Outcome, SettlementRecord
from shared.madero.table.events import CODEC, RoundSettled, recall
from shared.money import fmt_money, fmt_signed
from tui_common.i18n import t

JACKPOT_LINE_KEYS = {
    "escalera_real": "mad_jp_royal",
    "escalera_de_color": "mad_jp_straight_flush",
    "poker": "mad_jp_poker",
    "full": "mad_jp_full",
    "color": "mad_jp_color",
    "escalera": "mad_jp_straight",
    "carta_magica": "mad_jp_magic",
    "jugador_afortunado": "mad_jp_lucky",
}
"""The short name of each Jackpot line (``JackpotLine`` values), as the paytable shows it."""
def jackpot_lines_text(lines: Iterable[tuple[str, Decimal]], lang: str) -> str:
    """«Full 200 + Carta Mágica 60»: each Jackpot line a box was paid (§55), for the croupier."""
    return " + ".join(f"{t(JACKPOT_LINE_KEYS[line], lang)} {fmt_money(paid, lang=lang)}" for line, paid in lines)


def _who(event: Event) -> str:
    if not event.staff_id:
        return ""
    return f" · {signers(event)}" + (f" ({event.role})" if event.role and event.role != event.staff_id else "")


def describe(event: Event, lang: str = "es", *, with_actor: bool | None = True, numbered: bool = True) -> str:
    """One line for one entry; types this module does not know are shown raw (never hidden).

    ``with_actor``: True signs every entry with who made it; None only the entries not made
    by the croupier or trainee (the table's log line, where the croupier made most of them);
    False none.
    """
    return _described(event, _body(event), lang, with_actor, numbered)


def _body(event: Event) -> EventBody | None:
    """The entry's typed body, when it is one of Madero's events."""
    return CODEC.decode(event.type, event.payload) if event.type in CODEC.types else None


def _described(event: Event, body: EventBody | None, lang: str, with_actor: bool | None, numbered: bool) -> str:
    """``describe`` of an entry whose body is read already."""
    if body is not None:
        text = recall(body).render(lang)
    elif (common := common_recall(event.type, event.payload)) is not None:
        text = common.render(lang)
    else:
        text = f"{event.type} {event.payload}"
    signed = with_actor or (with_actor is None and event.role not in ("croupier", "trainee", None))
    return f"{f'#{event.seq} ' if numbered else ''}{text}{_who(event) if signed else ''}"


def _bet_result(bet: BetResult, lang: str) -> str:
    name = t(f"mad_bet_{bet.bet.value}", lang)
    if bet.outcome is Outcome.WIN:
        # A Jackpot names each line it paid: the hand and the special prizes (§55).
        lines = jackpot_lines_text(((x.line, x.paid) for x in bet.lines), lang)
        return f"{name} {fmt_signed(bet.paid, lang)}" + (f" ({lines})" if lines else "")
    if bet.outcome is Outcome.PUSH:
        return f"{name} {t('mad_returned_short', lang)}"
    return f"{name} {fmt_signed(-bet.collected, lang)}"


def settlement_lines(settlement: SettlementRecord, lang: str = "es") -> list[str]:
    """Each box of a journaled settlement: its hand, result and every bet's outcome."""
    outcome = {Outcome.WIN: "mad_wins", Outcome.LOSE: "mad_loses", Outcome.PUSH: "mad_tie"}
    status = {BoxStatus.FOLDED: "mad_status_retired", BoxStatus.DEAD: "mad_status_dead",
              BoxStatus.VOIDED: "mad_status_void"}
    lines = []
    for box in settlement.boxes:
        if box.main:
            hand = box.hand.render(lang) if box.hand else ""
            what = f"{hand} — {t(outcome[box.main], lang)}"
        else:
            what = t(status.get(box.status, "mad_status_active"), lang)
        bets = ", ".join(_bet_result(b, lang) for b in box.bets)
        lines.append(f"{t('mad_amount_for_box', lang, box=box.box)}: {what}: {bets}")
    return lines


def describe_with_time(event: Event, lang: str = "es") -> str:
    """The recall form: local time first (a dispute is about when as much as what), and a
    settlement with every box's bets and payouts under it."""
    when = datetime.fromisoformat(event.ts).astimezone().strftime("%H:%M:%S")
    body = _body(event)  # read once: the line and the settlement under it
    text = f"{when}  {_described(event, body, lang, True, True)}"
    if isinstance(body, RoundSettled):
        text += "".join(f"\n{' ' * 12}{line}" for line in settlement_lines(body.settlement, lang))
    return text
