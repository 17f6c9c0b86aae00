"""Where a tournament stands in its format, and who plays its next round: pure rules on values.

:func:`progress` works out each division's standings from the rounds seated and the results; :func:`cuts` and
:func:`division_entrants` say who goes on to a stage; :func:`division_tables` seats them.  The service reads
the rows and results and writes the round these rules seat.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Sequence

from ..engine import RulesetError
from . import formats
from . import seating as seeding
from .messages import BadTournament, Named
from .roster import Entrant, active, divisions
from .scoring import GameResult, Scheme, Standing


@dataclass(frozen=True)
class DivisionProgress:
    """One division's share (the only one, named "", when the tournament has no divisions): its rounds and games
    (its own tables), each stage's standings in its final order, and its places."""

    name: str
    members: frozenset
    seated: list[formats.SeatedRound]
    games: list
    orders: list[tuple[formats.Stage, list]]
    places: list  # Standing rows, rank = place within the division


@dataclass(frozen=True)
class Progress:
    """Where a tournament stands in its format: the rounds seated (each with its stage), the stages the next
    round may belong to, and each division's standings and places."""

    format: formats.Format
    seated: list[formats.SeatedRound]
    next_stages: list[formats.Stage]
    divisions: list[DivisionProgress]
    playing: bool  # a round's games are still being played

    @property
    def stage(self) -> formats.Stage:
        return formats.current_stage(self.format, self.seated)

    @property
    def places(self) -> list:
        """Every division's places, one division after the other (each ranked from 1)."""
        return [st for d in self.divisions for st in d.places]

    @property
    def champions(self) -> list[tuple[str, str]]:
        """(division, champion) for each division, once every stage is seated and played."""
        if self.next_stages or self.playing:
            return []
        return [(d.name, d.places[0].player) for d in self.divisions if d.places]

    @property
    def champion(self) -> str | None:
        """The champion of a tournament without divisions, once every stage is seated and played."""
        return self.champions[0][1] if len(self.divisions) == 1 and self.champions else None


@dataclass(frozen=True)
class Cut:
    """Who goes on to a stage that not everyone plays, in one division: ``going`` in order, and ``tied``, those
    left out although equal in the standings with the last one going on (the standings' order decided); ``fewer``,
    the players ranked for it with fewer games than the most any of them played (a late entrant: their total counts
    fewer games), as (player, their games, the most)."""

    division: str
    going: list[str]
    tied: list[str]
    fewer: list[tuple[str, int, int]] = field(default_factory=list)


def progress(fmt: formats.Format, scheme_of: Callable[[formats.Stage], Scheme], players: Sequence[Entrant],
             seated: list[formats.SeatedRound], results: Sequence[GameResult], playing: bool) -> Progress:
    """The tournament's progress from its roster, the rounds seated, every finished table's result and whether
    the last round is still being played."""
    out = []
    for name in divisions(players):
        members = frozenset(p.name for p in players if p.division == name)
        mine, games = formats.division_view(seated, results, members)
        try:
            orders = formats.stage_orders(fmt, scheme_of, mine, games)
        except RulesetError as exc:  # a round of a stage the format's file no longer has
            raise BadTournament.of("the standings cannot be worked out: {problem}",
                                   {"problem": str(exc)[:200]}) from None
        out.append(DivisionProgress(name, members, mine, games, orders,
                                    _marked(formats.places(orders, name, mine), players)))
    return Progress(fmt, seated, formats.next_stages(fmt, seated), out, playing)


def _marked(places: list[Standing], players: Sequence[Entrant]) -> list[Standing]:
    """The places with each player who dropped marked (their results stand: they keep their place)."""
    dropped = {p.name: p.dropped_round for p in players if p.dropped_round is not None}
    return [replace(st, dropped=dropped[st.player]) if st.player in dropped else st for st in places]


def division_entrants(players: Sequence[Entrant], fmt: formats.Format, chosen: formats.Stage,
                      division: DivisionProgress) -> tuple[list[str], list]:
    """One division's players for the next round of ``chosen`` (the seeds invited to the stage first, then in the
    standings' order where the stage seats by it), and the stage before's standings they were chosen from."""
    members = {p.name: p for p in players if p.division == division.name}
    in_play = [n for n in active(players) if n in members]
    waiting = [n for n in in_play if members[n].invited_stage is None]
    invited = [n for n in in_play if members[n].invited_stage == chosen.id]
    before = fmt.stages[fmt.index(chosen.id) - 1] if fmt.index(chosen.id) else None
    previous = next((order for st, order in division.orders if before is not None and st.id == before.id), [])
    current = next((order for st, order in division.orders if st.id == chosen.id), previous)
    ranked = [st.player for st in (current if chosen.seating != "draw" else previous)]
    chosen_players = formats.entrants(fmt, chosen, waiting, division.seated, [st.player for st in previous],
                                      division.games, invited)
    # snake seeding and ranked boards go by the standings: the invited seeds first, then the standings' order;
    # players with no result yet come last, as listed
    ordered = invited + [p for p in ranked if p in chosen_players and p not in invited] + [
        p for p in chosen_players if p not in ranked and p not in invited]
    return ordered, previous


def cuts(players: Sequence[Entrant], at: Progress, stage_id: str) -> list[Cut]:
    """Who would play the next round of ``stage_id``, division by division, and who is left out though tied with
    the last one going on."""
    fmt = at.format
    chosen = fmt.stage(stage_id)
    out = []
    for division in at.divisions:
        going, previous = division_entrants(players, fmt, chosen, division)
        last_rank = {st.player: st.rank for st in previous}
        cut = last_rank.get(going[-1]) if going else None
        tied = [st.player for st in previous if cut is not None and st.rank == cut and st.player not in going]
        most = max((len(st.games) for st in previous), default=0)
        fewer = [(st.player, len(st.games), most) for st in previous if len(st.games) < most]
        out.append(Cut(division.name, going, tied, fewer))
    return out


def division_tables(players: Sequence[Entrant], fmt: formats.Format, chosen: formats.Stage,
                    division: DivisionProgress, scheme: Scheme, rng: random.Random) -> list[list[str]]:
    """One division's tables for the next round of ``chosen`` (scored by ``scheme``): its entrants (with the
    seeds invited to the stage) seated as the stage says; none when no one of the division plays the stage."""
    entrants, _ = division_entrants(players, fmt, chosen, division)
    if not entrants:
        return []
    if len(entrants) < 2:
        if division.name:
            raise BadTournament.of("the stage \"{stage}\" has {n} players in the division {division}: a round "
                                   "needs at least 2",
                                   {"stage": Named.name_of(chosen), "n": len(entrants), "division": division.name})
        raise BadTournament.of("the stage \"{stage}\" has {n} players: a round needs at least 2",
                               {"stage": Named.name_of(chosen), "n": len(entrants)})
    met: Mapping[frozenset, int] = seeding.met_counts([list(map(list, r.tables)) for r in division.seated])
    allowed = frozenset(scheme.placement) if scheme.kind == "placement" else None
    try:
        return formats.seat(chosen, entrants, met, rng, allowed)
    except ValueError:
        raise BadTournament.of("{n} players cannot be seated at tables the scoring scores (of {sizes} players): "
                               "check a player in, enter one late or let one drop, then seat the round",
                               {"n": len(entrants), "sizes": ", ".join(map(str, sorted(allowed or ())))}) from None
