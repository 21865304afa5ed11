"""An experimental network for the ``learned`` level: hard's candidate plans, ranked.

The ``learned`` level itself is :class:`handfoot.bots.styles.StyledBot` (hard with the settings
tuned for the profile by self-play); this module ranks the candidate plans of that bot's
planner with a network instead. Measured against the style alone, the network's choices
cost points (docs/tournaments.md), so the level does not use it; it is kept for training
experiments (:mod:`handfoot.runs.train`).

At each decision :class:`LearnedBot` lists the whole plans of :mod:`handfoot.bots.plans` (hard's
own flagged), describes each by *state features* (what the seat sees and what hard
remembers: its cards, the table, each side's progress towards going out, the pile, the
score situation and rounds left) and *plan features* (the position the plan leads to:
cards left by kind, cards and points melded, books completed, going out, the discard and
how risky it is), and scores every pair with a small multilayer perceptron in NumPy.
It follows the best-scored plan if it beats hard's by more than the model's ``margin``,
hard's otherwise. The network estimates the round's point margin (this side's round
score minus the other's, divided by :data:`VALUE_SCALE`) after the plan, in the manner of
DouZero's deep Monte-Carlo learning; :mod:`handfoot.runs.train` trains it by self-play.

Weights ship as package data, one ``.npz`` per profile with a JSON card
(``handfoot/models/<profile>.npz`` and ``.json``). Where a profile has no model, or the
model's feature schema (:data:`SCHEMA_HASH`) or seating does not match, the bot plays
exactly like ``hard`` (:attr:`LearnedBot.fallback` says so). Playing needs NumPy only.
"""

from __future__ import annotations

import hashlib
import json
import random
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from handfoot.bots.melds import _table_after
from handfoot.bots.plans import Plan, PlanBot, PlanKind, plan_groups
from handfoot.bots.styles import Style, apply_shipped_style, view_layout
from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import RANKS
from handfoot.game.table import count_books, missing_books
from handfoot.game.values import Phase, PlayerView

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - numpy is missing
    raise ImportError("the learned bot needs NumPy: pip install 'handfoot[rl]'") from exc

__all__ = ["PLAN_FEATURES", "SCHEMA_HASH", "VALUE_SCALE", "LearnedBot", "Model",
           "encode_decision", "load_model", "model_path", "plan_features", "state_features"]

FloatArray = npt.NDArray[np.float32]

VALUE_SCALE = 1000.0
"""Round points per unit of the network's output."""

_N = cards.NUM_KINDS
_T = mv.NUM_TARGETS


def _state_names(players: int, sides: int) -> list[str]:
    names = [f"hand.{k}" for k in range(_N)]
    for what in ("hand_size", "foot_size", "knee_size", "in_foot"):
        names += [f"{what}.{s}" for s in range(players)]
    for side in range(sides):
        for t in range(_T):
            names += [f"melds.{side}.{t}.{x}" for x in ("nat", "wild", "clean", "dirty")]
        names += [f"{x}.{side}" for x in ("red3", "opened", "score", "missing", "books")]
    names += [f"top.{k}" for k in range(_N + 1)]
    names += ["pile", "stock", "opening", "phase.draw", "phase.play", "phase.answer",
              "round", "rounds_left", "stalled", "danger"]
    names += [f"pile_known.{k}" for k in range(_N)]
    names += [f"taken.{k}" for k in range(_N)]
    names += [f"unseen.{k}" for k in range(_N)]
    return names


PLAN_FEATURES: tuple[str, ...] = (
    *(f"kind.{k.name.lower()}" for k in PlanKind), "flagged",
    *(f"after.{k}" for k in range(_N)), "after.size", "melded", "melded.points", "melded.wilds",
    "new_melds", "books.clean", "books.dirty", "books.wild", "missing_after", "unfinished",
    "unfinished.clean", "largest_unfinished", "pile_taken", "goes_out", "to_foot",
    *(f"discard.{k}" for k in range(_N)), "discard.keep", "discard.risk")
