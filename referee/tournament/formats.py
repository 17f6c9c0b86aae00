"""Tournament formats as data: stages of rounds, who takes part in each, how its tables are seated, and how the
results decide the final places and the champion.

A format is a table in ``rulesets/formats/ID.toml`` (read strictly here from plain data, as a scoring scheme);
a new format is a new file, never new code.  Pure Python: no Flask, SQL or file I/O.  The service keeps which
stage each seated round belongs to and asks this module what the next round is, who plays in it, how they sit,
and how the players finish.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import AbstractSet, Any, Callable, Collection, Mapping, Sequence

from ..engine import RulesetError, check_table
from . import regulations, seating
from .scoring import GameResult, Scheme, Standing, standings

ENTRANTS = ("everyone", "top", "table_winners")
SEATINGS = ("draw", "snake", "ranked_boards")
POINTS = ("stage", "carried")
ORDERS = ("standings", "by_board")


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a format: its rounds and who plays them.

    ``rounds`` None: the director closes the stage (goes on to the next one) when they choose.  ``entrants``:
    everyone still in the tournament, the ``count`` best of the stage before (``top``), or the winner of each
    table of the stage before's last round (``table_winners``).  ``seating``: a draw avoiding repeat opponents,
    snake seeding from the standings, or ranked boards (the best on board 1, the next on board 2...).
    ``points``: the stage ranks its players by its own games only (``stage``), or by every game so far
    (``carried``).  ``order``: the stage's final order is its standings, or board by board (``by_board``: every
    player of board 1 before any of board 2, each board by the standings), the champion then from board 1."""

    id: str
    name: Mapping[str, str]
    rounds: int | None = None
    entrants: str = "everyone"
    count: int | None = None
    seating: str = "draw"
    points: str = "carried"
    order: str = "standings"
    invited: bool = False  # invited seeds (a previous champion) join this stage without playing the ones before
    minutes: tuple[int, ...] = ()  # the time limit of each round of the stage, the last repeating; () none
    scoring: str | None = None  # a scoring scheme id; None: the tournament's


@dataclass(frozen=True, slots=True)
class Format:
    id: str
    name: Mapping[str, str]
    source: str
    stages: tuple[Stage, ...]
    description: Mapping[str, str] = field(default_factory=dict)
    # option values every game of the format plays (a regulation, checked against the ruleset when a tournament
    # is created; the director's own regulations come after them)
    options: Mapping[str, Any] = field(default_factory=dict)

    def stage(self, stage_id: str) -> Stage:
        for s in self.stages:
            if s.id == stage_id:
                return s
        raise RulesetError(f"format {self.id}: no stage {stage_id!r}")

    def index(self, stage_id: str) -> int:
        return self.stages.index(self.stage(stage_id))


def _names(where: str, value: Any) -> dict[str, str]:
    if not isinstance(value, dict) or "en" not in value or not all(isinstance(v, str) and v for v in value.values()):
        raise RulesetError(f"{where}: expected names by language, with en, got {value!r}")
    return dict(value)


