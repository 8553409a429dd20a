"""The database schema, as named `sqlite_utils.Migrations`.

Migrations are append-only too: never edit one that has shipped; add the next. A database made
by an older version upgrades in place when the store opens it (`migrate`). Tables are STRICT so
a wrong type is refused by SQLite instead of silently stored. Every JSON column is checked with
`json_valid`, every enumeration with CHECK, and the append-only tables (evidence,
result_versions, audit, rating_history) refuse UPDATE and DELETE in triggers, so not even a
hand-written query can rewrite history.
"""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

MIGRATIONS = Migrations("stredisko")

# Literal copies of the enums in rows.py, on purpose: a shipped migration must not change when
# an enum grows (a new value needs a new migration); a test keeps the two in step.
ACTOR_KINDS = ("player", "admin", "platform", "scheduler")
EVIDENCE_KINDS = (
    "platform_game",
    "score_report",
    "absence",
    "arrival",
    "draw_confirmation",
    "dispute",
    "ruling",
)
RESULT_STATUSES = ("pending", "proposed", "provisional", "disputed", "confirmed")
TOURNAMENT_STATUSES = ("draft", "checkin", "running", "finished")
TIMER_STATUSES = ("pending", "fired", "cancelled")
SYNC_KINDS = ("round", "nightly")
SYNC_OUTCOMES = ("running", "ok", "partial", "failed")

#: Tables whose rows, once written, never change.
APPEND_ONLY = ("evidence", "result_versions", "audit", "rating_history")


def _one_of(column: str, values: tuple[str, ...]) -> str:
    listed = ", ".join(f"'{value}'" for value in values)
    return f"CHECK ({column} IN ({listed}))"


def _flag(column: str, default: int = 0) -> str:
    return f"{column} INTEGER NOT NULL DEFAULT {default} CHECK ({column} IN (0, 1))"


def _json(column: str, default: str) -> str:
    return f"{column} TEXT NOT NULL DEFAULT '{default}' CHECK (json_valid({column}))"


def _run(db: Database, statements: list[str]) -> None:
    # One statement at a time: executescript() would commit the migration's transaction.
    for statement in statements:
        db.execute(statement)


def _append_only(table: str) -> list[str]:
    return [
        f"""CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
            BEGIN SELECT RAISE(ABORT, '{table} is append-only: rows cannot be changed'); END""",
        f"""CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
            BEGIN SELECT RAISE(ABORT, '{table} is append-only: rows cannot be deleted'); END""",
    ]


_ACTOR = f"actor_kind TEXT NOT NULL {_one_of('actor_kind', ACTOR_KINDS)}, actor_id TEXT"

# The columns a result version carries: results and result_versions share them.
_RESULT_COLUMNS = (
    "pairing_id, version, status, end_kind, first_points, second_points, first_score, "
    "second_score, forfeited, rated, rule, verdict, updated_at, actor_kind, actor_id, reason"
)

_HISTORY_UPDATE = f"""CREATE TRIGGER results_history_update AFTER UPDATE ON results
    BEGIN INSERT INTO result_versions ({_RESULT_COLUMNS})
          SELECT {_RESULT_COLUMNS} FROM results WHERE pairing_id = NEW.pairing_id; END"""
_VERSION_STEP = """CREATE TRIGGER results_version_step BEFORE UPDATE ON results
    WHEN NEW.version <> OLD.version + 1 OR NEW.pairing_id <> OLD.pairing_id
    BEGIN SELECT RAISE(ABORT, 'a result update must raise its version by exactly one'); END"""

