"""The written-out constructors of the hot frozen dataclasses (docs/performance.md,
"Constructors").

A few value types (a seat's view, a meld group, a table meld, a history entry) define their
own ``__init__`` instead of the dataclass's, so that mypyc compiles it to plain slot stores.
Such an ``__init__`` repeats the field list by hand; these tests find every one of them in
the compiled modules (by where its code lives: the dataclass's own is made from a string)
and check that it takes exactly the fields, in order, with the same defaults, and sets each
field to its argument, so a field added to the class but not to its ``__init__`` fails here.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from types import ModuleType

import pytest

import handfoot
from handfoot.game import moves

MODULES: tuple[ModuleType, ...] = tuple(importlib.import_module(f"handfoot.{name}")
                                        for name in handfoot.COMPILABLE)
"""The modules the build compiles."""


def written_out() -> list[type]:
    """The dataclasses of the compiled modules with an ``__init__`` of their own."""
    found: list[type] = []
    for module in MODULES:
        for value in vars(module).values():
            if (isinstance(value, type) and dataclasses.is_dataclass(value)
                    and value.__module__ == module.__name__ and "__init__" in vars(value)):
                code = getattr(vars(value)["__init__"], "__code__", None)
                if code is not None and code.co_filename == module.__file__:
                    found.append(value)
    return found


CLASSES = written_out()


def test_the_hot_classes_write_out_their_constructors() -> None:
    assert {c.__name__ for c in CLASSES} >= {"PlayerView", "MeldGroup", "TableMeld",
                                              "HistoryEntry", "Books"}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_constructor_takes_the_fields_in_order(cls: type) -> None:
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(vars(cls)["__init__"]).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    for param, field in zip(params, fields, strict=True):
        assert param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        expected = inspect.Parameter.empty if field.default is dataclasses.MISSING \
            else field.default
        assert param.default == expected, field.name
        assert field.default_factory is dataclasses.MISSING  # type: ignore[misc]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_constructor_sets_every_field(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = {f.name: object() for f in fields}
    by_keyword = cls(**values)
    by_position = cls(*values.values())
    for name, value in values.items():
        assert getattr(by_keyword, name) is value, name
        assert getattr(by_position, name) is value, name
    assert by_keyword == by_position
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(by_keyword, fields[0].name, 1)


def test_defaults_apply() -> None:
    group = moves.MeldGroup(3)
    assert (group.naturals, group.twos, group.jokers, group.new) == (0, 0, 0, False)
