"""Styles: hard's settings tuned for a profile, with their card (``<profile>.style.json``).

A style is what :mod:`handfoot.runs.tune` finds by duplicate self-play: the settings of
:data:`handfoot.bots.heuristic.SETTINGS` that differ from hard's, and a card saying how they were
found and how they measured (seed, budget, every step, code version, an evaluation
against hard on unseen deals). :class:`StyledBot`, the ``learned`` level, is hard playing
with the shipped style of the profile it plays (``handfoot/models/<profile>.style.json``),
hard's own settings where there is none.

>>> from handfoot.bots.heuristic import HardBot
>>> bot = HardBot(1)
>>> Style({"hold_new_above": 6}, {}).apply(bot)
>>> bot.hold_new_above
6
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from handfoot.bots.heuristic import HardBot, configure
from handfoot.game.values import PlayerView

__all__ = ["Style", "StyledBot", "apply_shipped_style", "load_style", "style_path"]


@dataclass
class Style:
    """A tuned style: hard's settings that differ, and its card."""

    settings: dict[str, bool | int | float]
    card: dict[str, Any]

    def apply(self, bot: object) -> None:
        """Set the style's settings on ``bot`` (:func:`handfoot.bots.heuristic.configure`)."""
        configure(bot, self.settings)

    def save(self, path: Path) -> None:
        """Write the style file: its settings, then its card's fields."""
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"settings": self.settings, **self.card}
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | Any) -> Style:
        """Read a style (``path`` may be a package resource); ``ValueError`` if it is not
        one: its settings are checked as :func:`handfoot.bots.heuristic.configure` checks them."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a style file ({exc})") from None
        settings = data.pop("settings", None) if isinstance(data, dict) else None
        if not isinstance(settings, dict):
            raise ValueError(f"{path}: a style file needs a 'settings' object")
        try:
            configure(HardBot(0), settings)  # checked as a bot spec's are
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        return cls(dict(settings), data)


def style_path(profile_name: str) -> Any:
    """The shipped style of a profile (a package resource; it may not exist)."""
    return resources.files("handfoot.bots").joinpath("models", f"{profile_name}.style.json")


_CACHE: dict[str, Style | None] = {}


def load_style(profile_name: str) -> Style | None:
    """The shipped style of a profile, or ``None`` if there is none (cached)."""
    if profile_name not in _CACHE:
        path = style_path(profile_name)
        _CACHE[profile_name] = Style.load(path) if path.is_file() else None
    return _CACHE[profile_name]


def apply_shipped_style(bot: object, profile_name: str) -> Style | None:
    """Set the shipped style of the profile on ``bot`` and return it (``None``, and the bot
    unchanged, where none ships)."""
    style = load_style(profile_name)
    if style is not None:
        style.apply(bot)
    return style


class StyledBot(HardBot):
    """The ``learned`` level: hard with the settings learned for the profile it plays.

    At its first view it looks up the profile's shipped style (:func:`load_style`, by the
    profile's name) and plays with it; where none ships it plays exactly like ``hard``
    (:attr:`style` is then ``None``). ``style`` plays a given style instead, on any
    profile. Deterministic for a seed, like hard.
    """

    name = "learned"

    def __init__(self, seed: int | None = None, *, style: Style | None = None) -> None:
        super().__init__(seed)
        self.style = style
        """The style played (``None``: hard's own settings)."""
        self._styled = style is not None
        if style is not None:
            style.apply(self)

    def _observe(self, view: PlayerView) -> None:
        if not self._styled:  # the first view: the shipped style of its profile
            self._styled = True
            self.style = apply_shipped_style(self, view.profile.name)
        super()._observe(view)