def _count(where: str, value: Any, minimum: int = 1, maximum: int = 10_000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise RulesetError(f"{where}: expected a whole number from {minimum} to {maximum}, got {value!r}")
    return value


def _choice(where: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise RulesetError(f"{where}: expected one of {', '.join(choices)}, got {value!r}")
    return value


def _minutes(where: str, value: Any) -> tuple[int, ...]:
    """Minutes per round: one number for every round, or a list (round by round, the last repeating)."""
    values = value if isinstance(value, list) else [value]
    return tuple(_count(f"{where}[{i}]", v, 1, 600) for i, v in enumerate(values))


def round_minutes(stage: Stage, played: int) -> int | None:
    """The time limit of the stage's next round, after ``played`` of its rounds (None: no limit)."""
    return stage.minutes[min(played, len(stage.minutes) - 1)] if stage.minutes else None


def parse_format(data: dict) -> Format:
    """A :class:`Format` from a format file's tables; :class:`RulesetError` naming the bad key or value."""
    top = check_table("format file", data, ("format", "stages"))
    f = check_table("format", top["format"], ("id", "name", "source"), ("description", "options"))
    if not isinstance(f.get("options", {}), dict):
        raise RulesetError(f"format.options: expected a table of option values, got {f['options']!r}")
    foreign = regulations.unknown(f.get("options", {}))
    if foreign:
        raise RulesetError(f"format.options: {foreign[0]!r} is not an option a tournament's regulations set "
                           f"(they set: {', '.join(regulations.BY_OPTION)})")
    raw = top["stages"]
    if not isinstance(raw, list) or not raw:
        raise RulesetError(f"stages: expected a list of stages ([[stages]]), got {raw!r}")
    stages: list[Stage] = []
    for i, entry in enumerate(raw):
        where = f"stages[{i}]"
        s = check_table(where, entry, ("id", "name", "entrants", "seating"),
                        ("rounds", "count", "points", "order", "minutes", "scoring", "invited", "note"))
        if not isinstance(s.get("invited", False), bool):
            raise RulesetError(f"{where}.invited: expected true or false, got {s['invited']!r}")
        if not isinstance(s["id"], str) or not s["id"].isidentifier():
            raise RulesetError(f"{where}.id: expected a short name (letters, digits, _), got {s['id']!r}")
        if any(st.id == s["id"] for st in stages):
            raise RulesetError(f"{where}.id: {s['id']!r} is the id of an earlier stage")
        entrants = _choice(f"{where}.entrants", s["entrants"], ENTRANTS)
        if i == 0 and entrants != "everyone":
            raise RulesetError(f"{where}.entrants: the first stage is played by everyone, got {entrants!r}")
        count = _count(f"{where}.count", s["count"], 2) if "count" in s else None
        if (entrants == "top") != (count is not None):
            raise RulesetError(f"{where}.count: the number of players who go on is given for entrants = \"top\" "
                               f"and only then")
        rounds = _count(f"{where}.rounds", s["rounds"], 1, 50) if "rounds" in s else None
        if rounds is None and i == len(raw) - 1 and len(raw) > 1:
            raise RulesetError(f"{where}.rounds: the last stage of several has a number of rounds")
        order = _choice(f"{where}.order", s.get("order", "standings"), ORDERS)
        seating_ = _choice(f"{where}.seating", s["seating"], SEATINGS)
        if order == "by_board" and (seating_ != "ranked_boards" or rounds != 1):
            raise RulesetError(f"{where}.order: by_board is the order of one round seated on ranked boards")
        stages.append(Stage(
            id=s["id"], name=_names(f"{where}.name", s["name"]), rounds=rounds, entrants=entrants, count=count,
            seating=seating_, points=_choice(f"{where}.points", s.get("points", "carried"), POINTS), order=order,
            minutes=_minutes(f"{where}.minutes", s.get("minutes", [])),
            scoring=s.get("scoring"), invited=s.get("invited", False)))
    return Format(id=f["id"], name=_names("format.name", f["name"]), source=str(f["source"]), stages=tuple(stages),
                  description=_names("format.description", f["description"]) if "description" in f else {},
                  options=dict(f.get("options", {})))


INVITED_WORDS = ("invited", "招待", "초청", "eingeladen")  # the third part of a player's line, in any UI language


def least_players(fmt: Format) -> int:
    """The fewest players the format can be played with: as many as its largest cut takes (a final of the four
    table winners of four semi-finals needs the sixteen who reach them)."""
    return max([2] + [s.count for s in fmt.stages if s.entrants == "top" and s.count])


def player_line(line: str) -> tuple[str, str, bool]:
    """A line of the new-tournament form's players: "Name", "Name | Division", or "Name | Division | invited" (a
    seed invited to the stage that takes them, e.g. a previous champion into the final; 招待, 초청 and eingeladen
    say the same): (name, division, invited), each part trimmed.  ValueError("no_name" or "not_invited", the line)
    for a line that is none of these."""
    parts = [part.strip() for part in line.split("|")]
    if not parts[0]:
        raise ValueError("no_name", line.strip()[:60])
    if len(parts) > 3 or len(parts) == 3 and parts[2].casefold() not in INVITED_WORDS:
        raise ValueError("not_invited", line.strip()[:60])
    return parts[0], parts[1] if len(parts) > 1 else "", len(parts) == 3


# --- where a tournament stands -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SeatedRound:
    """A round already seated: its stage and its tables (players in seat order)."""

    number: int
    stage: str
    tables: tuple[tuple[str, ...], ...]


def rounds_of(stage: Stage, seated: Sequence[SeatedRound]) -> list[SeatedRound]:
    return [r for r in seated if r.stage == stage.id]


def current_stage(fmt: Format, seated: Sequence[SeatedRound]) -> Stage:
    """The stage of the last round seated (the first stage before any)."""
    return fmt.stage(seated[-1].stage) if seated else fmt.stages[0]


def next_stages(fmt: Format, seated: Sequence[SeatedRound]) -> list[Stage]:
    """The stages the next round may belong to: the current one while it has rounds to play, the next one when
    it is complete (or may be closed: a stage without a number of rounds, once it has one); none at the end."""
    stage = current_stage(fmt, seated)
    played = len(rounds_of(stage, seated))
    i = fmt.index(stage.id)
    following = [fmt.stages[i + 1]] if i + 1 < len(fmt.stages) else []
    if not seated:
        return [stage]
    if stage.rounds is None:
        return [stage] + following
    if played < stage.rounds:
        return [stage]
    return following


def finished(fmt: Format, seated: Sequence[SeatedRound]) -> bool:
    """Every stage's rounds are seated (the last stage's games may still be playing)."""
    return not next_stages(fmt, seated)


def stage_games(fmt: Format, stage: Stage, games: Sequence[GameResult], round_stage: Mapping[int, str]
                ) -> list[GameResult]:
    """The games a stage ranks its players by: its own, or (``carried``) every game of it and the stages before."""
    if stage.points == "stage":
        return [g for g in games if round_stage.get(g.round) == stage.id]
    upto = {s.id for s in fmt.stages[:fmt.index(stage.id) + 1]}
    return [g for g in games if round_stage.get(g.round) in upto]


def stage_standings(fmt: Format, stage: Stage, scheme: Scheme, games: Sequence[GameResult],
                    round_stage: Mapping[int, str], players: Collection[str]) -> list[Standing]:
    """The stage's standings, of ``players`` (those who took part in it)."""
    mine = set(players)
    ranked = standings(scheme, stage_games(fmt, stage, games, round_stage))
    return [s for s in ranked if s.player in mine]


def entrants(fmt: Format, stage: Stage, active: Sequence[str], seated: Sequence[SeatedRound],
             previous_order: Sequence[str], games: Sequence[GameResult], invited: Sequence[str] = ()) -> list[str]:
    """Who plays the stage's rounds: the ``invited`` seeds of this stage (a previous champion) first, then
    ``active`` (the players still in the tournament, in their order) for everyone; for ``top``, the first of
    ``previous_order`` (the stage before's final order) still active, as many as make ``count`` with the
    invited; for ``table_winners``, the winner of each table of the stage before's last round, in table order
    (a winner who has dropped is replaced by the next of that table)."""
    still = set(active) - set(invited)
    if stage.entrants == "everyone":
        return list(invited) + [p for p in active if p in still]
    if stage.entrants == "top":
        assert stage.count is not None  # (a stage of the top players names how many: parse_format)
        return list(invited) + [p for p in previous_order if p in still][:max(0, stage.count - len(invited))]
    before = fmt.stages[fmt.index(stage.id) - 1]
    last = rounds_of(before, seated)[-1]
    results = {frozenset(p.player for p in g.players): g for g in games if g.round == last.number}
    out = list(invited)
    for table in last.tables:
        game = results.get(frozenset(table))
        if game is None:
            continue  # a table with no result (its record was altered) sends no one on
        for p in sorted(game.players, key=lambda p: p.rank):
            if p.player in still:
                out.append(p.player)
                break
    return out


def division_view(seated: Sequence[SeatedRound], games: Sequence[GameResult], members: AbstractSet[str]
                  ) -> tuple[list[SeatedRound], list[GameResult]]:
    """One division's share of the tournament: every round (a division plays each round with the others), with
    only its own tables, and only its own games (a table never mixes divisions)."""
    rounds = [SeatedRound(r.number, r.stage, tuple(t for t in r.tables if t and t[0] in members)) for r in seated]
    return rounds, [g for g in games if g.players and g.players[0].player in members]


def seat(stage: Stage, players: Sequence[str], met: Mapping[frozenset, int], rng: random.Random,
         allowed: frozenset[int] | None = None) -> list[list[str]]:
    """The round's tables (of the ``allowed`` sizes only, when the scoring scheme scores only some): ``players`` in
    standings order for snake seeding and ranked boards (the order does not matter to a draw)."""
    sizes = seating.table_sizes(len(players), allowed)
    if stage.seating == "draw":
        return seating.draw(list(players), dict(met), rng, sizes=sizes)
    if stage.seating == "snake":
        return seating.seeded(list(players), len(sizes))
    boards, start = [], 0
    for size in sizes:  # ranked boards: the best on board 1
        boards.append(list(players[start:start + size]))
        start += size
    return boards


def stage_order(stage: Stage, ranked: Sequence[str], seated: Sequence[SeatedRound]) -> list[str]:
    """The stage's final order: its standings, or board by board (by_board: every player of board 1 first)."""
    if stage.order != "by_board":
        return list(ranked)
    boards = rounds_of(stage, seated)[-1].tables
    place = {p: (b, ranked.index(p) if p in ranked else len(ranked)) for b, table in enumerate(boards) for p in table}
    return sorted(place, key=lambda p: place[p])


def stage_orders(fmt: Format, scheme_of: Callable[[Stage], Scheme], seated: Sequence[SeatedRound],
                 games: Sequence[GameResult]) -> list[tuple[Stage, list[Standing]]]:
    """Each stage with seated rounds, first stage first, with the standings of those who played it (and have a
    finished game in it), in the stage's final order."""
    round_stage = {r.number: r.stage for r in seated}
    out = []
    for stage in fmt.stages:
        played = rounds_of(stage, seated)
        if not played:
            break
        players = {p for r in played for table in r.tables for p in table}
        ranked = stage_standings(fmt, stage, scheme_of(stage), games, round_stage, players)
        by_player = {st.player: st for st in ranked}
        out.append((stage, [by_player[p] for p in stage_order(stage, [st.player for st in ranked], seated)
                            if p in by_player]))
    return out


def places(orders: Sequence[tuple[Stage, Sequence[Standing]]], division: str = "",
           seated: Sequence[SeatedRound] = ()) -> list[Standing]:
    """The tournament's places: those who reached a later stage before those who went out earlier, each group in
    the order of the last stage it played.  Each player's standing is that stage's (its points), its rank the
    place; players equal in a stage's standings share a place (never across boards or stages)."""
    out: list[Standing] = []
    seen: set[str] = set()
    played: dict[str, dict[int, Any]] = {}  # every game a player played, by round, from every stage's standings
    for _, ordered in orders:
        for st in ordered:
            played.setdefault(st.player, {}).update({rnd: pts for rnd, pts, _ in st.games})
    for stage, ordered in reversed(orders):
        boards = {}  # board by board: each player's board in the stage's last round
        if stage.order == "by_board" and rounds_of(stage, seated):
            boards = {p: b for b, table in enumerate(rounds_of(stage, seated)[-1].tables, start=1) for p in table}
        last_rank = None  # the stage rank of the player placed just before, in this stage
        for st in ordered:
            if st.player in seen:
                continue
            seen.add(st.player)
            shared = last_rank is not None and stage.order != "by_board" and last_rank == st.rank
            counted = {rnd for rnd, _, _ in st.games}  # the earlier stages' games are shown, not counted
            games = tuple(sorted(st.games + tuple((rnd, pts, False) for rnd, pts in played[st.player].items()
                                                  if rnd not in counted)))
            out.append(replace(st, rank=out[-1].rank if shared else len(out) + 1, stage=stage.id, division=division,
                               games=games, board=boards.get(st.player)))
            last_rank = st.rank
    taken = Counter(st.rank for st in out)
    return [replace(st, shared=True) if taken[st.rank] > 1 else st for st in out]
