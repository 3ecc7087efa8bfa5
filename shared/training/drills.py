"""The drill catalogue and how a session starts.

A seed makes a session repeatable: the same game, drill, seed and length give the same
questions, so a trainer can give one drill to a whole class. The BANCA tableau drill
weights its cases by the trainee's own misses only when no seed is given — with a
seed every trainee gets the same cases.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Protocol

from shared.cards import make_rng
from shared.errors import InputError
from shared.messages import Msg, text
from shared.record import record
from shared.training.core import Clock, Exercise, Session
from shared.training.graded import DEALING, DEALING_TITLE
from shared.training.madero_drills import BoardReadingDrill, MaderoPayoutDrill, MaderoRoundDrill
from shared.training.midi_drills import BancaTableauDrill, MidiCoupDrill, MidiPayoutDrill, tableau_weights
from shared.training.store import TrainingStore
from shared.text import TRAINEE

GAMES = ("madero", "midi")


class Drill(Protocol):
    game: str
    name: str
    title: Msg
    default_length: int

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]: ...


@record
class DrillInfo:
    game: str
    name: str
    title: Msg
    summary: Msg
    build: Callable[[TrainingStore | None, str, bool], Drill]
    """(store, trainee, adaptive) → the drill."""


def _tableau(store: TrainingStore | None, trainee: str, adaptive: bool) -> Drill:
    record = store.cell_record(trainee, "tableau") if store is not None and adaptive else None
    return BancaTableauDrill(tableau_weights(record))


CATALOGUE: tuple[DrillInfo, ...] = (
    DrillInfo("madero", "round", MaderoRoundDrill.title, Msg.of("drill.summary_madero_round"),
              lambda store, trainee, adaptive: MaderoRoundDrill()),
    DrillInfo("madero", "board", BoardReadingDrill.title, Msg.of("drill.summary_madero_board"),
              lambda store, trainee, adaptive: BoardReadingDrill()),
    DrillInfo("madero", "payouts", MaderoPayoutDrill.title, Msg.of("drill.summary_madero_payouts"),
              lambda store, trainee, adaptive: MaderoPayoutDrill()),
    DrillInfo("midi", "coup", MidiCoupDrill.title, Msg.of("drill.summary_midi_coup"),
              lambda store, trainee, adaptive: MidiCoupDrill()),
    DrillInfo("midi", "tableau", BancaTableauDrill.title, Msg.of("drill.summary_midi_tableau"),
              _tableau),
    DrillInfo("midi", "payouts", MidiPayoutDrill.title, Msg.of("drill.summary_midi_payouts"),
              lambda store, trainee, adaptive: MidiPayoutDrill()),
)


def drills_for(game: str) -> tuple[DrillInfo, ...]:
    return tuple(d for d in CATALOGUE if d.game == game)


def session_title(game: str, drill: str) -> Msg:
    """How a stored session is named: its drill, or the graded table."""
    if drill == DEALING:
        return DEALING_TITLE
    return find_drill(game, drill).title


def find_drill(game: str, name: str) -> DrillInfo:
    for info in CATALOGUE:
        if info.game == game and info.name == name:
            return info
    names = ", ".join(d.name for d in drills_for(game))
    raise KeyError(f"no drill {name!r} for {game} (drills: {names})")


MAX_EXERCISES = 500
"""A session is dealt whole at its start: a bound keeps a typo (``--count 10000000``) from
hanging the console."""


def check_session(trainee: str | None, count: int | None) -> None:
    """The trainee's ID or name (None: not known yet) and the number of exercises."""
    if trainee is not None:
        TRAINEE.check(trainee)
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_EXERCISES):
        raise InputError(Msg.of("training.count_range", most=MAX_EXERCISES))


def start_session(game: str, name: str, *, trainee: str, seed: int | None = None, count: int | None = None,
                  store: TrainingStore | None = None, clock: Clock | None = None) -> Session:
    """A new session: the drill's exercises dealt now from ``make_rng(seed)``."""
    check_session(trainee, count)
    info = find_drill(game, name)
    drill = info.build(store, trainee, seed is None)
    exercises: list[Exercise] = list(drill.exercises(make_rng(seed), count))
    kwargs = {"clock": clock} if clock is not None else {}
    return Session(exercises, trainee=trainee, game=game, drill=name, seed=seed, **kwargs)


KINDS: tuple[str, ...] = (
    "punto_cards", "punto_draw", "banca_draw", "tableau", "winner", "payout_punto", "payout_banca",
    "payout_banca_six", "payout_commission", "payout_tie", "payout_tie_return", "best_five", "combination",
    "payout_ante", "payout_flop", "payout_turn", "payout_river", "payout_bonus", "payout_jackpot",
    "bonus_line", "jackpot_line", "special_prize", "punto_total", "banca_total", "burn_count", "last_coup",
)
"""Every kind of decision the drills ask; the score card names each by the catalog's
``training.kind_<kind>``."""


def kind_name(kind: str, lang: str) -> str:
    return text(f"training.kind_{kind}", lang) if kind in KINDS else kind
