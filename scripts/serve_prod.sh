#!/usr/bin/env bash
# `make serve-prod`: the production setup as plain processes, without Docker.
#
# Migrates, collects the static files, then runs gunicorn (WEB_CONCURRENCY workers on
# 127.0.0.1:PORT), Daphne for the live updates' WebSockets (scorekeeper.asgi on
# 127.0.0.1:LIVE_PORT, PORT+1 unless told, with the Redis channel layer) and a Celery worker
# (CELERY_CONCURRENCY processes) against the local PostgreSQL and Redis, in production mode
# (DEBUG off). The pages are told to open their sockets on LIVE_PORT (LIVE_SOCKET_URL).
# Ctrl-C (or SIGTERM) stops them all; if one stops by itself, the others are stopped too
# and the script exits non-zero.
# RUN_WORKER=false runs gunicorn alone, for a worker run (and stopped) on its own, as
# Docker's separate worker container is (scripts/prove_faults.py kills one that way).
#
# Every variable of docs/configuration.md is read from the environment; the
# defaults below suit one machine serving plain HTTP on localhost. Behind a proxy that
# terminates TLS, set SECURE_SSL_REDIRECT=1 and SECURE_PROXY_SSL_HEADER=1 (see
# docs/operations.md). Without SECRET_KEY, a random one is made for this run only.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBUG="${DEBUG:-false}"
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/scorekeeper}"
export CELERY_BROKER_URL="${CELERY_BROKER_URL:-redis://127.0.0.1:6379/0}"
export CACHE_URL="${CACHE_URL:-${REDIS_URL:-redis://127.0.0.1:6379/1}}"
export CHANNEL_LAYER_URL="${CHANNEL_LAYER_URL:-redis://127.0.0.1:6379/2}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-localhost,127.0.0.1}"
export SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-false}"
if [ -z "${SECRET_KEY:-}" ]; then
  echo "serve-prod: SECRET_KEY is not set; using a random one for this run (logins end when it stops)" >&2
  SECRET_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
  export SECRET_KEY
fi
PORT="${PORT:-8000}"
BIND="${BIND:-127.0.0.1:$PORT}"
LIVE_PORT="${LIVE_PORT:-$((PORT + 1))}"
LIVE_BIND="${LIVE_BIND:-127.0.0.1}"
# {host} is filled in by the site, per request; set but empty = Daphne serves the pages too.
live_default="ws://{host}:$LIVE_PORT"
export LIVE_SOCKET_URL="${LIVE_SOCKET_URL-$live_default}"
WEB_CONCURRENCY="${WEB_CONCURRENCY:-3}"
CELERY_CONCURRENCY="${CELERY_CONCURRENCY:-2}"
RUN_WORKER="${RUN_WORKER:-true}"
case "${RUN_WORKER,,}" in  # any case, as the settings read booleans
  1 | true | yes | on) RUN_WORKER=true ;;
  0 | false | no | off) RUN_WORKER=false ;;
  *)
    echo "serve-prod: RUN_WORKER=$RUN_WORKER is not a boolean: use true or false" >&2
    exit 2
    ;;
esac
PY="${PYTHON:-.venv/bin/python}"

"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput --verbosity 0

"$PY" -m gunicorn scorekeeper.wsgi \
  --workers "$WEB_CONCURRENCY" --bind "$BIND" \
  --graceful-timeout 10 --log-level warning &
web=$!
"$PY" -m daphne scorekeeper.asgi:application \
  --bind "$LIVE_BIND" --port "$LIVE_PORT" --application-close-timeout 10 --verbosity 0 &
live=$!
worker=""
if [ "$RUN_WORKER" = true ]; then
  "$PY" -m celery -A scorekeeper worker --concurrency "$CELERY_CONCURRENCY" \
    --loglevel info --without-gossip --without-mingle &
  worker=$!
fi

stop() {
  kill -TERM "$web" "$live" $worker 2>/dev/null || true
  wait "$web" "$live" $worker 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
echo "serve-prod: gunicorn (pid $web) on http://$BIND, daphne (pid $live) on ws://$LIVE_BIND:$LIVE_PORT, celery worker (pid ${worker:-none}); Ctrl-C stops them all" >&2

# Whichever stops first (on its own) takes the others down with it.
status=0
wait -n "$web" "$live" $worker || status=$?
echo "serve-prod: a process stopped (status $status); stopping the others" >&2
stop
exit "$status"
