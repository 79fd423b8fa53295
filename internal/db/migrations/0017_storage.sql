-- Uploaded objects (docs/storage.md): one row per object a browser uploaded through
-- oss/sts/write. complete turns 1 when the confirm call found the object's size and content
-- within the rule of its kind. Reading is scoped by customer_id (the uploader's customer).
CREATE TABLE upload (
  id            {{ID}},
  object_key    TEXT NOT NULL,
  kind          TEXT NOT NULL,
  download_name TEXT NOT NULL DEFAULT '',
  size          BIGINT NOT NULL DEFAULT 0,
  content_type  TEXT NOT NULL DEFAULT '',
  customer_id   BIGINT NOT NULL DEFAULT 0,
  created_by    BIGINT NOT NULL DEFAULT 0,
  complete      INTEGER NOT NULL DEFAULT 0,
  created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_upload_key ON upload (object_key);
CREATE INDEX idx_upload_customer ON upload (customer_id, id);
