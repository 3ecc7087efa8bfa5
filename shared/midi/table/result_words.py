"""The croupier's words of a coup's result (Art. 8 §6) and how announcements join into one line.

They depend on the result and the table's config only, so the announcements of the table's
state and the recall of a settled coup (``shared.midi.table.events``) read them alike."""

from __future__ import annotations

from collections.abc import Sequence

from shared.baccarat import CoupResult, Winner
from shared.messages import Msg
from shared.midi.config import MidiTableConfig


def joined(msgs: Sequence[Msg]) -> Msg:
    """Several announcements as one line, « · » between them."""
    if len(msgs) == 1:
        return msgs[0]
    return Msg.of("midi.joined", head=msgs[0], tail=joined(msgs[1:]))


def result_announcements(result: CoupResult, config: MidiTableConfig) -> list[Msg]:
    """Art. 8 §6: the winning hand, and how it is paid."""
    if result.winner is Winner.TIE:
        return [Msg.of("midi.ann_tie", total=result.punto_total)]
    if result.winner is Winner.PUNTO:
        return [Msg.of("midi.ann_punto_wins", total=result.punto_total)]
    if result.banca_six and config.banca_mode == "half-six":
        return [Msg.of("midi.ann_banca_six")]
    if config.banca_mode == "commission" and config.commission_handling == "tally":
        return [Msg.of("midi.ann_banca_wins_tally", total=result.banca_total)]
    if config.banca_mode == "commission":
        return [Msg.of("midi.ann_banca_wins_commission", total=result.banca_total)]
    return [Msg.of("midi.ann_banca_wins", total=result.banca_total)]
