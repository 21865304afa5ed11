"""The meld planner of the normal and hard bots (and the easy bot's greedy groups): from
a seat's view and its hand's counts by kind, the groups of cards it could lay down this
turn (onto its side's melds or as new ones), as :class:`~handfoot.game.moves.MeldGroup`
lists, and the staging actions that stage them.

Pure functions of the view (no bot's memory): :mod:`handfoot.bots.heuristic` decides which
plan to try and when, :mod:`handfoot.bots.plans` lists them as candidates. The code is
written for the compiled build (locals typed exactly, integer keys for orderings, list
templates copied; docs/performance.md, "Third pass").
"""

from __future__ import annotations

from typing import Final

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import JOKER, TWO
from handfoot.game.moves import WILD_MELD, MeldGroup, new_meld_group
from handfoot.game.values import PlayerView, TableMeld

# Templates of the per-call lists, copied (``[:]``), never changed: compiled, a copy is a
# native list slice, ``[x] * n`` a generic sequence multiplication.
_ZERO_KINDS: Final[list[int]] = [0] * cards.NUM_KINDS
_ZERO_TARGETS: Final[list[int]] = [0] * mv.NUM_TARGETS
_NO_TARGETS: Final[list[bool]] = [False] * mv.NUM_TARGETS
_NO_MELDS: Final[list[TableMeld | None]] = [None] * mv.NUM_TARGETS


def _kind_counts(hand: tuple[int, ...]) -> list[int]:
    """:func:`handfoot.game.cards.kind_counts` of a hand (a tuple of faces: compiled, a loop
    over it is native, not the iteration of any iterable)."""
    counts = _ZERO_KINDS[:]
    kind_of = cards.FACE_KIND
    for f in hand:
        k = kind_of[f]
        counts[k] = counts[k] + 1
    return counts


def _group_kinds(groups: list[MeldGroup]) -> list[tuple[int, int]]:
    return [kc for g in groups for kc in g.kind_counts()]


def _left_kinds(counts: list[int], groups: list[MeldGroup]) -> list[int]:
    """The kinds (but red 3s) of which cards are left once ``groups`` are laid."""
    left = counts[:]
    for kind, count in _group_kinds(groups):
        left[kind] -= count
    return [k for k in range(cards.RED_THREE) if left[k] > 0]


def _current(melds: tuple[TableMeld, ...], target: int, view: PlayerView) -> TableMeld | None:
    """The side's latest meld of ``target`` if it still takes cards (None if it is full or
    there is none)."""
    for m in reversed(melds):
        if m.target == target:
            p = view.profile
            cap = p.book_size if target == WILD_MELD else (p.book_max or 1 << 30)
            return m if m.naturals + m.twos + m.jokers < cap else None
    return None


def _currents(melds: tuple[TableMeld, ...], view: PlayerView) -> list[TableMeld | None]:
    """:func:`_current` of every target (ranks, then the all-wild meld), in one pass."""
    p = view.profile
    book_size = p.book_size
    cap = p.book_max or 1 << 30
    out = _NO_MELDS[:]
    for m in melds:  # a later meld of a target overrides an earlier one
        t = m.target
        out[t] = m if m.naturals + m.twos + m.jokers < (book_size if t == WILD_MELD
                                                        else cap) else None
    return out


