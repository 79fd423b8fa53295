#!/usr/bin/env bash
# Installs Debian's Chromium (and CJK fonts for the zh-CN screens) for the browser tests.
set -euo pipefail
if [ -x /usr/bin/chromium ] && dpkg -s fonts-noto-cjk >/dev/null 2>&1; then exit 0; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