_INITIAL = [
    f"""CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (name <> ''),
        herna_nick TEXT NOT NULL CHECK (herna_nick <> ''),
        -- casefold() of the nick, computed in Python: NOCASE folds ASCII only, not Ď/ď.
        herna_key TEXT NOT NULL UNIQUE CHECK (herna_key <> ''),
        discord_id INTEGER UNIQUE,
        discord_name TEXT,
        {_flag('sss_member')},
        screlo REAL,
        rated_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
        last_season TEXT,
        created_at TEXT NOT NULL
    ) STRICT""",
    f"""CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE CHECK (slug <> '' AND slug NOT GLOB '*[^a-z0-9-]*'),
        name TEXT NOT NULL CHECK (name <> ''),
        profile TEXT NOT NULL DEFAULT 'sss-online',
        season TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'draft' {_one_of('status', TOURNAMENT_STATUSES)},
        rounds_planned INTEGER NOT NULL CHECK (rounds_planned >= 1),
        waiting_minutes INTEGER NOT NULL CHECK (waiting_minutes >= 0),
        game_limit_minutes INTEGER NOT NULL CHECK (game_limit_minutes > 0),
        checkin_opens_at TEXT,
        checkin_closes_at TEXT,
        tempo TEXT NOT NULL DEFAULT '2x20',
        language_version TEXT NOT NULL DEFAULT 'slovenský jazyk',
        channel_id INTEGER,
        admin_role_id INTEGER,
        {_json('admin_ids', '[]')},
        auto_apply_forfeits_after_minutes INTEGER
            CHECK (auto_apply_forfeits_after_minutes IS NULL
                   OR auto_apply_forfeits_after_minutes >= 0),
        {_json('settings', '{}')},
        created_at TEXT NOT NULL
    ) STRICT""",
    """CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        number INTEGER NOT NULL CHECK (number >= 1),
        starts_at TEXT NOT NULL,
        limit_at TEXT NOT NULL CHECK (limit_at > starts_at),
        paired_at TEXT,
        published_at TEXT,
        closed_at TEXT,
        dispute_closes_at TEXT,
        UNIQUE (tournament_id, number)
    ) STRICT""",
    f"""CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        registration_no INTEGER NOT NULL CHECK (registration_no >= 1),
        registered_at TEXT NOT NULL,
        {_flag('paid')},
        {_flag('member')},
        seed_rating REAL,
        seed_games INTEGER NOT NULL DEFAULT 0,
        checked_in_at TEXT,
        withdrawn_at TEXT,
        withdrawn_reason TEXT,
        excluded_at TEXT,
        excluded_reason TEXT,
        UNIQUE (tournament_id, player_id),
        UNIQUE (tournament_id, registration_no),
        CHECK ((withdrawn_at IS NULL) = (withdrawn_reason IS NULL)),
        CHECK ((excluded_at IS NULL) = (excluded_reason IS NULL))
    ) STRICT""",
    # A pairing names entrants of its own tournament and an existing round (composite keys).
    """CREATE TABLE pairings (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL,
        round_no INTEGER NOT NULL,
        table_no INTEGER NOT NULL CHECK (table_no >= 1),
        first_id INTEGER NOT NULL,
        second_id INTEGER CHECK (second_id IS NULL OR second_id <> first_id),
        source TEXT NOT NULL DEFAULT 'ours' CHECK (source IN ('ours', 'imported')),
        created_at TEXT NOT NULL,
        UNIQUE (tournament_id, round_no, table_no),
        FOREIGN KEY (tournament_id, round_no) REFERENCES rounds(tournament_id, number),
        FOREIGN KEY (tournament_id, first_id) REFERENCES entries(tournament_id, player_id),
        FOREIGN KEY (tournament_id, second_id) REFERENCES entries(tournament_id, player_id)
    ) STRICT""",
    """CREATE TRIGGER pairings_once_per_round BEFORE INSERT ON pairings
        WHEN EXISTS (SELECT 1 FROM pairings p
                     WHERE p.tournament_id = NEW.tournament_id AND p.round_no = NEW.round_no
                       AND (p.first_id IN (NEW.first_id, NEW.second_id)
                            OR p.second_id IN (NEW.first_id, NEW.second_id)))
        BEGIN SELECT RAISE(ABORT, 'a player can sit at only one table in a round'); END""",
    f"""CREATE TABLE evidence (
        id INTEGER PRIMARY KEY,
        pairing_id INTEGER NOT NULL REFERENCES pairings(id),
        kind TEXT NOT NULL {_one_of('kind', EVIDENCE_KINDS)},
        {_ACTOR},
        at TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        {_json('payload', '{}')},
        attachment_url TEXT
    ) STRICT""",
    """CREATE TABLE platform_records (
        game_id TEXT PRIMARY KEY,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        changes INTEGER NOT NULL DEFAULT 0
    ) STRICT""",
    f"""CREATE TABLE results (
        pairing_id INTEGER PRIMARY KEY REFERENCES pairings(id),
        version INTEGER NOT NULL CHECK (version >= 1),
        status TEXT NOT NULL {_one_of('status', RESULT_STATUSES)},
        end_kind TEXT,
        first_points REAL,
        second_points REAL,
        first_score INTEGER,
        second_score INTEGER,
        {_json('forfeited', '[]')},
        {_flag('rated')},
        rule TEXT,
        {_json('verdict', '{}')},
        updated_at TEXT NOT NULL,
        {_ACTOR},
        reason TEXT
    ) STRICT""",
    f"""CREATE TABLE result_versions (
        id INTEGER PRIMARY KEY,
        pairing_id INTEGER NOT NULL REFERENCES pairings(id),
        version INTEGER NOT NULL,
        status TEXT NOT NULL,
        end_kind TEXT,
        first_points REAL,
        second_points REAL,
        first_score INTEGER,
        second_score INTEGER,
        forfeited TEXT NOT NULL,
        rated INTEGER NOT NULL,
        rule TEXT,
        verdict TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        {_ACTOR},
        reason TEXT,
        UNIQUE (pairing_id, version)
    ) STRICT""",
    # The history is written by the database, so no code path can change a result unrecorded.
    f"""CREATE TRIGGER results_history_insert AFTER INSERT ON results
        BEGIN INSERT INTO result_versions ({_RESULT_COLUMNS})
              SELECT {_RESULT_COLUMNS} FROM results WHERE pairing_id = NEW.pairing_id; END""",
    _HISTORY_UPDATE,
    _VERSION_STEP,
    """CREATE TRIGGER results_no_delete BEFORE DELETE ON results
        BEGIN SELECT RAISE(ABORT, 'results are never deleted'); END""",
    f"""CREATE TABLE discrepancies (
        id INTEGER PRIMARY KEY,
        pairing_id INTEGER NOT NULL REFERENCES pairings(id),
        result_version INTEGER NOT NULL,
        found_at TEXT NOT NULL,
        recomputed TEXT NOT NULL CHECK (json_valid(recomputed)),
        note TEXT,
        {_flag('resolved')},
        resolved_at TEXT,
        resolution TEXT,
        UNIQUE (pairing_id, result_version, recomputed)
    ) STRICT""",
    f"""CREATE TABLE timers (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind <> ''),
        tournament_id INTEGER REFERENCES tournaments(id),
        key TEXT NOT NULL UNIQUE,
        due_at TEXT NOT NULL,
        {_json('payload', '{}')},
        created_at TEXT NOT NULL,
        fired_at TEXT,
        status TEXT NOT NULL DEFAULT 'pending' {_one_of('status', TIMER_STATUSES)},
        CHECK ((status = 'fired') = (fired_at IS NOT NULL))
    ) STRICT""",
    """CREATE TABLE rating_history (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        tournament_id INTEGER REFERENCES tournaments(id),
        kind TEXT NOT NULL CHECK (kind IN ('tournament', 'decay')),
        before_value REAL,
        before_games INTEGER NOT NULL,
        after_value REAL NOT NULL,
        after_games INTEGER NOT NULL,
        at TEXT NOT NULL
    ) STRICT""",
    # A tournament changes a player's rating once.
    """CREATE UNIQUE INDEX rating_history_once ON rating_history (player_id, tournament_id)
        WHERE tournament_id IS NOT NULL""",
    f"""CREATE TABLE sync_runs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL {_one_of('kind', SYNC_KINDS)},
        tournament_id INTEGER REFERENCES tournaments(id),
        started_at TEXT NOT NULL,
        finished_at TEXT,
        outcome TEXT NOT NULL DEFAULT 'running' {_one_of('outcome', SYNC_OUTCOMES)},
        {_json('summary', '{}')}
    ) STRICT""",
    f"""CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        {_ACTOR},
        tournament_id INTEGER REFERENCES tournaments(id),
        action TEXT NOT NULL CHECK (action <> ''),
        subject TEXT,
        reason TEXT,
        {_json('data', '{}')}
    ) STRICT""",
    *(statement for table in APPEND_ONLY for statement in _append_only(table)),
]


