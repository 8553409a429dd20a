#!/usr/bin/env bash
# Checks a built `stredisko` image the way a deployer would meet it (issue 15); not part of CI.
#   docker build -t stredisko . && tools/verify-image.sh [IMAGE]
# Uses (and removes) a named volume and a container, both called stredisko-verify. Needs root
# (a root-owned folder and file are what the permission checks meet).
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE=${1:-stredisko}
VOLUME=stredisko-verify
trap 'docker rm -f $VOLUME >/dev/null 2>&1 || true; docker volume rm $VOLUME >/dev/null 2>&1 || true' EXIT
step() { printf '\n== %s\n' "$*"; }
# The README's first run on volume $1: the tournament and its head admin on it, a config.toml
# ($config, readable by uid 10001) and the secrets apart ($secrets, chmod 600).
first_run() {
    docker run --rm -v "$1":/data -v "$PWD/examples/propozicie.toml:/app/propozicie.toml:ro" \
        "$IMAGE" create /app/propozicie.toml
    docker run --rm -v "$1":/data "$IMAGE" admins kt-2026-11 --add 123456789012345678
    config=$(mktemp)
    secrets=$(mktemp)
    sed -e 's/^guild_id = 0/guild_id = 1/' -e 's/^tournament = ""/tournament = "kt-2026-11"/' \
        config.example.toml > "$config"
    chmod 644 "$config"
    sed 's/^DISCORD_TOKEN=$/DISCORD_TOKEN=not.a.token/' examples/stredisko.env > "$secrets"
    chmod 600 "$secrets"
}

step "size"
docker image ls "$IMAGE"
docker history --format '{{.Size}}\t{{.CreatedBy}}' "$IMAGE" | grep -v '^0B' | cut -c1-100

step "offline rehearsal exits 0"
docker run --rm --network none "$IMAGE" rehearse /app/examples/rehearsal/kt-online-24.toml \
    | tail -n 2

step "duplicate: the rehearsal (online, then the same scenario in a hall) and a top on a bundled tile set"
docker run --rm --network none "$IMAGE" rehearse /app/examples/rehearsal/duplicate-skuska.toml \
    | tail -n 3
docker run --rm --network none --entrypoint sh "$IMAGE" -c 'set -e
    sed "s/^mode = .*/mode = \"hall\"/" /app/examples/rehearsal/duplicate-skuska.toml \
        > /tmp/hala.toml
    cp /app/examples/rehearsal/duplicate-slova.txt /tmp/
    grep -c "^mode = \"hall\"" /tmp/hala.toml
    stredisko rehearse /tmp/hala.toml | tail -n 3'
docker run --rm --network none --entrypoint sh "$IMAGE" -c 'set -e
    printf "...............\n%.0s" $(seq 15) > /tmp/doska.txt
    stredisko duplicate top --lexicon /app/examples/rehearsal/duplicate-slova.txt \
        --tiles sss-100 --board /tmp/doska.txt --rack ACJPSUV | head -n 3'

step "a board image: the Slovak letters with their own glyphs (bundled font and tile sets)"
docker run --rm -i --network none -v $VOLUME:/data --entrypoint python "$IMAGE" \
    -P - /data/board.png < tools/check-board-image.py
docker run --rm -v $VOLUME:/data --entrypoint sh "$IMAGE" -c 'head -c 8 /data/board.png | od -c | head -n 1'

step "words: the README's lexicon built into /data/lexicons from a list, then checked by id"
words=$(mktemp -d)
printf '# skúšobný zoznam (verify-image)\nkôň\nchata\nmama\n' > "$words/sk-standin.txt"
chmod 755 "$words" && chmod 644 "$words/sk-standin.txt"
# sed reads the whole output (head would close the pipe on docker's client: "broken pipe")
docker run --rm -v $VOLUME:/data -v "$words:/in:ro" "$IMAGE" \
    lexicon build /in/sk-standin.txt --rules sss -o /data/lexicons/sk.lex | sed -n 1p
docker run --rm -v $VOLUME:/data "$IMAGE" word kôň chata --lexicon sk
set +e
docker run --rm -v $VOLUME:/data "$IMAGE" word kôň xyzq --lexicon sk
code=$?
set -e
test "$code" = 1
rm -rf "$words"

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

step "the README's first run: tournament and admins on the volume; secrets from --env-file; no network: the bot retries, never exits, says nothing of voice libraries"
first_run $VOLUME
docker run --rm -v $VOLUME:/data --entrypoint rm "$IMAGE" -f /data/heartbeat  # the step above's
docker run -d --name $VOLUME --network none --env-file "$secrets" \
    -v $VOLUME:/data -v "$config:/app/config.toml:ro" "$IMAGE" >/dev/null
