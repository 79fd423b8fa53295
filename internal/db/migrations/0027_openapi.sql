-- OpenAPI v1 (docs/openapi.md). A nonce is accepted once per application: the primary key makes
-- a second node refuse what the first accepted; rows go once their timestamp window has passed.
CREATE TABLE openapi_nonce (
  app_id     BIGINT NOT NULL,
  nonce      TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (app_id, nonce)
);
CREATE INDEX idx_openapi_nonce_expires ON openapi_nonce (expires_at);

-- The request log: one row per signed call that named a known application (refused ones too),
-- written in batches. endpoint is the route ("GET /openapi/v1/devices"), status the HTTP status,
-- code the answer's code, latency in microseconds.
CREATE TABLE openapi_request (
  id          {{ID}},
  app_id      BIGINT NOT NULL,
  customer_id BIGINT NOT NULL DEFAULT 0,
  endpoint    TEXT NOT NULL,
  query       TEXT NOT NULL DEFAULT '',
  status      INTEGER NOT NULL,
  code        INTEGER NOT NULL,
  latency_us  BIGINT NOT NULL,
  ip          TEXT NOT NULL DEFAULT '',
  created_at  BIGINT NOT NULL
);
CREATE INDEX idx_openapi_request_app ON openapi_request (app_id, created_at, id);
CREATE INDEX idx_openapi_request_created ON openapi_request (created_at);

-- Access statistics, added to with each batch of the request log: calls, errors (code != 0)
-- and a latency histogram per application, day (unix ms of 00:00 in the console's time zone) and endpoint. Bucket i
-- counts calls at or under openapi.LatencyBounds[i] ms; lat_b11 the slower ones.
CREATE TABLE openapi_stat_day (
  app_id   BIGINT NOT NULL,
  day      BIGINT NOT NULL,
  endpoint TEXT NOT NULL,
  calls    BIGINT NOT NULL DEFAULT 0,
  errors   BIGINT NOT NULL DEFAULT 0,
  latency_us_sum BIGINT NOT NULL DEFAULT 0,
  lat_b0  BIGINT NOT NULL DEFAULT 0, lat_b1  BIGINT NOT NULL DEFAULT 0, lat_b2  BIGINT NOT NULL DEFAULT 0,
  lat_b3  BIGINT NOT NULL DEFAULT 0, lat_b4  BIGINT NOT NULL DEFAULT 0, lat_b5  BIGINT NOT NULL DEFAULT 0,
  lat_b6  BIGINT NOT NULL DEFAULT 0, lat_b7  BIGINT NOT NULL DEFAULT 0, lat_b8  BIGINT NOT NULL DEFAULT 0,
  lat_b9  BIGINT NOT NULL DEFAULT 0, lat_b10 BIGINT NOT NULL DEFAULT 0, lat_b11 BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, day, endpoint)
);

-- Charging sessions listed newest first for the OpenAPI (a keyset walk on start time and id).
CREATE INDEX idx_device_transaction_started ON device_transaction (started_at, id);
