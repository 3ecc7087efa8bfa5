"""``midi-tui journal verify|recall|upgrade``: the table journal for supervisors and auditors."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from shared.journal import Event

from shared.journal_cli import add_journal_subcommand
from tui_common.cli import ask_secret


def _describe(args: argparse.Namespace) -> Callable[[Event, str], str]:
    from midi_tui.recall import describe
    from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
    from tui_common.cli import load_table

    config = load_table(getattr(args, "table", None), MidiTableConfig, DEFAULT_MIDI_TABLE)
    return lambda event, lang: describe(event, lang, config)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    add_journal_subcommand(subparsers, lang, "midi", describe=_describe, ask_secret=ask_secret)