"""The plan features, in order (the position a plan leads to)."""

FEATURES_VERSION = 1


def schema_hash(players: int, sides: int) -> str:
    """A short hash of the feature names for a seating: a model trained on other features
    does not match."""
    text = "\n".join([f"v{FEATURES_VERSION}", *_state_names(players, sides), *PLAN_FEATURES])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


SCHEMA_HASH = schema_hash(4, 2)
"""The schema hash of the 2×2 partnership seating."""


def state_features(bot: PlanBot, view: PlayerView) -> list[float]:
    """What the seat sees and what hard remembers, relative to the seat (see
    :func:`_state_names` for the order)."""
    p = view.profile
    out = [0.0] * _N
    for f in view.hand:
        out[cards.FACE_KIND[f]] += 1.0
    seats = [(view.seat + k) % view.players for k in range(view.players)]
    out += [view.hand_counts[s] / 10.0 for s in seats]
    out += [view.foot_counts[s] / 10.0 for s in seats]
    out += [view.knee_counts[s] / 10.0 for s in seats]
    out += [float(view.in_foot[s]) for s in seats]
    bs = p.book_size
    for k in range(view.sides):
        side = (view.side + k) % view.sides
        row = [0.0] * (_T * 4)
        for m in view.melds[side]:
            base = m.target * 4
            if m.size < bs:
                row[base] += m.naturals
                row[base + 1] += m.wilds
            elif m.wilds and m.target != mv.WILD_MELD:
                row[base + 3] += 1.0
            else:
                row[base + 2] += 1.0
        out += row
        books = count_books(p, ((m.target, m.naturals, m.wilds) for m in view.melds[side]))
        out += [len(view.red_threes[side]) / 2.0, float(view.opened[side]),
                (view.totals[side] - view.totals[view.side]) / 1000.0,
                float(len(missing_books(p, books))),
                (books.clean + books.dirty + books.wild) / 4.0]
    top = [0.0] * (_N + 1)
    top[_N if view.discard_top is None else cards.FACE_KIND[view.discard_top]] = 1.0
    out += top
    out += [view.discard_size / 10.0, view.stock_size / 50.0, view.opening_minimum / 100.0,
            float(view.phase == Phase.DRAW), float(view.phase == Phase.PLAY),
            float(view.phase == Phase.ANSWER), view.round_number / 4.0,
            (view.rounds - view.round_number) / 4.0, view.stalled_turns / 10.0,
            float(bot._danger(view))]
    known = [0.0] * _N
    for seen in bot._pile:
        if seen is not None:
            known[seen] += 1.0
    out += known
    out += [float(bot._taken.get(k, 0)) for k in range(_N)]
    out += [bot._unseen(view, k) / 4.0 if k in RANKS else 0.0 for k in range(_N)]
    return out


