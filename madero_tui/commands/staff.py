"""``madero-tui staff``: staff administration of the table (supervisor only)."""

from __future__ import annotations

import argparse

from shared.madero.config import DEFAULT_MADERO_TABLE
from tui_common.staff_cli import add_staff_subcommand


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    add_staff_subcommand(subparsers, lang, "madero", DEFAULT_MADERO_TABLE.table_id)