@MIGRATIONS(name="0001_initial")
def _initial(db: Database) -> None:
    _run(db, _INITIAL)


@MIGRATIONS(name="0002_lookups_and_frozen_results")
def _lookups_and_frozen_results(db: Database) -> None:
    """Indexes for the hot queries, and confirmed results frozen by the database (e-SP 4.7)."""
    _run(
        db,
        [
            "CREATE INDEX timers_pending_due ON timers (due_at, id) WHERE status = 'pending'",
            "CREATE INDEX evidence_by_pairing ON evidence (pairing_id, at, id)",
            "CREATE INDEX results_by_status ON results (status)",
            "CREATE INDEX audit_by_tournament ON audit (tournament_id, id)",
            "CREATE INDEX pairings_second ON pairings (tournament_id, round_no, second_id)",
            "CREATE INDEX pairings_first ON pairings (tournament_id, round_no, first_id)",
            "CREATE INDEX rating_history_by_player ON rating_history (player_id, at)",
            "CREATE INDEX sync_runs_by_kind ON sync_runs (kind, tournament_id, started_at)",
            "ALTER TABLE results ADD COLUMN confirmed_at TEXT",
            # Results confirmed before this migration: their last version confirmed them. The
            # backfill is not a new version, so the version triggers step aside for it.
            "DROP TRIGGER results_history_update",
            "DROP TRIGGER results_version_step",
            "UPDATE results SET confirmed_at = updated_at WHERE status = 'confirmed'",
            _HISTORY_UPDATE,
            _VERSION_STEP,
            """CREATE TRIGGER results_confirmed_frozen BEFORE UPDATE ON results
                WHEN OLD.status = 'confirmed'
                BEGIN SELECT RAISE(ABORT,
                    'a confirmed result never changes again (e-SP 4.7)'); END""",
        ],
    )