def _greedy_groups(view: PlayerView, counts: list[int], top_kind: int | None = None,
                   currents: list[TableMeld | None] | None = None) -> list[MeldGroup]:
    """Every natural that can go down, wilds where they add value, if the opening allows.
    ``currents`` is :func:`_currents` of the side's melds, if the caller has it."""
    # (hot: typed locals, as in _build)
    p = view.profile
    own = view.melds[view.side]
    cap: int = p.book_max or 1 << 30
    least: int = p.min_meld_size
    top = -1 if top_kind is None else top_kind
    wild_left = [counts[TWO], counts[JOKER]]
    groups: list[list[int]] = []  # [target, naturals, twos, jokers, existing size/naturals/wilds]
    if currents is None:
        currents = list(view.open_melds[view.side])  # (_currents of its melds)
    melded = _NO_TARGETS[:]  # (only where a book's rank may not start a new meld)
    if not p.new_meld_after_book:
        for m in own:
            melded[m.target] = True
    for r in range(cards.FOUR, cards.ACE + 1):  # RANKS
        n: int = counts[r]
        if r == top:
            n += 1
        if not n:
            continue
        cur = currents[r]
        if cur is not None:
            room = cap - cur.size
            k = n if n < room else room  # (min(): a builtin call, keywords parsed)
            if k > 0:
                groups.append([r, k, 0, 0, cur.naturals, cur.wilds])
        elif n >= least and not melded[r]:
            groups.append([r, n if n < cap else cap, 0, 0, 0, 0])
    # wilds: onto melds where the ratio allows, most valuable first (jokers, then twos;
    # the order is the same for both: adding wilds leaves the naturals as they are)
    order = _order([-(g[4] + g[1]) for g in groups])  # a group a rank: fewer than 16
    for wi in (1, 0):
        for v in order:
            g = groups[v & 15]
            while wild_left[wi] > 0:
                nat = g[4] + g[1]
                wilds = g[5] + g[2] + g[3] + 1
                size = nat + wilds
                if size > cap or not p.wilds_allowed(nat, wilds, g[0]):
                    break
                if g[4] == 0 and nat < least - 1 and nat + wilds < least:
                    break
                g[2 + wi] = g[2 + wi] + 1
                wild_left[wi] = wild_left[wi] - 1
    out: list[MeldGroup] = []
    for g in groups:
        t = g[0]
        nat = g[1] - (1 if t == top else 0)
        if nat + g[2] + g[3] > 0 or t == top:
            out.append(MeldGroup(t, nat, g[2], g[3]) if _NATIVE_GROUPS
                       else new_meld_group(t, nat, g[2], g[3], False))
    if p.all_wild_melds and (p.wild_meld_opens or view.opened[view.side]):
        cur = currents[WILD_MELD]
        spare = wild_left[0] + wild_left[1]
        if (cur is not None and spare) or spare >= least:
            room = p.book_size - (cur.size if cur else 0)
            tw = min(wild_left[0], room)
            jk = min(wild_left[1], room - tw)
            out.append(MeldGroup(WILD_MELD, 0, tw, jk))
    return out if _opens(view, out, top_kind) else []


def _emptying_bounds(view: PlayerView, counts: list[int],
                     currents: list[TableMeld | None]) -> tuple[int, int]:
    """At most how many cards :func:`_greedy_groups` lays from a hand of ``counts`` (no
    pickup), and at most how many a greedy :func:`_build` lays (``currents`` is
    :func:`_currents` of the side's melds), in one pass over the ranks.

    The first: the naturals of the ranks the side has a meld of or holds enough of for
    one, and the wilds. The second: the naturals of the ranks with a meld that takes cards
    or enough of them for a new one (where one may start), the wilds, and of the ranks too
    short for a meld, as many as there are wilds (each takes one at least), those with the
    most naturals."""
    melded = _NO_TARGETS[:]
    for m in view.melds[view.side]:
        melded[m.target] = True
    blocked = not view.profile.new_meld_after_book  # (a melded rank starts no new meld)
    least: int = view.profile.min_meld_size
    wilds: int = counts[TWO] + counts[JOKER]
    laid = wilds
    built = wilds
    short: list[int] = []
    for r in range(cards.FOUR, cards.ACE + 1):  # RANKS
        n: int = counts[r]
        if not n:
            continue
        if n >= least or melded[r]:
            laid += n
        if currents[r] is not None:
            built += n
        elif blocked and melded[r]:
            continue
        elif n >= least:
            built += n
        elif wilds:
            short.append(n)
    if short:
        short.sort(reverse=True)
        for n in short[:wilds]:
            built += n
    return laid, built


def _nothing_to_lay(counts: list[int], currents: list[TableMeld | None], least: int) -> bool:
    """Whether a hand of ``counts`` (no pickup) has nothing any plan could lay: no wild,
    and no rank held of which the side has a meld that takes cards (``currents``:
    :func:`_currents`) or of which it holds enough for a new meld (``least``). Then
    :func:`_build` (careful or greedy) and :func:`_greedy_groups` are empty: a rank's
    naturals go down only onto such a meld or as such a new meld, a pair or single only
    with wilds, and the all-wild meld needs wilds (the view after a meld, most often)."""
    if counts[TWO] or counts[JOKER]:
        return False
    for r in range(cards.FOUR, cards.ACE + 1):  # RANKS
        n: int = counts[r]
        if n and (n >= least or currents[r] is not None):
            return False
    return True


