"""The one admin policy: who may act as a tournament's head administrator (e-SP 2.5, 2.6, 5).

Every admin use case (rulings, approvals, exclusions, pairing, publishing, closing, finishing,
check-in, link requests, linking and unlinking accounts, discrepancies, the review queue)
calls `require_admin` (with the tournament it read) inside its own transaction, so the rule
holds whoever calls the service — the chat, the CLI, the rehearsal — not only behind the chat
layer's checks.

The policy:
- A **Discord actor** acts as head administrator only when his Discord id is in the
  tournament's `admin_ids`. The server role ("Hlavný administrátor") is the chat's first
  filter, never sufficient alone: anyone who can hand out roles could otherwise rule results.
  A tournament that names nobody has no head administrator on Discord yet; the operator names
  him (`stredisko admins SLUG --add ID`).
- The **CLI operator** (whoever holds the database file; named by `--admin`, by default the
  OS user) is trusted: holding the file is holding the tournament. Each of his changes is
  audited under his name like any other.

Callers name the actor with `Actor.discord(id)` / `Actor.operator(name)`. For older callers a
bare value is read safely: an int, or text of digits only (a Discord snowflake passed as
text), is a Discord actor and is checked; other text is an operator name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Refusal, Reply, done
from bot.store import Tournament, update_tournament

#: the head administrator's competences: forfeits, rulings, exclusions (e-SP 2.5, 4.9)
RULINGS_RULE = "e-SP 2.5"
#: the control centre's official acts: pairings, publishing, closing, check-in (e-SP 2.6)
CONTROL_RULE = "e-SP 2.6"
#: what no rule foresees, e.g. whose Discord account a registration is: the head admin (e-SP 5)
UNFORESEEN_RULE = "e-SP 5"


@dataclass(frozen=True, slots=True)
class Actor:
    """Who asks for an admin use case: a Discord account, or the CLI operator."""

    kind: Literal["discord", "operator"]
    ident: str  # the Discord id as text, or the operator's name

    @classmethod
    def discord(cls, user_id: int) -> Actor:
        return cls("discord", str(int(user_id)))

    @classmethod
    def operator(cls, name: str) -> Actor:
        text = name.strip()
        if not text:
            raise ValueError("the CLI operator needs a name (--admin)")
        return cls("operator", text)

    @property
    def discord_id(self) -> int | None:
        return int(self.ident) if self.kind == "discord" else None

    def __str__(self) -> str:
        """The id the audit log stores (`Change.admin` takes str() of what it is given)."""
        return self.ident


AdminRef = Actor | int | str


def actor_of(ref: AdminRef) -> Actor:
    """An `Actor` from what a caller passed (see the module docstring: digits are Discord)."""
    if isinstance(ref, Actor):
        return ref
    if isinstance(ref, bool):
        raise TypeError("an admin is an Actor, a Discord id or an operator's name")
    if isinstance(ref, int) or ref.strip().isdecimal():
        return Actor.discord(int(ref))
    return Actor.operator(ref)


def is_admin(t: Tournament, ref: AdminRef) -> bool:
    actor = actor_of(ref)
    return actor.kind == "operator" or actor.discord_id in t.admin_ids


def require_admin(t: Tournament, ref: AdminRef, rule: str = RULINGS_RULE) -> Actor:
    """The actor, if he may act as the head administrator of `t`; else a refusal citing `rule`
    (nothing is written: the use case's transaction rolls back)."""
    actor = actor_of(ref)
    if is_admin(t, actor):
        return actor
    if not t.admin_ids:
        raise Refusal("policy.no_admins", tournament=t.name, slug=t.slug, rule=rule)
    raise Refusal("policy.not_admin", tournament=t.name, rule=rule)


# -- naming the head administrators (the operator's act) -------------------------------------


def _set_admins(tx: Tx, slug: str, operator: AdminRef, add: Sequence[int],
                remove: Sequence[int]) -> Reply:
    t = lookup.tournament(tx, slug)
    actor = actor_of(operator)
    if actor.kind != "operator":  # who is head admin is decided by whoever holds the file
        raise Refusal("policy.operator_only", tournament=t.name, rule=CONTROL_RULE)
    ids = [i for i in t.admin_ids if i not in set(remove)]
    ids += [i for i in dict.fromkeys(add) if i not in ids]
    if ids != t.admin_ids:
        update_tournament(tx.db, t.id, tx.by_admin(actor, "hlavní administrátori turnaja"),
                          admin_ids=ids)
    return done("policy.admins", tournament=t.name, rule=RULINGS_RULE,
                admins=", ".join(str(i) for i in ids) or "—")


async def set_admins(app: App, slug: str, operator: AdminRef, add: Sequence[int] = (),
                     remove: Sequence[int] = ()) -> Reply:
    """Name (or remove) the Discord accounts that act as the tournament's head administrator;
    the CLI operator's act only. Without changes: the current list."""
    return await app.run(_set_admins, slug, operator, add, remove)
