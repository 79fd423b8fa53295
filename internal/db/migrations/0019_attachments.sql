-- Attachments and shares (docs/attachments.md). Levels are 0-5, 0 the highest (decisions,
-- "Levels"); a file's levels are never lower than its folder's: numerically at most the
-- folder's. Every row belongs to one customer; reads and changes are scoped by customer_id.
CREATE TABLE attach_folder (
  id             {{ID}},
  customer_id    BIGINT NOT NULL,
  parent_id      BIGINT NOT NULL DEFAULT 0,
  name           TEXT NOT NULL,
  path           TEXT NOT NULL,
  read_level     INTEGER NOT NULL DEFAULT 5,
  write_level    INTEGER NOT NULL DEFAULT 5,
  download_level INTEGER NOT NULL DEFAULT 5,
  created_by     BIGINT NOT NULL DEFAULT 0,
  created_at     BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_attach_folder_path ON attach_folder (customer_id, path);
CREATE INDEX idx_attach_folder_parent ON attach_folder (parent_id);

CREATE TABLE attach_file (
  id             {{ID}},
  folder_id      BIGINT NOT NULL REFERENCES attach_folder(id),
  customer_id    BIGINT NOT NULL,
  name           TEXT NOT NULL,
  object_key     TEXT NOT NULL,
  size           BIGINT NOT NULL DEFAULT 0,
  content_type   TEXT NOT NULL DEFAULT '',
  description    TEXT NOT NULL DEFAULT '',
  read_level     INTEGER NOT NULL DEFAULT 5,
  write_level    INTEGER NOT NULL DEFAULT 5,
  download_level INTEGER NOT NULL DEFAULT 5,
  created_by     BIGINT NOT NULL DEFAULT 0,
  created_at     BIGINT NOT NULL
);
CREATE INDEX idx_attach_file_folder ON attach_file (folder_id, id);
CREATE INDEX idx_attach_file_customer ON attach_file (customer_id, id);
CREATE INDEX idx_attach_file_key ON attach_file (object_key);

-- A share: only the SHA-256 of its 128-bit token is kept, and the 4-digit code hashed with a
-- random salt of the share. expires_at 0: permanent; locked after 5 wrong codes.
CREATE TABLE attach_share (
  id          {{ID}},
  file_id     BIGINT NOT NULL REFERENCES attach_file(id) ON DELETE CASCADE,
  token_hash  TEXT NOT NULL,
  code_salt   TEXT NOT NULL,
  code_hash   TEXT NOT NULL,
  expires_at  BIGINT NOT NULL DEFAULT 0,
  wrong_codes INTEGER NOT NULL DEFAULT 0,
  locked      INTEGER NOT NULL DEFAULT 0,
  created_by  BIGINT NOT NULL DEFAULT 0,
  created_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_attach_share_token ON attach_share (token_hash);
CREATE INDEX idx_attach_share_file ON attach_share (file_id);

-- Every signed-out access to a share: result ok, wrong_code, locked, expired, unknown.
CREATE TABLE attach_share_log (
  id         {{ID}},
  share_id   BIGINT NOT NULL DEFAULT 0,
  at         BIGINT NOT NULL,
  client_ip  TEXT NOT NULL DEFAULT '',
  action     TEXT NOT NULL DEFAULT '',
  result     TEXT NOT NULL
);
CREATE INDEX idx_attach_share_log_share ON attach_share_log (share_id, id);