LINK_STATUSES = ("pending", "approved", "rejected")


OUTBOX_DESTINATIONS = ("channel", "dm", "admin")
OUTBOX_STATUSES = ("pending", "sent", "dropped", "failed")


@MIGRATIONS(name="0003_outbox")
def _outbox(db: Database) -> None:
    """Messages are data (DESIGN.md 4): written with the change that causes them, delivered
    later by a sender that marks each one. A message leaves 'pending' once and for all: the
    database refuses to send, drop or fail it a second time."""
    _run(
        db,
        [
            f"""CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE CHECK (key <> ''),
                destination TEXT NOT NULL {_one_of('destination', OUTBOX_DESTINATIONS)},
                target INTEGER NOT NULL,
                tournament_id INTEGER REFERENCES tournaments(id),
                round_no INTEGER,
                valid_until TEXT,
                message_key TEXT NOT NULL CHECK (message_key <> ''),
                {_json('params', '{}')},
                created_at TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' {_one_of('status', OUTBOX_STATUSES)},
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                next_attempt_at TEXT,
                last_error TEXT,
                done_at TEXT,
                CHECK ((status = 'pending') = (done_at IS NULL))
            ) STRICT""",
            "CREATE INDEX outbox_pending ON outbox (id) WHERE status = 'pending'",
            """CREATE TRIGGER outbox_once BEFORE UPDATE ON outbox
                WHEN OLD.status <> 'pending'
                BEGIN SELECT RAISE(ABORT,
                    'an outbox message is delivered, dropped or failed once'); END""",
            """CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox
                BEGIN SELECT RAISE(ABORT, 'outbox messages are never deleted'); END""",
        ],
    )


def _link_requests(name: str, unique: str) -> str:
    """The link requests' table (0004: one per player and account; 0010: per event too)."""
    return f"""CREATE TABLE {name} (
                id INTEGER PRIMARY KEY,
                tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                discord_id INTEGER NOT NULL,
                discord_name TEXT NOT NULL,
                requested_at TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' {_one_of('status', LINK_STATUSES)},
                decided_at TEXT,
                decided_by TEXT,
                reason TEXT,
                UNIQUE ({unique}),
                CHECK ((status = 'pending') = (decided_at IS NULL))
            ) STRICT"""


@MIGRATIONS(name="0004_identity")
def _identity(db: Database) -> None:
    """Requests to link a Discord account to a registry player that the registry does not
    prove (neither the Discord id nor the Discord name recorded for him matches): the head
    admin approves or rejects them. One row per (player, account): asking again is no new
    request; every change of a row is audited."""
    _run(
        db,
        [
            _link_requests("link_requests", "player_id, discord_id"),
            "CREATE INDEX link_requests_by_tournament ON link_requests (tournament_id, status)",
        ],
    )


