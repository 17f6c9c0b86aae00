"""Scoring schemes as data, and the standings they give.

A scheme is a table in ``rulesets/scoring/ID.toml`` (read strictly here from
plain data, like a ruleset); a new scheme is a data entry, not code.  Each
game's result comes from the engine's final ranking: rank, assets, and
whether the game ended in a monopoly win.  Pure Python: no Flask, SQL or
file I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from ..engine import NotWhole, RulesetError, check_table, whole_number
from .messages import BadTournament, Named

KINDS = ("placement", "asset_share", "asset_points")
TIEBREAKS = ("monopoly_wins", "placement_points", "total_assets")


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's result at one table."""

    player: str
    rank: int  # 1 is best
    assets: int
    monopoly_win: bool = False  # this player won by bankrupting every other player


@dataclass(frozen=True, slots=True)
class GameResult:
    round: int
    table: str
    players: tuple[PlayerResult, ...]

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def monopoly(self) -> bool:
        return any(p.monopoly_win for p in self.players)


@dataclass(frozen=True, slots=True)
class Scheme:
    id: str
    name: Mapping[str, str]
    kind: str
    placement: Mapping[int, tuple[int, ...]] = field(default_factory=dict)  # table size -> points by rank
    monopoly_points: Mapping[int, Fraction] = field(default_factory=dict)  # table size -> points for the winner
    share_factor: Mapping[int, Fraction] = field(default_factory=dict)  # table size -> factor (asset share)
    share_cap: Fraction | None = None
    round_caps: tuple[int, ...] = ()  # asset points: cap per round (round 1 first); the last one repeats
    best_of: int | None = None  # count only the best N games
    tiebreaks: tuple[str, ...] = ()
    decimals: int = 1


