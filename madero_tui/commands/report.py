"""``madero-tui report``: the shift report of the table's journal."""

from shared.madero.config import DEFAULT_MADERO_TABLE
from tui_common.report_cli import add_report_subcommand


def register(subparsers, lang: str) -> None:
    add_report_subcommand(subparsers, lang, "madero", DEFAULT_MADERO_TABLE.table_id)
