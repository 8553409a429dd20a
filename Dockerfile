# stredisko — the control-centre bot. Build: docker build -t stredisko .
# Run:   docker run -d --name stredisko -v stredisko-data:/data \
#          -e DISCORD_TOKEN=… -e HERNA_USER=… -e HERNA_PASSWORD=… \
#          -v "$PWD/config.toml:/app/config.toml:ro" stredisko
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY scrapers ./scrapers
COPY bot ./bot
RUN pip install . \
    && useradd --create-home --uid 10001 stredisko \
    && mkdir -p /data \
    && chown stredisko:stredisko /data

USER stredisko
# The database and the heartbeat file live on the volume; config.toml is mounted read-only.
VOLUME ["/data"]
ENV STREDISKO_DB=/data/stredisko.db \
    STREDISKO_HEARTBEAT=/data/heartbeat

# Healthy while the bot keeps touching its heartbeat file (every 30 s).
HEALTHCHECK --interval=60s --timeout=5s --start-period=60s --retries=3 \
    CMD python -m bot.discord.heartbeat "$STREDISKO_HEARTBEAT" --max-age 120

ENTRYPOINT ["stredisko"]
CMD ["run", "--config", "/app/config.toml"]
