#!/usr/bin/env bash
# Checks a built `stredisko` image the way a deployer would meet it (issue 15); not part of CI.
#   docker build -t stredisko . && tools/verify-image.sh [IMAGE]
# Uses (and removes) a named volume and a container, both called stredisko-verify.
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE=${1:-stredisko}
VOLUME=stredisko-verify
trap 'docker rm -f $VOLUME >/dev/null 2>&1 || true; docker volume rm $VOLUME >/dev/null 2>&1 || true' EXIT
step() { printf '\n== %s\n' "$*"; }

step "size"
docker image ls "$IMAGE"
docker history --format '{{.Size}}\t{{.CreatedBy}}' "$IMAGE" | grep -v '^0B' | cut -c1-100

step "offline rehearsal exits 0"
docker run --rm --network none --entrypoint stredisko "$IMAGE" \
    rehearse /app/examples/rehearsal/kt-online-24.toml | tail -n 2

step "/app holds only the examples; uid; the healthcheck imports the installed package"
docker run --rm --entrypoint sh "$IMAGE" -c \
    'find /app | sort; id; python -P -c "import bot.discord.heartbeat as h; print(h.__file__)"; pip check'
test -z "$(docker run --rm --entrypoint find "$IMAGE" /app -name '*.py' -o -name '*.egg-info' -o -name build)"
test "$(docker run --rm --entrypoint id "$IMAGE" -u)" = 10001

step "run without a token exits 2 with one Slovak line"
set +e
docker run --rm -v "$PWD/config.example.toml:/app/config.toml:ro" -v $VOLUME:/data "$IMAGE"
code=$?
set -e
test "$code" = 2

step "/data is writable on a named volume"
docker run --rm -v $VOLUME:/data --entrypoint sh "$IMAGE" -c 'touch /data/probe && ls -ln /data/probe'

step "the image's HEALTHCHECK: healthy on a fresh beat, unhealthy on a stale one"
beat='import sys; from datetime import UTC, datetime, timedelta; from pathlib import Path
from bot.discord.heartbeat import write_heartbeat
write_heartbeat(Path("/data/heartbeat"), datetime.now(UTC) - timedelta(hours=int(sys.argv[1])))'
docker run -d --name $VOLUME -v $VOLUME:/data --health-interval=2s --health-retries=2 \
    --health-start-period=0s --entrypoint sh "$IMAGE" \
    -c "python -P -c '$beat' 0; sleep 12; python -P -c '$beat' 1; sleep 60" >/dev/null
status() { docker inspect -f '{{.State.Health.Status}}' $VOLUME; }
sleep 8; first=$(status); sleep 14; second=$(status)
echo "after 8 s: $first; after 22 s (beat 1 h old): $second"
test "$first" = healthy && test "$second" = unhealthy

docker rm -f $VOLUME >/dev/null

step "the README's first run: tournament and admins on the volume; no network: the bot retries, never exits"
docker run --rm -v $VOLUME:/data -v "$PWD/examples/propozicie.toml:/app/propozicie.toml:ro" \
    "$IMAGE" create /app/propozicie.toml
docker run --rm -v $VOLUME:/data "$IMAGE" admins kt-2026-11 --add 123456789012345678
config=$(mktemp)
sed -e 's/^guild_id = 0/guild_id = 1/' -e 's/^tournament = ""/tournament = "kt-2026-11"/' \
    config.example.toml > "$config"
chmod 644 "$config"
docker run --rm -v $VOLUME:/data --entrypoint rm "$IMAGE" -f /data/heartbeat  # the step above's
docker run -d --name $VOLUME --network none -e DISCORD_TOKEN=not.a.token \
    -v $VOLUME:/data -v "$config:/app/config.toml:ro" "$IMAGE" >/dev/null
sleep 20
docker logs $VOLUME 2>&1 | tail -n 3
test "$(docker inspect -f '{{.State.Running}}' $VOLUME)" = true
test "$(docker logs $VOLUME 2>&1 | grep -c 'pokus')" -ge 3
test ! -e "$(docker volume inspect -f '{{.Mountpoint}}' $VOLUME)/heartbeat"  # not logged in
rm -f "$config"

step "all checks passed"
