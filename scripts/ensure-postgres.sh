#!/usr/bin/env bash
# Starts the machine's PostgreSQL when it is not accepting connections (tests need it).
set -euo pipefail
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then exit 0; fi
if command -v pg_ctlcluster >/dev/null 2>&1; then
  ver=$(ls /etc/postgresql | sort -V | tail -n1)
  pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && exit 0; sleep 1; done
echo "PostgreSQL is not running on 127.0.0.1:5432 and could not be started" >&2
exit 1
