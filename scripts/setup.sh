#!/usr/bin/env bash
# Installs whatever streamscope needs and is missing on a Debian machine (run as root); skips what is there.
# Sourced by scripts/run.sh and scripts/test.sh; safe to run again and again.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"
# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock")"

log() { printf '[setup] %s\n' "$*" >&2; }

# Checked by command, not by package: a machine may have them from elsewhere (e.g. NodeSource's nodejs,
# which bundles npm and conflicts with Debian's npm package).
apt_missing=()
need() { command -v "$1" >/dev/null 2>&1 || apt_missing+=("$2"); }
[ -d /etc/ssl/certs ] || apt_missing+=(ca-certificates)
need curl curl
need cc build-essential
need pkg-config pkg-config
need chromium chromium
need chromedriver chromium-driver
need nginx nginx
# The e2e harness makes a self-signed certificate for nginx's HTTP/2 (TLS) servers with it.
need openssl openssl
# The bundle test serves the page through the Caddy snippet in deploy/caddy (Debian 12: Caddy 2.6.2).
need caddy caddy
need npm npm
# scripts/package.sh ships a .br next to each compressible file of the bundle (gzip is in every Debian).
need brotli brotli
if [ "${#apt_missing[@]}" -gt 0 ]; then
  log "apt-get install ${apt_missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  log "installing the Rust toolchain with rustup"
  curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  export PATH="$HOME/.cargo/bin:$PATH"
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  log "cargo install trunk $TRUNK_VERSION (takes about 5 minutes)"
  cargo install --locked --force trunk --version "$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  # Not --locked: the CLI's own lockfile pins a webpki-roots the registry does not have.
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes about 2 minutes)"
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# The page's wasm is split after Trunk builds it (scripts/split-wasm.sh, Trunk's post-build hook).
WASM_SPLIT_VERSION="0.2.4"
if ! cargo install --list 2>/dev/null | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  log "cargo install wasm-split-cli $WASM_SPLIT_VERSION (takes about 2 minutes)"
  cargo install --locked --force wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

# wasm-opt 132 from npm: Debian's binaryen 108 produces a wasm that dies at start-up.
if [ "$("$ROOT/tools/node_modules/.bin/wasm-opt" --version 2>/dev/null | awk '{print $3}')" != "132" ]; then
  log "npm ci in tools/ (binaryen 132 for wasm-opt)"
  (cd "$ROOT/tools" && npm ci --no-audit --no-fund --loglevel=error)
fi
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# One target dir outside the clone, so a fresh clone reuses compiled dependencies.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/streamscope/target}"
mkdir -p "$CARGO_TARGET_DIR"

# Trunk builds offline (no tool downloads, cargo --offline), so fetch crates once here.
(cd "$ROOT" && cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked)

# The wasm's panic locations name a crate from crates.io by its path in cargo's registry
# (`/root/.cargo/registry/src/index.crates.io-<hash>/serde_json-1.0.154/src/...`); from the crate's own
# folder on they say the same in fewer bytes: a run 309 B less gzipped (issue 13's size budget, BENCHMARKS.md,
# Size). Cargo adds these flags to .cargo/config.toml's for the wasm target; added once, so that every build
# that sources this file has the same flags and reuses the same compiled crates.
for registry_src in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  [ -d "$registry_src" ] || continue
  case "$registry_src" in *" "*) continue ;; esac # cargo splits this variable's flags on spaces
  remap="--remap-path-prefix=$registry_src="
  case " ${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} " in *" $remap "*) ;; *)
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:+$CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS }$remap" ;;
  esac
done
log "ready: $(trunk --version), wasm-bindgen $WASM_BINDGEN_VERSION, wasm-split-cli $WASM_SPLIT_VERSION, wasm-opt 132, $(chromium --version 2>/dev/null | tr -d '\n' || true)"
