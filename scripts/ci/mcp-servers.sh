#!/usr/bin/env bash
# Installs the real MCP servers the ccos-mcp tests and benches run against,
# into the project-local directory tools/mcp/:
#   - npm: @modelcontextprotocol/server-{filesystem,memory,everything} and
#     the MCP Inspector (@modelcontextprotocol/inspector, whose CLI mode the
#     `ccos mcp serve` tests drive)
#     (versions pinned by tools/mcp/package.json + package-lock.json)
#     -> tools/mcp/node_modules/
#   - PyPI: mcp-server-time, mcp-server-git (pinned by tools/mcp/requirements.txt)
#     -> the venv tools/mcp/.venv/
# Idempotent (skips what is already installed at the pinned versions), quiet,
# and CI-safe (no prompts, never reads stdin). Needs node/npm and python3 (>= 3.10).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="$root/tools/mcp"
cd "$dir"
exec </dev/null

log() { echo "mcp-servers: $*" >&2; }

need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        log "missing '$1' on PATH; install it first (e.g. apt-get install -y $2)"
        exit 1
    fi
}

# --- npm servers -----------------------------------------------------------
need node nodejs
need npm npm
stamp_npm="node_modules/.ccos-installed"
lock_sum="$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)"
if [[ -f "$stamp_npm" && "$(cat "$stamp_npm")" == "$lock_sum" ]]; then
    log "npm servers up to date"
else
    log "installing npm servers (npm ci)"
    npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null
    echo "$lock_sum" >"$stamp_npm"
fi
for bin in mcp-server-filesystem mcp-server-memory mcp-server-everything mcp-inspector; do
    [[ -x "node_modules/.bin/$bin" ]] || { log "node_modules/.bin/$bin missing after install"; exit 1; }
done

# --- Python servers --------------------------------------------------------
py="${PYTHON:-python3}"
need "$py" python3
if ! "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    log "$py is older than 3.10; mcp-server-git and mcp-server-time need 3.10+"
    exit 1
fi
stamp_py=".venv/.ccos-installed"
req_sum="$(sha256sum requirements.txt | cut -d' ' -f1)"
if [[ -f "$stamp_py" && "$(cat "$stamp_py")" == "$req_sum" && -x .venv/bin/python ]]; then
    log "python servers up to date"
else
    log "installing python servers into tools/mcp/.venv"
    [[ -x .venv/bin/python ]] || "$py" -m venv .venv
    export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
    .venv/bin/python -m pip install --quiet --requirement requirements.txt
    echo "$req_sum" >"$stamp_py"
fi
for bin in mcp-server-time mcp-server-git; do
    [[ -x ".venv/bin/$bin" ]] || { log ".venv/bin/$bin missing after install"; exit 1; }
done
log "ok: servers in $dir"
