#!/usr/bin/env bash
# Packs the release page with its server snippets into streamscope-<version>.tar.gz (version from the
# workspace Cargo.toml) and prints the tarball's path. Inside, one folder streamscope-<version>/:
#   site/                    the bundle (every URL relative to the page: serve it from any path), with
#                            a precompressed NAME.gz and NAME.br next to each wasm, js, css, html,
#                            json and txt file (for nginx gzip_static / brotli_static, Caddy `precompressed`)
#   nginx/streamscope.conf   nginx locations: the bundle under /tools/streamscope/, /v1/ streamed to the API
#   caddy/Caddyfile          the same for Caddy
#   README.md                how to put it next to your API
#   SHA256SUMS               every other file's checksum: cd streamscope-<version> && sha256sum -c SHA256SUMS
#
# Usage: scripts/package.sh [--dist DIR] [--out DIR]
#   --dist DIR  package an existing build as it is (default: install what is missing, then
#               `trunk build --release` and package dist/)
#   --out DIR   where the tarball goes (default: package/ in the repository)
# Idempotent: the same build gives the same tarball, byte for byte (sorted entries, fixed owners and
# times from the last commit, gzip without a name or timestamp, brotli's output is a function of its
# input); an earlier tarball of the version is replaced. Needs gzip and brotli (scripts/setup.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

fail() { printf '[package] %s\n' "$*" >&2; exit 1; }
# (not `log`: scripts/setup.sh, sourced below, defines its own)
note() { printf '[package] %s\n' "$*" >&2; }

dist=""
out="$ROOT/package"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --dist) [ "$#" -ge 2 ] || fail "--dist needs a directory"; dist="$2"; shift 2 ;;
    --out) [ "$#" -ge 2 ] || fail "--out needs a directory"; out="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 0 ;;
    *) fail "unknown argument '$1' (usage: scripts/package.sh [--dist DIR] [--out DIR])" ;;
  esac
done

# The app package's version: the first `version = "…"` after `[package]` in the workspace Cargo.toml.
version="$(awk '/^\[package\]/ { p = 1; next } /^\[/ { p = 0 } p && /^version *= *"/ { gsub(/version *= *|"/, ""); print; exit }' "$ROOT/Cargo.toml")"
[ -n "$version" ] || fail "no version under [package] in $ROOT/Cargo.toml"

if [ -z "$dist" ]; then
  cd "$ROOT"
  source scripts/setup.sh
  note "building the page (trunk build --release)"
  trunk build --release >&2
  dist="$ROOT/dist"
fi
[ -f "$dist/index.html" ] || fail "no index.html in '$dist': build the page first (trunk build --release) or leave out --dist"
# A build from before Trunk.toml's public_url = "./" points at the origin's root and breaks under a
# sub-path: refuse it rather than ship it.
if grep -Eq '(src|href|data-js|data-wasm)="/' "$dist/index.html"; then
  fail "$dist/index.html refers to files at the origin's root (\"/…\"): rebuild it with trunk build --release (Trunk.toml has public_url = \"./\")"
fi
[ -f "$dist/streamscope-worker_loader.js" ] || fail "no streamscope-worker_loader.js in '$dist': not a streamscope build"
command -v brotli >/dev/null 2>&1 || fail "brotli is missing (apt-get install brotli; scripts/setup.sh installs it)"

name="streamscope-$version"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
tarball="$out/$name.tar.gz"
stage="$(mktemp -d "$out/.$name.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

top="$stage/$name"
mkdir -p "$top/site" "$top/nginx" "$top/caddy"
cp -R "$dist/." "$top/site/"
# Precompressed copies of the files that compress (wasm, glue, style, page), so that servers send them
# as they are instead of compressing per request: gzip -9 without name or time (-n), brotli at its best
# quality (11). Already compressed formats (images, fonts, .gz, .br) are left alone.
find "$top/site" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' -o -name '*.json' -o -name '*.txt' \) -print0 |
  while IFS= read -r -d '' file; do
    gzip -9 -n -c -- "$file" >"$file.gz"
    brotli -q 11 -c -- "$file" >"$file.br"
  done
cp "$ROOT/deploy/nginx/streamscope.conf" "$top/nginx/streamscope.conf"
cp "$ROOT/deploy/caddy/Caddyfile" "$top/caddy/Caddyfile"
cp "$ROOT/deploy/README.md" "$top/README.md"
chmod -R u=rwX,go=rX "$top"
(cd "$top" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum) >"$top/SHA256SUMS"
(cd "$top" && sha256sum --quiet -c SHA256SUMS) || fail "the checksums of the staged files do not verify"

# Fixed times and owners, sorted entries, no gzip timestamp: the same build packs to the same bytes.
mtime="$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || echo 0)"
tar --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner --format=gnu \
  -C "$stage" -cf - "$name" | gzip -n -9 >"$tarball.part"
mv -f "$tarball.part" "$tarball"
note "$(find "$top" -type f | wc -l) files, $(du -k "$tarball" | cut -f1) KiB"
echo "$tarball"