def _opens(view: PlayerView, groups: list[MeldGroup], top_kind: int | None) -> bool:
    """Whether groups (with the pile's top card at a pickup) may go down: the top card is
    melded, and a side that has not opened reaches its opening minimum."""
    if top_kind is not None:
        for g in groups:
            if g.target == top_kind:
                break
        else:
            return False
    if view.opened[view.side]:
        return True
    values = view.profile.kind_values
    two, joker = values[TWO], values[JOKER]
    value = 0
    for g in groups:
        value += values[g.target] * g.naturals + two * g.twos + joker * g.jokers
    if top_kind is not None:
        value += values[top_kind]
    return value >= view.opening_minimum


def _complete_and_start(view: PlayerView, counts: list[int], top: int) -> list[MeldGroup]:
    """A pickup where the side's unfinished meld of the top card's rank must become a book
    and a new meld of that rank must start: the top card and hand cards complete it, then
    three or more cards from the hand start the new one (empty if the hand cannot)."""
    p = view.profile
    cur = _current(view.melds[view.side], top, view)
    if cur is None or cur.size >= p.book_size:
        return []
    need = p.book_size - cur.size - 1  # after the top card
    n, wilds = counts[top], counts[TWO] + counts[JOKER]
    size = p.min_meld_size
    for b in range(min(n, size), 0, -1):
        w2 = size - b
        a = min(n - b, need)
        w1 = need - a
        if (w1 + w2 > wilds or not p.wilds_allowed(cur.naturals + 1 + a, cur.wilds + w1, top)
                or not p.wilds_allowed(n - a, w2, top)):
            continue
        jokers = min(counts[JOKER], w1)
        j2 = min(counts[JOKER] - jokers, w2)
        return [MeldGroup(top, a, w1 - jokers, jokers),
                MeldGroup(top, n - a, w2 - j2, j2, new=True)]
    return []


def _lays_top(view: PlayerView, groups: list[MeldGroup], top: int) -> bool:
    """Whether a pickup planned with ``groups`` lays the pile's top card this turn.

    Where the top card must be melded with the pickup (``pickup_melds_top``) it always
    does. Where it joins the hand, the melds come after the pickup and must leave the
    cards a player keeps (one to discard; in the last packet ``min_cards_kept`` more): a
    plan that would then have to keep the top card is no reason to take it, and taking it
    only to throw it back is how rounds stall (nothing drawn, nothing laid).
    """
    p = view.profile
    if p.pickup_melds_top:
        return True
    taken = view.pickup_size
    keep = 1 + (p.min_cards_kept if view.in_foot[view.seat] else 0)
    budget = len(view.hand) + taken - keep - 1  # group sizes leave out the top card
    return any(g.target == top for g in _trim_to_keep(groups, budget))


def _trim_to_keep(groups: list[MeldGroup], budget: int) -> list[MeldGroup]:
    """Drop groups from the end until at most ``budget`` cards are used."""
    out = list(groups)
    used = _cards_in(out)
    while out and used > budget:
        g = out.pop()
        used -= g.naturals + g.twos + g.jokers
    return out


def _cards_in(groups: list[MeldGroup]) -> int:
    """The cards of ``groups`` (``sum(g.size for g in groups)``, without a generator and a
    property call per group: asked of every plan)."""
    n = 0
    for g in groups:
        n += g.naturals + g.twos + g.jokers
    return n


def _within_hand(groups: list[MeldGroup], total: int, in_last: bool,
                 min_kept: int) -> list[MeldGroup]:
    """A meld plan cut to what the hand of ``total`` cards can lay: in the last packet,
    keeping the profile's minimum and a card to discard; before it, a card to discard."""
    if in_last:
        return _trim_to_keep(groups, total - (min_kept + 1))
    if _cards_in(groups) >= total:
        return _trim_to_keep(groups, total - 1)
    return groups


def _stage_actions(groups: list[MeldGroup]) -> list[int]:
    """The staging actions of ``groups``, each group's naturals, twos, then jokers (as
    :meth:`MeldGroup.kind_counts` lists them); a second group of a target is slot 1."""
    actions: list[int] = []
    seen = _NO_TARGETS[:]
    for g in groups:
        t = g.target
        slot = 1 if seen[t] else 0
        seen[t] = True
        if g.naturals:
            actions.extend([mv.encode_stage(t, t, slot)] * g.naturals)
        if g.twos:
            actions.extend([mv.encode_stage(TWO, t, slot)] * g.twos)
        if g.jokers:
            actions.extend([mv.encode_stage(JOKER, t, slot)] * g.jokers)
    return actions


