"""Fuzzing positions in text (issue 27, item 4): what parses, plays.

Position texts (the hand-written ones in tests/positions_text and the positions of random
games of every profile, at a draw, a play with staged cards and melds to take back, and a
go-out question) are mutated at random: lines dropped, doubled or rewritten, numbers
changed (some huge), cards moved between lines, keys added. Each mutated text either
raises :class:`PositionSyntaxError` or reads as a position that plays: 300 random legal
actions (or to the game's end), each listed action accepted.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot.bots.heuristic import EasyBot
from handfoot.game import moves as mv
from handfoot.game.engine import GameState
from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.notation import PositionSyntaxError, parse_position, position_text
from handfoot.game.values import Phase
from positions import position

TEXTS_DIR = Path(__file__).parent / "positions_text"


def _game_texts() -> list[str]:
    """Positions of random games of every profile: at a draw, with cards staged, with melds
    to take back, at a go-out question, with a seat in its Foot, and late in a round."""
    out: list[str] = []
    for i, name in enumerate(builtin_profile_names()):
        profile = load_profile(name, overrides={"rounds": 1})
        state = GameState.new(profile, seed=i)
        rng = random.Random(i)
        bots = [EasyBot(s) for s in range(state.players)]
        kinds: dict[str, int] = {}
        moves = 0
        while not state.is_over:
            found = {
                "draw": state.phase == Phase.DRAW and moves > 20,
                "staged": bool(state.staged),
                "undo": bool(state.undo_stack),
                "answer": state.phase == Phase.ANSWER,
                "foot": any(state.foot_picked),
                "late": len(state.stock) < 30 and state.phase == Phase.PLAY,
            }
            for kind, here in found.items():
                kinds[kind] = kinds.get(kind, 0) + here
                if here and kinds[kind] == 3:  # not the first such position: a later one
                    out.append(position_text(state.position()))
            legal = state.legal_actions()
            if rng.random() < 0.2:
                action = rng.choice(legal)
            else:
                action = bots[state.to_act].choose(state.view(state.to_act))
            state.apply_action(action)
            moves += 1
    return out


def _question_texts() -> list[str]:
    """A go-out asked and waiting for the partner's answer, and the same seat just before
    (in its Foot, with its side's books)."""
    books = ["4 4 4 4 4 4 4", "5 5 5 5 5 5 5", "6 6 6 6 6 2 2", "7 7 7 7 7 2 2",
             "JK JK 2 2 2 2 2"]
    state = position("partnership-13", phase=Phase.PLAY, hands={0: "9 9 9 9"},
                     in_foot=[0, 2], foot_played=[2], foot_turn_done=[2], melds={0: books})
    before = position_text(state.position())
    state.apply(mv.parse_move("goout 9 9 9 discard 9"))
    assert state.phase == Phase.ANSWER
    return [before, position_text(state.position())]


TEXTS = (sorted(p.read_text() for p in TEXTS_DIR.glob("*.txt")) + _game_texts()
         + _question_texts())

HUGE = "9" * 5000
VALUES = ["", "-", "0", "1", "2", "3", "4", "5", "-1", "99999999999999999999", HUGE,
          "+" + HUGE, "+99999999999999999999", "yes", "no", "answer", "play", "draw",
          "game over", "1 2", "1 2 3 4", "rest", "seed", "as now", "K K K", "new K K K",
          "goout 9 9 discard 5", "goout K K K", "KS ; -", "KS ; K: KS KH KD ; opened"]
KEYS = ["phase", "turn", "to act", "asking", "answerers", "in foot", "played from foot",
        "foot turn done", "opened", "permission", "refused", "pile taken", "staged",
        "stalled turns", "undo 1", "undo 2", "hand 1", "foot 1", "knee 1", "hand 2", "round",
        "totals", "result 1", "red 3s 1", "melds 1", "dealer", "first player", "seed",
        "dealt", "deal 1", "take backs", "layout"]
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        body = list(range(1, len(lines)))  # never the header
        op = rng.randrange(7)
        if op == 0 and body:
            del lines[rng.choice(body)]
        elif op == 1 and body:
            i = rng.choice(body)
            lines.insert(i, lines[i])
        elif op == 2 and body:
            i = rng.choice(body)
            key = lines[i].partition(":")[0]
            lines[i] = f"{key}: {rng.choice(VALUES)}"
        elif op == 3 and body:
            i = rng.choice(body)
            numbers = list(re.finditer(r"\d+", lines[i]))
            if numbers:
                m = rng.choice(numbers)
                new = rng.choice(["0", "1", "2", "3", "5", "13", "100", "-1", HUGE,
                                  str(rng.randint(0, 10**6))])
                lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        elif op == 4 and body:
            # a card moved from one line to another: the shoe stays whole
            i, j = rng.choice(body), rng.choice(body)
            found = list(CARD.finditer(lines[i]))
            if found and ":" in lines[j]:
                m = rng.choice(found)
                lines[i] = lines[i][:m.start()] + lines[i][m.end():]
                if lines[i].rstrip().endswith(":"):
                    lines[i] += " -"
                lines[j] = lines[j].replace(": -", ":").rstrip() + " " + m.group()
        elif op == 5:
            lines.append(f"{rng.choice(KEYS)}: {rng.choice(VALUES)}")
        elif op == 6 and body:
            # two cards swapped between lines
            i, j = rng.choice(body), rng.choice(body)
            a, b = list(CARD.finditer(lines[i])), list(CARD.finditer(lines[j]))
            if a and b and i != j:
                ma, mb = rng.choice(a), rng.choice(b)
                ca, cb = ma.group(), mb.group()
                lines[i] = lines[i][:ma.start()] + cb + lines[i][ma.end():]
                mb = rng.choice(list(CARD.finditer(lines[j])))
                lines[j] = lines[j][:mb.start()] + ca + lines[j][mb.end():]
    return "\n".join(lines) + "\n"


def plays(text: str, seed: int, actions: int = 300) -> None:
    """The text is refused with a PositionSyntaxError, or its position plays."""
    try:
        pos = parse_position(text)
    except PositionSyntaxError:
        return
    state = GameState.from_position(pos)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            return
        legal = state.legal_actions()
        assert legal, f"no legal action for seat {state.to_act + 1} in {state.phase}"
        state.apply_action(rng.choice(legal))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TEXTS))), st.integers(0, 2**32 - 1))
