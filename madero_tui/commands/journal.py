"""``madero-tui journal verify|recall``: the table journal for supervisors and auditors."""

from shared.journal_cli import add_journal_subcommand


def _describe(args):
    from madero_tui.events_text import describe_with_time

    return describe_with_time


def register(subparsers, lang: str) -> None:
    add_journal_subcommand(subparsers, lang, "madero", describe=_describe, server=True)
