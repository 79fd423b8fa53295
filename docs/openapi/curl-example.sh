#!/bin/sh
# Lists the devices of a chargeops application with curl and openssl (docs/openapi.md).
# Usage: sh curl-example.sh <base URL> <appId> <appSecret>
set -eu
BASE=$1 APP_ID=$2 SECRET=$3
METHOD=GET
URL_PATH=/openapi/v1/devices
QUERY='pageSize=20'                      # already canonical: one pair
TS=$(date +%s)
NONCE=$(openssl rand -hex 16)
BODY_SHA=$(printf '' | openssl dgst -sha256 -hex | sed 's/^.* //')   # no body: SHA-256 of ""
STRING_TO_SIGN=$(printf 'CHARGEOPS-HMAC-SHA256\n%s\n%s\n%s\n%s\n%s\n%s\n%s' \
  "$METHOD" "$URL_PATH" "$QUERY" "$BODY_SHA" "$APP_ID" "$TS" "$NONCE")
SIGNATURE=$(printf '%s' "$STRING_TO_SIGN" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')
curl -sS "$BASE$URL_PATH?$QUERY" \
  -H "X-App-Id: $APP_ID" -H "X-Timestamp: $TS" -H "X-Nonce: $NONCE" -H "X-Signature: $SIGNATURE"
echo