def test_a_mutated_position_text_is_refused_or_plays(index: int, seed: int) -> None:
    rng = random.Random(seed)
    plays(mutate(TEXTS[index], rng), seed)


@pytest.mark.parametrize("index", range(len(TEXTS)))
def test_the_texts_fuzzed_play_as_they_are(index: int) -> None:
    parse_position(TEXTS[index])  # the unmutated text reads
    plays(TEXTS[index], index)


# --- what the engine cannot play is refused, each with its reason -------------------------

BASE = (TEXTS_DIR / "kings-to-meld.txt").read_text()


def edited(text: str, **lines: str) -> str:
    """The text with lines replaced or added: keyword ``hand_1`` is the line ``hand 1``."""
    out = text
    for key, value in lines.items():
        key = key.replace("_", " ")
        pattern = re.compile(rf"^{re.escape(key)}:.*$", re.IGNORECASE | re.MULTILINE)
        line = f"{key}: {value}"
        out, n = pattern.subn(line, out)
        if not n:
            out += line + "\n"
    return out


def refused(text: str, *words: str) -> str:
    with pytest.raises(PositionSyntaxError) as info:
        parse_position(text)
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)
    return message


def test_the_base_text_plays() -> None:
    plays(BASE, 1)


def test_phase_answer_with_nobody_asking_is_refused() -> None:
    refused(edited(BASE, phase="answer"), "nobody asks to go out")
    refused(edited(BASE, phase="answer", to_act="3"), "nobody asks to go out")


def test_a_question_is_answered_by_the_partners_of_the_seat_asking() -> None:
    text = _question_texts()[1]
    parse_position(text)
    refused(edited(text, answerers="-"), "answerers")
    refused(edited(text, answerers="2"), "partners of seat 1")
    refused(edited(text, answerers="3 3"), "each once")
    refused(edited(text, to_act="2"), "first answerer")
    refused(edited(text, phase="play"), "only in the answer phase")


def test_a_question_asks_for_a_go_out_the_seat_could_make() -> None:
    text = _question_texts()[1]
    refused(edited(text, asking="goout K K K"), "could not go out")
    refused(edited(text, refused="yes"), "could not go out", "said no")


def test_a_seat_to_play_with_no_hand_and_no_foot_is_refused() -> None:
    text = edited(BASE, phase="play", hand_1="-", foot_1="-", in_foot="1")
    refused(text, "seat 1 is to act (play) but holds no cards")


def test_a_seat_in_its_foot_has_no_foot_packet() -> None:
    refused(edited(BASE, in_foot="1"), "in its Foot, but its Foot packet still holds cards")


def test_staged_cards_are_held() -> None:
    refused(edited(BASE, phase="play", staged="K K K K K"), "5 kings staged", "holds 3")


def test_melds_taken_back_give_back_the_same_cards() -> None:
    refused(edited(BASE, phase="play", undo_1="KS KH KD JK 9C 9D 9H 5S QS ; -"),
            "taking back must give back the cards")
    refused(edited(BASE, undo_1="KS KH KD JK 9C 9D 9H 5S ; Q: QS QH QD"),
            "only in the play phase")
    plays(edited(BASE, phase="play", undo_1="KS KH KD JK 9C 9D 9H 5S ; Q: QS QH QD"), 2)


@pytest.mark.parametrize("lines", [
    {"hand_2": "+" + HUGE}, {"hand_2": "+99999999999999999999"}, {"seed": HUGE},
    {"totals": f"{HUGE} 0"}, {"stalled_turns": HUGE}, {"round": HUGE},
    {"set": f"rounds = {HUGE}"}, {f"undo {HUGE}": "- ; -"}, {f"hand {HUGE}": "+13"},
    {"result 1": f"went out, seat 1 ; side 1: melded {HUGE} 0"},
    {"result 1": "went out, seat 9 ; side 1: melded 1 0"},
    {"foot 5": "+13"}, {"deal 99999": "seed"}])
def test_huge_or_out_of_range_numbers_are_refused_with_a_reason(lines: dict[str, str]) -> None:
    text = edited(BASE, **lines)
    message = refused(text)
    assert len(message) < 200 and HUGE not in message
