#!/usr/bin/env bash
# The failover fault test runs three services behind Debian's HAProxy (a real load balancer, started by
# the test itself). Installs it when it is missing and we may install system packages; otherwise explains.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's haproxy for the balancer test…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Only the program: the package's own service is never started (the test starts its own).
  apt-get install -y -qq --no-install-recommends haproxy >/dev/null
  exit 0
fi
echo "The balancer test needs HAProxy: run 'sudo apt-get install -y haproxy'." >&2
exit 1
