#!/usr/bin/env bash
# The usage benches load the service with Debian's wrk (pinned to the load core). Installs it when it
# is missing and we may install system packages; otherwise explains and lets the bench fall back to
# its Node load generator (which costs more CPU per request and reaches lower ceilings).
set -euo pipefail
if command -v wrk >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's wrk for the usage benches…" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
  exit 0
fi
echo "The usage benches want wrk: run 'sudo apt-get install -y wrk' (Debian/Ubuntu) or 'brew install wrk' (macOS)." >&2
exit 1
