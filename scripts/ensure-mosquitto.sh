#!/usr/bin/env bash
# Installs Debian's Mosquitto when the machine has none: the MQTT adapter's and the edge
# agent's tests run it as the external broker (internal/testutil/mosquitto starts its own
# process on a free port; the machine's service, if any, is left alone).
set -euo pipefail
if command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends mosquitto mosquitto-clients >/dev/null
