"""``madero-tui journal verify|recall|upgrade``: the table journal for supervisors and auditors."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from shared.journal import Event

from shared.journal_cli import add_journal_subcommand
from tui_common.cli import ask_secret


def _describe(args: argparse.Namespace) -> Callable[[Event, str], str]:
    from madero_tui.events_text import describe_with_time

    return describe_with_time


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    add_journal_subcommand(subparsers, lang, "madero", describe=_describe, ask_secret=ask_secret)
