-- OpenAPI webhooks (docs/webhooks.md). An application subscribes up to five URLs to event types
-- (events: a comma-separated list of device.status, alarm, command.result; enabled 0/1).
CREATE TABLE webhook (
  id         {{ID}},
  app_id     BIGINT NOT NULL,
  url        TEXT NOT NULL,
  events     TEXT NOT NULL,
  enabled    INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX idx_webhook_app ON webhook (app_id, id);

-- One delivery of one event to one webhook. payload is the event's data (JSON); the body sent
-- is {id, event, time, data}. status: pending, delivered or failed. A worker claims a due row by
-- pushing next_at past a lease (one node tries it at a time); attempts counts the tries,
-- last_status the last HTTP status (0: no answer), last_error why the last try failed.
CREATE TABLE webhook_delivery (
  id           {{ID}},
  webhook_id   BIGINT NOT NULL,
  app_id       BIGINT NOT NULL,
  event        TEXT NOT NULL,
  payload      TEXT NOT NULL,
  attempts     INTEGER NOT NULL DEFAULT 0,
  next_at      BIGINT NOT NULL,
  status       TEXT NOT NULL DEFAULT 'pending',
  last_status  INTEGER NOT NULL DEFAULT 0,
  last_error   TEXT NOT NULL DEFAULT '',
  created_at   BIGINT NOT NULL,
  delivered_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_webhook_delivery_due ON webhook_delivery (status, next_at);
CREATE INDEX idx_webhook_delivery_app ON webhook_delivery (app_id, id);
CREATE INDEX idx_webhook_delivery_webhook ON webhook_delivery (webhook_id, id);
CREATE INDEX idx_webhook_delivery_created ON webhook_delivery (created_at);
