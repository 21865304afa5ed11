"""Agent interfaces: PettingZoo, OpenSpiel and Gymnasium adapters (the ``rl`` extra).

``pip install handfoot[rl]`` installs what they need (NumPy, PettingZoo, Gymnasium,
OpenSpiel). The core of handfoot never imports them: this package's ``__init__`` imports
nothing heavy, and each adapter module imports its framework only when it is imported.

* :mod:`handfoot.rl.observation`: the flat observation vector every adapter shares, built
  from a seat's :class:`~handfoot.engine.PlayerView` only.
* :mod:`handfoot.rl.pettingzoo`: ``env(profile=..., players=..., render_mode=...)``, an AEC
  environment.
* :mod:`handfoot.rl.openspiel`: the game ``python_hand_and_foot`` registered with
  ``pyspiel``.
* :mod:`handfoot.rl.gymnasium`: ``HandAndFootEnv``, one learning seat against handfoot bots.

See ``docs/rl.md``.
"""

from __future__ import annotations

__all__ = ["EXTRA_HINT", "require"]

EXTRA_HINT = "install the rl extra: pip install 'handfoot[rl]'"


def require(module: str) -> None:
    """Raise a clear ImportError when an optional dependency of the rl extra is missing."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ImportError(f"handfoot.rl needs {module!r}: {EXTRA_HINT}")
