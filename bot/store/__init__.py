"""The store: one SQLite database, owned by one worker thread (DESIGN.md section 4).

Open it with `await Store.open(path)` (or `Store(path)` in the CLI) and run the query functions
below through it: `await store.call(fn, *args)` runs `fn(db, *args)` in one transaction on the
owner thread. Query functions are plain functions of a `sqlite_utils.Database`, so a use case
can call several of them inside one function passed to `store.call`, all-or-nothing.

Every write helper takes `by: Change` (who, when, why) and appends the audit row itself.
All times are aware datetimes; they are stored as UTC ISO-8601 text.
"""

from bot.store.audit import list_audit, record
from bot.store.db import DEFAULT_BUSY_TIMEOUT_MS, Store, StoreClosedError, connect
from bot.store.entries import (
    add_entry,
    check_in,
    exclude,
    get_entry,
    list_entries,
    set_paid,
    withdraw,
)
from bot.store.evidence import (
    append_evidence,
    get_platform_record,
    list_evidence,
    upsert_platform_record,
)
from bot.store.pairings import (
    find_pairing,
    get_pairing,
    pairings_of_round,
    replace_pairings,
)
from bot.store.players import (
    create_player,
    find_player_by_discord,
    find_player_by_nick,
    get_player,
    list_players,
    update_player,
)
from bot.store.ratings import apply_rating, rating_history
from bot.store.results import (
    add_discrepancy,
    get_result,
    list_discrepancies,
    list_results,
    put_result,
    resolve_discrepancy,
    result_history,
)
from bot.store.rows import (
    ActorKind,
    AuditEntry,
    Change,
    Discrepancy,
    DuplicateError,
    Entry,
    Evidence,
    EvidenceKind,
    FrozenError,
    NotFoundError,
    PlatformRecord,
    Player,
    RatingChange,
    RecordChange,
    ResultFields,
    ResultStatus,
    Round,
    StoredResult,
    StoreError,
    SyncKind,
    SyncOutcome,
    SyncRun,
    TablePairing,
    Timer,
    TimerKind,
    TimerStatus,
    Tournament,
    TournamentStatus,
    VersionConflictError,
)
from bot.store.schema import MIGRATIONS, migrate
from bot.store.sync_runs import finish_sync_run, last_ok_start, last_sync_run, start_sync_run
from bot.store.timers import (
    add_timer,
    cancel_timer,
    due_timers,
    fire_timer,
    get_timer,
    list_timers,
    next_due,
)
from bot.store.times import from_text, to_text
from bot.store.tournaments import (
    create_tournament,
    get_round,
    get_tournament,
    get_tournament_by_slug,
    list_rounds,
    list_tournaments,
    set_status,
    update_round,
    update_tournament,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS", "MIGRATIONS", "ActorKind", "AuditEntry", "Change",
    "Discrepancy", "DuplicateError", "Entry", "Evidence", "EvidenceKind", "FrozenError",
    "NotFoundError", "PlatformRecord", "Player", "RatingChange", "RecordChange",
    "ResultFields", "ResultStatus", "Round", "Store", "StoreClosedError", "StoreError",
    "StoredResult", "SyncKind", "SyncOutcome", "SyncRun", "TablePairing", "Timer",
    "TimerKind", "TimerStatus", "Tournament", "TournamentStatus", "VersionConflictError",
    "add_discrepancy", "add_entry", "add_timer", "append_evidence", "apply_rating",
    "cancel_timer", "check_in", "connect", "create_player", "create_tournament", "due_timers",
    "exclude", "find_pairing", "find_player_by_discord", "find_player_by_nick",
    "finish_sync_run", "fire_timer", "from_text", "get_entry", "get_pairing", "get_platform_record",
    "get_player", "get_result", "get_round", "get_timer", "get_tournament",
    "get_tournament_by_slug", "last_ok_start", "last_sync_run", "list_audit", "list_discrepancies",
    "list_entries", "list_evidence", "list_players", "list_results", "list_rounds",
    "list_timers", "list_tournaments", "migrate", "next_due", "pairings_of_round",
    "put_result", "rating_history", "record", "replace_pairings", "resolve_discrepancy",
    "result_history", "set_paid", "set_status", "start_sync_run", "to_text", "update_player",
    "update_round", "update_tournament", "upsert_platform_record", "withdraw",
]
