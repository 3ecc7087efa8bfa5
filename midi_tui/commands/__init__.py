"""Supervisor subcommands of ``midi-tui``; each module has ``register(subparsers)``."""
