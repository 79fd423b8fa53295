-- Docs wiki search, SQLite FTS5 (docs/docs-wiki.md, "Search").
-- Search: one row per enabled document (rowid = doc.id) holding the terms of its title and of
-- its text as made by internal/docs/tokenise.go (space-joined; CJK as character bigrams), so
-- the unicode61 tokenizer only splits on the spaces. Ranked by bm25, the title weighted 10.
CREATE VIRTUAL TABLE doc_fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 0');
