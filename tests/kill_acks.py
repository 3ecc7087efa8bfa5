"""What a crash-test driver acknowledged before it was killed (both games' kill tests)."""

from __future__ import annotations

from pathlib import Path


def read_acks(out: Path) -> list[tuple[int, str | None, str]]:
    """The states a run acknowledged, in order: READY (the restored state, no entry hash) then
    each ACK; a line cut by the kill (no newline) is ignored. A run killed before its first ACK
    still moves the baseline to what it restored, so a command it committed without
    acknowledging is measured from there."""
    acks: list[tuple[int, str | None, str]] = []
    for line in out.read_text().splitlines(keepends=True):
        if not line.endswith("\n"):
            break
        parts = line.split()
        if parts[0] == "READY":
            acks.append((int(parts[1]), None, parts[2]))
        elif parts[0] == "ACK":
            acks.append((int(parts[1]), parts[2], parts[3]))
    return acks
