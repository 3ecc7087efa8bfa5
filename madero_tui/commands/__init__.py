"""Supervisor subcommands of ``madero-tui``; each module has ``register(subparsers)``."""
