-- Messages, reception settings and alarm mail (docs/messages.md).

-- One console message per user and event group: a repeat of the same device, kind and code
-- within the repeat window adds to repeats instead of a new row. Times are unix ms; 0 = not yet
-- (read_at, processed_at, recovered_at). event_id is the latest event of the group.
CREATE TABLE message (
  id           {{ID}},
  user_id      BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  event_id     BIGINT NOT NULL,
  device_id    BIGINT NOT NULL,
  site_id      BIGINT NOT NULL,
  customer_id  BIGINT NOT NULL,
  kind         INTEGER NOT NULL,
  level        INTEGER NOT NULL,
  code         TEXT NOT NULL DEFAULT '',
  name         TEXT NOT NULL DEFAULT '',
  started_at   BIGINT NOT NULL,
  created_at   BIGINT NOT NULL,
  last_at      BIGINT NOT NULL,
  repeats      INTEGER NOT NULL DEFAULT 0,
  read_at      BIGINT NOT NULL DEFAULT 0,
  processed_by BIGINT NOT NULL DEFAULT 0,
  processed_at BIGINT NOT NULL DEFAULT 0,
  recovered_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_message_user ON message (user_id, id);
CREATE INDEX idx_message_unread ON message (user_id) WHERE read_at = 0;
CREATE INDEX idx_message_group ON message (user_id, device_id, kind, code, last_at);
CREATE INDEX idx_message_event ON message (event_id) WHERE recovered_at = 0;

-- Reception settings per user; a user without a row gets the defaults (every kind and level of
-- their scope in the console, mail on, immediately). kinds and levels are bit masks (bit n =
-- kind or level n). all_sites 0: only the sites in message_setting_site. frequency 0
-- immediately, 1 a digest every delay_min minutes.
CREATE TABLE message_setting (
  user_id    BIGINT PRIMARY KEY REFERENCES app_user(id) ON DELETE CASCADE,
  kinds      INTEGER NOT NULL,
  levels     INTEGER NOT NULL,
  all_sites  INTEGER NOT NULL DEFAULT 1,
  console    INTEGER NOT NULL DEFAULT 1,
  mail       INTEGER NOT NULL DEFAULT 1,
  frequency  INTEGER NOT NULL DEFAULT 0,
  delay_min  INTEGER NOT NULL DEFAULT 30,
  updated_at BIGINT NOT NULL
);
CREATE TABLE message_setting_site (
  user_id BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  site_id BIGINT NOT NULL REFERENCES site(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, site_id)
);

-- The notifier's pending work per device event: due_at is when it may be messaged (an offline
-- event after the debounce), done 1 once handled (claimed by the UPDATE that sets it, in the
-- transaction that writes the messages, so two nodes never handle one event twice).
CREATE TABLE notify_event (
  event_id   BIGINT PRIMARY KEY,
  done       INTEGER NOT NULL DEFAULT 0,
  due_at     BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX idx_notify_event_due ON notify_event (done, due_at);

-- Alarm mails waiting for their user's next mail (immediately, the next digest, or after the
-- hourly rate limit); sent_at and outbox_id once put into the outbox.
CREATE TABLE alarm_mail (
  id          {{ID}},
  user_id     BIGINT NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  event_id    BIGINT NOT NULL,
  device_id   BIGINT NOT NULL,
  kind        INTEGER NOT NULL,
  level       INTEGER NOT NULL,
  code        TEXT NOT NULL DEFAULT '',
  name        TEXT NOT NULL DEFAULT '',
  sn          TEXT NOT NULL DEFAULT '',
  device_name TEXT NOT NULL DEFAULT '',
  site_name   TEXT NOT NULL DEFAULT '',
  started_at  BIGINT NOT NULL,
  created_at  BIGINT NOT NULL,
  due_at      BIGINT NOT NULL,
  sent_at     BIGINT NOT NULL DEFAULT 0,
  outbox_id   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_alarm_mail_due ON alarm_mail (sent_at, due_at);
CREATE INDEX idx_alarm_mail_user ON alarm_mail (user_id, device_id, kind, code, created_at);
CREATE INDEX idx_alarm_mail_sent ON alarm_mail (user_id, sent_at);

-- The outbox becomes a queue when SMTP is configured: status 0 waiting (kept, without SMTP),
-- 1 sent, 2 given up; attempts and next_attempt_at drive the back-off.
ALTER TABLE mail_outbox ADD COLUMN status INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN next_attempt_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_outbox ADD COLUMN sent_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX idx_mail_outbox_due ON mail_outbox (status, next_attempt_at);
