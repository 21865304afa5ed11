"""The benchmark scripts run and print what their documentation promises (tiny runs)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> str:
    env = {**os.environ, "HANDFOOT_EXPERT_BUDGET": "0.02"}
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=True, env=env)
    return done.stdout


def test_engine_benchmark_prints_three_units_with_their_ratios_to_gin_rummy() -> None:
    out = _run("benchmarks/engine.py", "--profile", "biegames", "--profile", "bicycle",
               "--games", "1", "--baseline-games", "2", "--reps", "2")
    spread = r"[\d,]+/[\d,]+/[\d,]+"
    ratio = r"\([\d.]+/[\d.]+/[\d.]+x gin\)"
    for name in ("biegames", "bicycle"):
        assert re.search(rf"^{name} 2x2: decisions/s {spread} {ratio}; moves/s {spread} "
                         rf"{ratio}; turns/s {spread} {ratio}; games/s ", out, re.M), out
    assert re.search(rf"^  gin rummy around it: decisions/s {spread}; turns/s {spread}$", out,
                     re.M), out


def test_selfplay_benchmark_prints_rounds_per_second_per_profile() -> None:
    out = _run("benchmarks/selfplay.py", "--profile", "biegames", "--games", "1", "--reps",
               "2")
    assert re.search(r"^biegames 2x2: [\d.]+/[\d.]+/[\d.]+ rounds/s \(min/median/max of 2\), "
                     r"games/s [\d.]+/[\d.]+/[\d.]+", out, re.M), out


def test_selfplay_benchmark_prints_decisions_per_second_and_a_round() -> None:
    # the cost of a decision, beside a round's: profiles differ in decisions a round
    out = _run("benchmarks/selfplay.py", "--profile", "biegames", "--games", "1", "--reps",
               "2")
    assert re.search(r"^biegames 2x2: .* decisions/s [\d,]+/[\d,]+/[\d,]+ \([\d,]+ a round\)",
                     out, re.M), out


def test_bot_benchmark_gives_p50_and_p99_and_the_searched_decisions() -> None:
    # the expert searches only where it could go out: a few games make sure it does
    out = _run("benchmarks/bots.py", "--profile", "biegames", "--games", "4",
               "--rounds", "1", "--bots", "hard,expert")
    assert re.search(r"^biegames hard: p50 \d+ us, p99 \d+ us", out, re.M), out
    assert re.search(r"^biegames expert searched decisions: p50 \d+ ms, p99 \d+ ms", out,
                     re.M), out


def test_search_gain_benchmark_reports_each_kind_of_decision_and_rule() -> None:
    out = _run("benchmarks/search_gain.py", "--profile", "biegames", "--games", "1",
               "--samples", "4", "--play-fraction", "0.05")
    assert re.search(r"^biegames draw: \d+ decisions, gain per decision z=0: [+-]\d+\.\d "
                     r"\([+-]\d+\.\d to [+-]\d+\.\d\); z=1: .*; z=2: ", out, re.M), out


def test_search_gain_sees_the_hands_on_the_same_decisions_with_other_worlds() -> None:
    # --see-hands changes only the samples: the games and the decisions measured are the same
    args = ("benchmarks/search_gain.py", "--profile", "biegames", "--games", "1",
            "--samples", "4", "--kinds", "draw", "--seed", "3")
    view = _run(*args)
    seen = _run(*args, "--see-hands")
    assert "of the seat's view" in view and "of the true hands, stock re-dealt" in seen, seen
    rows = [re.search(r"^biegames draw: (\d+) decisions, gain per decision (.*)$", out, re.M)
            for out in (view, seen)]
    assert rows[0] and rows[1], (view, seen)
    assert int(rows[0][1]) > 0 and rows[0][1] == rows[1][1]  # paired
    assert rows[0][2] != rows[1][2]  # other worlds, other gains


def test_server_load_benchmark_plays_tables_over_websockets_without_errors() -> None:
    out = _run("benchmarks/server_load.py", "--tables", "2", "--seconds", "3", "--think",
               "0.05")
    last = out.strip().splitlines()[-1]
    found = re.fullmatch(r"server_load: 2 tables, p99 (\d+\.\d) ms, (\d+) errors, "
                         r"(\d+) moves/s", last)
    assert found, out
    assert found[2] == "0", out
    assert int(found[3]) > 0, out
    assert re.search(r"^move round trip: p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms", out,
                     re.M), out
    assert re.search(r"^server RSS: [\d.]+ MiB before, [\d.]+ MiB after: [\d.]+ MiB per "
                     r"table", out, re.M), out
    assert out.startswith("handfoot "), out  # which build served
    assert re.search(r"^once every client had joined \([\d.]+ s in; the last [\d.]+ s\): "
                     r"\d+ moves, server CPU [\d.]+ s \([\d.]+ ms a move\)", out, re.M), out


def test_server_load_spreads_clients_over_processes_and_gives_the_server_s_own_figure(
        ) -> None:
    # clients in two processes (their measurements merged), waits spread, and beside the
    # round trip the server's own histogram and the clients' own event loop
    # 6 s: the server's own figure is of the play once every client has joined, and on a
    # loaded machine the two clients' processes took up to 3 s to start and join
    out = _run("benchmarks/server_load.py", "--tables", "3", "--seconds", "6", "--think",
               "0.05", "--think-spread", "0.5", "--client-processes", "2")
    assert "clients in 2 processes" in out and "think 0.05 s ± 50%" in out, out
    found = re.search(r"^server_load: 3 tables, p99 [\d.]+ ms, 0 errors, (\d+) moves/s$", out,
                      re.M)
    assert found and int(found[1]) > 0, out
    moves = re.search(r"^moves: (\d+) ", out, re.M)
    assert moves and int(moves[1]) > 0, out
    own = re.search(r"^the server's own figure .*, (\d+) moves\): within 5 ms [\d.]+%.* "
                    r"500 ms ([\d.]+)%$", out, re.M)
    assert own and int(own[1]) > 0 and float(own[2]) > 0, out
    assert re.search(r"^the clients' own event loop .*p99 [\d.]+ ms", out, re.M), out


def test_server_load_profiles_the_play_alone_from_the_last_join(tmp_path: Path) -> None:
    import pstats

    stats_file = tmp_path / "play.pstats"
    out = _run("benchmarks/server_load.py", "--tables", "2", "--seconds", "3", "--think",
               "0.05", "--profile-play", str(stats_file))
    assert re.search(r"^server_load: 2 tables, p99 [\d.]+ ms, 0 errors, ", out, re.M), out
    called = {(Path(f).name, name): calls for (f, _, name), (_, calls, *_)
              in pstats.Stats(str(stats_file)).stats.items()}  # type: ignore[attr-defined]
    assert called.get(("table.py", "_move"), 0) > 0  # the moves are in the profile
    assert ("table.py", "join") not in called  # the joins are not: it began after the last
    assert ("app.py", "_new_game") not in called  # nor the games' creation


def test_server_move_benchmark_gives_each_piece_of_a_move_and_the_sockets() -> None:
    out = _run("benchmarks/server_move.py", "--moves", "30", "--reps", "2", "--frames", "20")
    spread = r" +[\d.]+ / +[\d.]+ / +[\d.]+"
    for piece in ("verify", "store", "play", "views", "writes", "total"):
        assert re.search(rf"^  {piece}{spread}$", out, re.M), out
    assert re.search(rf"one 2 KB frame written{spread}", out), out
    assert re.search(rf"four 2 KB frames written{spread}", out), out
    assert re.search(rf"five 2 KB frames written{spread}", out), out


def test_burst_benchmark_gives_the_loops_turns_while_tables_move_at_once() -> None:
    for settle in ("0", "3"):
        out = _run("benchmarks/burst.py", "--tables", "6", "--bursts", "2", "--reps", "1",
                   "--settle", settle)
        assert f"a group let go {settle if settle != '0' else 1_000_000} moves a turn" in out
        for name in ("turn p50", "turn p99", "longest turn", "longest GC", "CPU a move"):
            assert re.search(rf"^  {name} +[\d.]+ / +[\d.]+ / +[\d.]+ (ms|µs)$", out,
                             re.M), out


def test_plan_count_benchmark_reports_plans_and_distinct_positions() -> None:
    out = _run("benchmarks/plan_counts.py", "--profile", "biegames", "--games", "1")
    for kind in ("draw", "play"):
        assert re.search(rf"^biegames {kind}: \d+ decisions; plans mean \d+\.\d\d \(max \d+\); "
                         r"distinct positions mean \d+\.\d\d \(max \d+\); \d+\.\d% with more "
                         r"than one; \d+\.\d% of plans accepted to the end", out, re.M), out


def test_score_lines_benchmark_breaks_the_difference_down_by_line() -> None:
    out = _run("benchmarks/score_lines.py", "--profile", "remastered-teams", "--bots",
               "hard:dirty_need=0,hard", "--deals", "2", "--seed", "3")
    assert re.search(r"^remastered-teams 2x2: hard:dirty_need=0 against hard, 2 deals, 4 games",
                     out, re.M), out
    assert re.search(r"^games won by the first: \d+\.\d% \(50\.0% between equals\)$", out, re.M)
    for key in ("total", "clean_books", "dirty_books", "going_out", "black_threes_caught"):
        assert re.search(rf"^{key} +[+-]\d+ +\([+-]\d+ to [+-]\d+\) +\d+$", out, re.M), out


def test_compare_benchmark_runs_each_build_and_counts_the_same_actions() -> None:
    out = _run("benchmarks/compare.py", "hard", "biegames", "--size", "1", "--reps", "2",
               f"a={ROOT / 'src'}", f"b={ROOT / 'src'}")
    rows = re.findall(r"^  ([ab]) +[\d.,]+ / [\d.,]+ / [\d.,]+  x[\d.]+  \(([\d,]+) actions\)$",
                      out, re.M)
    assert [name for name, _ in rows] == ["a", "b"], out
    assert rows[0][1] == rows[1][1], out  # the same build plays the same games


def test_compare_benchmark_pairs_two_builds_and_prints_their_ratios() -> None:
    out = _run("benchmarks/compare.py", "hard", "biegames", "--size", "1", "--reps", "2",
               "--pairs", f"a={ROOT / 'src'}", f"b={ROOT / 'src'}")
    assert re.search(r"^  pairs +[\d.]+ / [\d.]+ / [\d.]+  \(the second's rate over the "
                     r"first's, each pair\)$", out, re.M), out


def test_restore_benchmark_measures_both_code_versions_on_the_same_games() -> None:
    out = _run("benchmarks/restore.py", "--games", "1", "--loads", "1", "--runs", "2",
               "--baseline", "src")
    for version in ("this", "baseline"):
        for kind in ("finished", "ongoing"):
            assert re.search(rf"^{version} \(.*\): {kind}: CPU min / median / max "
                             r"[\d.]+ / [\d.]+ / [\d.]+ ms \(2 loads\)$", out, re.M), out
    last = out.strip().splitlines()[-1]
    found = re.fullmatch(r"restore: finished median ([\d.]+) ms CPU \(baseline ([\d.]+) ms\), "
                         r"ongoing median ([\d.]+) ms \(([\d.]+) ms\)", last)
    assert found, out
    assert all(float(x) > 0 for x in found.groups()), out


def test_train_cluster_benchmark_runs_each_way_and_checks_the_models() -> None:
    pytest.importorskip("distributed")
    out = _run("benchmarks/train_cluster.py", "--games", "4", "--games-per-iteration", "2",
               "--repeats", "1")
    spread = r"min [\d.]+, median [\d.]+, max [\d.]+"
    for way in ("one process \\(--workers 1\\)", "--workers 2", "Dask, 2 workers"):
        assert re.search(rf"^  {way} +wall s {spread}; CPU s, every process {spread}$", out,
                         re.M), out
    assert "every run wrote the same model" in out


def test_timers_benchmark_prints_the_cpu_time_of_a_pass() -> None:
    out = _run("benchmarks/timers.py", "--turns", "30", "--due", "3", "--reps", "2")
    for due in (0, 3):
        assert re.search(rf"^30 turns, {due} due: [\d.]+/[\d.]+/[\d.]+ ms CPU a pass "
                         r"\(min/median/max of 2\)$", out, re.M), out


def test_broadcast_benchmark_gives_a_broadcasts_cpu_per_move() -> None:
    out = _run("benchmarks/broadcast.py", "--games", "1", "--reps", "2")
    assert re.search(r"^broadcast CPU per move, \d+ moves a repetition, 2 repetitions "
                     r"\(min / median / max, microseconds\): [\d.]+ / [\d.]+ / [\d.]+$",
                     out, re.M), out


def test_server_join_benchmark_gives_the_server_s_cpu_a_connection() -> None:
    out = _run("benchmarks/server_join.py", "--tables", "2", "--repeats", "2", "--hold", "0.5")
    assert len(re.findall(r"^round \d: 8 connections joined in [\d.]+ s; server CPU [\d.]+ s "
                          r"\([\d.]+ ms a connection\); the clients' CPU [\d.]+ s; 0 errors; "
                          r"load average [\d.]+; held 0.5 s: server CPU \d+ ms a second$",
                          out, re.M)) == 2, out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"server_join: 2 tables, 8 connections, [\d.]+ ms of server CPU a "
                        r"connection \(min/median/max [\d.]+/[\d.]+/[\d.]+\), joined in "
                        r"[\d.]+ s, 0 errors", last), out
