"""``midi-tui staff``: staff administration of the table (supervisor only)."""

from __future__ import annotations

import argparse

from shared.midi.config import DEFAULT_MIDI_TABLE
from tui_common.staff_cli import add_staff_subcommand


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    add_staff_subcommand(subparsers, lang, "midi", DEFAULT_MIDI_TABLE.table_id)
