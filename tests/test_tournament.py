"""Tournaments: duplicate pairs, determinism, workers, statistics and the command."""

from __future__ import annotations

import json

import pytest

from handfoot.cli import main
from handfoot.game.loading import load_profile
from handfoot.runs.tournament import TournamentResult, mean_ci, run_tournament, wilson_interval

SHORT = {"rounds": 1}


def deterministic(result: TournamentResult) -> dict[str, object]:
    d = result.as_dict()
    d.pop("timing")
    return d


def records_key(result: TournamentResult) -> list[tuple[object, ...]]:
    return [(r.pairing, r.pair, r.game_in_pair, r.deal_seed, r.side_bots, r.bot_seeds,
             r.totals, r.winners, r.moves, r.actions,
             tuple((c.moves, c.draws, c.pickups, c.decisions) for c in r.counts))
            for r in result.records]


def test_duplicate_pairs_swap_sides_over_the_same_deal() -> None:
    profile = load_profile("partnership-13", overrides=SHORT)
    result = run_tournament(profile, ["easy", "random"], 3, 5)
    assert len(result.records) == 6
    deals = set()
    for first, second in zip(result.records[::2], result.records[1::2], strict=True):
        assert first.game_in_pair == 0 and second.game_in_pair == 1
        assert first.pair == second.pair
        assert first.deal_seed == second.deal_seed
        assert first.side_bots == ("easy", "random")
        assert second.side_bots == ("random", "easy")
        # bots' own seeds differ between the two games of the pair and between seats
        assert len(set(first.bot_seeds + second.bot_seeds)) == 8
        deals.add(first.deal_seed)
    assert len(deals) == 3
    for s in result.bot_stats.values():
        assert s.games == 6
        assert len(s.pair_diffs) == 3
    assert result.bot_stats["easy"].wins + result.bot_stats["random"].wins == 6


def test_singles_layout_one_seat_per_side() -> None:
    profile = load_profile("biegames", overrides=SHORT)
    from handfoot.game.rules import Layout

    result = run_tournament(profile, ["random", "easy"], 1, 3, layout=Layout(2, 1))
    assert result.layout == "2x1"
    assert [r.side_bots for r in result.records] == [("random", "easy"), ("easy", "random")]
    assert all(len(r.bot_seeds) == 2 for r in result.records)


def test_three_bots_round_robin(monkeypatch: pytest.MonkeyPatch) -> None:
    from handfoot.bots import registry
    from handfoot.bots.heuristic import RandomBot

    monkeypatch.setitem(registry.BOTS, "random2", RandomBot)
    profile = load_profile("partnership-13", overrides=SHORT)
    result = run_tournament(profile, ["easy", "random", "random2"], 2, 11)
    assert [p.bots for p in result.pairings] == [
        ("easy", "random"), ("easy", "random2"), ("random", "random2")]
    assert len(result.records) == 3 * 2 * 2
    by_pairing: dict[int, list[int]] = {}
    for r in result.records:
        by_pairing.setdefault(r.pairing, []).append(r.deal_seed)
    assert by_pairing[0] == by_pairing[1] == by_pairing[2]  # the same deals everywhere
    for s in result.bot_stats.values():
        assert s.games == 8
    assert "random2 vs" not in result.format()  # pairings named first bot first
    assert "random vs random2" in result.format()


def test_deterministic_for_a_seed() -> None:
    profile = load_profile("partnership-13", overrides=SHORT)
    a = run_tournament(profile, ["easy", "random"], 2, 42)
    b = run_tournament(profile, ["easy", "random"], 2, 42)
    c = run_tournament(profile, ["easy", "random"], 2, 43)
    assert deterministic(a) == deterministic(b)
    assert records_key(a) == records_key(b)
    assert records_key(a) != records_key(c)


def test_workers_give_identical_results() -> None:
    profile = load_profile("partnership-13", overrides=SHORT)
    seen: list[tuple[int, int]] = []
    one = run_tournament(profile, ["easy", "random"], 4, 9, workers=1)
    two = run_tournament(profile, ["easy", "random"], 4, 9, workers=2,
                         progress=lambda done, total: seen.append((done, total)))
    assert records_key(one) == records_key(two)
    assert deterministic(one) == deterministic(two)
    assert seen[0] == (0, 8) and seen[-1] == (8, 8)


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    lo, hi = wilson_interval(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_ci_normal_approximation() -> None:
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 1.959963984540054 * (1.6666666666666667 ** 0.5) / 2
    assert lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert mean_ci([3.0]) == (3.0, 3.0, 3.0)


def test_easy_beats_random_in_partnership() -> None:
    profile = load_profile("partnership-13")
    result = run_tournament(profile, ["easy", "random"], 10, 1)
    easy = result.bot_stats["easy"]
    assert easy.games == 20
    assert easy.win_rate >= 0.8
    assert easy.diff_sum > 0
    lo, _ = easy.win_ci()
    assert lo > 0.5
    # the easy bot takes the pile on some of its draws; the random bot hardly ever
    assert 0 < easy.pickup_rate < 0.5
    assert easy.draws + easy.pickups > 0


def test_rejects_bad_arguments() -> None:
    profile = load_profile("partnership-13", overrides=SHORT)
    for bots, games, workers in ((["easy"], 1, 1), (["easy", "nobody"], 1, 1),
                                 (["easy", "random"], 0, 1), (["easy", "random"], 1, 0),
                                 (["easy", "easy"], 1, 1)):
        with pytest.raises(ValueError):
            run_tournament(profile, bots, games, 1, workers=workers)


def test_cli_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--profile", "partnership-13", "--set", "rounds=1",
                 "--bots", "easy,random", "--games", "2", "--seed", "3", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0
    assert "WIN RATE (95% CI)" in out and "PICKUP RATE" in out
    assert "head to head:" in out and "easy vs random:" in out
    # the pairing's moves count both sides (the table's MOVES/GAME is one bot's), and says so
    assert out.rstrip().endswith(" moves/game (both sides)")


def test_cli_json_parses(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--profile", "partnership-13", "--set", "rounds=1",
            "--bots", "easy,random", "--games", "2", "--seed", "3", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*args, "--workers", "2"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert set(first["per_bot"]) == {"easy", "random"}
    assert first["per_bot"]["easy"]["games"] == 4
    assert "us_per_decision" in first["timing"]["easy"]
    first.pop("timing")
    second.pop("timing")
    assert first == second


@pytest.mark.parametrize("extra", [
    ["--bots", "easy"],
    ["--bots", "easy,nobody"],
    ["--bots", "easy,random", "--games", "0"],
    ["--bots", "easy,random", "--workers", "0"],
    ["--bots", "easy,random", "--layout", "3x1"],
    [],
])
def test_cli_bad_options_exit_2(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--profile", "partnership-13", *extra]) == 2
    assert capsys.readouterr().err
