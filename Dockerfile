# stredisko — the control-centre bot. Build: docker build -t stredisko .
# Run:   the README's "Running the bot in Docker" (files, the tournament, --sync-commands once),
#        then docker run -d --name stredisko --restart unless-stopped --env-file stredisko.env \
#          -v stredisko-data:/data -v "$PWD/config.toml:/app/config.toml:ro" stredisko
# Try it offline: docker run --rm --network none stredisko \
#          rehearse /app/examples/rehearsal/kt-online-24.toml
# Every package comes from the locks in requirements/ (exact versions, hashes; `make lock`).

# --- builder: the sources become one wheel; nothing of this stage reaches the image but it ---
FROM python:3.11-slim AS builder
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY requirements/build.txt requirements/
RUN pip install --require-hashes -r requirements/build.txt
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY scrapers ./scrapers
COPY bot ./bot
# bot/examples links ../examples: the wheel carries them (`stredisko examples`, issue 43.3);
# examples/config.example.toml links the root's
COPY examples ./examples
COPY config.example.toml ./
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /dist .

# --- the image: pinned dependencies, then the wheel, then the examples for a rehearsal ---
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Dependencies first, in their own layer: a change to our code alone reuses it.
COPY requirements/runtime.txt /tmp/runtime.txt
RUN pip install --require-hashes -r /tmp/runtime.txt \
    && rm /tmp/runtime.txt
COPY --from=builder /dist/ /tmp/dist/
RUN pip install --no-deps /tmp/dist/*.whl \
    && pip check \
    && rm -rf /tmp/dist \
    && useradd --create-home --uid 10001 stredisko \
    && mkdir -p /data \
    && chown stredisko:stredisko /data

# /app holds no code (the package is installed in site-packages): only the bundled examples
# and the mounted config.toml.
COPY examples /app/examples
COPY config.example.toml /app/

USER stredisko
# Commands start in the volume (issue 43.2): a relative output (`export … -o vysledky.csv`,
# `publish … web`) lands in /data beside the database, not in the read-only /app.
WORKDIR /data
# The database, the heartbeat file and the built lexicons live on the volume (/app is not
# writable: a relative [lexicon] dir would point there); config.toml is mounted read-only.
VOLUME ["/data"]
ENV STREDISKO_DB=/data/stredisko.db \
    STREDISKO_HEARTBEAT=/data/heartbeat \
    STREDISKO_LEXICON_DIR=/data/lexicons

# Healthy while the bot keeps touching its heartbeat file (every 30 s). `-P`: the working
# directory never comes before the installed package on the import path.
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
    CMD python -P -m bot.discord.heartbeat "$STREDISKO_HEARTBEAT" --max-age 120

ENTRYPOINT ["stredisko"]
CMD ["run", "--config", "/app/config.toml"]
