"""The game: :class:`GameState`, a whole game under one :class:`~handfoot.game.rules.Profile`.

It says whose turn it is and in which :class:`~handfoot.game.values.Phase`;
:meth:`GameState.apply` plays a player move (see :mod:`handfoot.game.moves`) or raises
:class:`~handfoot.game.values.IllegalMoveError` with a reason a player understands, leaving
the state exactly as it was; :meth:`GameState.verify` checks a move without playing it and
returns the checked move, an :class:`~handfoot.game.values.Effect` (what it will do,
whether it ends the round or the game) that ``apply`` commits without checking it again;
:meth:`GameState.legal_actions` lists the legal integer actions; :meth:`GameState.view`
gives a seat only what that seat may know; :meth:`GameState.copy` is cheap. The state keeps
its :attr:`GameState.history` and the public and private part of every move's event;
:meth:`GameState.public_view` is what a spectator sees; :meth:`GameState.position` and
:meth:`GameState.from_position` turn a state into a :class:`~handfoot.game.values.Position`
value and back.

``GameState`` ties together one class split by concern, each part in its own module:
:class:`~handfoot.game.state.State` (the fields and the questions asked of them),
:class:`~handfoot.game.checks.Checks` (checking moves),
:class:`~handfoot.game.listing.Listing` (the legal actions and the views), and here the
playing of moves: dealing rounds, committing moves and what they set off, the end of a round
and its scores. The values it makes are in :mod:`.values` and :mod:`.scoring`, the deal in
:mod:`.deal`, the events' words in :mod:`.events`.

The engine is pure: no I/O, no clock, no global state. Randomness (the shuffle and the
place a rejected starter card goes back into the stock) comes only from the game's seed,
or the deals are given explicitly.

Internally every packet is a vector of counts (by face for people, by kind for the rules),
and a meld is a rank plus counts, so a rule check is a few integer comparisons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from handfoot.game import cards
from handfoot.game import moves as mv
from handfoot.game.cards import (
    BLACK_THREE,
    FACE_KIND,
    JOKER,
    KIND_FACES,
    NUM_FACES,
    NUM_KINDS,
    RED_THREE,
    TWO,
    Kind,
)
from handfoot.game.checks import _ALL_PICKED_COUNT, _Checked, _Plan
from handfoot.game.deal import check_deal, deal_of_round
from handfoot.game.listing import _SLOT_SETTER, Listing
from handfoot.game.moves import WILD_MELD, ActionId, MeldGroup
from handfoot.game.rules import Layout, Profile, Seat, Side
from handfoot.game.scoring import SideScore, SideTally, score_tally
from handfoot.game.table import (
    BookKind,
)
from handfoot.game.values import (
    _ANSWER,
    _DRAW,
    _GAME_OVER,
    _PLAY,
    Deal,
    DealError,
    Effect,
    HistoryEntry,
    IllegalMoveError,
    Position,
    RoundEnd,
    RoundResult,
    TableMeld,
)

__all__ = ["GameState"]


class GameState(Listing):
    """A game of Hand and Foot in progress: the one class of the engine that is made (see
    the module docstring)."""

    __slots__ = ()

    # --- construction ------------------------------------------------------------------

    @classmethod
    def new(cls, profile: Profile, *, layout: Layout | None = None, seed: int | None = None,
            deals: Sequence[Deal] = ()) -> GameState:
        """Start a game: round 1 is dealt from ``deals[0]`` if given, else from ``seed``.

        Later rounds use the next explicit deal, or the seed when deals run out.
        """
        layout = layout or profile.layout
        profile.check_layout(layout)
        if seed is None and len(deals) < profile.rounds:
            raise ValueError(f"a game of {profile.rounds} rounds needs a seed or a deal for "
                             f"every round (got {len(deals)} deals)")
        for number, deal in enumerate(deals, 1):
            try:
                check_deal(profile, layout, deal, number)
            except DealError as exc:
                raise ValueError(f"the deal of round {number}: {exc}") from None
        self = cls()
        self.profile = profile
        self.layout = layout
        self.players = layout.players
        self.sides = layout.sides
        self.side_of = tuple(layout.side_of(s) for s in range(layout.players))
        self.seed = seed
        self.deals = tuple(deals)
        self.round_number = 0
        self.totals = [0] * self.sides
        self.results = []
        self._log = None
        self._facts = None
        self._listed = None
        self._viewed = None
        self._options = None
        self._side_tables = None
        self._flags_kept = None
        self._start_round(1)
        return self

    def _deal_for(self, round_number: int) -> Deal:
        # explicit deals were checked when the game was created
        return deal_of_round(self.profile, self.layout, round_number, deals=self.deals,
                             seed=self.seed)

    def _start_round(self, round_number: int) -> None:
        deal = self._deal_for(round_number)
        n, s = self.players, self.sides
        self.deal = deal
        self.round_number = round_number
        self.dealer = deal.dealer
        self.first_player = deal.first_player
        self.held_faces = [cards.face_counts(h) for h in deal.hands]
        self.held = [cards.kind_counts(h) for h in deal.hands]
        self.held_n = [len(h) for h in deal.hands]
        self.feet = [list(f) for f in deal.feet]
        self.knees = [list(k) for k in deal.knees]
        self.foot_picked = [False] * n
        self.foot_played = [False] * n
        self.foot_turn_done = [False] * n
        self.stock = list(reversed(deal.stock))  # top at the end
        self.pile = list(deal.discard)
        self.melds = [[] for _ in range(s)]
        self.red_threes = [[] for _ in range(s)]
        self.opened = [False] * s
        self.permission = [False] * s
        self._refused = False
        self.pending = None
        self.pending_answerers = []
        self.picked_pile = False
        self.stalled_turns = 0
        self.take_backs = 0
        self.undo_stack = []
        self.staged = {}
        self.seat = self.actor = deal.first_player
        self.phase = _DRAW
        # Red threes in the dealt Hands are laid and replaced in turn order.
        for i in range(n):
            seat = (deal.first_player + i) % n
            if not self._lay_red_threes(seat):
                return
        self._begin_turn(deal.first_player)

    @property
    def go_out_refused(self) -> bool:
        """Whether the partner said No to "May I go out?" this turn (the position's
        ``refused``, read without building the whole :class:`Position`)."""
        return self._refused

    def position(self) -> Position:
        """The state as a value (see :class:`Position`); cheap: the history is shared."""
        return Position(
            profile=self.profile, layout=self.layout, round_number=self.round_number,
            phase=self.phase, turn=self.seat, to_act=self.actor,
            hands=tuple(tuple(self.hand(s)) for s in range(self.players)),
            feet=tuple(map(tuple, self.feet)), knees=tuple(map(tuple, self.knees)),
            stock=tuple(reversed(self.stock)), pile=tuple(self.pile),
            melds=tuple(map(tuple, self.melds)), red_threes=tuple(map(tuple, self.red_threes)),
            opened=tuple(self.opened), foot_picked=tuple(self.foot_picked),
            foot_played=tuple(self.foot_played), foot_turn_done=tuple(self.foot_turn_done),
            totals=tuple(self.totals), permission=tuple(self.permission),
            refused=self._refused, pending=self.pending,
            pending_answerers=tuple(self.pending_answerers), picked_pile=self.picked_pile,
            stalled_turns=self.stalled_turns, take_backs=self.take_backs,
            staged=tuple((key, n, tw, jk) for key, (n, tw, jk) in sorted(self.staged.items())),
            undo_stack=tuple((tuple(cards.faces_from_counts(faces)), tuple(melds), opened,
                              played)
                             for faces, _, _, melds, opened, played in self.undo_stack),
            results=tuple(self.results), dealer=self.dealer, first_player=self.first_player,
            deal=self.deal, seed=self.seed, deals=self.deals, history=self.history)

    @classmethod
    def from_position(cls, pos: Position) -> GameState:
        """A state holding ``pos``; its moves then play on as in any game.

        Raises ``ValueError`` if the position's seats and sides do not fit its layout.
        """
        layout = pos.layout
        n, sides = layout.players, layout.sides
        for name in ("hands", "feet", "knees", "foot_picked", "foot_played", "foot_turn_done"):
            if len(getattr(pos, name)) != n:
                raise ValueError(f"the position's {name} are for {len(getattr(pos, name))} "
                                 f"seats; a {layout} game has {n}")
        for name in ("melds", "red_threes", "opened", "totals"):
            if len(getattr(pos, name)) != sides:
                raise ValueError(f"the position's {name} are for {len(getattr(pos, name))} "
                                 f"sides; a {layout} game has {sides}")
        if not (0 <= pos.turn < n and 0 <= pos.to_act < n):
            raise ValueError(f"seats are numbered 0 to {n - 1}")
        self = cls()
        self.profile = pos.profile
        self.layout = layout
        self.players = n
        self.sides = sides
        self.side_of = tuple(layout.side_of(s) for s in range(n))
        self.seed = pos.seed
        self.deals = pos.deals
        first = pos.turn if pos.first_player is None else pos.first_player
        self.deal = pos.deal or Deal(pos.hands, pos.feet, pos.knees, pos.stock, pos.pile,
                                     dealer=(first - 1) % n, first_player=first)
        self.round_number = pos.round_number
        self.dealer = (first - 1) % n if pos.dealer is None else pos.dealer
        self.first_player = first
        self.totals = list(pos.totals)
        self.results = list(pos.results)
        self.phase = pos.phase
        self.seat = pos.turn
        self.actor = pos.to_act
        self.held_faces = [cards.face_counts(h) for h in pos.hands]
        self.held = [cards.kind_counts(h) for h in pos.hands]
        self.held_n = [len(h) for h in pos.hands]
        self.feet = [list(f) for f in pos.feet]
        self.knees = [list(k) for k in pos.knees]
        self.foot_picked = list(pos.foot_picked)
        self.foot_played = list(pos.foot_played)
        self.foot_turn_done = list(pos.foot_turn_done)
        self.stock = list(reversed(pos.stock))
        self.pile = list(pos.pile)
        self.melds = [list(m) for m in pos.melds]
        self.red_threes = [list(r) for r in pos.red_threes]
        self.opened = list(pos.opened)
        self.permission = list(pos.permission) or [False] * sides
        self._refused = pos.refused
        self.pending = pos.pending
        self.pending_answerers = list(pos.pending_answerers)
        self.picked_pile = pos.picked_pile
        self.stalled_turns = pos.stalled_turns
        self.take_backs = pos.take_backs
        self.undo_stack = [(cards.face_counts(hand), cards.kind_counts(hand), len(hand),
                            list(melds), opened, played)
                           for hand, melds, opened, played in pos.undo_stack]
        self.staged = {key: [n_, tw, jk] for key, n_, tw, jk in pos.staged}
        self._log = pos.history._node
        self._facts = None
        self._listed = None
        self._viewed = None
        self._options = None
        self._side_tables = None
        self._flags_kept = None
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.position() == other.position()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<GameState {self.profile.name} {self.layout} round {self.round_number}: "
                f"seat {self.actor + 1} to act ({self.phase.name.lower()}), "
                f"{self.moves_played} moves>")

    def copy(self) -> GameState:
        """An independent copy (the profile and immutable parts are shared).

        One assignment per field, no loop, each copied as :data:`_STATE_FIELDS` says
        (written out rather than made by ``exec`` so that mypyc can compile it;
        tests/test_compiled.py checks it against the list).
        """
        c = GameState()
        c.profile = self.profile
        c.layout = self.layout
        c.players = self.players
        c.sides = self.sides
        c.side_of = self.side_of
        c.seed = self.seed
        c.deals = self.deals
        c.deal = self.deal
        c.round_number = self.round_number
        c.dealer = self.dealer
        c.first_player = self.first_player
        c.totals = self.totals[:]
        c.results = self.results[:]
        c.phase = self.phase
        c.seat = self.seat
        c.actor = self.actor
        c.held_faces = [x[:] for x in self.held_faces]
        c.held = [x[:] for x in self.held]
        c.held_n = self.held_n[:]
        c.feet = [x[:] for x in self.feet]
        c.knees = [x[:] for x in self.knees]
        c.foot_picked = self.foot_picked[:]
        c.foot_played = self.foot_played[:]
        c.foot_turn_done = self.foot_turn_done[:]
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.melds = [x[:] for x in self.melds]
        c.red_threes = [x[:] for x in self.red_threes]
        c.opened = self.opened[:]
        c.permission = self.permission[:]
        c._refused = self._refused
        c.pending = self.pending
        c.pending_answerers = self.pending_answerers[:]
        c.picked_pile = self.picked_pile
        c.stalled_turns = self.stalled_turns
        c.take_backs = self.take_backs
        c.undo_stack = self.undo_stack[:]
        c.staged = {k: v[:] for k, v in self.staged.items()}
        c._log = self._log
        c._facts = None
        c._listed = None
        c._viewed = None
        c._options = None
        c._side_tables = None
        c._flags_kept = None
        return c

    # --- applying moves ------------------------------------------------------------------

    def apply(self, move: mv.Move | Effect) -> None:
        """Play a move for the seat to act, or raise :class:`IllegalMoveError`.

        On an error the state is exactly as it was. ``apply`` is :meth:`verify` and then
        the commit of what it found; given the :class:`Effect` that :meth:`verify` returned
        in this position, it commits that without checking again (``ValueError`` if the
        state has moved on since).
        """
        self._listed = None
        if isinstance(move, Effect):
            self._apply_checked(move)
        else:
            self._commit_checked(move, self._worded_verify(move))

    def verify(self, move: mv.Move) -> Effect:
        """Check a move without playing it: raise :class:`IllegalMoveError` with the reason
        (the one :meth:`apply` would give), or return the checked move, an :class:`Effect`
        that says what it will do (whether it ends the round or the game included) and
        that :meth:`apply` commits as it is."""
        return self._effect(move, self._worded_verify(move))

    def _worded_discard(self, kind: int) -> _Plan | None:
        """:meth:`_verify_discard`, its reason worded at once if it raises."""
        try:
            return self._verify_discard(kind)
        except IllegalMoveError as exc:
            str(exc)
            raise

    def _worded_verify(self, move: mv.Move) -> _Checked:
        """:meth:`_verify`, its reason worded at once if the move is illegal (while the
        state is the one the reason is about)."""
        try:
            return self._verify(move)
        except IllegalMoveError as exc:
            str(exc)
            raise

    def _apply_checked(self, effect: Effect) -> None:
        """Commit a move :meth:`verify` checked, if the state is still where it was."""
        at = effect.checked
        if (not isinstance(at, tuple) or at[0] is not self or at[1] is not self._log
                or (at[2] is not None and at[2] != self._staged_now())):
            raise ValueError("this move was checked in another position: verify it again")
        self._commit_checked(at[3], at[4])

    def _commit_checked(self, move: mv.Move, checked: _Checked) -> None:
        """Commit a move its checks found legal: a player move, or a staging action."""
        if checked[0] is not None:
            self._commit_move(checked)
        elif isinstance(move, mv.Stage):
            self._stage(move.kind, move.target, move.slot)
        else:
            self.staged = {}  # ClearStaged
            self.take_backs += 1

    def is_legal(self, move: mv.Move) -> bool:
        """Whether :meth:`apply` would play ``move`` now (cheap: no reason is worded)."""
        try:
            self._verify(move)
        except IllegalMoveError:
            return False
        return True

    def check(self, move: mv.Move) -> str | None:
        """The reason a move is illegal now, or None if it is legal (see :meth:`verify`)."""
        try:
            self._verify(move)
        except IllegalMoveError as exc:
            return str(exc)
        return None

    def _effect(self, move: mv.Move, checked: _Checked) -> Effect:
        player_move, plan, _ = checked
        seat, side = self.actor, self.side_of[self.actor]
        # a staging action, and a Confirm (the Meld of the staged cards), hold only while
        # the staged cards are the ones they were checked with
        staged = self._staged_now() if player_move is None or isinstance(
            move, mv.Confirm) else None
        at = (self, self._log, staged, move, checked)
        ends_round = player_move is not None and self._ends_round(checked)
        ends_game = ends_round and self._ends_game(checked)
        if plan is None:
            last_yes = (isinstance(move, mv.Answer) and move.yes
                        and len(self.pending_answerers) == 1)
            return Effect(player_move, seat, goes_out=last_yes, ends_round=ends_round,
                          ends_game=ends_game, checked=at)
        top_kind = FACE_KIND[self.pile[-1]] if isinstance(move, mv.Pickup) else -1
        melds = []
        for st in plan.steps:  # the top card joins the group it is melded with
            top = (0, 0, 0) if not st.with_top else (
                (0, 1, 0) if top_kind == TWO else (0, 0, 1) if top_kind == JOKER else (1, 0, 0))
            melds.append(MeldGroup(st.target, st.naturals + top[0], st.twos + top[1],
                                   st.jokers + top[2], new=st.starts))
        asks = isinstance(move, mv.GoOut) and self._needs_permission(seat)
        return Effect(
            player_move, seat, melds=tuple(melds), value=plan.value, books=plan.books_made,
            opens=bool(plan.steps) and not self.opened[side],
            taken=self.pickup_size() if isinstance(move, mv.Pickup) else 0, asks=asks,
            goes_out=isinstance(move, mv.Discard) or (isinstance(move, mv.GoOut) and not asks),
            ends_round=ends_round, ends_game=ends_game, checked=at)

    def _ends_game(self, checked: _Checked) -> bool:
        """Whether a checked player move that ends the round ends the game too."""
        p = self.profile
        if self.round_number >= p.rounds:
            return True
        if p.target_score is None:
            return False
        # Whether a side reaches the target depends on the round's scores as it ends:
        # worked out by committing the move on a copy (once a round, and only in a game
        # played to a target score).
        trial = self.copy()
        trial._commit_move(checked)
        return trial.phase == _GAME_OVER

    def _commit_move(self, checked: _Checked) -> None:
        """Play a verified player move and add it to the history (with what its event
        shows)."""
        move, plan, extra = checked
        assert move is not None
        seat, round_number = self.actor, self.round_number
        facts: list[tuple[Any, ...]] = []
        self._facts = facts
        try:
            match move:
                case mv.Draw():
                    self._draw()
                case mv.Pickup():
                    assert plan is not None and extra is not None
                    self._pickup(plan, extra)
                case mv.Meld():
                    assert plan is not None
                    self._meld(plan)
                case mv.Discard(kind):
                    self._discard(kind, plan)
                case mv.GoOut(groups, discard):
                    assert plan is not None
                    self._go_out(groups, discard, plan)
                case mv.Answer(yes):
                    self._answer(yes)
                case mv.Undo():
                    self._undo()
                case mv.Knock():
                    self._end_turn()
                case mv.PickUpKnee():
                    self._pick_up_knee(self.seat)
        finally:
            self._facts = None
        log = self._log
        # (pure Python: the entry's slots set directly; compiled: its native __init__)
        entry = (_new_history_entry(round_number, seat, move) if _PURE
                 else HistoryEntry(round_number, seat, move))
        self._log = (log, 0 if log is None else log[1] + 1, entry, facts)

    def apply_action(self, action: ActionId) -> mv.Move | None:
        """Play an integer action; returns the player move it committed (None for staging).

        Staged cards become a :class:`~handfoot.game.moves.Meld`,
        :class:`~handfoot.game.moves.Pickup` or :class:`~handfoot.game.moves.GoOut`, which
        is what a game record stores.
        """
        self._listed = None
        move = mv.decode_action(action)
        if type(move) is mv.Stage and self.phase != _GAME_OVER:
            # the most frequent action: what apply does for it, without the dispatch
            try:
                self._verify_stage(move.kind, move.target, move.slot)
            except IllegalMoveError as exc:
                str(exc)  # word the reason now, while the state is the one it is about
                raise
            self._stage(move.kind, move.target, move.slot)
            return None
        if isinstance(move, (mv.Stage, mv.ClearStaged)):
            self.apply(move)
            return None
        if isinstance(move, mv.Pickup):
            player_move: mv.PlayerMove = mv.Pickup(self.staged_groups())
        elif isinstance(move, mv.GoOut):
            player_move = mv.GoOut(self.staged_groups(), move.discard)
        else:
            player_move = self.player_move(move)
        if isinstance(player_move, mv.Meld) and not player_move.groups:
            raise IllegalMoveError("no cards are staged to meld")
        self.apply(player_move)
        return player_move

    def apply_listed(self, action: ActionId) -> mv.Move | None:
        """:meth:`apply_action` for an action of the listing made just before
        (:meth:`legal_actions`, or the :meth:`view` of the seat to act), with nothing done
        to the state in between: the fast path of a play loop.

        What the listing checked is not checked again: a staging action is played at once,
        and a pickup, meld or go-out of the staged cards is committed with the plan the
        listing worked out. An action the listing did not find legal (or with no listing
        kept) goes through :meth:`apply_action`, with its checks and its reason.
        """
        listed = self._listed
        self._listed = None
        if listed is None or not _in_listing(listed[0], action):
            return self.apply_action(action)
        if mv.STAGE_NATURAL <= action < mv.KNEE:
            # a staging action, decoded as mv.decode_action does, with no Stage made
            if action < mv.STAGE_WILD:
                rank = (action - mv.STAGE_NATURAL) >> 1
                self._stage(rank, rank, (action - mv.STAGE_NATURAL) & 1)
            else:
                w = (action - mv.STAGE_WILD) >> 1  # (two or joker) * NUM_TARGETS + target
                self._stage(cards.TWO if w < mv.NUM_TARGETS else cards.JOKER,
                            w % mv.NUM_TARGETS, (action - mv.STAGE_WILD) & 1)
            return None
        move = mv.decode_action(action)
        checked = listed[1].get(action)
        if checked is None:
            # a listed draw or discard: its checks (_verify's), then its commit, without
            # apply_action's dispatch (the listing found it legal)
            if type(move) is mv.Draw:
                self._commit_move((move, None, None))
                return move
            if type(move) is mv.Discard:
                self._commit_move((move, self._worded_discard(move.kind), None))
                return move
            return self.apply_action(action)
        groups, plan, rest = checked
        player_move: mv.PlayerMove
        if action == mv.CONFIRM:  # (pure Python: its slots set directly, as a view's)
            player_move = _new_meld(groups) if _PURE else mv.Meld(groups)
        elif action == mv.PICKUP:
            player_move = _new_pickup(groups) if _PURE else mv.Pickup(groups)
        else:
            assert isinstance(move, mv.GoOut)
            player_move = mv.GoOut(groups, move.discard)
        self._commit_move((player_move, plan, rest))
        return player_move

    def stage_ahead(self, actions: list[int]) -> int:
        """Stage the staging ``actions`` in turn while each is one the seat's listing would
        hold (its :meth:`legal_actions`, or its :meth:`play_view`'s), as a play loop that
        built the view before each and played the action from it would; returns how many
        were staged (0 at the first that is not a staging action or not listed).

        For a bot that knows its next staging actions (a plan it stages card by card):
        the views and listings between them are not built. The state after it is the
        state those steps would leave."""
        phase = self.phase
        if phase != _DRAW and phase != _PLAY:
            return 0
        self._listed = None
        seat = self.seat
        side = self.side_of[seat]
        held = self.held[seat]
        done = 0
        # (what staging changes none of, read once: the side's melds that take cards, the
        # pile's top card's target, whether the pile may be taken)
        existing = self._existing_sizes(side)
        top_target = self._top_target()
        blocked = phase == _DRAW and self.pickup_blocker() is not None
        # the cards of each kind left to stage, worked out once and kept as cards are
        # staged (not asked of _staged_kind per card)
        left = self._unstaged(held)
        for action in actions:
            if not mv.STAGE_NATURAL <= action < mv.KNEE:
                break
            kind: int
            target: int
            if action < mv.STAGE_WILD:  # (decoded as apply_listed decodes it)
                kind = target = (action - mv.STAGE_NATURAL) >> 1
                slot = (action - mv.STAGE_NATURAL) & 1
            else:
                w = (action - mv.STAGE_WILD) >> 1
                kind = TWO if w < mv.NUM_TARGETS else JOKER
                target = w % mv.NUM_TARGETS
                slot = (action - mv.STAGE_WILD) & 1
            # listed: a card of the kind left to stage (at the draw, only where the pile
            # may be taken), for a target and slot that could still make a legal meld
            # (the checks of _verify_stage, which tests hold to the listing)
            if left[kind] <= 0:
                break
            if blocked:
                break
            if not self._stage_fits(kind, target, slot, existing[target], top_target):
                break
            self._stage(kind, target, slot)
            left[kind] = left[kind] - 1
            done += 1
        return done

    def commit_ahead(self, action: ActionId) -> mv.Move | None:
        """Commit the meld (:data:`~handfoot.game.moves.CONFIRM`) or the pickup
        (:data:`~handfoot.game.moves.PICKUP`) of the staged cards (some must be), or a
        draw (:data:`~handfoot.game.moves.DRAW`), if the seat's listing (its
        :meth:`legal_actions`, or its :meth:`play_view`'s) holds it and holds no Knee, as
        a play loop that built the view and played ``action`` from it would; returns the
        move committed, or None (nothing done) otherwise, or for any other action.

        For a bot that planned the staged cards and then this commit, or that draws, and
        would take its Knee first where it may (:mod:`handfoot.bots.ahead`): the view and
        the listing are not built, only the commit's own checks (the listing's)."""
        phase = self.phase
        seat = self.seat
        side = self.side_of[seat]
        if self.knees[seat] and self.knee_open(side):
            return None
        if action == mv.DRAW and phase == _DRAW:  # (always listed at the draw)
            move = _A_DRAW
            self._listed = None
            self._commit_move((move, None, None))
            return move
        if not self.staged:
            return None
        if action == mv.CONFIRM and phase == _PLAY:
            found = self._meld_listed(side, None)
        elif action == mv.PICKUP and phase == _DRAW and self.pickup_blocker() is None:
            found = self._pickup_listed(side, None)
        else:
            return None
        if found is None:
            return None
        self._listed = ([action], {action: found})
        return self.apply_listed(action)

    # --- drawing and taking the pile -------------------------------------------------------

    def _draw(self) -> None:
        p = self.profile
        seat = self.seat
        count = p.draw_count
        if len(self.stock) < count:
            if not (p.partial_last_draw and self.stock):
                self._end_round(RoundEnd.STOCK_EXHAUSTED, None)
                return
            count = len(self.stock)
        foot_due = self.held_n[seat] == 0 and not self.foot_picked[seat]
        drawn = [self.stock.pop() for _ in range(count)]
        self.stalled_turns = 0
        for face in drawn:
            self._add(seat, face)
        if self._facts is not None:
            self._facts.append(("drew", seat, drawn))
        self.staged = {}
        self.phase = _PLAY
        if self._lay_red_threes(seat) and foot_due:
            self._pick_up_foot(seat)  # a delayed Foot comes after the draw

    def _pickup(self, plan: _Plan, rest: list[int]) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        foot_due = self.held_n[seat] == 0 and not self.foot_picked[seat]
        top = self.pile.pop()
        del self.pile[len(self.pile) - len(rest):]
        if self._facts is not None:
            self._facts.append(("took", top, rest))
        if self.profile.pickup_opening_counts == _ALL_PICKED_COUNT:
            for face in rest:  # every picked card may be melded at once
                self._add(seat, face)
            self._commit(seat, plan, top)
        else:
            self._commit(seat, plan, top)  # hand cards and the top card only
            for face in rest:
                self._add(seat, face)
        if not plan.used_top:
            self._add(seat, top)
        if plan.steps:
            self.opened[side] = True
            self.stalled_turns = 0  # the top card went onto the table
            if self.foot_picked[seat]:
                self.foot_played[seat] = True
        self.staged = {}
        self.picked_pile = True
        self.phase = _PLAY
        self.undo_stack = []
        # a red 3 taken with the pile is laid and replaced at once, as from a draw
        if not self._lay_red_threes(seat):
            return
        if foot_due and self.held_n[seat]:
            self._pick_up_foot(seat)  # a delayed Foot comes after the pickup
        else:
            self._after_cards_left_hand(seat)

    # --- melding ---------------------------------------------------------------------------

    def _meld(self, plan: _Plan) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        self.undo_stack.append((self.held_faces[seat][:], self.held[seat][:], self.held_n[seat],
                                self.melds[side][:], self.opened[side], self.foot_played[seat]))
        self._commit(seat, plan, None)
        self.opened[side] = True
        self.staged = {}
        if self.foot_picked[seat]:
            self.foot_played[seat] = True
        self._after_cards_left_hand(seat)

    def _commit(self, seat: int, plan: _Plan, top: int | None) -> None:
        """Move the planned cards from the hand (and the top card) onto the table."""
        side = self.side_of[seat]
        melds = self.melds[side]
        new_index: list[int] = []  # where each meld the plan starts is on the table
        for step in plan.steps:
            t, n, tw, jk, with_top = (step.target, step.naturals, step.twos, step.jokers,
                                      step.with_top)
            faces: list[int] = []
            if with_top:
                assert top is not None
                faces.append(top)
            if n:
                faces.extend(self._take(seat, t, n))
            if tw:
                faces.extend(self._take(seat, TWO, tw))
            if jk:
                faces.extend(self._take(seat, JOKER, jk))
            if with_top:
                kt = FACE_KIND[top] if top is not None else -1
                if kt == TWO:
                    tw += 1
                elif kt == JOKER:
                    jk += 1
                else:
                    n += 1
            if self._facts is not None:
                self._facts.append(("melded", t, faces, step.starts))
            # (pure Python: the meld's slots set directly; compiled: its native __init__)
            if step.meld is None and step.starts:
                melds.append(_new_table_meld(t, n, tw, jk, tuple(faces)) if _PURE
                             else TableMeld(t, n, tw, jk, tuple(faces)))
                new_index.append(len(melds) - 1)
                continue
            if step.meld is not None:  # a meld on the table
                pos = step.meld
            else:  # one this move started
                assert step.new_meld is not None
                pos = new_index[step.new_meld]
            m = melds[pos]
            melds[pos] = (
                _new_table_meld(t, m.naturals + n, m.twos + tw, m.jokers + jk,
                                m.faces + tuple(faces)) if _PURE
                else TableMeld(t, m.naturals + n, m.twos + tw, m.jokers + jk,
                               m.faces + tuple(faces)))

    def _take(self, seat: int, kind: int, count: int) -> list[int]:
        """Remove ``count`` cards of a kind from a seat's hand, picking faces in a fixed
        order (clubs, diamonds, hearts, spades), so replays are exact."""
        hf = self.held_faces[seat]
        out: list[int] = []
        need = count
        for face in KIND_FACES[kind]:
            n = hf[face]
            if n:
                k = n if n < need else need  # as many of this face as are held and needed
                hf[face] = n - k
                if k == 1:
                    out.append(face)
                else:
                    out.extend([face] * k)
                need -= k
            if not need:
                break
        self.held[seat][kind] -= count
        self.held_n[seat] -= count
        return out

    def _add(self, seat: int, face: int) -> None:
        self.held_faces[seat][face] += 1
        self.held[seat][FACE_KIND[face]] += 1
        self.held_n[seat] += 1

    def _after_cards_left_hand(self, seat: int) -> None:
        """After melding: take the Foot or Knee an empty hand brings, or end an empty turn."""
        p = self.profile
        side = self.side_of[seat]
        if p.knee_auto_pickup and self.knees[seat] and self.knee_open(side):
            self._pick_up_knee(seat)
            return
        if self.held_n[seat]:
            return
        if self.knees[seat] and self.knee_open(side):
            self._pick_up_knee(seat)  # the Knee joins the hand before the Foot
        elif not self.foot_picked[seat]:
            if p.foot_at_once:
                self._pick_up_foot(seat)
            else:
                self._end_turn()  # the Foot waits for the next turn's draw
        else:
            self._end_turn()  # nothing left to play: the turn ends without a discard

    def _pick_up_knee(self, seat: int) -> None:
        if self._facts is not None:
            self._facts.append(("packet", seat, "knee", self.knees[seat]))
        for face in self.knees[seat]:
            self._add(seat, face)
        self.knees[seat] = []
        self._keep_melds()
        self._lay_red_threes(seat)

    def _pick_up_foot(self, seat: int) -> None:
        if self._facts is not None:
            self._facts.append(("packet", seat, "foot", self.feet[seat]))
        for face in self.feet[seat]:
            self._add(seat, face)
        self.feet[seat] = []
        self.foot_picked[seat] = True
        self._keep_melds()
        self._lay_red_threes(seat)

    def _lay_red_threes(self, seat: int) -> bool:
        """Lay every red 3 the seat holds and replace each from the stock.

        Returns False if the round ended because the stock could not replace one.
        """
        side = self.side_of[seat]
        facts = self._facts
        while self.held[seat][RED_THREE]:
            face = self._take(seat, RED_THREE, 1)[0]
            self.red_threes[side].append(face)
            self.stalled_turns = 0
            if facts is not None:
                facts.append(("red3", seat, face))
            if not self.stock:
                # every red 3 still held is laid too before the round ends
                while self.held[seat][RED_THREE]:
                    face = self._take(seat, RED_THREE, 1)[0]
                    self.red_threes[side].append(face)
                    if facts is not None:
                        facts.append(("red3", seat, face))
                self._end_round(RoundEnd.RED_THREE_NOT_REPLACED, None)
                return False
            face = self.stock.pop()
            self._add(seat, face)
            if facts is not None:
                facts.append(("replaced", seat, face))
        return True

    # --- discarding and ending turns -------------------------------------------------------

    def _discard(self, kind: int, going_out: _Plan | None) -> None:
        if going_out is not None:
            self._finish_going_out(going_out, kind)
            return
        seat = self.seat
        face = self._take(seat, kind, 1)[0]
        self.pile.append(face)
        if self._facts is not None:
            self._facts.append(("discarded", face))
        if self.foot_picked[seat]:
            self.foot_played[seat] = True
        self._end_turn()

    def _end_turn(self) -> None:
        seat = self.seat
        if self.foot_picked[seat]:
            self.foot_turn_done[seat] = True
        self._keep_melds()
        limit = self.profile.stalled_turns_each
        if limit is not None and self.stalled_turns >= limit * self.players:
            self._end_round(RoundEnd.STALLED, None)
            return
        self._begin_turn((seat + 1) % self.players)

    def _keep_melds(self) -> None:
        """The melds of this turn can no longer be taken back (a turn's end, a Foot or a
        Knee): cards laid by them are on the table for good, so the turn is not stalled."""
        if self.undo_stack:
            self.stalled_turns = 0
            self.undo_stack = []

    def _begin_turn(self, seat: int) -> None:
        self.seat = self.actor = seat
        self.phase = _DRAW
        self._refused = False
        self.picked_pile = False
        self.stalled_turns += 1  # until the turn draws or lays a card
        self.take_backs = 0
        self.undo_stack = []
        self.staged = {}
        p = self.profile
        if self.held_n[seat] == 0 and not self.foot_picked[seat] and p.foot_at_once:
            self._pick_up_foot(seat)  # the Hand ended with a discard last turn
        elif p.knee_auto_pickup and self.knees[seat] and self.knee_open(self.side_of[seat]):
            self._pick_up_knee(seat)

    def _undo(self) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        hf, hk, hn, melds, opened, played = self.undo_stack.pop()
        self.take_backs += 1
        if self._facts is not None:
            now = self.held_faces[seat]
            self._facts.append(("returned", [f for f in range(NUM_FACES)
                                             for _ in range(hf[f] - now[f])]))
        # copies: copies of this state share the stack's entries
        self.held_faces[seat] = hf[:]
        self.held[seat] = hk[:]
        self.held_n[seat] = hn
        self.melds[side] = melds[:]
        self.opened[side] = opened
        self.foot_played[seat] = played
        self.staged = {}

    # --- going out -------------------------------------------------------------------------

    def _go_out(self, groups: tuple[MeldGroup, ...], discard: int | None, plan: _Plan) -> None:
        seat = self.seat
        partners = self.partners(seat)
        if self._needs_permission(seat):
            if self._facts is not None:
                self._facts.append(("asked",))
            self.pending = mv.GoOut(groups, discard)
            self.pending_answerers = list(partners)
            self.phase = _ANSWER
            self.actor = partners[0]
            self.staged = {}
            return
        self._finish_going_out(plan, discard)

    def _answer(self, yes: bool) -> None:
        pending = self.pending
        assert pending is not None
        if not yes:
            self.pending = None
            self.pending_answerers = []
            self.phase = _PLAY
            self.actor = self.seat
            self._refused = True
            return
        self.pending_answerers.pop(0)
        if self.pending_answerers:
            self.actor = self.pending_answerers[0]
            return
        self.pending = None
        self.phase = _PLAY
        self.actor = self.seat
        self.permission[self.side_of[self.seat]] = True
        if self._facts is not None:
            self._facts.append(("asked_for", self.seat, pending))
        plan = self._check_go_out(pending.groups, pending.discard)
        self._finish_going_out(plan, pending.discard)

    def _finish_going_out(self, plan: _Plan, discard: int | None) -> None:
        seat, side = self.seat, self.side_of[self.seat]
        self._commit(seat, plan, None)
        if plan.steps:
            self.opened[side] = True
        if discard is not None:
            face = self._take(seat, discard, 1)[0]
            self.pile.append(face)
            if self._facts is not None:
                self._facts.append(("discarded", face))
        self._end_round(RoundEnd.WENT_OUT, seat)

    # --- staging (the integer action layer) ------------------------------------------------

    def _stage(self, kind: int, target: int, slot: int) -> None:
        # (no list made for a group already staged, and no `+=` on an item: compiled,
        # both native)
        key = target * 2 + slot
        entry = self.staged.get(key)
        if entry is None:
            entry = self.staged[key] = [0, 0, 0]
        i = 0 if kind <= cards.ACE else 1 if kind == TWO else 2
        entry[i] = entry[i] + 1

    # --- round end and scoring -----------------------------------------------------------

    def _end_round(self, reason: RoundEnd, went_out: Seat | None) -> None:
        scores = tuple(self.score_side(side, went_out) for side in range(self.sides))
        for s in scores:
            self.totals[s.side] += s.total
        result = RoundResult(self.round_number, reason, went_out, scores, tuple(self.totals))
        self.results.append(result)
        self.pending = None
        self.pending_answerers = []
        self.staged = {}
        self.undo_stack = []
        target = self.profile.target_score
        reached = target is not None and max(self.totals) >= target
        go_on = self.round_number < self.profile.rounds and not reached
        if self._facts is not None:
            self._facts.append(("ended", result, not go_on))
            self._facts = None  # the next round's deal is no part of this move's event
        if go_on:
            self._start_round(self.round_number + 1)
        else:
            self.phase = _GAME_OVER

    def score_side(self, side: Side, went_out: Seat | None = None,
                   adjustments: Sequence[tuple[str, int]] = ()) -> SideScore:
        """A side's score for the round as it stands, with every line of its breakdown.

        ``adjustments`` are (label, points) lines a score keeper adds for things that only
        happen at a real table (the tabletop parameters of a profile); the engine itself
        never has any.
        """
        p = self.profile
        values = p.kind_values
        counted = list(self.melds[side])
        unfinished: list[TableMeld] = []
        if p.unfinished_second_meld_negative:
            seen: set[int] = set()
            for m in self.melds[side]:
                if m.target in seen and m.target != WILD_MELD and m.size < p.book_size:
                    unfinished.append(m)
                    counted.remove(m)
                seen.add(m.target)
        books = self.book_counts(side)
        special = dict(p.special_book_bonus)
        special_books: dict[Kind, int] = {}
        for m in self.melds[side]:
            if m.book_kind(p.book_size) == BookKind.CLEAN and m.target in special:
                special_books[m.target] = special_books.get(m.target, 0) + 1
        left = [0] * NUM_KINDS
        for seat in self.layout.seats_of(side):
            for faces in (self.hand(seat), self.feet[seat], self.knees[seat]):
                for f in faces:
                    left[FACE_KIND[f]] += 1
        threes = (BLACK_THREE, RED_THREE)
        tally = SideTally(
            melded_cards=sum(m.size for m in counted),
            melded_points=sum(values[FACE_KIND[f]] for m in counted for f in m.faces),
            unfinished_cards=sum(m.size for m in unfinished),
            unfinished_points=sum(values[FACE_KIND[f]] for m in unfinished for f in m.faces),
            clean_books=books["clean"] - sum(special_books.values()),
            special_books=tuple(sorted(special_books.items())),
            dirty_books=books["dirty"], wild_books=books["wild"],
            red_threes=len(self.red_threes[side]),
            went_out=went_out is not None and self.side_of[went_out] == side,
            left_cards=sum(n for k, n in enumerate(left) if k not in threes),
            left_points=sum(n * values[k] for k, n in enumerate(left) if k not in threes),
            black_threes_left=left[BLACK_THREE], red_threes_left=left[RED_THREE])
        return score_tally(p, side, tally, adjustments)


_PURE: Final = _SLOT_SETTER
"""Whether this module runs as Python (not compiled)."""
_new_history_entry: Final[Callable[[int, int, mv.PlayerMove], HistoryEntry]] = (
    mv.fast_constructor(HistoryEntry))
"""``HistoryEntry(...)``, built faster in pure Python (every field given)."""
_A_DRAW: Final = mv.Draw()
"""A draw (one move object for every draw committed ahead: moves are values, and
:meth:`GameState.apply_listed` too commits one object for every listed draw)."""
_new_table_meld: Final[Callable[[int, int, int, int, tuple[int, ...]], TableMeld]] = (
    mv.fast_constructor(TableMeld))
"""``TableMeld(...)``, built faster in pure Python (every field given)."""
_new_meld: Final[Callable[[tuple[MeldGroup, ...]], mv.Meld]] = mv.fast_constructor(mv.Meld)
"""``Meld(groups)``, built faster in pure Python."""
_new_pickup: Final[Callable[[tuple[MeldGroup, ...]], mv.Pickup]] = mv.fast_constructor(
    mv.Pickup)
"""``Pickup(groups)``, built faster in pure Python."""


def _in_listing(listing: list[int], action: int) -> bool:
    """``action in listing`` for a listing in increasing order (the engine's): compiled,
    a loop that compares native ints and stops at the first action not below ``action``
    (``in`` compares boxed integers one by one, through the generic comparison); as
    Python, ``in`` (a loop in Python costs more)."""
    if _PURE:
        return action in listing
    for a in listing:
        if a >= action:
            return a == action
    return False
