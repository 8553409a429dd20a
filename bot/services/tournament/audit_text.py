"""The audit log as the head admin reads it (`stredisko show audit`): each change in Slovak —
what happened (`audit.action.*` in the catalogue, the code itself for one it does not know),
who did it and what it concerns (a table by round and table, a player by name) — instead of
the store's codes and ids (`result.put pairing:23`)."""

from __future__ import annotations

from typing import Any

from bot.i18n import SLOVAK, default_catalogue, t
from bot.services.app import Tx
from bot.services.results.evidence_map import player_names
from bot.store import AuditEntry, NotFoundError, get_pairing, list_audit


def _action(action: str, locale: str) -> str:
    key = "audit.action." + action.replace(".", "_")
    known = default_catalogue().languages[SLOVAK].messages
    return t(key, locale) if key in known else action


def _subject(tx: Tx, subject: str, names: dict[str, str], locale: str) -> str:
    kind, _, ref = subject.partition(":")
    if kind == "pairing" and ref.isdecimal():
        try:
            pairing = get_pairing(tx.db, int(ref))
        except NotFoundError:  # replaced by a later pairing of its round
            return t("audit.subject.old_pairing", locale)
        return t("audit.subject.table", locale, table=pairing.table_no, round=pairing.round_no)
    if kind == "player" and ref in names:
        return names[ref]
    if kind == "round" and ref.isdecimal():
        return t("audit.subject.round", locale, round=int(ref))
    if kind == "sync" and ref.isdecimal():
        return t("audit.subject.sync", locale, run=int(ref))
    return subject


def _actor(entry: AuditEntry, names: dict[str, str], locale: str) -> str:
    kind, who = str(entry.actor_kind), entry.actor_id or ""
    if kind == "player":
        return names.get(who, who)
    return t(f"audit.actor.{kind}", locale, who=who).strip()


def audit_rows(tx: Tx, tournament_id: int, limit: int, locale: str = SLOVAK
               ) -> list[dict[str, Any]]:
    """The tournament's audit log, oldest first, as rows of `cli.audit_row`."""
    entries = list_audit(tx.db, tournament_id=tournament_id, limit=limit)
    ids = {int(ref) for e in entries for ref in _player_refs(e)}
    names = player_names(tx.db, ids)
    return [{"at": e.at, "actor": _actor(e, names, locale),
             "action": _action(e.action, locale),
             "subject": _about(_subject(tx, e.subject or "", names, locale)),
             "reason": e.reason or "—"} for e in entries]


def _about(subject: str) -> str:
    """The row's " — what it concerns" part; nothing for a change of the whole tournament."""
    return f" — {subject}" if subject else ""


def _player_refs(entry: AuditEntry) -> list[str]:
    """The player store ids an entry names (as its actor or its subject)."""
    refs = []
    if str(entry.actor_kind) == "player" and (entry.actor_id or "").isdecimal():
        refs.append(entry.actor_id or "")
    kind, _, ref = (entry.subject or "").partition(":")
    if kind == "player" and ref.isdecimal():
        refs.append(ref)
    return refs