class _Draft:
    """One group being planned: naturals and wilds added to a meld (existing or new).

    ``naturals``, ``wilds`` and ``size`` count the whole meld with the group: attributes
    kept up to date by :meth:`add_wild` (the planner reads them often).
    """

    __slots__ = ("base_nat", "base_wild", "jokers", "nat", "naturals", "size", "target",
                 "twos", "wilds")

    def __init__(self, target: int, nat: int, base_nat: int = 0, base_wild: int = 0) -> None:
        self.target = target
        self.nat = nat
        self.twos = 0
        self.jokers = 0
        self.base_nat = base_nat
        self.base_wild = base_wild
        self.naturals = base_nat + nat
        self.wilds = base_wild
        self.size = base_nat + nat + base_wild

    def add_wild(self, kind: int) -> None:
        """Add a two or a joker to the group."""
        if kind == JOKER:
            self.jokers += 1
        else:
            self.twos += 1
        self.wilds += 1
        self.size += 1

    def take_wilds(self, k: int, wild: list[int]) -> None:
        """Add ``k`` wilds taken from ``wild`` (the twos and jokers left): jokers first,
        as many as there are left."""
        jokers = k if k < wild[1] else wild[1]  # (no min(): hot)
        twos = k - jokers if k - jokers < wild[0] else wild[0]
        wild[1] -= jokers
        wild[0] -= twos
        self.jokers += jokers
        self.twos += twos
        self.wilds += jokers + twos
        self.size += jokers + twos


_NATIVE_GROUPS: Final = new_meld_group is MeldGroup
"""Whether ``MeldGroup(...)`` is the faster way to build a group: compiled (mypyc),
``new_meld_group`` is the class itself, which a compiled caller constructs natively only
when it names the class; in pure Python ``new_meld_group`` sets the slots directly."""


def _order(keys: list[int]) -> list[int]:
    """The indices of ``keys`` (fewer than 16), in increasing order of their keys and
    stably (ties in index order), each packed as ``key * 16 + index`` (read the index
    with ``& 15``): the order ``sorted(items, key=...)`` gives ``items`` where
    ``keys[i]`` is item i's key, without a key function called per item (which the
    compiled build calls as a Python object). Sorts and returns ``keys`` itself."""
    if len(keys) >= 16:
        raise ValueError(f"_order packs fewer than 16 keys, not {len(keys)}")
    for i in range(len(keys)):
        keys[i] = keys[i] * 16 + i
    keys.sort()
    return keys


