""""Your turn" notices of correspondence games, by e-mail and Web Push: :class:`Notices`.

A seat asks for notices from its table page (its token proves the seat): an e-mail
address (a message at most once an hour per game unless it asks for every turn, or a
daily digest instead), a browser's push subscription, or mute. Its row of
``notice_seats`` keeps the seat's token, because a notice carries the link to the seat
(the token in the URL's fragment, never its query). When a correspondence game's turn
passes to a person, the timers (:mod:`handfoot.web.turns`) call :meth:`Notices.your_turn`
once for that turn.

Nothing leaks: a notice is written from the seat's own view (:func:`turn_words`: the
round, the scores, the seat's own card counts, the moves since its last turn as the moves
list says them, the time left), never another hand; a muted seat gets nothing. Every
e-mail carries a one-click unsubscribe (RFC 8058 ``List-Unsubscribe`` and
``List-Unsubscribe-Post``, and a link in the text) that stops the e-mail to that address.

Nobody is mailed who did not ask: an address given at a table gets one mail with a link to
confirm it (:meth:`Notices.confirm`), and no notice goes to it before that link is opened,
unless it is the signed-in player's own verified address. At most
:data:`CONFIRMS_PER_HOUR` such mails go to one address an hour, whoever asks.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import and_, delete, func, insert, or_, select, update

from handfoot.game.events import move_words
from handfoot.game.moves import parse_move
from handfoot.game.values import PlayerView
from handfoot.web.mail import Mailer
from handfoot.web.players import clean_email
from handfoot.web.push import PushGone, PushKeys, check_endpoint, send_push
from handfoot.web.schema import confirm_mails
from handfoot.web.store import (
    Store,
    _upsert,
    notice_seats,
    player_pushes,
    players,
    push_subscriptions,
    seat_players,
    token_hash,
)
from handfoot.web.turns import Clock, TurnRow, read_turns

if TYPE_CHECKING:
    from handfoot.web.table import Table

__all__ = ["CONFIRMS_PER_HOUR", "MAIL_EVERY", "Notices", "turn_words"]

log = logging.getLogger("handfoot.web")

MAIL_EVERY: Final = ("hour", "turn", "digest")
"""How often a seat's e-mail comes: at most once an hour per game (the default), at every
turn, or a daily digest of the games waiting for it."""

MAIL_GAP: Final = timedelta(hours=1)
DIGEST_GAP: Final = timedelta(hours=24)
DIGEST_CHECK: Final = 600.0
"""Seconds between a process's looks for digests to send."""

UNSUBSCRIBE_SECRET: Final = "unsubscribe"

