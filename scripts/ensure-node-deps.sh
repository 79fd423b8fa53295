#!/usr/bin/env bash
# Installs the npm packages of a folder when package-lock.json changed since the last install.
set -euo pipefail
dir=$1
cd "$dir"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
