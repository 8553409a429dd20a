"""The season's inactivity decay of the online screlo (e-SP 2.4, RULES.md 8).

`decay_season(app, season)` is run once when `season` begins. It judges the season before it:
every registry player with an online screlo whose `last_season` (the last season he played a
qualifier, online or — via the screlo list — live) is older than that previous season is
lowered once by `rules.decay(rating, 1)` (−50, never below 1600). Running it at every boundary
gives the rule's repetition; running it twice for one season is refused. A player whose last
season is unknown is not lowered and is listed.
"""

from __future__ import annotations

from bot.services.app import App, Tx
from bot.services.replies import Refusal, Reply, done
from bot.services.tournament.propozicie import previous_season, season_start
from bot.store import apply_rating, list_audit, list_players, record
from rules import Rating, decay

DECAY_ACTION = "rating.decay_season"


def _decay(tx: Tx, season: str, admin_id: str, profile_name: str) -> Reply:
    try:
        judged = previous_season(season)
    except ValueError as exc:
        raise Refusal("setup.bad_season", season=season, reason=str(exc)) from None
    done_before = [a for a in list_audit(tx.db, action=DECAY_ACTION) if a.subject == season]
    if done_before:
        raise Refusal("setup.decay_done", season=season, at=done_before[0].at,
                      rule="e-SP 2.4")
    profile = tx.profile(profile_name)
    by = tx.by_admin(admin_id, f"neaktivita v sezóne {judged} (e-SP 2.4)")
    lowered, unknown = [], []
    for p in list_players(tx.db):
        if p.screlo is None:
            continue
        if p.last_season is None:
            unknown.append(p.name)
            continue
        if season_start(p.last_season) >= season_start(judged):
            continue
        new = decay(Rating(p.screlo, p.rated_games), 1, profile)
        if new.value == p.screlo:
            continue
        apply_rating(tx.db, p.id, new.value, new.games, by)
        lowered.append({"name": p.name, "before": p.screlo, "after": new.value})
        if p.discord_id is not None:
            tx.direct(p.id, "setup.decayed", season=judged, before=p.screlo, after=new.value,
                      rule=profile.screlo.decay_rule)
    record(tx.db, by, DECAY_ACTION, subject=season,
           data={"judged": judged, "lowered": len(lowered)})
    return done("setup.decay", rule=profile.screlo.decay_rule, data=lowered, season=season,
                judged=judged, count=len(lowered), unknown=", ".join(unknown) or "—")


async def decay_season(app: App, season: str, admin_id: str,
                       profile: str = "sss-online") -> Reply:
    """Lower the online screlo of players inactive in the season before `season` (e-SP 2.4)."""
    return await app.run(_decay, season, admin_id, profile)