def _fraction(where: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesetError(f"{where}: expected a number, got {value!r}")
    return Fraction(str(value))


def _by_size(where: str, data: Any) -> dict[int, Any]:
    if not isinstance(data, dict) or not data:
        raise RulesetError(f"{where}: expected a table keyed by table size, got {data!r}")
    out = {}
    for key, value in data.items():
        try:
            out[whole_number(where, str(key), 2, 8)] = value
        except NotWhole:
            raise RulesetError(f"{where}: {key!r} is not a table size from 2 to 8") from None
    return out


def parse_scheme(data: dict) -> Scheme:
    """A :class:`Scheme` from a scoring file's table; :class:`RulesetError` naming the bad key or value."""
    top = check_table("scoring file", data, ("scheme",), ())
    s = check_table("scheme", top["scheme"], ("id", "name", "kind", "tiebreaks"),
              ("description", "source", "placement", "monopoly_points", "share_factor", "share_cap", "round_caps",
               "best_of", "decimals"))
    kind = s["kind"]
    if kind not in KINDS:
        raise RulesetError(f"scheme.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    tiebreaks = tuple(s["tiebreaks"])
    for t in tiebreaks:
        if t not in TIEBREAKS:
            raise RulesetError(f"scheme.tiebreaks: unknown tie-break {t!r}")
    placement: dict[int, tuple[int, ...]] = {}
    if "placement" in s:
        for size, points in _by_size("scheme.placement", s["placement"]).items():
            if not isinstance(points, list) or len(points) != size:
                raise RulesetError(f"scheme.placement.{size}: expected {size} points, got {points!r}")
            placement[size] = tuple(int(_fraction(f"scheme.placement.{size}", p)) for p in points)
    if kind == "placement" and not placement:
        raise RulesetError("scheme.placement: a placement scheme needs points for each table size")
    monopoly = {size: _fraction(f"scheme.monopoly_points.{size}", v)
                for size, v in _by_size("scheme.monopoly_points", s["monopoly_points"]).items()} \
        if "monopoly_points" in s else {}
    factor = {size: _fraction(f"scheme.share_factor.{size}", v)
              for size, v in _by_size("scheme.share_factor", s["share_factor"]).items()} \
        if "share_factor" in s else {}
    caps = tuple(int(_fraction("scheme.round_caps", c)) for c in s.get("round_caps", ()))
    if kind == "asset_points" and not caps:
        raise RulesetError("scheme.round_caps: an asset-points scheme needs a cap per round")
    best = s.get("best_of")
    if best is not None and (not isinstance(best, int) or best < 1):
        raise RulesetError(f"scheme.best_of: expected a whole number of games, got {best!r}")
    return Scheme(
        id=s["id"], name=s["name"], kind=kind, placement=placement, monopoly_points=monopoly, share_factor=factor,
        share_cap=_fraction("scheme.share_cap", s["share_cap"]) if "share_cap" in s else None,
        round_caps=caps, best_of=best, tiebreaks=tiebreaks, decimals=int(s.get("decimals", 1)),
    )


def game_points(scheme: Scheme, game: GameResult) -> dict[str, Fraction]:
    """Each player's points for one game under the scheme."""
    out: dict[str, Fraction] = {}
    if scheme.kind == "placement":
        table = scheme.placement.get(game.size)
        if table is None:
            raise BadTournament.of("the scoring \"{scheme}\" gives no points for a table of {n} players (round "
                                   "{round}, table {table})", {"scheme": Named.name_of(scheme), "n": game.size,
                                                               "round": game.round, "table": game.table})
        for p in game.players:
            out[p.player] = Fraction(table[p.rank - 1])
            if p.monopoly_win and game.size in scheme.monopoly_points:
                out[p.player] = scheme.monopoly_points[game.size]
    elif scheme.kind == "asset_share":
        total = sum(p.assets for p in game.players)
        factor = scheme.share_factor.get(game.size, Fraction(1))
        for p in game.players:
            share = Fraction(100 * p.assets, total) * factor if total else Fraction(0)
            if scheme.share_cap is not None:
                share = min(share, scheme.share_cap)
            if p.monopoly_win and game.size in scheme.monopoly_points:
                share = scheme.monopoly_points[game.size]
            out[p.player] = share
    else:
        cap = scheme.round_caps[min(game.round, len(scheme.round_caps)) - 1]
        for p in game.players:
            out[p.player] = Fraction(min(p.assets, cap))
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    total: Fraction
    games: tuple[tuple[int, Fraction, bool], ...]  # (round, points, counted)
    monopoly_wins: int
    placement_points: Fraction
    total_assets: int
    stage: str = ""  # in a tournament's places: the stage whose standings give this row (its last)
    division: str = ""  # in a tournament's places: the player's division (each has its own places)
    board: int | None = None  # in the places of a stage ranked board by board: the player's board (1 first)
    shared: bool = False  # in a tournament's places: another player has this place (equal after every tie-break)
    dropped: int | None = None  # in a tournament's places: the player dropped after this round (0: before round 1)

    def rounded(self, decimals: int) -> float:
        return round(float(self.total), decimals)


def standings(scheme: Scheme, games: list[GameResult]) -> list[Standing]:
    """Every player's total (best N games where the scheme says so), ranked with the scheme's tie-breaks.

    Players still equal after every tie-break share the rank.  The placement-points tie-break adds up
    the scheme's placement points for every game (0 where the scheme has no placement table).
    """
    per_player: dict[str, list[tuple[int, Fraction]]] = {}
    wins: dict[str, int] = {}
    placement: dict[str, Fraction] = {}
    assets: dict[str, int] = {}
    for game in games:
        points = game_points(scheme, game)
        for p in game.players:
            per_player.setdefault(p.player, []).append((game.round, points[p.player]))
            wins[p.player] = wins.get(p.player, 0) + (1 if p.monopoly_win else 0)
            table = scheme.placement.get(game.size)
            placement[p.player] = placement.get(p.player, Fraction(0)) + (table[p.rank - 1] if table else 0)
            assets[p.player] = assets.get(p.player, 0) + p.assets
    rows = []
    for player, results in per_player.items():
        keep = len(results) if scheme.best_of is None else scheme.best_of
        best = sorted(range(len(results)), key=lambda i: results[i][1], reverse=True)[:keep]
        total = sum((results[i][1] for i in best), Fraction(0))
        games_out = tuple((rnd, pts, i in best) for i, (rnd, pts) in enumerate(results))
        rows.append((player, total, games_out))
    values = {
        "monopoly_wins": lambda p: wins[p], "placement_points": lambda p: placement[p],
        "total_assets": lambda p: assets[p],
    }

    def key(row):
        player, total, _ = row
        return (total,) + tuple(values[t](player) for t in scheme.tiebreaks)

    rows.sort(key=key, reverse=True)
    out: list[Standing] = []
    for i, row in enumerate(rows):
        rank = out[-1].rank if out and key(rows[i - 1]) == key(row) else i + 1
        player, total, games_out = row
        out.append(Standing(rank, player, total, games_out, wins[player], placement[player], assets[player]))
    return out
