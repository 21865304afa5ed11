"""Each bot level's rating on the OpenSkill scale, from the ladder's tournaments.

    python benchmarks/level_ratings.py FILE [FILE ...] [--out PATH] [--note TEXT]

Reads the games of duplicate tournaments from their partial-results files (``handfoot
tournament ... --partial FILE``: every finished pair's games, with each side's bot and
final total) and rates each level with openskill's Plackett-Luce model from a new player's
rating (mu 25, sigma 25/3), as the club's ratings do: one match per game, the sides ranked
by their totals (equal totals tie), a level one player (in a partnership both seats are the
same bot). The games are taken deal by deal (every file's games of deal 1, then of deal 2,
...), so that no level meets only one other for a long stretch. A bot spec with settings
(``hard:hold=1``) is rated apart from its level; only the levels are shipped.

Writes ``PATH`` (default ``src/handfoot/bots/models/ratings.json``, what the lobby shows
beside each level, :func:`handfoot.bots.registry.level_ratings`): per level its mu, sigma
and games, and a card naming the runs (profile, seating, bots, pairs, seed), the model and
the openskill version. Needs openskill (``pip install openskill``; the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src/handfoot/bots/models/ratings.json"


def read_partial(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A partial-results file's run and its games (each a tournament game's record)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    if head.get("format") != "handfoot-partial/1" or head["run"].get("command") != "tournament":
        raise SystemExit(f"{path}: not the partial-results file of a tournament")
    games: list[dict[str, Any]] = []
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except ValueError:
            break  # a line cut short: the run was stopped there
        games.extend(entry["result"])
    return head["run"], games


def ranks(totals: list[int]) -> list[int]:
    """Each side's place: 1 for the highest total, equal totals share a place."""
    return [1 + sum(other > total for other in totals) for total in totals]


def rate(runs: list[list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    """Every bot's rating after the runs' games, taken deal by deal."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players: dict[str, Any] = {}
    played: dict[str, int] = {}
    order = sorted(((g["pair"], i, g["pairing"], g["game_in_pair"], g)
                    for i, games in enumerate(runs) for g in games),
                   key=lambda t: t[:4])
    for *_, game in order:
        sides = game["side_bots"]
        teams = [[players.setdefault(name, model.rating(name=name))] for name in sides]
        rated = model.rate(teams, ranks=[float(r) for r in ranks(list(game["totals"]))])
        for name, team in zip(sides, rated, strict=True):
            players[name] = team[0]
            played[name] = played.get(name, 0) + 1
    return {name: {"mu": round(p.mu, 2), "sigma": round(p.sigma, 2), "games": played[name]}
            for name, p in sorted(players.items(), key=lambda kv: -kv[1].mu)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="tournaments' partial-results files")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--note", default="", help="a line for the card (where the runs ran)")
    args = parser.parse_args()
    runs, games = [], []
    for path in args.files:
        run, played = read_partial(path)
        runs.append({k: run[k] for k in ("profile", "layout", "bots", "games", "seed")}
                    | {"games_read": len(played), "file": path.name})
        games.append(played)
    ratings = rate(games)
    from handfoot.bots.registry import BOTS

    levels = {name: r for name, r in ratings.items() if name in BOTS}
    data = {"ratings": levels,
            "scale": "OpenSkill Plackett-Luce (openskill's defaults: a new player is "
                     "mu 25, sigma 25/3); the lobby shows mu",
            "method": "one match per game, sides ranked by final totals, a level one "
                      "player, games taken deal by deal over every run",
            "openskill": metadata.version("openskill"), "runs": runs,
            "others": {n: r for n, r in ratings.items() if n not in BOTS}}
    if args.note:
        data["note"] = args.note
    args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    for name, r in ratings.items():
        print(f"{name:<10} {r['mu']:6.2f} ± {2 * r['sigma']:.2f}   ({r['games']} games)")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
