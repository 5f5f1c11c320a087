#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the ccos test suite and prints the
# URL to export as CCOS_TEST_DATABASE_URL.
#
#   eval "$(scripts/ci/postgres.sh --export)"   # sets CCOS_TEST_DATABASE_URL
#   scripts/ci/postgres.sh                      # prints the URL
#   scripts/ci/postgres.sh --stop               # stops the server
#
# - Installs PostgreSQL from Debian's packages if absent (needs root).
# - Data dir: $CCOS_PG_DIR (default /tmp/ccos-pg/data), initialised as the
#   `postgres` user when run as root (initdb refuses root), trust auth.
# - Listens only on 127.0.0.1:$CCOS_PG_PORT (default 55432); unix socket in /tmp.
# - Creates database `ccos_test`.
# - Idempotent: a second run reuses the running server.
# Progress goes to stderr; only the URL (or export line) goes to stdout.
set -euo pipefail

PORT="${CCOS_PG_PORT:-55432}"
BASE="${CCOS_PG_DIR:-/tmp/ccos-pg}"
DATA="$BASE/data"
LOG="$BASE/server.log"
DB=ccos_test
PGUSER_NAME=postgres
URL="postgres://${PGUSER_NAME}@127.0.0.1:${PORT}/${DB}"

log() { echo "postgres.sh: $*" >&2; }
die() { echo "postgres.sh: error: $*" >&2; exit 1; }

mode=url
case "${1:-}" in
  "") ;;
  --export) mode=export ;;
  --stop) mode=stop ;;
  *) die "unknown argument: $1 (expected --export or --stop)" ;;
esac

find_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"; return 0
  fi
  return 1
}

# Runs a command as the postgres user when we are root, else as ourselves.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    if command -v runuser >/dev/null 2>&1; then
      runuser -u "$PGUSER_NAME" -- "$@"
    else
      su "$PGUSER_NAME" -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

if ! BIN="$(find_bindir)"; then
  [ "$(id -u)" -eq 0 ] || die "PostgreSQL is not installed and we are not root to install it"
  log "installing PostgreSQL from Debian packages..."
  export DEBIAN_FRONTEND=noninteractive
  apt_log="$(mktemp)"
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql; } \
        </dev/null >"$apt_log" 2>&1; then
    cat "$apt_log" >&2
    die "apt-get install postgresql failed"
  fi
  rm -f "$apt_log"
  BIN="$(find_bindir)" || die "PostgreSQL installed but initdb/pg_ctl not found"
fi

if [ "$(id -u)" -eq 0 ] && ! id "$PGUSER_NAME" >/dev/null 2>&1; then
  die "user '$PGUSER_NAME' does not exist (expected from the postgresql package)"
fi

PSQL="$BIN/psql"; [ -x "$PSQL" ] || PSQL="$(command -v psql)" || die "psql not found"
ISREADY="$BIN/pg_isready"; [ -x "$ISREADY" ] || ISREADY="$(command -v pg_isready || true)"

ready() {
  if [ -n "$ISREADY" ]; then
    "$ISREADY" -q -h 127.0.0.1 -p "$PORT" -t 2 </dev/null >/dev/null 2>&1
  else
    "$PSQL" -h 127.0.0.1 -p "$PORT" -U "$PGUSER_NAME" -d postgres -tAc 'SELECT 1' </dev/null >/dev/null 2>&1
  fi
}

if [ "$mode" = stop ]; then
  if [ -f "$DATA/postmaster.pid" ]; then
    as_pg "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop </dev/null >&2 || die "pg_ctl stop failed"
  else
    log "no server running from $DATA"
  fi
  exit 0
fi

if ready; then
  log "reusing the server already listening on 127.0.0.1:$PORT"
else
  mkdir -p "$BASE"
  if [ "$(id -u)" -eq 0 ]; then chown "$PGUSER_NAME" "$BASE"; fi
  chmod 700 "$BASE"
  if [ ! -s "$DATA/PG_VERSION" ]; then
    log "initialising $DATA"
    init_log="$(mktemp)"; chmod 644 "$init_log"
    if [ "$(id -u)" -eq 0 ]; then chown "$PGUSER_NAME" "$init_log"; fi
    if ! as_pg "$BIN/initdb" -D "$DATA" -U "$PGUSER_NAME" --auth=trust -E UTF8 --locale=C \
          </dev/null >"$init_log" 2>&1; then
      cat "$init_log" >&2; rm -f "$init_log"
      die "initdb failed"
    fi
    rm -f "$init_log"
  fi
  # A stale pid file from a killed server would block the start. A server
  # killed a moment ago may still be exiting (or be an unreaped zombie, which
  # `kill -0` reports alive), so the start is tried a few times.
  remove_stale_pid() {
    if [ -f "$DATA/postmaster.pid" ]; then
      pid="$(head -1 "$DATA/postmaster.pid" 2>/dev/null || true)"
      if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = "Z" ]; then
        log "removing stale $DATA/postmaster.pid"
        rm -f "$DATA/postmaster.pid"
      fi
    fi
  }
  log "starting PostgreSQL on 127.0.0.1:$PORT"
  started=no
  for attempt in 1 2 3; do
    remove_stale_pid
    if as_pg "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
          -o "-c listen_addresses=127.0.0.1 -p $PORT -k /tmp -c max_connections=200 -c fsync=on" \
          start </dev/null >/dev/null 2>&1; then
      started=yes
      break
    fi
    log "start attempt $attempt failed; retrying"
    sleep 2
  done
  if [ "$started" != yes ]; then
    tail -n 30 "$LOG" >&2 2>/dev/null || true
    die "pg_ctl start failed (log: $LOG)"
  fi
  for _ in $(seq 1 30); do ready && break; sleep 1; done
  ready || { tail -n 30 "$LOG" >&2 2>/dev/null || true; die "server did not become ready (log: $LOG)"; }
fi

exists="$("$PSQL" -h 127.0.0.1 -p "$PORT" -U "$PGUSER_NAME" -d postgres -tAc \
  "SELECT 1 FROM pg_database WHERE datname = '$DB'" </dev/null)" || die "cannot query the server"
if [ "$exists" != "1" ]; then
  "$PSQL" -q -h 127.0.0.1 -p "$PORT" -U "$PGUSER_NAME" -d postgres -c "CREATE DATABASE $DB" \
    </dev/null >&2 || die "creating database $DB failed"
  log "created database $DB"
fi

if [ "$mode" = export ]; then
  echo "export CCOS_TEST_DATABASE_URL='$URL'"
else
  echo "$URL"
fi
