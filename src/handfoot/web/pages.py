"""The site's pages other than the game table: lobby, rules, replay viewer, daily deal, history.

:func:`page_routes` gives their routes; ``app.py`` mounts them beside the table, the JSON API
and the WebSocket. Every page but the rules is a template whose script asks the JSON API for
what it shows; the rules pages are rendered here from the profile's own data
(:func:`handfoot.game.rulebook.describe_profile`), so a rule is worded once, in the rulebook.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from handfoot.game.differences import diff_profiles
from handfoot.game.loading import DEFAULT_PROFILE, builtin_profile_names, load_profile
from handfoot.game.rulebook import describe_profile
from handfoot.game.rules import Layout, Profile
from handfoot.game.wording import book_requirement_text

__all__ = ["ProfileSummary", "first_game_steps", "page_routes", "profile_summaries",
           "seatings_text"]


@dataclass(frozen=True, slots=True)
class ProfileSummary:
    """One line of the rules index: a built-in profile's name, title, source and seatings."""

    name: str
    title: str
    source: str
    seatings: str
    packets: str


def seatings_text(layouts: tuple[Layout, ...]) -> str:
    """The seatings a profile allows, as a player says them: "2 sides of 2 partners (4
    players) or 2 players on their own"; a run of singles layouts is told as a range."""
    singles = sorted(lay.sides for lay in layouts if lay.seats_per_side == 1)
    teams = [lay for lay in layouts if lay.seats_per_side > 1]
    parts = [f"{lay.sides} sides of {lay.seats_per_side} partners ({lay.players} players)"
             for lay in teams]
    if len(singles) > 2 and singles == list(range(singles[0], singles[-1] + 1)):
        parts.append(f"{singles[0]} to {singles[-1]} players, each on their own")
    else:
        parts += [f"{n} players, each on their own" for n in singles]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _packets_text(p: Profile) -> str:
    if p.knee_size:
        return f"Hand {p.hand_size}, Knee {p.knee_size}, Foot {p.foot_size}"
    return f"Hand {p.hand_size}, Foot {p.foot_size}"


def profile_summaries() -> list[ProfileSummary]:
    """Every built-in profile, the default first."""
    out = []
    for name in builtin_profile_names():
        p = load_profile(name)
        out.append(ProfileSummary(name, p.title, p.source, seatings_text(p.layouts),
                                  _packets_text(p)))
    return out


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def first_game_steps(p: Profile) -> list[tuple[str, str]]:
    """How a first game goes, in plain words and in order, with this profile's numbers:
    (short heading, explanation) pairs for the "First game" part of the rules page."""
    packets = "Hand, then your Knee, then your Foot" if p.knee_size else "Hand, then your Foot"
    partners = any(lay.seats_per_side > 1 for lay in p.layouts)
    books_text = book_requirement_text(p)
    opening = p.opening_minimums[0] if p.opening_minimums else 0
    pickup = ("the top card of the discard pile, if you hold two cards of its rank to meld "
              "with it" if p.pickup_needs_pair else "the discard pile")
    if p.pickup_count == 1:
        pickup += " (you take only its top card)"
    elif p.pickup_count:
        pickup += f" (you take its top {p.pickup_count} cards)"
    steps = [
        ("The goal",
         f"Lay down melds: three or more cards of one rank. A meld of {p.book_size} cards is a "
         "book, and books score big: clean ones (no wild cards) most of all. "
         + ("You and your partner share your melds and your score. " if partners else "")
         + f"You play your {packets}; playing out your Foot is going out."),
        ("1. Draw",
         f"Start your turn by drawing {_count(p.draw_count, 'card')} from the stock, or by "
         f"taking {pickup}."),
        ("2. Meld",
         "Put down melds of one rank, or add cards to your side's melds. 2s and jokers are "
         "wild: they fill in, but natural cards must outnumber them. "
         + (f"Your side's first melds of the round must be worth at least {opening} points "
            "together." if opening else "")),
        ("3. Discard",
         "End your turn by discarding one card."
         + (" A black 3 on the pile blocks it for the next player." if
            p.pickup_black_three_blocks else "")
         + (" Red 3s are never melded: they are laid down by themselves and score "
            f"{p.red_three_bonus} each." if p.red_three_bonus else "")),
        ("Going out",
         f"When your side has the books it needs ({books_text or 'none'}), play out your last "
         "card to end the round"
         + (", after asking your partner \u201cMay I go out?\u201d" if partners and p.permission
            else "")
         + ". Cards still in your hand count against you."),
    ]
    return steps


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def page_routes(templates: Jinja2Templates) -> list[Route]:
    """The routes of the pages other than the table; ``app.py`` mounts them."""

    def render(request: Request, name: str, status_code: int = 200, **context: object,
               ) -> Response:
        return templates.TemplateResponse(request, name, context, status_code=status_code)

    async def lobby(request: Request) -> Response:
        learn = request.query_params.get("learn") == "1"
        profile = request.query_params.get("profile", "")
        if profile not in builtin_profile_names():
            profile = DEFAULT_PROFILE
        return render(request, "lobby.html", learn=learn, profile=profile)

    async def rules_index(request: Request) -> Response:
        return render(request, "rules.html", profile=None, profiles=profile_summaries(),
                      default=DEFAULT_PROFILE,
                      steps=first_game_steps(load_profile(DEFAULT_PROFILE)))

    async def rules_profile(request: Request) -> Response:
        name = request.path_params["profile"]
        # Only built-in names: load_profile also reads files, which a URL must never name.
        if name not in builtin_profile_names():
            return render(request, "rules.html", status_code=404, profile=None,
                          profiles=profile_summaries(), default=DEFAULT_PROFILE, steps=[],
                          missing=name)
        p = load_profile(name)
        differences = [] if name == DEFAULT_PROFILE else diff_profiles(
            load_profile(DEFAULT_PROFILE), p)
        return render(request, "rules.html", profile=p, sections=describe_profile(p),
                      seatings=seatings_text(p.layouts), packets=_packets_text(p),
                      steps=first_game_steps(p), profiles=profile_summaries(),
                      default=DEFAULT_PROFILE, differences=differences)

    async def replay(request: Request) -> Response:
        return render(request, "replay.html", game_id=request.path_params["game_id"])

    async def daily(request: Request) -> Response:
        return render(request, "daily.html", today=_today().isoformat())

    async def history(request: Request) -> Response:
        return render(request, "history.html")

    return [
        Route("/", lobby, name="lobby"),
        Route("/rules", rules_index, name="rules_index"),
        Route("/rules/{profile}", rules_profile, name="rules"),
        Route("/replay/{game_id}", replay, name="replay"),
        Route("/daily", daily, name="daily"),
        Route("/history", history, name="history"),
    ]
