"""``madero-tui report``: the shift report of the table's journal."""

from __future__ import annotations

import argparse

from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.table.events import CODEC
from tui_common.report_cli import add_report_subcommand


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    add_report_subcommand(subparsers, lang, "madero", DEFAULT_MADERO_TABLE.table_id, CODEC)
