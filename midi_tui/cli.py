"""``midi-tui``: the Midi Punto y Banca table console and its supervisor tools."""

from __future__ import annotations

from collections.abc import Sequence

from tui_common.cli import run_cli
from tui_common.launch_bundle import prepare_launch
from tui_common.options import LaunchOptions

# Each supervisor subcommand beside the console itself, and the module that registers it.
SUBCOMMANDS: dict[str, str] = {
    "journal": "midi_tui.commands.journal",
    "settle": "midi_tui.commands.settle",
    "odds": "midi_tui.commands.odds",
    "shoe-audit": "midi_tui.commands.shoe_audit",
    "report": "midi_tui.commands.report",
    "staff": "midi_tui.commands.staff",
    "train": "tui_common.training.cli",
}


def launch(options: LaunchOptions) -> int:
    prepare_launch("midi_tui.app")  # before Textual's imports: see tui_common.launch_bundle
    from midi_tui.app import run

    return run(options)


def main(argv: Sequence[str] | None = None) -> int:
    return run_cli("midi-tui", "help.midi_console", SUBCOMMANDS, launch, argv)


if __name__ == "__main__":
    raise SystemExit(main())
