"""The benchmarks' modules (``bench/`` is a folder of scripts, not a package), for the tests
that build their journals or read their dumps."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_module(name: str) -> ModuleType:
    """``bench/name.py``, imported as the benchmark scripts import each other."""
    sys.path.insert(0, str(BENCH))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(BENCH))
