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
from handfoot.game.rules import Layout, Profile
from handfoot.game.values import PlayerView

__all__ = ["Style", "StyledBot", "apply_shipped_style", "find_style", "load_style", "style_path",
           "style_stems", "view_layout"]


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


def style_path(stem: str) -> Any:
    """The shipped style file ``<stem>.style.json`` (a package resource; it may not exist).
    ``stem`` is a profile's name, or its name and a seating (``remastered-singles.2x1``)."""
    return resources.files("handfoot.bots").joinpath("models", f"{stem}.style.json")


_CACHE: dict[str, Style | None] = {}


def load_style(stem: str) -> Style | None:
    """The shipped style ``<stem>.style.json``, or ``None`` if there is none (cached)."""
    if stem not in _CACHE:
        path = style_path(stem)
        _CACHE[stem] = Style.load(path) if path.is_file() else None
    return _CACHE[stem]


def style_stems(profile: Profile, layout: Layout | None = None) -> list[str]:
    """Where the learned level looks for a profile's style, first found first: the
    profile's own for the seating, its own, then the same for the built-in profile it
    extends (a house rule without a style of its own plays its parent's).

    >>> from handfoot.game.loading import load_profile
    >>> from handfoot.game.rules import Layout
    >>> style_stems(load_profile("remastered-singles"), Layout(2, 1))
    ['remastered-singles.2x1', 'remastered-singles']
    """
    seating = f"{layout.sides}x{layout.seats_per_side}" if layout is not None else None
    stems: list[str] = []
    for name in (profile.name, profile.extends):
        if name and name not in stems:
            if seating is not None:
                stems.append(f"{name}.{seating}")
            stems.append(name)
    return stems


def find_style(profile: Profile, layout: Layout | None = None) -> tuple[str, Style] | None:
    """The style the learned level plays on ``profile`` at ``layout`` (default: the
    profile's first seating) and the stem of its file (:func:`style_stems`), or ``None``:
    no style anywhere up the profile's chain, so it plays untuned (hard's settings)."""
    for stem in style_stems(profile, layout or profile.layout):
        style = load_style(stem)
        if style is not None:
            return stem, style
    return None


def view_layout(view: PlayerView) -> Layout:
    """The seating a view's game is played at."""
    return Layout(view.sides, view.players // view.sides)


def apply_shipped_style(bot: object, profile: Profile | str,
                        layout: Layout | None = None) -> Style | None:
    """Set the style of the profile at ``layout`` (:func:`find_style`; given a name, the
    file of that name) on ``bot`` and return it (``None``, and the bot unchanged, where
    there is none up the profile's chain)."""
    if isinstance(profile, str):
        style = load_style(profile)
    else:
        found = find_style(profile, layout)
        style = found[1] if found is not None else None
    if style is not None:
        style.apply(bot)
    return style


class StyledBot(HardBot):
    """The ``learned`` level: hard with the settings learned for the profile it plays.

    At its first view it looks up the shipped style of the profile and seating it plays
    (:func:`find_style`: the profile's own, else that of the built-in profile a house rule
    extends) and plays with it; where there is none it plays exactly like ``hard``
    (:attr:`style` is then ``None``: untuned). ``style`` plays a given style instead, on any
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
            self.style = apply_shipped_style(self, view.profile, view_layout(view))
        super()._observe(view)