CONFIRMS_PER_HOUR: Final = 3
"""Confirmation mails one address may get an hour, from every seat and game together."""
CONFIRM_AGAIN: Final = timedelta(minutes=2)
"""How soon one seat may have its confirmation mail sent again."""
CONFIRM_TTL: Final = timedelta(days=7)
"""How long a confirmation link works."""
RECENT_MOVES: Final = 8


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _left(delta: timedelta) -> str:
    hours = max(0, int(delta.total_seconds() // 3600))
    if hours >= 48:
        return f"{hours // 24} days"
    if hours >= 1:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{max(1, int(delta.total_seconds() // 60))} minutes"


def turn_words(view: PlayerView, seat_names: Sequence[str], side_names: Sequence[str],
               title: str, recent: Sequence[tuple[int, str]], due: datetime | None,
               at: datetime, on_timeout: str) -> tuple[str, list[str]]:
    """A "your turn" notice from one seat's view only: (subject, lines). ``recent``: the
    latest moves as (seat, notation), public as the moves list shows them."""
    me = seat_names[view.seat]
    others = [n for i, n in enumerate(seat_names) if i != view.seat]
    subject = f"Your turn, {me}: {title} with {_names(others)}"
    lines = [f"It is your turn in {title}, round {view.round_number} of {view.rounds}."]
    lines.append("Scores: " + "; ".join(f"{side_names[i]} {total:,}"
                                         for i, total in enumerate(view.totals)) + ".")
    if recent:
        lines.append("Since your last turn:")
        lines += [f"  {seat_names[s]} {move_words(parse_move(n))}" for s, n in recent]
    packet = "your foot" if view.in_foot[view.seat] else "your hand (your foot is to come)"
    lines.append(f"You hold {view.hand_counts[view.seat]} cards in {packet}.")
    if due is not None:
        then = "your stand-in bot plays the turn" if on_timeout == "bot" else \
            "the others may give your seat to a bot"
        lines.append(f"Time left: {_left(due - at)} (until {due:%a %d %b %H:%M} UTC); "
                     f"then {then}.")
    return subject, lines


def recent_moves(table: Table, seat: int) -> list[tuple[int, str]]:
    """The public moves of the current round since ``seat`` last moved (at most
    :data:`RECENT_MOVES`)."""
    record = table.record()
    if not record.rounds:
        return []
    moves = [(m.seat, m.move) for m in record.rounds[-1].moves]
    mine = [i for i, (s, _) in enumerate(moves) if s == seat]
    since = moves[mine[-1] + 1:] if mine else moves
    return since[-RECENT_MOVES:]


class Notices:
    """Who wants to hear what, and sending it."""

    def __init__(self, store: Store, clock: Clock, *, mailer: Mailer | None,
                 push_contact: str, push_hosts: tuple[str, ...], public_url: str | None,
                 ) -> None:
        self.store = store
        self.clock = clock
        self.mailer = mailer
        self.push_contact = push_contact
        self.push_hosts = push_hosts
        self.public_url = public_url.rstrip("/") if public_url else None
        self._keys: PushKeys | None = None
        self._digest_checked = 0.0

    async def keys(self) -> PushKeys:
        """The VAPID key pair (made at the first start, kept in the database)."""
        if self._keys is None:
            from handfoot.web.push import VAPID_SECRET

            self._keys = PushKeys(await self.store.secret(VAPID_SECRET))
        return self._keys

    async def _unsubscribe_token(self, game_id: str, seat: int) -> str:
        secret = await self.store.secret(UNSUBSCRIBE_SECRET)
        return hmac.new(secret, f"{game_id}:{seat}".encode(), hashlib.sha256).hexdigest()

    # -- what a seat asked for ----------------------------------------------------------------

    async def settings(self, game_id: str, seat: int) -> dict[str, Any]:
        """A seat's notice settings, as its table page shows them."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(notice_seats).where(
                notice_seats.c.game == game_id, notice_seats.c.seat == seat))).first()
            pushes = (await conn.execute(select(push_subscriptions.c.endpoint_hash).where(
                push_subscriptions.c.game == game_id,
                push_subscriptions.c.seat == seat))).all()
        return {"email": None if row is None else row.email,
                "email_confirmed": row is not None and row.email is not None
                and bool(row.email_confirmed),
                "confirm_sent": None if row is None or row.confirm_sent is None
                or row.email is None else row.confirm_sent.isoformat() + "Z",
                "mail_every": "hour" if row is None else row.mail_every,
                "muted": False if row is None else bool(row.muted),
                "push": len(pushes), "mail": self.mailer is not None}

    async def update(self, game_id: str, seat: int, token: str, base_url: str,
                     changes: Mapping[str, Any], player_id: str | None = None,
                     verified_email: str | None = None) -> dict[str, Any]:
        """Change a seat's notices (``email``: an address or None; ``mail_every``;
        ``muted``; ``push``: a browser's subscription to add, kept for ``player_id`` too,
        the signed-in player sitting there, so it serves all their seats); ValueError if
        one is bad. A new address (or the same one again while it is not confirmed) is
        mailed a link to confirm it, unless it is ``verified_email``, the address the
        signed-in player asking has verified."""
        email = changes.get("email", ...)
        if email is not ... and email is not None:
            email = clean_email(email)
            if email is None:
                raise ValueError("email: one address, like name@example.org")
            if self.mailer is None:
                raise ValueError("this server sends no e-mail (it has no --smtp-url)")
        every = changes.get("mail_every", ...)
        if every is not ... and every not in MAIL_EVERY:
            raise ValueError(f"mail_every: one of {', '.join(MAIL_EVERY)}")
        muted = changes.get("muted", ...)
        if muted is not ... and not isinstance(muted, bool):
            raise ValueError("muted: true or false")
        push = changes.get("push")
        sub: dict[str, str] | None = None
        if push is not None:
            sub = self._subscription(push)
        base = self.public_url or base_url.rstrip("/")
        unsubscribe = token_hash(await self._unsubscribe_token(game_id, seat))
        at = self.clock.now()
        confirm: str | None = None  # a confirmation link's token to mail, once committed
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(select(notice_seats).where(
                notice_seats.c.game == game_id, notice_seats.c.seat == seat))).first()
            values: dict[str, Any] = {
                "token": token, "base_url": base[:200],
                "email": row.email if row is not None and email is ... else
                (None if email is ... else email),
                "mail_every": (row.mail_every if row is not None else "hour")
                if every is ... else every,
                "muted": (bool(row.muted) if row is not None else False)
                if muted is ... else muted,
                "unsubscribe_hash": unsubscribe}
            if email is not ...:
                kept = row is not None and row.email == email and bool(row.email_confirmed)
                values["email_confirmed"] = kept or (email is not None
                                                     and email == verified_email)
                again = row is not None and row.email == email \
                    and row.confirm_sent is not None and at - row.confirm_sent < CONFIRM_AGAIN
                if email is None or values["email_confirmed"]:
                    values["confirm_hash"] = values["confirm_sent"] = None
                elif not again:  # (a link sent a moment ago stays the one to open)
                    await self._may_confirm(conn, email, at)
                    confirm = secrets.token_hex(32)
                    values["confirm_hash"] = token_hash(confirm)
                    values["confirm_sent"] = at
                    await conn.execute(insert(confirm_mails).values(
                        address_hash=token_hash(email), sent=at))
            stmt = _upsert(conn, notice_seats).values(game=game_id, seat=seat,
                                                      created=self.clock.now(), **values)
            await conn.execute(stmt.on_conflict_do_update(index_elements=["game", "seat"],
                                                          set_=values))
            if sub is not None:
                digest = token_hash(sub["endpoint"])
                add = _upsert(conn, push_subscriptions).values(
                    game=game_id, seat=seat, endpoint_hash=digest, created=self.clock.now(),
                    **sub)
                await conn.execute(add.on_conflict_do_update(
                    index_elements=["game", "seat", "endpoint_hash"], set_=sub))
                if player_id is not None:
                    mine = _upsert(conn, player_pushes).values(
                        player=player_id, endpoint_hash=digest, created=self.clock.now(),
                        **sub)
                    await conn.execute(mine.on_conflict_do_update(
                        index_elements=["player", "endpoint_hash"], set_=sub))
        if confirm is not None:
            assert isinstance(email, str)
            await self._mail_confirm(email, base, confirm)
        return await self.settings(game_id, seat)

    async def _may_confirm(self, conn: Any, email: str, at: datetime) -> None:
        """Refuse (ValueError) a confirmation mail past :data:`CONFIRMS_PER_HOUR` to the
        address; forget the counts a day old."""
        await conn.execute(delete(confirm_mails).where(
            confirm_mails.c.sent < at - timedelta(days=1)))
        sent = (await conn.execute(select(func.count()).select_from(confirm_mails).where(
            confirm_mails.c.address_hash == token_hash(email),
            confirm_mails.c.sent > at - MAIL_GAP))).scalar_one()
        if sent >= CONFIRMS_PER_HOUR:
            raise ValueError(f"{email} was sent {CONFIRMS_PER_HOUR} links to confirm it "
                             "this hour: open one of them, or try again later")

    async def _mail_confirm(self, address: str, base_url: str, token: str) -> None:
        assert self.mailer is not None
        days = CONFIRM_TTL.days
        message = EmailMessage()
        message["To"] = address
        message["Subject"] = "Confirm your Hand and Foot turn notices"
        message.set_content("\n".join([
            "Someone (we hope you) asked for an e-mail when it is their turn in a game of",
            "Hand and Foot on this server, sent to this address.",
            "",
            f"To start them, open this link within {days} days:",
            f"{base_url}/notices/confirm?c={token}",
            "",
            "If it was not you, ignore this e-mail: nothing more is sent to you.", ""]))
        try:
            await self.mailer.send_message(message)
        except Exception:
            log.warning("a mail to confirm a notice address failed", exc_info=True)

    async def confirm(self, token: str) -> bool:
        """A confirmation link was opened: its seat's e-mail notices start; whether the
        link was known (and not too old, nor replaced by another address's)."""
        at = self.clock.now()
        async with self.store.engine.begin() as conn:
            result = await conn.execute(update(notice_seats).where(
                notice_seats.c.confirm_hash == token_hash(token),
                notice_seats.c.confirm_sent >= at - CONFIRM_TTL,
                notice_seats.c.email.is_not(None)).values(
                    email_confirmed=True, confirm_hash=None))
        return bool(result.rowcount)

    def _subscription(self, push: object) -> dict[str, str]:
        if not isinstance(push, Mapping) or not isinstance(push.get("keys"), Mapping):
            raise ValueError("push: a subscription {endpoint, keys: {p256dh, auth}}")
        keys = push["keys"]
        p256dh, auth = keys.get("p256dh"), keys.get("auth")
        if not (isinstance(p256dh, str) and 40 <= len(p256dh) <= 200
                and isinstance(auth, str) and 8 <= len(auth) <= 64):
            raise ValueError("push: keys: p256dh and auth as the browser gave them")
        return {"endpoint": check_endpoint(push.get("endpoint"), self.push_hosts),
                "p256dh": p256dh, "auth": auth}

    async def unsubscribe(self, token: str) -> bool:
        """An unsubscribe link was used: no more e-mail to its address (from any game);
        whether the link was known."""
        digest = token_hash(token)
        async with self.store.engine.begin() as conn:
            row = (await conn.execute(select(notice_seats.c.email).where(
                notice_seats.c.unsubscribe_hash == digest))).first()
            if row is None:
                return False
            if row.email is not None:
                await conn.execute(update(notice_seats).where(
                    notice_seats.c.email == row.email).values(
                        email=None, email_confirmed=False, confirm_hash=None))
        return True

    async def forget_game(self, game_id: str) -> None:
        """A game is over: its notice rows and subscriptions go (they hold its tokens)."""
        async with self.store.engine.begin() as conn:
            await conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.game == game_id))
            await conn.execute(delete(notice_seats).where(notice_seats.c.game == game_id))

    # -- sending ------------------------------------------------------------------------------

    async def your_turn(self, table: Table, turn: TurnRow) -> None:
        """Tell the seat of ``turn`` it is its turn, as it asked (nothing if muted)."""
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(select(notice_seats).where(
                notice_seats.c.game == table.id, notice_seats.c.seat == turn.seat))).first()
            subs = (await conn.execute(select(push_subscriptions).where(
                push_subscriptions.c.game == table.id,
                push_subscriptions.c.seat == turn.seat))).all()
            # the seat's player's browsers (a player not deleted)
            theirs = (await conn.execute(
                select(player_pushes).join(
                    seat_players, seat_players.c.player == player_pushes.c.player)
                .join(players, players.c.id == player_pushes.c.player)
                .where(seat_players.c.game == table.id, seat_players.c.seat == turn.seat,
                       players.c.deleted.is_(None)))).all()
        if (row is None and not theirs) or (row is not None and row.muted):
            return
        at = self.clock.now()
        rules = table.turns.rules
        subject, lines = turn_words(
            table.state.view(turn.seat), table.seat_names, table.side_names,
            table.profile.title, recent_moves(table, turn.seat), turn.due, at,
            rules.on_timeout if rules else "bot")
        # the seat's own link where its token is known; else the player's "My games"
        link = f"{row.base_url}/game/{table.id}#t={row.token}" if row is not None else \
            f"{self.public_url or ''}/games"
        payload = {"title": subject, "body": "\n".join(lines[:2]), "url": link,
                   "tag": f"handfoot-{table.id}"}
        sent = set()
        for sub in subs:
            sent.add(sub.endpoint_hash)
            await self._push(table.id, turn.seat, sub, payload)
        for sub in theirs:
            if sub.endpoint_hash not in sent:
                sent.add(sub.endpoint_hash)
                await self._push(table.id, turn.seat, sub, payload)
        if row is None:
            return
        if row.email and row.email_confirmed and self.mailer is not None \
                and row.mail_every != "digest" \
                and await self._may_mail(table.id, turn.seat, row.mail_every, at):
            await self._mail(row.email, subject, [*lines, "", f"Play your turn: {link}"],
                             row.base_url, await self._unsubscribe_token(table.id, turn.seat))

    async def overdue(self, table: Table, turn: TurnRow) -> None:
        """A seat's time ran out in a game that waits: tell the other people at the table
        (those who asked for notices and did not mute the game) that they may give it to a
        bot; an e-mail counts against the hourly limit like a turn's."""
        late = table.seat_names[turn.seat]
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(notice_seats).where(
                notice_seats.c.game == table.id, notice_seats.c.seat != turn.seat,
                notice_seats.c.muted.is_(False)))).all()
            subs = (await conn.execute(select(push_subscriptions).where(
                push_subscriptions.c.game == table.id,
                push_subscriptions.c.seat != turn.seat))).all()
        at = self.clock.now()
        subject = f"{late}'s time is up: {table.profile.title}"
        text = (f"{late} did not play their turn in time. You may give their seat to a bot "
                "(Notices, at the table) or wait for them.")
        for row in rows:
            link = f"{row.base_url}/game/{table.id}#t={row.token}"
            for sub in subs:
                if sub.seat == row.seat:
                    await self._push(table.id, row.seat, sub, {
                        "title": subject, "body": text, "url": link,
                        "tag": f"handfoot-{table.id}"})
            if row.email and row.email_confirmed and self.mailer is not None \
                    and row.mail_every != "digest" \
                    and await self._may_mail(table.id, row.seat, row.mail_every, at):
                await self._mail(row.email, subject, [text, "", f"The table: {link}"],
                                 row.base_url, await self._unsubscribe_token(table.id,
                                                                             row.seat))

    async def _may_mail(self, game_id: str, seat: int, every: str, at: datetime) -> bool:
        """Claim the seat's next mail (a conditional UPDATE: at most one an hour per game
        unless the seat asked for every turn; one process wins)."""
        where = and_(notice_seats.c.game == game_id, notice_seats.c.seat == seat)
        if every != "turn":
            where = and_(where, or_(notice_seats.c.last_mail.is_(None),
                                    notice_seats.c.last_mail <= at - MAIL_GAP))
        async with self.store.engine.begin() as conn:
            result = await conn.execute(update(notice_seats).where(where)
                                        .values(last_mail=at))
        return bool(result.rowcount == 1)

    async def _push(self, game_id: str, seat: int, sub: Any, payload: Mapping[str, Any],
                    ) -> None:
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        try:
            await send_push(await self.keys(), info, payload, self.push_contact,
                            topic=f"g{game_id}"[:32])
        except PushGone:  # that browser's subscription is gone: for every seat and player
            async with self.store.engine.begin() as conn:
                await conn.execute(delete(push_subscriptions).where(
                    push_subscriptions.c.endpoint_hash == sub.endpoint_hash))
                await conn.execute(delete(player_pushes).where(
                    player_pushes.c.endpoint_hash == sub.endpoint_hash))
        except Exception:
            log.warning("game %s: a push notice to seat %d failed", game_id, seat + 1,
                        exc_info=True)

    async def _mail(self, address: str, subject: str, lines: list[str], base_url: str,
                    unsubscribe: str) -> None:
        assert self.mailer is not None
        url = f"{base_url}/notices/unsubscribe?u={unsubscribe}"
        message = EmailMessage()
        message["To"] = address
        message["Subject"] = subject
        message["List-Unsubscribe"] = f"<{url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content("\n".join([*lines, "", "Mute a game from its table (Notices).",
                                       f"No more e-mail from this server: {url}", ""]))
        try:
            await self.mailer.send_message(message)
        except Exception:
            log.warning("a turn notice by e-mail failed", exc_info=True)

    async def digest(self, *, force: bool = False) -> int:
        """Send the daily digests due (each address asking for one, once a day, listing
        the games waiting for it): the number sent. Looks every :data:`DIGEST_CHECK`
        seconds unless ``force``."""
        if self.mailer is None:
            return 0
        if not force and time.monotonic() - self._digest_checked < DIGEST_CHECK:
            return 0
        self._digest_checked = time.monotonic()
        at = self.clock.now()
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(notice_seats).where(
                notice_seats.c.mail_every == "digest", notice_seats.c.email.is_not(None),
                notice_seats.c.email_confirmed.is_(True),
                notice_seats.c.muted.is_(False)))).all()
        waiting = await read_turns(self.store, sorted({r.game for r in rows}))
        by_address: dict[str, list[Any]] = {}
        for r in rows:
            turn = waiting.get(r.game)
            if turn is not None and turn.seat == r.seat:
                by_address.setdefault(r.email, []).append((r, turn))
        sent = 0
        for address, games in by_address.items():
            async with self.store.engine.begin() as conn:
                won = await conn.execute(update(notice_seats).where(
                    notice_seats.c.email == address, notice_seats.c.mail_every == "digest",
                    notice_seats.c.email_confirmed.is_(True),
                    or_(notice_seats.c.last_digest.is_(None),
                        notice_seats.c.last_digest <= at - DIGEST_GAP))
                    .values(last_digest=at))
            if not won.rowcount:
                continue
            lines = [f"{len(games)} game{'s' if len(games) != 1 else ''} wait for you:"]
            for r, turn in games:
                lines.append(f"  {r.base_url}/game/{r.game}#t={r.token} (time left: "
                             f"{_left(turn.due - at)})")
            first = games[0][0]
            await self._mail(address, "Your turn: your games of Hand and Foot", lines,
                             first.base_url, await self._unsubscribe_token(first.game,
                                                                           first.seat))
            sent += 1
        return sent