def _build(view: PlayerView, counts: list[int], *, top_kind: int | None = None,
           greedy: bool = False, reserve: int = 1, hold: int = 0,
           hold_new: bool = False, currents: list[TableMeld | None] | None = None,
           dirty_need: int = 2) -> list[MeldGroup]:
    """A meld plan; careful (keeps pairs and guards clean melds) unless ``greedy``.

    Careful: naturals onto the side's melds, new melds from three or more naturals,
    wilds to finish books, into the all-wild meld, or onto melds already dirty beyond a
    ``reserve`` held back. Greedy: also pairs (and singles) with wilds, wilds wherever
    the ratio allows, so as many cards as possible go down. Careful plans keep up to
    ``hold`` naturals of an already melded rank in hand (a pair to take the pile with)
    unless they finish the book; with ``hold_new`` they also keep a bare three of a kind
    in hand (more pairs to take the pile with) instead of starting a meld.
    ``currents`` is :func:`_currents` of the side's melds, if the caller has it. Careful
    plans finish a clean meld of four naturals or more with wilds only where it needs at
    most ``dirty_need`` of them.
    """
    # (hot: the profile's fields are read once into typed locals, the top card's kind is
    # an int (-1: no pickup), and the drafts are ordered by integer keys, not lambdas;
    # docs/performance.md, "Third pass")
    p = view.profile
    own = view.melds[view.side]
    cap: int = p.book_max or 1 << 30
    bs: int = p.book_size
    least: int = p.min_meld_size
    top = -1 if top_kind is None else top_kind
    pickup = top >= 0
    wild = [counts[TWO], counts[JOKER]]
    drafts: list[_Draft] = []
    # pairs/singles that need wilds to go down (greedy only): rank and naturals, a draft
    # made only for those that go down
    pending_rank: list[int] = []
    pending_nat: list[int] = []
    if currents is None:
        currents = list(view.open_melds[view.side])  # (_currents of its melds)
    # ranks that may start a new meld: any, or (not new_meld_after_book) those the side
    # has no meld of
    melded = _NO_TARGETS[:]
    if not p.new_meld_after_book:
        for m in own:
            melded[m.target] = True
    holding = hold != 0 and not greedy and not pickup
    keep_threes = hold_new and not greedy and not pickup
    has_wild = wild[0] + wild[1] > 0
    for r in range(cards.FOUR, cards.ACE + 1):  # RANKS
        n: int = counts[r]
        if r == top:
            n += 1
        cur = currents[r]
        if cur is not None:
            cur_wilds = cur.twos + cur.jokers
            cur_size = cur.naturals + cur_wilds
            room = cap - cur_size  # (no min() or max(): builtin calls, hot)
            k = n if n < room else room
            if holding and n >= hold and cur_size + k < bs:
                if n - hold < k:
                    k = n - hold
                if k < 0:
                    k = 0
            # (a dirty meld with no naturals to add is a draft only for wilds: with none
            # in hand, nothing could go onto it, and the draft would be dropped)
            if k > 0 or (cur_wilds and cur_size < bs and (has_wild or r == top)):
                drafts.append(_Draft(r, k if k > 0 else 0, cur.naturals, cur_wilds))
            continue
        if not n:
            continue
        if melded[r]:  # a book of it, no new meld
            continue
        if n >= least:
            if keep_threes and n == least:
                continue
            drafts.append(_Draft(r, n if n < cap else cap))
        elif greedy or r == top:
            pending_rank.append(r)
            pending_nat.append(n)

    # a draft fits ``extra`` more wilds: d.size + extra <= cap and
    # wilds_allowed(d.naturals, d.wilds + extra, d.target), written out where it is asked
    # 1. finish books with wilds: dirty melds first, then the closest ones
    if wild[0] or wild[1]:
        # (a draft a rank: fewer than 16; bs - d.size is far below 1 << 20)
        for v in _order([(0 if d.wilds else 1 << 20) + bs - d.size for d in drafts]):
            d = drafts[v & 15]
            need = bs - d.size
            if d.size == 0 or need <= 0 or need > wild[0] + wild[1]:
                continue
            if d.wilds == 0 and d.naturals >= 4 and need > dirty_need and not greedy:
                continue
            if d.size + need <= cap and p.wilds_allowed(d.naturals, d.wilds + need, d.target):
                d.take_wilds(need, wild)
    # 2. greedy: pairs with wilds, then wilds wherever they fit
    if greedy:
        # the most naturals first (a pending rank holds 1 to least - 1), ties in order;
        # a pending draft has no wilds yet: its size and naturals are its naturals
        for nat in range(least - 1, 0, -1):
            for i in range(len(pending_rank)):
                if pending_nat[i] != nat:
                    continue
                need = least - nat
                if need <= wild[0] + wild[1] and nat + need <= cap and p.wilds_allowed(
                        nat, need, pending_rank[i]):
                    d = _Draft(pending_rank[i], nat)
                    d.take_wilds(need, wild)
                    drafts.append(d)
    elif pickup:
        for i in range(len(pending_rank)):
            if pending_rank[i] == top and pending_nat[i] >= least:
                drafts.append(_Draft(top, pending_nat[i]))
    # 3. the all-wild meld
    wild_group: MeldGroup | None = None
    if p.all_wild_melds and (p.wild_meld_opens or view.opened[view.side]):
        cur = currents[WILD_MELD]
        spare = wild[0] + wild[1]
        if (cur is not None and spare) or spare >= least:
            room = bs - (cur.size if cur else 0)
            tw = min(wild[0], room)
            jk = min(wild[1], room - tw)
            wild[0] -= tw
            wild[1] -= jk
            wild_group = MeldGroup(WILD_MELD, 0, tw, jk)
    # 4. what is left: onto dirty melds (careful, beyond the reserve) or anywhere (greedy)
    keep = 0 if greedy else reserve
    if wild[0] + wild[1] > keep:
        for v in _order([-d.size for d in drafts]):
            d = drafts[v & 15]
            if d.size == 0:
                continue
            if not greedy and (d.wilds == 0 or wild[0] + wild[1] <= reserve):
                continue
            while wild[0] + wild[1] > keep and d.size + 1 <= cap and p.wilds_allowed(
                    d.naturals, d.wilds + 1, d.target):
                if d.base_nat == 0 and d.naturals < least - 1 and d.size < least:
                    break
                d.take_wilds(1, wild)
    out: list[MeldGroup] = []
    for d in drafts:
        t = d.target
        nat = d.nat - (1 if t == top else 0)
        if nat + d.twos + d.jokers > 0 or t == top:
            if d.base_nat == 0 and d.base_wild == 0 and d.size < least:
                continue
            out.append(MeldGroup(t, nat, d.twos, d.jokers) if _NATIVE_GROUPS
                       else new_meld_group(t, nat, d.twos, d.jokers, False))
    if wild_group is not None:
        out.append(wild_group)
    return out if _opens(view, out, top_kind) else []


