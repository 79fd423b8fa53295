-- Tickets ("issues" in the spec; docs/tickets.md). A ticket belongs to one customer and, when it
-- has one, one site (taken from its device); reads and changes are scoped by both as devices
-- are. state: open, pending, closed, reopen. category 1-5, priority 0 OA, 1 MA, 2 CA.
CREATE TABLE ticket (
  id               {{ID}},
  customer_id      BIGINT NOT NULL,
  site_id          BIGINT NOT NULL DEFAULT 0,
  device_id        BIGINT NOT NULL DEFAULT 0,
  event_id         BIGINT NOT NULL DEFAULT 0,
  title            TEXT NOT NULL,
  category         INTEGER NOT NULL,
  priority         INTEGER NOT NULL,
  state            TEXT NOT NULL,
  occurred_at      BIGINT NOT NULL DEFAULT 0,
  software_version TEXT NOT NULL DEFAULT '',
  description      TEXT NOT NULL DEFAULT '',
  created_by       BIGINT NOT NULL DEFAULT 0,
  created_at       BIGINT NOT NULL,
  updated_at       BIGINT NOT NULL,
  closed_at        BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_ticket_customer ON ticket (customer_id, id);
CREATE INDEX idx_ticket_site ON ticket (site_id, id);
CREATE INDEX idx_ticket_device ON ticket (device_id, id);
CREATE INDEX idx_ticket_state ON ticket (state, id);

-- The process of a ticket: every change (create, a field from -> to, a state from -> to, a
-- comment, a share made or revoked), who made it and when. Comments keep their sanitised HTML
-- in body; a visitor of an anonymous share is user_id 0 with the name they typed.
CREATE TABLE ticket_entry (
  id             {{ID}},
  ticket_id      BIGINT NOT NULL REFERENCES ticket(id) ON DELETE CASCADE,
  kind           TEXT NOT NULL,
  field          TEXT NOT NULL DEFAULT '',
  from_value     TEXT NOT NULL DEFAULT '',
  to_value       TEXT NOT NULL DEFAULT '',
  body           TEXT NOT NULL DEFAULT '',
  user_id        BIGINT NOT NULL DEFAULT 0,
  user_name      TEXT NOT NULL DEFAULT '',
  anonymous_name TEXT NOT NULL DEFAULT '',
  created_at     BIGINT NOT NULL
);
CREATE INDEX idx_ticket_entry_ticket ON ticket_entry (ticket_id, id);

-- An anonymous share: only the SHA-256 of its 128-bit token is kept; expires_at 0: permanent;
-- revoked_at > 0: revoked (answers as an unknown token).
CREATE TABLE ticket_share (
  id          {{ID}},
  ticket_id   BIGINT NOT NULL REFERENCES ticket(id) ON DELETE CASCADE,
  token_hash  TEXT NOT NULL,
  expires_at  BIGINT NOT NULL DEFAULT 0,
  revoked_at  BIGINT NOT NULL DEFAULT 0,
  created_by  BIGINT NOT NULL DEFAULT 0,
  created_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_ticket_share_token ON ticket_share (token_hash);
CREATE INDEX idx_ticket_share_ticket ON ticket_share (ticket_id, id);
