"""Agent interfaces: PettingZoo, OpenSpiel and Gymnasium adapters (the ``rl`` extra).

``pip install handfoot[rl]`` installs what they need (NumPy, PettingZoo, Gymnasium,
OpenSpiel). The core of handfoot never imports them: this package's ``__init__`` imports
nothing heavy, and each adapter module imports its framework only when it is imported.

* :mod:`handfoot.rl.observation`: the flat observation vector every adapter shares, built
  from a seat's :class:`~handfoot.game.values.PlayerView` only.
* :mod:`handfoot.rl.pettingzoo`: ``env(profile=..., players=..., render_mode=...)``, an AEC
  environment.
* :mod:`handfoot.rl.openspiel`: the game ``python_hand_and_foot`` registered with
  ``pyspiel``.
* :mod:`handfoot.rl.gymnasium`: ``HandAndFootEnv``, one learning seat against handfoot bots.
* :mod:`handfoot.rl.resample`: states a seat cannot tell from the real one (for ISMCTS).

See ``docs/rl.md``.
"""

from __future__ import annotations

__all__ = ["EXTRA_HINT"]

EXTRA_HINT = "install the rl extra: pip install 'handfoot[rl]'"
"""What an adapter's ImportError says when a framework is missing."""