sleep 20
docker logs $VOLUME 2>&1 | tail -n 3
test "$(docker inspect -f '{{.State.Running}}' $VOLUME)" = true
test "$(docker logs $VOLUME 2>&1 | grep -c 'pokus')" -ge 3
test "$(docker logs $VOLUME 2>&1 | grep -c -e PyNaCl -e davey)" = 0
test ! -e "$(docker volume inspect -f '{{.Mountpoint}}' $VOLUME)/heartbeat"  # not logged in
docker rm -f $VOLUME >/dev/null

step "permissions: a root-owned host folder on /data and a root-owned chmod 600 config.toml each give one Slovak line naming uid 10001"
host=$(mktemp -d)  # root's, mode 700: uid 10001 may not enter it
set +e
out=$(docker run --rm -v "$host:/data" -v "$PWD/examples/propozicie.toml:/app/propozicie.toml:ro" \
    "$IMAGE" create /app/propozicie.toml 2>&1)
code=$?
set -e
echo "$out"
test "$code" = 1 && echo "$out" | grep -q 'uid 10001' && ! echo "$out" | grep -q Traceback
chmod 600 "$config"
set +e
out=$(docker run --rm --network none --env-file "$secrets" -v $VOLUME:/data \
    -v "$config:/app/config.toml:ro" "$IMAGE" 2>&1)
code=$?
set -e
echo "$out"
test "$code" = 2 && echo "$out" | grep -q 'uid 10001' && echo "$out" | grep -q 'chmod 644'
rm -rf "$config" "$secrets" "$host"

step "issue 43.2: a folder where config.toml should be names rmdir; a relative output lands in /data; a refused write names uid 10001; a quoted env value loses its quotes; --read-only with a tmpfs /tmp rehearses"
folder=$(mktemp -d)
mkdir "$folder/config.toml"  # what docker run -v makes of a host file that does not exist yet
set +e
out=$(docker run --rm -v "$folder/config.toml:/app/config.toml:ro" -v $VOLUME:/data "$IMAGE" 2>&1)
code=$?
set -e
echo "$out"
test "$code" = 2 && echo "$out" | grep -q 'rmdir config.toml' && ! echo "$out" | grep -q Errno
rm -rf "$folder"
docker run --rm -v $VOLUME:/data "$IMAGE" export screlo -o screlo-export.csv
docker run --rm -v $VOLUME:/data --entrypoint test "$IMAGE" -f /data/screlo-export.csv
set +e
out=$(docker run --rm -v $VOLUME:/data "$IMAGE" export screlo -o /app/screlo.csv 2>&1)
code=$?
set -e
echo "$out"
test "$code" != 0 && echo "$out" | grep -q 'uid 10001' && ! echo "$out" | grep -q Errno
docker run --rm -e 'DISCORD_TOKEN="a.b.c"' --entrypoint python "$IMAGE" -P -c \
    'from bot.config import load_config; assert load_config(None).discord.token == "a.b.c"'
docker run --rm --read-only --tmpfs /tmp --network none "$IMAGE" \
    rehearse kt-popoludnie | tail -n 1
docker run --rm --network none -v $VOLUME:/data "$IMAGE" examples /data/ukazky | head -n 1

step "issue 43.2: docker stop gives the lease back: the next bot on the volume starts at once"
# a volume of its own: the first-run step above ended its bot with rm -f (SIGKILL), which
# leaves the lease held for a minute — the case the README's update procedure avoids
LEASED=$VOLUME-lease
trap 'docker rm -f $VOLUME >/dev/null 2>&1 || true; docker volume rm $VOLUME $LEASED >/dev/null 2>&1 || true' EXIT
first_run $LEASED >/dev/null
docker run -d --name $VOLUME --network none --stop-timeout 30 --env-file "$secrets" \
    -v $LEASED:/data -v "$config:/app/config.toml:ro" "$IMAGE" >/dev/null
sleep 8
test "$(docker inspect -f '{{.State.Running}}' $VOLUME)" = true  # the first one holds it
docker stop $VOLUME >/dev/null && docker rm $VOLUME >/dev/null
docker run -d --name $VOLUME --network none --env-file "$secrets" \
    -v $LEASED:/data -v "$config:/app/config.toml:ro" "$IMAGE" >/dev/null
sleep 8
docker logs $VOLUME 2>&1 | tail -n 2
test "$(docker inspect -f '{{.State.Running}}' $VOLUME)" = true
! docker logs $VOLUME 2>&1 | grep -q 'už obsluhuje iný bot'
docker rm -f $VOLUME >/dev/null
rm -f "$config" "$secrets"

step "issue 43.2: Dockerfile.lexikon makes a stand-in list inside Docker (needs Debian's mirror)"
docker build -q -t stredisko-lexikon-verify --build-arg BASE="$IMAGE" -f Dockerfile.lexikon . >/dev/null
docker run --rm --network none --entrypoint sh stredisko-lexikon-verify -c \
    'test -x /usr/bin/unmunch && ls /usr/share/hunspell/sk_SK.dic /usr/share/hunspell/cs_CZ.dic'
docker image rm stredisko-lexikon-verify >/dev/null

step "all checks passed"
