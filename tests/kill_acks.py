"""What a crash-test driver acknowledged before it was killed (both games' kill tests), and the
forked child that dies at one step boundary (the meter fault tests, SQLite and PostgreSQL)."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn


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


KILLED = 75
"""The exit status of a child that died at its step boundary on purpose."""


class StepBoundaries:
    """The step boundaries a forked child crosses: ``wrap`` marks one before and after a method;
    the child dies (``os._exit(KILLED)``) at the ``die_at``-th, or with ``die_at`` None records
    them all in ``trace``."""

    def __init__(self, die_at: int | None) -> None:
        self.die_at = die_at
        self.trace: list[str] = []

    def step(self, label: str) -> None:
        if len(self.trace) == self.die_at:
            os._exit(KILLED)
        self.trace.append(label)

    def wrap(self, cls: type, name: str) -> None:
        original = getattr(cls, name)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            self.step(f"before {cls.__name__}.{name}")
            result = original(*args, **kwargs)
            self.step(f"after {cls.__name__}.{name}")
            return result

        setattr(cls, name, wrapped)

    def run(self, tmp: Path, body: Callable[[], None]) -> NoReturn:
        """The child's whole life: ``body``, then the trace (when not dying) in tmp/trace.txt; an
        error goes to tmp/child-error.txt and exit status 1, for the parent to report."""
        try:
            body()
            if self.die_at is None:
                (tmp / "trace.txt").write_text("\n".join(self.trace))
        except BaseException as exc:  # noqa: BLE001 - the parent reads the reason from the exit status
            (tmp / "child-error.txt").write_text(repr(exc))
            os._exit(1)
        os._exit(0)


def run_child(tmp: Path, target: Callable[..., None], *args: Any) -> int:
    """Fork ``target(tmp, *args)`` and wait for it: 0 (done) or KILLED (died at its boundary)."""
    proc = multiprocessing.get_context("fork").Process(target=target, args=(tmp, *args))
    proc.start()
    proc.join(60)
    error = tmp / "child-error.txt"
    assert proc.exitcode in (0, KILLED), error.read_text() if error.exists() else proc.exitcode
    return proc.exitcode
