"""The database's tables (SQLAlchemy Core): one :class:`~sqlalchemy.MetaData` for the games,
their moves and seats, the score keeper, players and clubs, ratings and tournaments, table
talk and correspondence games' turns and notices. :mod:`handfoot.web.store` and the modules
that keep each part read and write them; :mod:`handfoot.web.migrations` makes them.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("profile", String(64), nullable=False),  # the record's built-in profile
    Column("overrides", JSON, nullable=False),
    Column("layout", String(8), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("seed", String(48), nullable=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", DateTime, nullable=False),
    Column("updated", DateTime, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16)),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    PrimaryKeyConstraint("game", "seat"),
)

moves = Table(
    "moves", metadata,
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("round", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("notation", String(200), nullable=False),
    Column("by", String(16), nullable=False),  # "human", "bot" or "stand-in" (absent seat)
    Column("request_id", String(64)),
    Column("created", DateTime, nullable=False),
    PrimaryKeyConstraint("game", "seq"),
)

continues = Table(
    "continues", metadata,
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    PrimaryKeyConstraint("game", "round", "seat"),
)

daily_results = Table(
    "daily_results", metadata,
    Column("date", String(10), nullable=False),
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("score", Integer),
    Column("won", Boolean),
    Column("finished", Boolean, nullable=False),
    Column("created", DateTime, nullable=False),
    PrimaryKeyConstraint("date", "game"),
)

server_secrets = Table(
    "server_secrets", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", LargeBinary, nullable=False),
)

presence = Table(
    "presence", metadata,
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("worker", String(32), nullable=False),
    Column("seen", DateTime, nullable=False),
    PrimaryKeyConstraint("game", "seat", "worker"),
    Index("presence_worker", "worker"),
)

bot_leases = Table(
    "bot_leases", metadata,
    Column("game", String(32), primary_key=True),
    Column("worker", String(32), nullable=False),
    Column("expires", DateTime, nullable=False),
)

talk = Table(  # reactions and chat at a table (handfoot.web.talk): never in the record
    "talk", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # the moves made before it
    Column("seat", Integer),  # null: a watcher
    Column("name", String(64), nullable=False),
    Column("preset", String(16)),  # a preset's id, or null for chat
    Column("text", String(800)),  # chat (at most 200 characters), or null for a preset
    Column("created", DateTime, nullable=False),
    Index("talk_game", "game", "id"),
)

# -- correspondence games and their notices (handfoot.web.turns, handfoot.web.notices) ------

turns = Table(  # the turn a correspondence game waits for, and its timer
    "turns", metadata,
    Column("game", String(32), primary_key=True),
    Column("seq", Integer, nullable=False),  # the move after which the turn began
    Column("seat", Integer, nullable=False),  # the seat to act
    Column("started", DateTime, nullable=False),
    Column("due", DateTime, nullable=False),  # when the timer acts (a bot's turn: at once)
    Column("notified", Boolean, nullable=False),  # the "your turn" notices went out
    Column("fired", Boolean, nullable=False),  # the time ran out and the timer acted
    Column("worker", String(32)),  # the process that claimed the timer...
    Column("lease", DateTime),  # ... until then (a conditional UPDATE takes it)
    Index("turns_due", "due"),
)

notice_seats = Table(  # how a seat of a game wants to hear that it is its turn
    "notice_seats", metadata,
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("token", String(64), nullable=False),  # the seat's link, which notices carry
    Column("base_url", String(200), nullable=False),
    Column("email", String(254)),
    Column("mail_every", String(8), nullable=False),  # "hour", "turn" or "digest"
    Column("muted", Boolean, nullable=False),
    Column("unsubscribe_hash", String(64), nullable=False),
    Column("last_mail", DateTime),
    Column("last_digest", DateTime),
    Column("created", DateTime, nullable=False),
    # no mail goes to ``email`` until its owner opened the link mailed to it (or it is the
    # signed-in player's verified address); the link's token's hash while one is out
    Column("email_confirmed", Boolean, nullable=False, server_default=false()),
    Column("confirm_hash", String(64)),
    Column("confirm_sent", DateTime),
    PrimaryKeyConstraint("game", "seat"),
    Index("notice_seats_unsubscribe", "unsubscribe_hash"),
    Index("notice_seats_email", "email"),
    Index("notice_seats_confirm", "confirm_hash"),
)

confirm_mails = Table(  # confirmation mails sent to an address (its SHA-256): a rate limit
    "confirm_mails", metadata,
    Column("address_hash", String(64), nullable=False),
    Column("sent", DateTime, nullable=False),
    Index("confirm_mails_address", "address_hash", "sent"),
)

push_subscriptions = Table(  # a browser's Web Push subscription, for one seat of a game
    "push_subscriptions", metadata,
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("endpoint_hash", String(64), nullable=False),
    Column("endpoint", String(1000), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
    PrimaryKeyConstraint("game", "seat", "endpoint_hash"),
)

player_pushes = Table(  # a signed-in player's browser subscription: for all their seats
    "player_pushes", metadata,
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("endpoint_hash", String(64), nullable=False),
    Column("endpoint", String(1000), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
    PrimaryKeyConstraint("player", "endpoint_hash"),
)

# -- score sheets of games played with real cards (handfoot.web.scoresheets) ----------------

score_sheets = Table(
    "score_sheets", metadata,
    Column("id", String(32), primary_key=True),
    Column("profile", String(64), nullable=False),
    Column("overrides", JSON, nullable=False),
    Column("layout", String(8), nullable=False),
    Column("names", JSON, nullable=False),  # title, sides and players
    Column("edit_hash", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
)

score_rounds = Table(  # every round entered or corrected, never changed: the last one counts
    "score_rounds", metadata,
    Column("sheet", String(32), ForeignKey("score_sheets.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("round", Integer, nullable=False),
    Column("entries", JSON, nullable=False),
    Column("who", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
    PrimaryKeyConstraint("sheet", "seq"),
)

# -- players, their devices and seats; clubs (handfoot.web.players, handfoot.web.clubs) -------

players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),  # "Former player" once deleted
    Column("email", String(254)),
    Column("email_verified", Boolean, nullable=False),
    Column("created", DateTime, nullable=False),
    Column("deleted", DateTime),
)

player_keys = Table(  # a device's key: only its SHA-256 (the key is in the browser)
    "player_keys", metadata,
    Column("key_hash", String(64), primary_key=True),
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("label", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
    Column("seen", DateTime, nullable=False),
    Index("player_keys_player", "player"),
)

player_links = Table(  # one-time links: a new device, or a sign-in mailed
    "player_links", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("kind", String(8), nullable=False),  # "device" or "mail"
    Column("email", String(254)),
    Column("created", DateTime, nullable=False),
    Column("expires", DateTime, nullable=False),
    Column("used", DateTime),
    Index("player_links_player", "player"),
)

seat_players = Table(  # who sat where; the seat's result once the game is over
    "seat_players", metadata,
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("joined", DateTime, nullable=False),
    Column("finished", DateTime),
    Column("side", Integer),
    Column("points", Integer),
    Column("won", Boolean),
    Column("stats", JSON),
    PrimaryKeyConstraint("game", "seat"),
    Index("seat_players_player", "player"),
)

clubs = Table(
    "clubs", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
)

club_members = Table(
    "club_members", metadata,
    Column("club", String(32), ForeignKey("clubs.id"), nullable=False),
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("role", String(8), nullable=False),  # "owner" or "member"
    Column("joined", DateTime, nullable=False),
    PrimaryKeyConstraint("club", "player"),
    Index("club_members_player", "player"),
)

club_invites = Table(
    "club_invites", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("club", String(32), ForeignKey("clubs.id"), nullable=False),
    Column("by", String(32), ForeignKey("players.id"), nullable=False),
    Column("created", DateTime, nullable=False),
    Column("expires", DateTime, nullable=False),
    Column("revoked", Boolean, nullable=False),
    Column("uses", Integer, nullable=False),
    Index("club_invites_club", "club"),
)

club_rules = Table(  # a club's house rules under a name (TOML, checked as the lobby's are)
    "club_rules", metadata,
    Column("club", String(32), ForeignKey("clubs.id"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("toml", Text, nullable=False),
    Column("by", String(32), ForeignKey("players.id"), nullable=False),
    Column("updated", DateTime, nullable=False),
    PrimaryKeyConstraint("club", "name"),
)

club_games = Table(  # a game that belongs to a club, and the rule set it was made with
    "club_games", metadata,
    Column("game", String(32), ForeignKey("games.id"), primary_key=True),
    Column("club", String(32), ForeignKey("clubs.id"), nullable=False),
    Column("rules", String(64), nullable=False),
    Column("created", DateTime, nullable=False),
    Index("club_games_club", "club"),
)

# -- players' ratings (handfoot.web.ratings) -----------------------------------------------

player_ratings = Table(  # a player's rating under one rule set
    "player_ratings", metadata,
    Column("player", String(32), ForeignKey("players.id"), nullable=False),
    Column("profile_hash", String(64), nullable=False),  # SHA-256 of the rule set's key
    Column("profile", Text, nullable=False),  # handfoot.runs.ratings.profile_key
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # also the row's version
    Column("updated", DateTime, nullable=False),
    PrimaryKeyConstraint("player", "profile_hash"),
)

# -- club duplicate tournaments (handfoot.web.tournaments) ----------------------------------

club_tournaments = Table(
    "club_tournaments", metadata,
    Column("id", String(32), primary_key=True),
    Column("club", String(32), ForeignKey("clubs.id"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("rules", String(64), nullable=False),  # the club's name for the rule set
    Column("profile", String(64), nullable=False),  # its built-in profile and overrides
    Column("overrides", JSON, nullable=False),
    Column("layout", String(8), nullable=False),
    Column("tables", Integer, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("bot_level", String(16), nullable=False),
    Column("seed", String(48), nullable=False),  # hidden until the tournament is over
    Column("starts", DateTime, nullable=False),
    Column("status", String(16), nullable=False),  # "scheduled", "playing", "over"
    Column("current_round", Integer, nullable=False),  # -1 before the start
    Column("entrants", JSON, nullable=False),  # player ids
    Column("seating", JSON),  # per round, table, seat: a player id or null (a bot)
    Column("by", String(32), ForeignKey("players.id"), nullable=False),
    Column("created", DateTime, nullable=False),
    Index("club_tournaments_club", "club"),
)

club_tournament_games = Table(  # each table's game of each round
    "club_tournament_games", metadata,
    Column("tournament", String(32), ForeignKey("club_tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table", Integer, nullable=False),
    Column("game", String(32), ForeignKey("games.id"), nullable=False),
    Column("totals", JSON),  # each side's final total, once the game is over
    PrimaryKeyConstraint("tournament", "round", "table"),
)

rated_games = Table(  # the games already rated: each once
    "rated_games", metadata,
    Column("game", String(32), ForeignKey("games.id"), primary_key=True),
    Column("profile", Text, nullable=False),
    Column("rated", DateTime, nullable=False),
)

reviews = Table(  # game reviews (handfoot.web.reviews, docs/review.md)
    "reviews", metadata,
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # running, done, failed
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("data", JSON, nullable=True),
    Column("updated", DateTime, nullable=False),
    PrimaryKeyConstraint("game", "seat"),
)
