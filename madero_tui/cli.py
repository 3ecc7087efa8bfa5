"""``madero-tui``: the Madero Poker Bonus table console and its supervisor tools."""

from __future__ import annotations

from collections.abc import Sequence

from tui_common.cli import run_cli
from tui_common.launch_bundle import prepare_launch
from tui_common.options import LaunchOptions

# Each supervisor subcommand beside the console itself, and the module that registers it.
SUBCOMMANDS: dict[str, str] = {
    "journal": "madero_tui.commands.journal",
    "hand": "madero_tui.commands.hand",
    "odds": "madero_tui.commands.odds",
    "settle": "madero_tui.commands.settle",
    "report": "madero_tui.commands.report",
    "staff": "madero_tui.commands.staff",
    "pit": "madero_tui.commands.pit",
    "carrusel": "madero_tui.commands.carrusel",
    "train": "tui_common.training.cli",
}


def launch(options: LaunchOptions) -> int:
    prepare_launch("madero_tui.app")  # before Textual's imports: see tui_common.launch_bundle
    from madero_tui.app import run

    return run(options)


def main(argv: Sequence[str] | None = None) -> int:
    return run_cli("madero-tui", "help.madero_console", SUBCOMMANDS, launch, argv)


if __name__ == "__main__":
    raise SystemExit(main())