@MIGRATIONS(name="0005_outbox_reports_and_bot_lease")
def _outbox_reports_and_lease(db: Database) -> None:
    """`outbox_told`: which messages delivered late or dropped during a Discord outage the
    head admin has been told about (written with the report's own outbox row, so he is told
    once). `bot_lease`: the one bot serving the database (one row; `stredisko run` takes it,
    renews its heartbeat, and takes it over only from a dead holder)."""
    _run(
        db,
        [
            """CREATE TABLE outbox_told (
                outbox_id INTEGER PRIMARY KEY REFERENCES outbox(id),
                report_key TEXT NOT NULL,
                told_at TEXT NOT NULL
            ) STRICT""",
            """CREATE TABLE bot_lease (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                holder TEXT NOT NULL CHECK (holder <> ''),
                host TEXT NOT NULL,
                pid INTEGER NOT NULL,
                acquired_at TEXT NOT NULL,
                heartbeat_at TEXT NOT NULL
            ) STRICT""",
        ],
    )


DUP_MODES = ("online", "hall")
DUP_GAME_STATES = ("running", "preliminary", "final")
DUP_RACK_SOURCES = ("seed", "arbiter")
DUP_SLIP_SOURCES = ("discord", "arbiter", "csv")
DUP_CLAIMS = ("wrongly-accepted", "wrongly-rejected")
DUP_PROTEST_STATES = ("pending", "upheld", "rejected")
#: duplicate tables whose rows never change
DUP_APPEND_ONLY = ("dup_scores", "dup_corrections")


