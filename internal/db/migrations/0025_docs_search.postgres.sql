-- Docs wiki search, PostgreSQL (docs/docs-wiki.md, "Search").
-- Search: one row per enabled document holding the terms of its title (weight A) and of its
-- text (weight B) as made by internal/docs/tokenise.go, built with array_to_tsvector so no text
-- search parser splits them again (CJK bigrams stay whole); GIN-indexed, ranked by ts_rank.
CREATE TABLE doc_search (
  doc_id BIGINT PRIMARY KEY REFERENCES doc(id) ON DELETE CASCADE,
  tsv    tsvector NOT NULL
);
CREATE INDEX idx_doc_search ON doc_search USING GIN (tsv);
