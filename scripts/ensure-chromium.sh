#!/usr/bin/env bash
# The portal's browser tests drive Debian's Chromium through playwright-core (no browser download).
# Installs it when it is missing and we may install system packages; otherwise explains.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "The browser tests need Chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium'." >&2
exit 1