@MIGRATIONS(name="0006_duplicate")
def _duplicate(db: Database) -> None:
    """Duplicate Scrabble (issue 24): an event's settings, its games (the rack seed and its
    commitment), rounds (rack, deadline, boards before/after, the tops), slips as handed in,
    every round score as an append-only version (a correction adds one, 004 §5D), protests and
    the corrections they lead to. A closed round is frozen by the database: a second close,
    a crash's replay or a hand-written query cannot close or re-board it again."""
    _run(
        db,
        [
            f"""CREATE TABLE dup_events (
                tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
                profile TEXT NOT NULL CHECK (profile <> ''),
                lexicon TEXT NOT NULL CHECK (lexicon <> ''),
                lexicon_id TEXT NOT NULL CHECK (lexicon_id <> ''),
                tiles TEXT NOT NULL CHECK (tiles <> ''),
                move_seconds INTEGER NOT NULL CHECK (move_seconds > 0),
                warning_seconds INTEGER NOT NULL CHECK (warning_seconds >= 0
                                                        AND warning_seconds < move_seconds),
                {_json('part_rounds', '[]')},
                games INTEGER NOT NULL DEFAULT 1 CHECK (games >= 1),
                mode TEXT NOT NULL {_one_of('mode', DUP_MODES)},
                pause_seconds INTEGER NOT NULL DEFAULT 0 CHECK (pause_seconds >= 0),
                {_json('starts', '[]')},
                created_at TEXT NOT NULL
            ) STRICT""",
            f"""CREATE TABLE dup_games (
                id INTEGER PRIMARY KEY,
                tournament_id INTEGER NOT NULL REFERENCES dup_events(tournament_id),
                number INTEGER NOT NULL CHECK (number >= 1),
                seed TEXT NOT NULL CHECK (length(seed) >= 32),
                commitment TEXT NOT NULL CHECK (length(commitment) = 64),
                state TEXT NOT NULL DEFAULT 'running' {_one_of('state', DUP_GAME_STATES)},
                started_at TEXT NOT NULL,
                ended_at TEXT,
                ended_rule TEXT,
                final_at TEXT,
                UNIQUE (tournament_id, number)
            ) STRICT""",
            f"""CREATE TABLE dup_rounds (
                id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES dup_games(id),
                number INTEGER NOT NULL CHECK (number >= 1),
                part INTEGER NOT NULL CHECK (part >= 1),
                rack TEXT NOT NULL CHECK (rack <> ''),
                source TEXT NOT NULL {_one_of('source', DUP_RACK_SOURCES)},
                {_json('draw', '{}')},
                {_json('bag', '{}')},
                opened_at TEXT NOT NULL,
                deadline TEXT NOT NULL CHECK (deadline > opened_at),
                closed_at TEXT,
                board_before TEXT NOT NULL,
                board_after TEXT,
                {_json('tops', '{}')},
                UNIQUE (game_id, number),
                CHECK ((closed_at IS NULL) = (board_after IS NULL))
            ) STRICT""",
            """CREATE TRIGGER dup_rounds_closed_frozen BEFORE UPDATE ON dup_rounds
                WHEN OLD.closed_at IS NOT NULL
                BEGIN SELECT RAISE(ABORT, 'a closed duplicate round never changes again'); END""",
            """CREATE TRIGGER dup_rounds_no_delete BEFORE DELETE ON dup_rounds
                BEGIN SELECT RAISE(ABORT, 'duplicate rounds are never deleted'); END""",
            f"""CREATE TABLE dup_slips (
                id INTEGER PRIMARY KEY,
                round_id INTEGER NOT NULL REFERENCES dup_rounds(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                text TEXT NOT NULL CHECK (text <> '' AND length(text) <= 200),
                coord TEXT NOT NULL,
                word TEXT NOT NULL,
                declared INTEGER CHECK (declared IS NULL OR declared >= 0),
                received_at TEXT NOT NULL,
                recorded_at TEXT NOT NULL,
                source TEXT NOT NULL {_one_of('source', DUP_SLIP_SOURCES)},
                {_ACTOR},
                replaced_by INTEGER REFERENCES dup_slips(id)
            ) STRICT""",
            "CREATE INDEX dup_slips_by_round ON dup_slips (round_id, player_id, id)",
            # a slip is evidence: only its `replaced_by` is ever set, and only once
            """CREATE TRIGGER dup_slips_append_only BEFORE UPDATE ON dup_slips
                WHEN OLD.replaced_by IS NOT NULL OR NEW.id IS NOT OLD.id
                  OR NEW.round_id IS NOT OLD.round_id OR NEW.player_id IS NOT OLD.player_id
                  OR NEW.text IS NOT OLD.text OR NEW.coord IS NOT OLD.coord
                  OR NEW.word IS NOT OLD.word OR NEW.declared IS NOT OLD.declared
                  OR NEW.received_at IS NOT OLD.received_at OR NEW.source IS NOT OLD.source
                BEGIN SELECT RAISE(ABORT, 'a slip is never changed, only replaced'); END""",
            """CREATE TRIGGER dup_slips_no_delete BEFORE DELETE ON dup_slips
                BEGIN SELECT RAISE(ABORT, 'slips are never deleted'); END""",
            f"""CREATE TABLE dup_scores (
                id INTEGER PRIMARY KEY,
                round_id INTEGER NOT NULL REFERENCES dup_rounds(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                version INTEGER NOT NULL CHECK (version >= 1),
                slip_id INTEGER REFERENCES dup_slips(id),
                outcome TEXT NOT NULL CHECK (outcome <> ''),
                points INTEGER NOT NULL CHECK (points >= 0),
                rule TEXT NOT NULL CHECK (rule <> ''),
                reason TEXT,
                {_json('verdict', '{}')},
                at TEXT NOT NULL,
                {_ACTOR},
                UNIQUE (round_id, player_id, version)
            ) STRICT""",
            f"""CREATE TABLE dup_protests (
                id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES dup_games(id),
                round_no INTEGER NOT NULL CHECK (round_no >= 1),
                player_id INTEGER NOT NULL REFERENCES players(id),
                word TEXT NOT NULL CHECK (word <> '' AND length(word) <= 40),
                claim TEXT NOT NULL {_one_of('claim', DUP_CLAIMS)},
                reason TEXT NOT NULL CHECK (length(reason) <= 1000),
                filed_at TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' {_one_of('status', DUP_PROTEST_STATES)},
                decided_at TEXT,
                decided_by TEXT,
                decision TEXT,
                CHECK ((status = 'pending') = (decided_at IS NULL))
            ) STRICT""",
            """CREATE TRIGGER dup_protests_decided_once BEFORE UPDATE ON dup_protests
                WHEN OLD.status <> 'pending'
                BEGIN SELECT RAISE(ABORT, 'a protest is decided once (003 r. 29)'); END""",
            f"""CREATE TABLE dup_corrections (
                id INTEGER PRIMARY KEY,
                game_id INTEGER NOT NULL REFERENCES dup_games(id),
                round_no INTEGER CHECK (round_no IS NULL OR round_no >= 1),
                word TEXT NOT NULL CHECK (word <> ''),
                {_flag('accepted')},
                reason TEXT NOT NULL,
                rule TEXT NOT NULL,
                protest_id INTEGER REFERENCES dup_protests(id),
                at TEXT NOT NULL,
                {_ACTOR}
            ) STRICT""",
            *(statement for table in DUP_APPEND_ONLY for statement in _append_only(table)),
        ],
    )