def plan_features(bot: PlanBot, view: PlayerView, plan: Plan,
                  counts: list[int] | None = None) -> list[float]:
    """The position ``plan`` leads to, as :data:`PLAN_FEATURES`."""
    p = view.profile
    counts = list(counts if counts is not None else cards.kind_counts(view.hand))
    out = [0.0] * len(PlanKind)
    out[plan.kind] = 1.0
    out.append(float(plan.flagged))
    groups = plan_groups(plan)
    values = p.kind_values
    melded = points = wilds = new = 0
    for g in groups:
        for k, c in g.kind_counts():
            counts[k] -= c
            melded += c
            points += values[k] * c
        wilds += g.wilds
    taken = 0
    if plan.kind == PlanKind.PICKUP and view.discard_top is not None:
        top = cards.FACE_KIND[view.discard_top]
        melded += 1
        points += values[top]
        taken = view.pickup_size
    discard: int | None = None
    if plan.kind == PlanKind.DISCARD:
        discard = plan.last - mv.DISCARD
    elif mv.GO_OUT_DISCARD <= plan.last < mv.DISCARD:
        discard = plan.last - mv.GO_OUT_DISCARD
    if discard is not None:
        counts[discard] -= 1
    own = view.melds[view.side]
    before = {(m.target) for m in own if m.size < p.book_size}
    table = _table_after(view, groups) if groups else [
        (m.target, m.naturals, m.wilds) for m in own]
    for g in groups:
        if g.target not in before or g.new:
            new += 1
    books = count_books(p, table)
    old = count_books(p, ((m.target, m.naturals, m.wilds) for m in own))
    unfinished = [(t, n, w) for t, n, w in table if n + w < p.book_size]
    left = sum(max(c, 0) for c in counts)
    out += [max(c, 0) for c in counts]
    out += [left / 10.0, melded / 10.0, points / 100.0, float(wilds), float(new),
            float(books.clean - old.clean), float(books.dirty - old.dirty),
            float(books.wild - old.wild), float(len(missing_books(p, books))),
            len(unfinished) / 4.0, sum(1 for _, _, w in unfinished if not w) / 4.0,
            max((n + w for _, n, w in unfinished), default=0) / p.book_size,
            taken / 10.0, float(plan.kind == PlanKind.GO_OUT),
            float(left == 0 and plan.kind == PlanKind.MELD)]
    row = [0.0] * _N
    keep = risk = 0.0
    if discard is not None:
        row[discard] = 1.0
        base = cards.kind_counts(view.hand)
        keep = max(-10.0, min(10.0, bot._keep_score(view, base, discard) / 100.0))
        risk = bot._feed_risk(view, discard) / 100.0
    out += row
    out += [keep, risk]
    return out


def encode_decision(bot: PlanBot, view: PlayerView, plans: list[Plan]) -> FloatArray:
    """One row per plan: the state features, then the plan's."""
    state = state_features(bot, view)
    counts = cards.kind_counts(view.hand)
    return np.array([state + plan_features(bot, view, plan, counts) for plan in plans],
                    dtype=np.float32)


NPZ_DATE = (1980, 1, 1, 0, 0, 0)
"""The date of every member of a saved model's ``.npz`` (the earliest a zip holds)."""


