"""Ratings (issue 30, item 3): handfoot.runs.ratings and ``handfoot ratings`` give what
openskill's Plackett-Luce model gives when called directly on the same results, the teams
and ranks built here by hand from the games' final totals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")

from openskill.models import PlackettLuce

from handfoot.bots.registry import make_bot
from handfoot.game.engine import GameState
from handfoot.game.loading import load_profile
from handfoot.game.record import GameRecorder, read_record, to_json
from handfoot.runs.ratings import (
    BOT_ANCHORS,
    GameResult,
    Rating,
    Ratings,
    Seat,
    result_of_record,
)
from handfoot.runs.sim import play_game

SHORT = {"rounds": 1}


def play(folder: Path, name: str, seed: int, names: list[str], levels: list[str],
         metadata: dict[str, Any] | None = None) -> Path:
    """A finished one-round partnership-13 game between bots of ``levels``, recorded with
    the seats named ``names``; its record written to ``folder/name``."""
    profile = load_profile("partnership-13", overrides=SHORT)
    recorder = GameRecorder(GameState.new(profile, seed=seed), seat_names=names,
                            metadata=metadata or {})
    play_game(profile, seed, [make_bot(level, seed + i) for i, level in enumerate(levels)],
              recorder=recorder)
    path = folder / name
    path.write_text(to_json(recorder.record()))
    return path


def totals_of(path: Path) -> list[int]:
    """The game's final totals, summed from the record's round results."""
    record = read_record(path)
    sides = 2
    return [sum(r.result.scores[s].total for r in record.rounds if r.result is not None)
            for s in range(sides)]


def ranks(totals: list[int]) -> list[int]:
    a, b = totals
    return [1, 1] if a == b else ([1, 2] if a > b else [2, 1])


def handfoot(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "handfoot", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("rated")
    people = ["Ann", "Bob", "Cat", "Dan"]
    return {
        # metadata.finished: the second game to end is written first
        "late": play(folder, "b-late.json", 11, people, ["hard", "easy", "normal", "random"],
                     {"finished": "2026-12-05T20:00:00Z"}),
        "early": play(folder, "a-early.json", 12, ["Bob", "Ann", "Dan", "Cat"],
                      ["hard", "normal", "easy", "hard"],
                      {"finished": "2026-12-05T19:00:00Z"}),
        # Ann and a hard bot against two easy bots; the web server's metadata.bots
        "bots": play(folder, "c-bots.json", 13, ["Ann", "Hard bot", "Cat", "Easy bot"],
                     ["hard", "hard", "hard", "easy"],
                     {"bots": [None, "hard", None, "easy"],
                      "finished": "2026-12-05T21:00:00Z"}),
    }


def test_two_games_rated_in_the_order_they_ended(games: dict[str, Path]) -> None:
    model = PlackettLuce()
    r = {name: model.rating() for name in ("Ann", "Bob", "Cat", "Dan")}
    # early: seats Bob, Ann, Dan, Cat -> side 0 is Bob and Dan, side 1 Ann and Cat
    early = totals_of(games["early"])
    (r["Bob"], r["Dan"]), (r["Ann"], r["Cat"]) = model.rate(
        [[r["Bob"], r["Dan"]], [r["Ann"], r["Cat"]]], ranks=ranks(early))
    late = totals_of(games["late"])
    (r["Ann"], r["Cat"]), (r["Bob"], r["Dan"]) = model.rate(
        [[r["Ann"], r["Cat"]], [r["Bob"], r["Dan"]]], ranks=ranks(late))

    results = [result_of_record(read_record(games[k])) for k in ("late", "early")]
    ratings = Ratings()
    ratings.rate_all([r for r in results if r is not None])
    got = {p.seat.name: p.rating for p in ratings.players()}
    assert set(got) == set(r)
    for name, expected in r.items():
        assert got[name].mu == pytest.approx(expected.mu, abs=1e-9), name
        assert got[name].sigma == pytest.approx(expected.sigma, abs=1e-9), name
    assert early != [0, 0] and any(abs(got[n].mu - 25.0) > 0.1 for n in got)


def test_the_order_of_the_games_matters(games: dict[str, Path]) -> None:
    """Rated the other way round the numbers differ: the test above would see a wrong order."""
    results = [result_of_record(read_record(games[k])) for k in ("early", "late")]
    in_order = Ratings()
    backwards = Ratings()
    for res in results:
        assert res is not None
        in_order.rate(res)
    for res in reversed(results):
        assert res is not None
        backwards.rate(res)
    a = {p.seat.name: p.rating.mu for p in in_order.players()}
    b = {p.seat.name: p.rating.mu for p in backwards.players()}
    assert a != b


def test_bots_are_fixed_anchors(games: dict[str, Path]) -> None:
    model = PlackettLuce()
    hard, easy = BOT_ANCHORS["hard"], BOT_ANCHORS["easy"]
    totals = totals_of(games["bots"])
    # seats Ann, Hard bot, Cat, Easy bot: Ann and Cat against the two bots
    (ann, cat), (hard_after, easy_after) = model.rate(
        [[model.rating(), model.rating()],
         [model.rating(mu=hard.mu, sigma=hard.sigma), model.rating(mu=easy.mu, sigma=easy.sigma)]],
        ranks=ranks(totals))
    result = result_of_record(read_record(games["bots"]))
    assert result is not None
    ratings = Ratings()
    ratings.rate(result)
    got = {p.seat: p for p in ratings.players()}
    assert got[Seat("Ann")].rating.mu == pytest.approx(ann.mu, abs=1e-9)
    assert got[Seat("Ann")].rating.sigma == pytest.approx(ann.sigma, abs=1e-9)
    assert got[Seat("Cat")].rating.mu == pytest.approx(cat.mu, abs=1e-9)
    # openskill moved the bots; the ratings keep them where they were
    assert (hard_after.mu, easy_after.mu) != (hard.mu, easy.mu)
    assert got[Seat("hard", "hard")].rating == hard
    assert got[Seat("easy", "easy")].rating == easy
    assert got[Seat("hard", "hard")].games == 1


def test_seats_and_sides_of_a_record(games: dict[str, Path]) -> None:
    result = result_of_record(read_record(games["bots"]))
    assert result is not None
    # seats 0 and 2 are partners (side 0), 1 and 3 (side 1)
    assert result.sides == ((Seat("Ann"), Seat("Cat")), (Seat("hard", "hard"),
                                                           Seat("easy", "easy")))
    assert result.profile == "partnership-13 with rounds = 1"
    assert result.finished == "2026-12-05T21:00:00Z"


def test_a_tie_is_a_tie() -> None:
    model = PlackettLuce()
    ann, bob = model.rating(mu=30, sigma=4), model.rating(mu=20, sigma=6)
    (a,), (b,) = model.rate([[ann], [bob]], ranks=[1, 1])
    (aw,), _ = model.rate([[ann], [bob]], ranks=[1, 2])
    ratings = Ratings(ratings={("p", ("Ann", None)): Rating(30, 4),
                               ("p", ("Bob", None)): Rating(20, 6)})
    ratings.rate(GameResult("p", ((Seat("Ann"),), (Seat("Bob"),)), (500, 500)))
    assert ratings.rating("p", Seat("Ann")).mu == pytest.approx(a.mu)
    assert ratings.rating("p", Seat("Bob")).mu == pytest.approx(b.mu)
    assert a.mu < 30 < aw.mu  # the stronger player loses ground in a tie


def test_one_rating_per_rule_set() -> None:
    ratings = Ratings()
    ratings.rate(GameResult("biegames", ((Seat("Ann"),), (Seat("Bob"),)), (900, 100)))
    assert ratings.rating("biegames", Seat("Ann")).mu > 25
    assert ratings.rating("bicycle", Seat("Ann")) == Rating()
    assert [p.profile for p in ratings.players("bicycle")] == []


def test_the_command_agrees_with_openskill(games: dict[str, Path]) -> None:
    folder = games["late"].parent
    done = handfoot("ratings", *(str(p) for p in games.values()), "--json", cwd=folder)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    ratings = Ratings()
    results = [result_of_record(read_record(p)) for p in games.values()]
    ratings.rate_all([r for r in results if r is not None])
    expected = {(p.seat.name, p.seat.bot is not None): p.rating for p in ratings.players()}
    got = {(p["name"], p["bot"]): (p["mu"], p["sigma"]) for p in data["players"]}
    assert set(got) == set(expected)
    for key, rating in expected.items():
        assert got[key] == pytest.approx((rating.mu, rating.sigma), abs=1e-12)
    assert data["games"] == 3
    # a folder is its records
    same = handfoot("ratings", str(folder), "--json", cwd=folder)
    assert json.loads(same.stdout)["players"] == data["players"]
    table = handfoot("ratings", str(folder), cwd=folder)
    assert table.returncode == 0 and "Ann" in table.stdout and "hard (bot, fixed)" in table.stdout


def test_a_game_not_over_is_left_out(tmp_path: Path) -> None:
    profile = load_profile("partnership-13", overrides=SHORT)
    recorder = GameRecorder(GameState.new(profile, seed=3), seat_names=["A", "B", "C", "D"])
    from handfoot.game.moves import parse_move
    recorder.apply(parse_move("draw"))
    (tmp_path / "open.json").write_text(to_json(recorder.record()))
    done = handfoot("ratings", "open.json", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"players": [], "games": 0, "not_over": ["open.json"]}


@pytest.mark.parametrize(("argv", "words"), [
    (["ratings", "nofile.json"], "nofile.json: no such file"),
    (["ratings", "junk.json"], "junk.json: not valid JSON"),
    (["ratings", "cheat.json"], "cheat.json: "),
    (["ratings", "good.json", "--profile", "bicycle"], "--profile bicycle: no finished game"),
])
def test_bad_input_is_one_line_and_exit_2(games: dict[str, Path], tmp_path: Path,
                                          argv: list[str], words: str) -> None:
    (tmp_path / "junk.json").write_text("{not json")
    data = json.loads(games["late"].read_text())
    data["rounds"][0]["moves"][0]["move"] = "discard 5"  # not a legal first move
    (tmp_path / "cheat.json").write_text(json.dumps(data))
    (tmp_path / "good.json").write_text(games["late"].read_text())
    done = handfoot(*argv, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_names_are_printed_as_written(tmp_path: Path) -> None:
    """A name from a record is text, never Rich markup: ``[/]`` (markup that closes nothing)
    crashed the table, ``[bold]`` was swallowed."""
    names = ["[/]", "[bold]Bob", "Cat [red]", "Dan"]
    play(tmp_path, "odd.json", 21, names, ["hard", "easy", "normal", "random"])
    done = handfoot("ratings", "odd.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for name in names:
        assert name in done.stdout