@MIGRATIONS(name="0007_duplicate_shoot_out")
def _duplicate_shoot_out(db: Database) -> None:
    """003 r. 49's shoot-out, entered by the arbiter: per event (the tournament's standings,
    r. 46–48) and player, the score of his word, the seconds he took, the move if written,
    who entered it and when. Versioned like the round scores: a correction is the next
    version, the first entry stays (the table is append-only)."""
    _run(
        db,
        [
            f"""CREATE TABLE dup_shoot_outs (
                id INTEGER PRIMARY KEY,
                tournament_id INTEGER NOT NULL REFERENCES dup_events(tournament_id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                version INTEGER NOT NULL CHECK (version >= 1),
                score INTEGER NOT NULL CHECK (score >= 0),
                seconds REAL NOT NULL CHECK (seconds > 0),
                word TEXT CHECK (word IS NULL OR (word <> '' AND length(word) <= 60)),
                rule TEXT NOT NULL CHECK (rule <> ''),
                reason TEXT CHECK (reason IS NULL OR length(reason) <= 1000),
                at TEXT NOT NULL,
                {_ACTOR},
                UNIQUE (tournament_id, player_id, version)
            ) STRICT""",
            *_append_only("dup_shoot_outs"),
        ],
    )


@MIGRATIONS(name="0008_lease_generation")
def _lease_generation(db: Database) -> None:
    """Fencing (issue 36.1): the lease's `generation` grows by one at every take, so a bot
    frozen past its minute and resumed finds a newer generation (or none of its own) in the
    same transaction that claims its next message, and stops delivering. A clean stop marks
    the lease `released_at` instead of deleting it, so the count never starts again at 1.
    `outbox.lease_generation`: the generation that claimed a message for delivery."""
    _run(
        db,
        [
            "ALTER TABLE bot_lease ADD COLUMN generation INTEGER NOT NULL DEFAULT 1 "
            "CHECK (generation >= 1)",
            "ALTER TABLE bot_lease ADD COLUMN released_at TEXT",
            "ALTER TABLE outbox ADD COLUMN lease_generation INTEGER",
        ],
    )



@MIGRATIONS(name="0009_dup_slip_fixes")
def _dup_slip_fixes(db: Database) -> None:
    """The arbiter's correction of his own typing (issue 35; 003 r. 42): he typed a paper slip
    wrong and typed it again — the player handed in one slip, not two. Recorded as its own
    row (the slips stay as typed): `slip_id` the mistyped entry, `fixed_by` the entry that
    replaced it, the rule, the reason, who and when. The database refuses a fix of a slip the
    player sent himself (Discord), of another player's or round's slip, of any but the
    entry `fixed_by` directly replaced, or in a closed round; append-only like the evidence."""
    _run(
        db,
        [
            f"""CREATE TABLE dup_slip_fixes (
                id INTEGER PRIMARY KEY,
                slip_id INTEGER NOT NULL UNIQUE REFERENCES dup_slips(id),
                fixed_by INTEGER NOT NULL UNIQUE REFERENCES dup_slips(id),
                rule TEXT NOT NULL CHECK (rule <> ''),
                reason TEXT NOT NULL CHECK (reason <> '' AND length(reason) <= 1000),
                at TEXT NOT NULL,
                {_ACTOR},
                CHECK (slip_id <> fixed_by)
            ) STRICT""",
            """CREATE TRIGGER dup_slip_fixes_typed_only BEFORE INSERT ON dup_slip_fixes
                WHEN NOT EXISTS (
                    SELECT 1 FROM dup_slips AS wrong JOIN dup_slips AS fixed
                      ON fixed.id = NEW.fixed_by AND wrong.id = NEW.slip_id
                    WHERE wrong.source IN ('arbiter', 'csv') AND fixed.source <> 'discord'
                      AND wrong.replaced_by = fixed.id AND wrong.round_id = fixed.round_id
                      AND wrong.player_id = fixed.player_id
                      AND (SELECT closed_at FROM dup_rounds WHERE id = fixed.round_id) IS NULL)
                BEGIN SELECT RAISE(ABORT,
                    'only a typed entry replaced by its correction is fixed (003 r. 42)'); END""",
            *_append_only("dup_slip_fixes"),
        ],
    )


