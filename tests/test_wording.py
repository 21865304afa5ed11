"""One wording of the books needed to go out: the engine's reason, the rulebook and the
web rules page all say what handfoot.game.wording.book_requirement_text says."""

from __future__ import annotations

import pytest

from handfoot.game.loading import builtin_profile_names, load_profile
from handfoot.game.moves import parse_move
from handfoot.game.rulebook import describe_profile
from handfoot.game.values import IllegalMoveError, Phase
from handfoot.game.wording import book_requirement_text
from positions import position


@pytest.mark.parametrize("name", builtin_profile_names())
def test_the_rulebook_says_the_requirement_in_the_shared_words(name: str) -> None:
    p = load_profile(name)
    text = book_requirement_text(p)
    lines = [line for _, section in describe_profile(p) for line in section]
    assert text and f"Going out needs {text}." in lines


def test_the_engine_refuses_a_go_out_in_the_same_words() -> None:
    p = load_profile("hand-knee-foot")
    books = ["7 7 7 7 7 7 7", "JK JK JK 2 2 2 2", "Q Q Q Q Q Q Q", "9 9 9 9 9 2 2"]
    state = position(p, in_foot=[0, 2], foot_turn_done=[2], knee_picked=[0, 2],
                     phase=Phase.PLAY, melds={0: books}, hands={0: "K K K"})
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_move("goout K K K"))
    assert str(info.value).startswith(
        "to go out your side needs a clean book of 5s, a clean book of 7s, 1 more clean "
        "book, 1 dirty book and 1 all-wild book; it would still lack a clean book of 5s")
    assert book_requirement_text(p) in str(info.value)


def test_the_requirement_reads_as_a_list() -> None:
    p = load_profile("partnership-13", overrides={"clean_books_to_go_out": 2,
                                                  "dirty_books_to_go_out": 1,
                                                  "wild_books_to_go_out": 0})
    assert book_requirement_text(p) == "2 clean books and 1 dirty book"
    none = load_profile("partnership-13", overrides={
        "clean_books_to_go_out": 0, "dirty_books_to_go_out": 0, "wild_books_to_go_out": 0})
    assert book_requirement_text(none) == ""
