"""``midi-tui report``: the shift report of the table's journal."""

from shared.midi.config import DEFAULT_MIDI_TABLE
from tui_common.report_cli import add_report_subcommand


def register(subparsers, lang: str) -> None:
    add_report_subcommand(subparsers, lang, "midi", DEFAULT_MIDI_TABLE.table_id)
