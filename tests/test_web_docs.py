"""docs/web.md stays true: its key table is the table's keys, its protocol section has every
message the server reads and sends with an example the server accepts, its `state` example
has the keys of a real game's frames, and it lists every route of the app."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient

from handfoot.game import events
from handfoot.web import protocol
from handfoot.web.protocol import read_message
from web_client import Person, client, new_game, token_of

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "web.md"
WEB = ROOT / "src" / "handfoot" / "web"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def section(text: str, start: str, end: str | None = None) -> str:
    """The text from the line ``start`` to the line ``end`` (or the end)."""
    i = text.index(f"\n{start}\n")
    j = text.index(f"\n{end}\n", i) if end is not None else len(text)
    return text[i:j]


def json_blocks(text: str) -> list[Any]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def by_heading(text: str) -> dict[str, list[Any]]:
    """The JSON examples under each ``##### `name` `` heading of ``text``."""
    parts = re.split(r"^##### `(\w+)`\n", text, flags=re.M)
    return {name: json_blocks(body) for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def client_section() -> str:
    return section(doc(), "#### Client → server", "#### Server → client")


def server_section() -> str:
    return section(doc(), "#### Server → client", "#### Error codes")


# --- what the code defines ---------------------------------------------------------------------


def client_types() -> set[str]:
    """The message types the server's parser accepts."""
    names = getattr(protocol, "CLIENT_MESSAGES", None) or protocol.CLIENT_TYPES
    return set(names)


def server_types() -> set[str]:
    """The message types the server sends: a constant if the code has one, else every
    ``"type": "..."`` literal of the server's modules."""
    names = getattr(protocol, "SERVER_MESSAGES", None)
    if names:
        return set(names)
    found: set[str] = set()
    for name in ("app.py", "messages.py", "table.py", "protocol.py"):
        source = (WEB / name).read_text(encoding="utf-8")
        found |= set(re.findall(r"""["']type["']\s*:\s*["'](\w+)["']""", source))
    return found


def error_codes() -> set[str]:
    """Every error code the server's modules send (``messages.error(id, "code", ...)``,
    refusals returned as ``("code", message)`` and ``"code": "..."`` literals)."""
    found: set[str] = set()
    for name in ("app.py", "messages.py", "table.py", "guard.py", "talk.py"):
        source = (WEB / name).read_text(encoding="utf-8")
        found |= set(re.findall(r"""["']code["']\s*:\s*["'](\w+)["']""", source))
        found |= set(re.findall(r"""\berror\(\s*[^,()]+,\s*["'](\w+)["']""", source))
        found |= set(re.findall(r"""return\s+["'](\w+)["'],\s""", source))
    return found


def keys_of_input_js() -> list[tuple[str, str]]:
    source = (WEB / "static" / "input.js").read_text(encoding="utf-8")
    block = re.search(r"export const KEYS = \[\n(.*?)\n\];", source, re.S)
    assert block, "static/input.js has no KEYS table"
    rows = re.findall(r'^\s*\[\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\s*\],?\s*$',
                      block.group(1), re.M)
    assert len(rows) == block.group(1).count("\n") + 1, "a KEYS row this test cannot read"
    return [(json.loads(f'"{k}"'), json.loads(f'"{t}"')) for k, t in rows]


# --- keys -------------------------------------------------------------------------------------


def test_the_key_table_is_the_keys_of_input_js() -> None:
    table = section(doc(), "## Keys", "## Hosting for family")
    rows = re.findall(r"^\| `([^`]+)` \| (.+) \|$", table, re.M)
    assert rows == keys_of_input_js()


# --- the protocol -----------------------------------------------------------------------------


def test_every_json_example_parses() -> None:
    assert len(json_blocks(doc())) >= 20


def test_every_client_message_has_an_example_the_server_accepts() -> None:
    examples = by_heading(client_section())
    assert set(examples) == client_types()
    for name, blocks in examples.items():
        assert blocks, f"no JSON example for the client message {name!r}"
        for block in blocks:
            assert block["type"] == name
            message = read_message(block)
            assert message.type == name


def test_every_server_message_has_an_example() -> None:
    examples = by_heading(server_section())
    assert set(examples) == server_types()
    for name, blocks in examples.items():
        assert blocks, f"no JSON example for the server message {name!r}"
        assert all(block["type"] == name for block in blocks)


def test_every_error_code_is_documented() -> None:
    table = section(doc(), "#### Error codes", "### VIEW")
    documented = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    codes = error_codes()
    assert "illegal" in codes and "stale" in codes  # the scan still finds them
    assert documented == codes


def test_every_route_is_documented(tmp_path: Path) -> None:
    text = doc()
    with client(tmp_path / "routes.db") as c:
        for route in c.app.routes:  # type: ignore[attr-defined]
            if isinstance(route, Route):
                for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                    assert f"`{method} {route.path}" in text, (method, route.path)
            elif isinstance(route, WebSocketRoute):
                assert f"`GET {route.path}`" in text, route.path


def test_every_event_type_is_documented() -> None:
    table = section(doc(), "### EVENT", "## Code layout")
    documented = set(re.findall(r"^\| `(\w+)` \|", table, re.M))
    assert documented == set(events._EVENT_TYPES.values())


# --- a real game's frames ---------------------------------------------------------------------


def state_example() -> dict[str, Any]:
    (example,) = by_heading(server_section())["state"]
    assert isinstance(example, dict)
    return example


def game_over_example() -> dict[str, Any]:
    (example,) = json_blocks(section(doc(), "#### At the end of the game", "#### ROUND_RESULT"))
    assert isinstance(example, dict)
    return example


def shape_differences(doc_value: Any, real: Any, where: str = "") -> Iterator[str]:
    """Where a documented example and a real value have different keys (dicts compared key
    by key, lists by their first items)."""
    if isinstance(doc_value, dict) and isinstance(real, dict):
        if set(doc_value) != set(real):
            yield f"{where or 'top'}: documented {sorted(doc_value)}, sent {sorted(real)}"
        for key in set(doc_value) & set(real):
            yield from shape_differences(doc_value[key], real[key], f"{where}.{key}")
    elif isinstance(doc_value, list) and isinstance(real, list) and doc_value and real:
        yield from shape_differences(doc_value[0], real[0], f"{where}[0]")


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Frames of a real one-round game through the WebSocket: a seat's state mid-round
    with melds on the table, its last state, a spectator's state, and every event the seat
    was sent."""
    path = tmp_path_factory.mktemp("web-docs") / "game.db"
    with client(path) as c:
        game = new_game(c, profile="partnership-13", rounds=1)
        person = Person(c, game["game_id"], token_of(game["seats"][0]["link"]), seat=0)
        person.connect()
        person.until("state")
        spectator = _spectator_state(c, game)
        middle = None
        final = person.play_to_end()
        for frame in person.frames:
            view = frame["view"]
            if view["phase"] == "play" and all(view["melds"]) and any(
                    e.get("private") for e in frame["events"]):
                middle = frame
                break
        assert middle is not None
        events = [e for frame in person.frames for e in frame["events"]]
        replay = c.get(f"/api/games/{game['game_id']}/replay").json()
        person.close()  # before the server stops: its leaving is not stored after the store closed
    return {"middle": middle, "final": final, "spectator": spectator, "events": events,
            "replay": replay}


def _spectator_state(c: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    with c.websocket_connect(f"/ws/{game['game_id']}") as ws:
        ws.send_json({"type": "hello", "token": token_of(game["spectator_link"]), "seq": 0})
        assert ws.receive_json()["type"] == "welcome"
        state: dict[str, Any] = ws.receive_json()
    assert state["type"] == "state"
    return state


def test_the_state_example_has_the_keys_of_a_real_state(frames: dict[str, Any]) -> None:
    example = state_example()
    assert list(shape_differences(example, frames["middle"])) == []


def test_the_view_table_lists_every_view_key() -> None:
    table = section(doc(), "### VIEW", "#### At the end of the game")
    documented = {key for cell in re.findall(r"^\| (.+?) \|", table, re.M)
                  for key in re.findall(r"`(\w+)`", cell)}
    assert documented == set(state_example()["view"])


def test_the_game_over_view_adds_the_documented_keys(frames: dict[str, Any]) -> None:
    final = frames["final"]["view"]
    assert final["phase"] == "game_over"
    extra = game_over_example()
    assert set(final) == set(state_example()["view"]) | set(extra)
    assert list(shape_differences(extra, {k: final[k] for k in extra})) == []


def test_a_spectator_view_is_the_documented_view_without_the_seat_keys(
        frames: dict[str, Any]) -> None:
    view = frames["spectator"]["view"]
    assert set(view) == set(state_example()["view"]) - {"hand", "staged", "legal", "kinds"}
    assert view["seat"] is view["side"] is view["opening_minimum"] is view["asking"] is None


def test_every_event_key_of_a_real_game_is_documented(frames: dict[str, Any]) -> None:
    text = section(doc(), "### EVENT", "## Code layout")
    keys: set[str] = set()
    for event in frames["events"]:
        keys |= set(event) | set(event.get("private", {}))
        keys |= set(event.get("round_end", {}))
    assert {"n", "type", "private", "round_end"} <= keys
    assert sorted(k for k in keys if f"`{k}`" not in text) == []


def test_replay_frames_are_as_documented(frames: dict[str, Any]) -> None:
    (example,) = json_blocks(section(doc(), "#### Replay frames", "### The WebSocket"))
    replay = frames["replay"]
    assert set(replay) == {"record", "frames"}
    spectator = set(frames["spectator"]["view"])
    for frame in replay["frames"]:
        assert set(frame) == set(example)
        assert set(frame["state"]) == spectator | {"hands", "feet", "knees"}
    assert set(example["state"]) <= spectator | {"hands", "feet", "knees"}
    assert replay["frames"][0]["move"] is None
    assert replay["frames"][-1]["state"]["phase"] == "game_over"
