"""What the command line hands to an app when it launches the console."""

from __future__ import annotations

from pathlib import Path

from shared.record import record


@record
class LaunchOptions:
    db: Path | None = None
    """Journal file; None means the default under the user's data directory."""
    table: Path | None = None
    """Table configuration (TOML); None means the app's shipped default table."""
    lang: str = "es"
    training: bool = False
    seed: int | None = None
    """Makes a training session repeatable (the same virtual cards for a whole class)."""
    graded: bool = False
    """Training only: the console asks the trainee before it shows (issue 20)."""
    trainee: str | None = None
    """Who is graded (staff ID or name)."""
    training_db: Path | None = None
    """The training database (score cards); None: under the user's data directory."""
