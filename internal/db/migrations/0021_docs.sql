-- Docs wiki (docs/docs-wiki.md): categories, documents and drafts; the search index of each
-- database is in 0025_docs_search.
-- Categories: a customer's (customer_id) or the platform's (0), like device models
-- (docs/docs-wiki.md, "Ownership").
CREATE TABLE doc_category (
  id          {{ID}},
  customer_id BIGINT NOT NULL DEFAULT 0,
  name        TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  icon        TEXT NOT NULL DEFAULT '',
  created_by  BIGINT NOT NULL DEFAULT 0,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX uq_doc_category_name ON doc_category (customer_id, name);

-- Documents: type 100 alarm, 101 configuration, 102 run info; levels 0-5 (0 the highest);
-- status 1 enabled, 0 disabled; content is sanitised HTML (internal/richtext). An alarm
-- document may name a device model (0: any model) and its alarm codes (doc_alarm_code).
CREATE TABLE doc (
  id          {{ID}},
  customer_id BIGINT NOT NULL DEFAULT 0,
  category_id BIGINT NOT NULL REFERENCES doc_category(id),
  title       TEXT NOT NULL,
  name        TEXT NOT NULL DEFAULT '',
  type        INTEGER NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  icon        TEXT NOT NULL DEFAULT '',
  read_level  INTEGER NOT NULL DEFAULT 5,
  write_level INTEGER NOT NULL DEFAULT 5,
  status      INTEGER NOT NULL DEFAULT 1,
  model_id    BIGINT NOT NULL DEFAULT 0,
  content     TEXT NOT NULL DEFAULT '',
  created_by  BIGINT NOT NULL DEFAULT 0,
  created_at  BIGINT NOT NULL,
  updated_by  BIGINT NOT NULL DEFAULT 0,
  updated_at  BIGINT NOT NULL
);
CREATE INDEX idx_doc_customer ON doc (customer_id, id);
CREATE INDEX idx_doc_category ON doc (category_id, id);
CREATE INDEX idx_doc_type ON doc (type, id);
CREATE INDEX idx_doc_updated ON doc (updated_at, id);

-- The alarm codes of an alarm document (OCPP errorCode or a vendor code), looked up for a page
-- of device alarms at once.
CREATE TABLE doc_alarm_code (
  doc_id   BIGINT NOT NULL REFERENCES doc(id) ON DELETE CASCADE,
  code     TEXT NOT NULL,
  model_id BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (doc_id, code)
);
CREATE INDEX idx_doc_alarm_code ON doc_alarm_code (code, model_id);

-- The editor's autosaved draft, one per user and document. left_at is when the user left the
-- editor (0 while editing); a draft left more than 2 minutes ago is discarded.
CREATE TABLE doc_draft (
  user_id  BIGINT NOT NULL,
  doc_id   BIGINT NOT NULL REFERENCES doc(id) ON DELETE CASCADE,
  content  TEXT NOT NULL,
  saved_at BIGINT NOT NULL,
  left_at  BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, doc_id)
);
