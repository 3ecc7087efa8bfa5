"""``madero-tui journal verify|recall``: the table journal for supervisors and auditors."""

from shared.journal_cli import add_journal_subcommand


def register(subparsers) -> None:
    add_journal_subcommand(subparsers, "madero")
