"""Test-wide settings."""

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Speed is measured by the benchmarks, never asserted by tests: a loaded CI machine must not
# fail a property test on Hypothesis' per-example deadline.
settings.register_profile("console", deadline=None)
settings.load_profile("console")


RAM_DISK_FREE = 2 * 1024**3
"""Free space a RAM disk needs before the tests' files go there (a whole run writes ~0.3 GiB)."""


def _free_bytes(folder: Path) -> int:
    stats = os.statvfs(folder)
    return stats.f_bavail * stats.f_frsize


def pytest_configure(config: pytest.Config) -> None:
    """The tests' files on a RAM disk where the machine has one: a journal commits with
    ``synchronous=FULL``, and an fsync costs ~4 ms on this VM's disk against ~0 there (the same
    code runs; a SIGKILL, all the crash tests make, keeps what the page cache holds either way;
    the benchmarks measure the disk's fsync). Skipped when a temporary root is given, or where
    the RAM disk is small (a container's is 64 MiB by default: a full disk would fail tests)."""
    shm = Path("/dev/shm")
    if (config.option.basetemp is None and "PYTEST_DEBUG_TEMPROOT" not in os.environ
            and shm.is_dir() and os.access(shm, os.W_OK) and _free_bytes(shm) >= RAM_DISK_FREE):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(shm)
        os.environ["TMPDIR"] = str(shm)  # tempfile's own folders too, and the children tests start
        tempfile.tempdir = None


@pytest.fixture(autouse=True)
def _steady_cursor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot shows a focused field's cursor, always: on a loaded machine the screenshot
    could land after the 0.5 s blink had hidden it (the same screen, a different SVG)."""
    if "snap_compare" in request.fixturenames:
        from textual.widgets import Input

        monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture(autouse=True)
def _spanish_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands read LC_ALL and LANG when --lang is absent: tests that expect the default
    (Spanish) must not depend on the machine's locale."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LANG", raising=False)


@pytest.fixture(autouse=True)
def _cheap_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """PINs hashed at a test's cost: scrypt n = 2**4, not production's 2**14 (each hash records
    its own cost, which its check uses: a fixture journal's PINs still check at theirs)."""
    monkeypatch.setattr("shared.staff.SCRYPT_N", 2**4)


@pytest.fixture(autouse=True)
def _quick_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot waits for an idle app after each key by sleeping in steps of 20 ms until a step
    costs (almost) no CPU: at least 60 ms a key, most of a Pilot test's wall time. Steps of
    5 ms tell idle as well (the app's own work is what costs CPU, and is finished first)."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 1 / 200)
    monkeypatch.setattr(textual._wait, "SLEEP_IDLE", 1 / 200 / 20)