@dataclass
class Model:
    """A multilayer perceptron with ReLU layers and one output, inputs standardised.

    ``weights`` and ``biases`` per layer; ``mean`` and ``scale`` standardise the input.
    ``card`` is the JSON card (schema hash, seed, budget, evaluation, ...).
    """

    weights: list[FloatArray]
    biases: list[FloatArray]
    mean: FloatArray
    scale: FloatArray
    card: dict[str, Any]

    def scores(self, rows: FloatArray) -> FloatArray:
        """The value of each row (one plan each), in :data:`VALUE_SCALE` points."""
        h = (rows - self.mean) / self.scale
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        out: FloatArray = h[:, 0]
        return out

    def save(self, path: Path) -> None:
        """Write ``path`` (``.npz``) and its card beside it (``.json``).

        The ``.npz`` is NumPy's (compressed), written with a fixed date on every member,
        so equal weights give equal bytes (``np.savez_compressed`` stamps the time).
        """
        arrays: dict[str, FloatArray] = {"mean": self.mean, "scale": self.scale}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w
            arrays[f"b{i}"] = b
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh, zipfile.ZipFile(fh, "w") as npz:
            for name, array in arrays.items():
                info = zipfile.ZipInfo(f"{name}.npy", date_time=NPZ_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                with npz.open(info, "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asarray(array), allow_pickle=False)
        path.with_suffix(".json").write_text(json.dumps(self.card, indent=2) + "\n",
                                             encoding="utf-8")

    @classmethod
    def load(cls, path: Path | Any) -> Model:
        """Read a model and its card (``path`` may be a package resource)."""
        with path.open("rb") as fh:
            data = np.load(fh)
            arrays = {k: np.asarray(data[k], dtype=np.float32) for k in data.files}
        card_path = path.with_name(path.name[:-4] + ".json")
        card = json.loads(card_path.read_text(encoding="utf-8"))
        layers = sum(1 for k in arrays if k.startswith("w"))
        return cls([arrays[f"w{i}"] for i in range(layers)],
                   [arrays[f"b{i}"] for i in range(layers)], arrays["mean"], arrays["scale"],
                   card)


def model_path(profile_name: str) -> Any:
    """The shipped model of a profile (a package resource; it may not exist)."""
    return resources.files("handfoot.bots").joinpath("models", f"{profile_name}.npz")


_CACHE: dict[str, Model | None] = {}


def load_model(profile_name: str) -> Model | None:
    """The shipped model of a profile, or ``None`` if there is none (cached)."""
    if profile_name not in _CACHE:
        path = model_path(profile_name)
        _CACHE[profile_name] = Model.load(path) if path.is_file() else None
    return _CACHE[profile_name]


Record = list[tuple[FloatArray, int, int]]
"""Training: each decision's rows, the index of the plan followed and the round number."""


class LearnedBot(PlanBot):
    """Hard's candidate plans, ranked by a learned value (see the module's docstring).

    ``model`` overrides the shipped model of the profile played (``None``: look it up by
    the profile's name when the first view arrives, unless ``shipped`` is false: then
    there is no model and the bot plays hard's plans), ``style`` the shipped style (the
    settings of hard's planner tuned for the profile by :mod:`handfoot.runs.tune`; looked up
    the same way, hard's own settings where there is none or ``shipped`` is false).
    ``epsilon`` (training only) follows a random plan at that share of decisions;
    ``record`` (training only) collects each decision's rows, the index followed and the
    round. Deterministic for a seed.
    """

    name = "learned-network"

    def __init__(self, seed: int | None = None, *, model: Model | None = None,
                 style: Style | None = None, shipped: bool = True, epsilon: float = 0.0,
                 record: Record | None = None) -> None:
        super().__init__(seed)
        self.model = model
        self._looked_up = model is not None or not shipped
        self.style = style
        """The settings its hard planner plays with (:mod:`handfoot.bots.styles`)."""
        self._styled = style is not None or not shipped
        if style is not None:
            style.apply(self)
        self.epsilon = epsilon
        self.record = record
        self._explore = random.Random(seed)
        self.fallback: str | None = None
        """Why this bot plays hard's plans (no model, a schema mismatch), or ``None``
        while it uses its model."""
        self.deviations = 0
        """Decisions where it followed another plan than hard's."""

    def _observe(self, view: PlayerView) -> None:
        if not self._styled:  # the first view: the shipped style of its profile
            self._styled = True
            self.style = apply_shipped_style(self, view.profile, view_layout(view))
        super()._observe(view)

    def _usable(self, view: PlayerView) -> Model | None:
        if not self._looked_up:
            self._looked_up = True
            self.model = load_model(view.profile.name)
        model = self.model
        if model is None:
            self.fallback = f"no model for profile {view.profile.name!r}"
            return None
        want = schema_hash(view.players, view.sides)
        if model.card.get("schema_hash") != want:
            self.fallback = (f"the model's feature schema {model.card.get('schema_hash')} is "
                             f"not this code's {want}")
            return None
        self.fallback = None
        return model

    def pick(self, view: PlayerView, plans: list[Plan]) -> int:
        if len(plans) == 1:
            return 0
        model = self._usable(view)
        if model is None and self.record is None:
            return 0
        rows = encode_decision(self, view, plans)
        if self.epsilon and self._explore.random() < self.epsilon:
            choice = self._explore.randrange(len(plans))
        elif model is None:
            choice = 0
        else:
            values = model.scores(rows)
            best = int(np.argmax(values))
            margin = float(model.card.get("margin", 0.0))
            choice = best if values[best] > values[0] + margin else 0
        if choice:
            self.deviations += 1
        if self.record is not None:
            self.record.append((rows, choice, view.round_number))
        return choice
