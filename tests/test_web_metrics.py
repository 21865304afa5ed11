"""The operators' view (issue 34, item 4): ``/healthz`` says whether the process and its
database answer (503 when the database does not), ``/metrics`` gives Prometheus' text format
with the tables, connections, moves, move latency, commit time and event-loop lag, and
names no game, seat or token."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from handfoot.web.metrics import LAG_EVERY
from pg import start_or_fail
from web_client import Person, client, new_game, token_of

HUMAN_FIRST = {"seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3}


def _samples(c: TestClient) -> dict[str, float]:
    """``/metrics`` read with Prometheus' own parser: every sample by its name and labels."""
    r = c.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=")
    out = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return out


def test_healthz_answers_with_the_process_and_its_database(tmp_path: Path) -> None:
    with client(tmp_path / "h.db") as c:
        r = c.get("/healthz")
        assert r.status_code == 200
        body = r.json()
        assert body["status"] == "ok"
        assert body["database"]["ok"] is True and body["database"]["kind"] == "sqlite"
        assert body["tables"] == 0 and body["connections"] == 0
        assert r.headers["cache-control"] == "no-store"


def test_healthz_says_503_while_the_database_does_not_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with client(tmp_path / "h.db") as c:
        store = c.app.state.store  # type: ignore[attr-defined]

        async def refused() -> None:
            raise OperationalError("SELECT 1", {}, ConnectionRefusedError(111, "refused"))

        monkeypatch.setattr(store, "ping", refused)
        r = c.get("/healthz")
        assert r.status_code == 503
        assert r.json()["status"] == "unavailable"
        assert r.json()["database"] == {"ok": False, "error": "OperationalError",
                                        "seconds": r.json()["database"]["seconds"],
                                        "kind": "sqlite"}
        assert "refused" not in r.text  # the driver's words stay in the log
        monkeypatch.undo()
        assert c.get("/healthz").status_code == 200


def test_metrics_count_a_game_s_moves_tables_and_connections(tmp_path: Path) -> None:
    with client(tmp_path / "m.db") as c:
        before = _samples(c)
        assert before["handfoot_tables"] == 0
        assert before["handfoot_moves_total{by=human}"] == 0
        assert before["handfoot_moves_total{by=bot}"] == 0
        game = new_game(c, **HUMAN_FIRST)
        token = token_of(game["seats"][0]["link"])
        person = Person(c, game["game_id"], token, seat=0)
        person.connect()
        person.until("state")
        played = 0
        while played < 6:
            if person.my_turn():
                person.play(person.choose())
                played += 1
            else:
                person.receive()
        table = c.portal.call(c.app.state.tables.get,  # type: ignore[attr-defined]
                              game["game_id"])
        after = _samples(c)
        assert after["handfoot_tables"] == 1
        assert after["handfoot_connections{kind=seat}"] == 1
        assert after["handfoot_connections{kind=spectator}"] == 0
        assert after["handfoot_moves_total{by=human}"] == played
        assert after["handfoot_moves_total{by=bot}"] == table.seq - played
        assert after["handfoot_move_seconds_count"] == played
        assert 0 < after["handfoot_move_seconds_sum"] < 60
        # every move committed (SQLite groups them: one transaction may hold several)
        assert 1 <= after["handfoot_db_commit_seconds_count"] <= table.seq
        deadline = time.monotonic() + 5  # the lag probe wakes every LAG_EVERY seconds
        while after["handfoot_event_loop_lag_seconds_count"] < 1 and time.monotonic() < deadline:
            time.sleep(LAG_EVERY)
            after = _samples(c)
        assert after["handfoot_event_loop_lag_seconds_count"] >= 1
        assert after["handfoot_event_loop_lag_max_seconds"] >= 0
        assert after["process_cpu_seconds_total"] > 0
        text = c.get("/metrics").text
        # nothing private: no game id, no token, no player's name
        for secret in (game["game_id"], token, token_of(game["spectator_link"])):
            assert secret not in text
        labels = set(re.findall(r"\{([^}]*)\}", text))
        keys = {part.split("=")[0] for group in labels for part in group.split(",") if part}
        assert keys <= {"by", "kind", "le", "version"}, keys
        person.close()
        assert c.get("/healthz").json()["tables"] == 1


def test_healthz_on_a_real_postgresql_outage() -> None:
    """PostgreSQL stopped (its connections cut): 503 with the database's error, the
    process still answering; started again: 200."""
    server = start_or_fail()
    try:
        with client(server.database()) as c:
            assert c.get("/healthz").json()["database"]["kind"] == "postgresql"
            assert c.get("/healthz").status_code == 200
            server.outage()
            r = c.get("/healthz")
            assert r.status_code == 503 and r.json()["database"]["ok"] is False
            assert c.get("/metrics").status_code == 200  # the process answers
            server.recover()
            for _ in range(50):  # the pool's dead connections are noticed and replaced
                r = c.get("/healthz")
                if r.status_code == 200:
                    break
            assert r.status_code == 200, r.text
    finally:
        server.stop()
