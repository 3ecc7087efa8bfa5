"""``midi-tui report``: the shift report of the table's journal."""

from __future__ import annotations

import argparse

from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.table.events import MIDI_CODEC
from tui_common.report_cli import add_report_subcommand


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    add_report_subcommand(subparsers, lang, "midi", DEFAULT_MIDI_TABLE.table_id, MIDI_CODEC)