@MIGRATIONS(name="0010_season_ladders")
def _season_ladders(db: Database) -> None:
    """A season's ladder as last announced, and its page owed (issue 44.2). One row per season
    file (`file`: its resolved path). `qualified`: the players in the qualifying places as the
    last announcement left them (JSON list; NULL: never announced) — the next finish names who
    moved relative to it. `page_dir`: a page is owed in that folder — set in the transaction
    that finishes a tournament, cleared once the page is written; a crash between the two
    leaves it set, and the next start, finish or `stredisko season --html` writes it."""
    _run(
        db,
        [
            """CREATE TABLE season_ladders (
                id INTEGER PRIMARY KEY,
                file TEXT NOT NULL UNIQUE CHECK (file <> ''),
                season TEXT NOT NULL,
                qualified TEXT,
                announced_at TEXT,
                announced_after INTEGER REFERENCES tournaments(id),
                page_dir TEXT CHECK (page_dir IS NULL OR page_dir <> ''),
                page_owed_by INTEGER REFERENCES tournaments(id),
                page_owed_at TEXT,
                CHECK ((page_dir IS NULL) = (page_owed_at IS NULL))
            ) STRICT""",
        ],
    )


# the entry of a rating_history row's player in its tournament (the seeds it was rated from)
_ENTRY = ("FROM entries AS e WHERE e.tournament_id = rating_history.tournament_id "
          "AND e.player_id = rating_history.player_id")
_NEW_FIGURES = ", ".join(f"NEW.{c}" for c in ("event_before_value", "event_before_games",
                                               "event_after_value", "event_after_games"))


@MIGRATIONS(name="0011_rating_chain")
def _rating_chain(db: Database) -> None:
    """Overlapping events compose (issue 44.1, DESIGN.md 6b): a tournament's row keeps the
    registry's before/after as a chain (its before = the player's previous row's after) and,
    in `event_*`, the event's own change as that event computed it from its entries' seeds
    (value NULL: the player had no online screlo, the event counted him from 1600). A decay
    row has none. Rows written before this migration: the event's own figures are its
    entry's seed and the after it stored (which was the event's own after), backfilled once —
    the append-only trigger steps aside for it."""
    _run(
        db,
        [
            "DROP TRIGGER rating_history_no_update",
            "ALTER TABLE rating_history ADD COLUMN event_before_value REAL",
            "ALTER TABLE rating_history ADD COLUMN event_before_games INTEGER",
            "ALTER TABLE rating_history ADD COLUMN event_after_value REAL",
            "ALTER TABLE rating_history ADD COLUMN event_after_games INTEGER",
            f"""UPDATE rating_history SET
                event_before_value = CASE WHEN EXISTS (SELECT 1 {_ENTRY})
                    THEN (SELECT e.seed_rating {_ENTRY}) ELSE before_value END,
                event_before_games = COALESCE((SELECT e.seed_games {_ENTRY}), before_games),
                event_after_value = after_value,
                event_after_games = after_games
              WHERE kind = 'tournament'""",
            _append_only("rating_history")[0],
            f"""CREATE TRIGGER rating_history_event_figures BEFORE INSERT ON rating_history
                WHEN (NEW.kind = 'tournament') <> (NEW.event_before_games IS NOT NULL
                        AND NEW.event_after_value IS NOT NULL
                        AND NEW.event_after_games IS NOT NULL)
                  OR (NEW.kind <> 'tournament' AND COALESCE({_NEW_FIGURES}) IS NOT NULL)
                BEGIN SELECT RAISE(ABORT,
                    'a tournament row keeps the event''s own change, a decay row none'); END""",
        ],
    )


@MIGRATIONS(name="0012_link_requests_per_event")
def _link_requests_per_event(db: Database) -> None:
    """A link request is each event's (issue 44.8): the same account asking for the same
    player in two events is two requests, each seen and decided by its own event's head admin
    — a rejection in one is not one in the other. SQLite cannot drop the old UNIQUE
    (player_id, discord_id), so the table is rebuilt with (tournament_id, player_id,
    discord_id); its rows are kept as they are."""
    _run(
        db,
        [
            _link_requests("link_requests_new", "tournament_id, player_id, discord_id"),
            "INSERT INTO link_requests_new SELECT * FROM link_requests",
            "DROP TABLE link_requests",
            "ALTER TABLE link_requests_new RENAME TO link_requests",
            "CREATE INDEX link_requests_by_tournament ON link_requests (tournament_id, status)",
            "CREATE INDEX link_requests_by_player ON link_requests (player_id, status)",
        ],
    )


def migrate(db: Database) -> list[str]:
    """Apply every pending migration; returns the names applied (empty when up to date)."""
    pending = [migration.name for migration in MIGRATIONS.pending(db)]
    MIGRATIONS.apply(db)
    return pending