def _table_after(view: PlayerView, groups: list[MeldGroup]) -> list[tuple[int, int, int]]:
    """The side's melds as ``(target, naturals, wilds)`` once ``groups`` are laid: each
    group's cards go onto the side's latest unfinished meld of its target, or start one."""
    bs = view.profile.book_size
    added: dict[int, tuple[int, int]] = {}
    for g in groups:
        n, w = added.get(g.target, (0, 0))
        added[g.target] = (n + g.naturals, w + g.wilds)
    out: list[tuple[int, int, int]] = []
    seen: set[int] = set()
    for m in reversed(view.melds[view.side]):
        n, w = m.naturals, m.wilds
        if m.size < bs and m.target not in seen and m.target in added:
            a = added.pop(m.target)
            n, w = n + a[0], w + a[1]
        seen.add(m.target)
        out.append((m.target, n, w))
    out.extend((target, n, w) for target, (n, w) in added.items())
    return out


def _may_go_out(view: PlayerView, groups: list[MeldGroup]) -> bool:
    """Whether the side would hold the books it needs to go out once ``groups`` are laid
    (the engine's own rule: :func:`handfoot.game.table.missing_books` of
    :func:`handfoot.game.table.count_books` of :func:`_table_after`, counted in one pass
    without the table, the books or the words built: the bot asks it of every plan that
    could go out, on every view of its last packet where one could)."""
    # (hot where going out needs many books: the groups' cards by target, then the side's
    # melds from the latest, each target's latest taking them if it is no book yet)
    p = view.profile
    bs: int = p.book_size
    add_nat = _ZERO_TARGETS[:]
    add_wild = _ZERO_TARGETS[:]
    adding = _NO_TARGETS[:]
    for g in groups:
        t = g.target
        add_nat[t] = add_nat[t] + g.naturals
        add_wild[t] = add_wild[t] + g.twos + g.jokers
        adding[t] = True
    seen = _NO_TARGETS[:]
    by_rank = _ZERO_TARGETS[:]
    books = [0, 0, 0]  # clean, dirty, wild
    own = view.melds[view.side]
    i = len(own)
    while i > 0:
        i -= 1
        m = own[i]
        t = m.target
        n: int = m.naturals
        w: int = m.twos + m.jokers
        if not seen[t]:
            seen[t] = True
            if adding[t] and n + w < bs:
                n += add_nat[t]
                w += add_wild[t]
                adding[t] = False
        if n + w >= bs:
            _count_book(t, w, books, by_rank)
    for t in range(mv.NUM_TARGETS):  # the groups that start melds
        if adding[t] and add_nat[t] + add_wild[t] >= bs:
            _count_book(t, add_wild[t], books, by_rank)
    clean = books[0]
    for rank in p.special_books_to_go_out:  # (each counts for its rank, not as clean)
        if not by_rank[rank]:
            return False
        clean -= 1
    return (clean >= p.clean_books_to_go_out and books[1] >= p.dirty_books_to_go_out
            and books[2] >= p.wild_books_to_go_out)


def _count_book(target: int, wilds: int, books: list[int], by_rank: list[int]) -> None:
    """A book of ``target`` holding ``wilds`` wild cards, counted into ``books`` (clean,
    dirty, all-wild) and, if clean, into ``by_rank`` (for :func:`_may_go_out`)."""
    if target == WILD_MELD:
        books[2] = books[2] + 1
    elif wilds:
        books[1] = books[1] + 1
    else:
        books[0] = books[0] + 1
        by_rank[target] = by_rank[target] + 1
