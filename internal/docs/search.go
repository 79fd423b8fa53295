package docs

import (
	"context"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/richtext"
)

// The search index (docs/docs-wiki.md, "Search"): one row per enabled document holding the
// terms (tokenise.go) of its title and of its plain text, written in the transaction that
// changes the document. SQLite keeps them in the FTS5 table doc_fts (rowid = doc.id, bm25),
// PostgreSQL in doc_search (a tsvector, title weight A, text weight B, GIN, ts_rank).

// unindex drops a document from the index.
func unindex(ctx context.Context, tx *db.Tx, id int64) error {
	q := `DELETE FROM doc_fts WHERE rowid = ?`
	if tx.Dialect() == db.Postgres {
		q = `DELETE FROM doc_search WHERE doc_id = ?`
	}
	if _, err := tx.Exec(ctx, q, id); err != nil {
		return fmt.Errorf("docs: unindex: %w", err)
	}
	return nil
}

// index puts a document's title and content in the index (only when enabled).
func index(ctx context.Context, tx *db.Tx, id int64, title, content string, enabled bool) error {
	if err := unindex(ctx, tx, id); err != nil || !enabled {
		return err
	}
	t, b := indexText(title), indexText(richtext.Text(content))
	q := `INSERT INTO doc_fts (rowid, title, body) VALUES (?, ?, ?)`
	if tx.Dialect() == db.Postgres {
		q = `INSERT INTO doc_search (doc_id, tsv) VALUES (?, setweight(array_to_tsvector(string_to_array(?, ' ')), 'A') || setweight(array_to_tsvector(string_to_array(?, ' ')), 'B'))`
	}
	if _, err := tx.Exec(ctx, q, id, t, b); err != nil {
		return fmt.Errorf("docs: index: %w", err)
	}
	return nil
}

// reindex indexes a document as it now stands.
func reindex(ctx context.Context, tx *db.Tx, id int64) error {
	var title, content string
	var status int
	if err := tx.QueryRow(ctx, `SELECT title, content, status FROM doc WHERE id = ?`, id).Scan(&title, &content, &status); err != nil {
		return fmt.Errorf("docs: reindex: %w", err)
	}
	return index(ctx, tx, id, title, content, status == StatusEnabled)
}

// SearchInput is a search: the words (all must match), optional type and category; paged.
type SearchInput struct {
	db.Page
	Q          string `json:"q"`
	Type       int    `json:"type"`
	CategoryID int64  `json:"categoryId"`
}

// Hit is one found document: its properties, the title and an excerpt of its text with the
// matches in <mark> (everything else escaped).
type Hit struct {
	*Document
	TitleHTML string `json:"titleHtml"`
	Snippet   string `json:"snippet"`
}

// ftsMatch is an FTS5 query holding every term ("a" "b" "c"*).
func ftsMatch(terms []QueryTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`
		if t.Prefix {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, " ")
}

// tsQuery is a PostgreSQL tsquery of lexemes as they are ('a' & 'b' & 'c':*).
func tsQuery(terms []QueryTerm) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = `'` + strings.ReplaceAll(strings.ReplaceAll(t.Text, `\`, `\\`), `'`, `''`) + `'`
		if t.Prefix {
			parts[i] += ":*"
		}
	}
	return strings.Join(parts, " & ")
}

// Search finds the documents p may read that hold every word of the query, best first.
func (s *Service) Search(ctx context.Context, p *access.Principal, in SearchInput) (db.List[*Hit], error) {
	out := db.List[*Hit]{List: []*Hit{}}
	if len([]rune(in.Q)) > 200 {
		return out, apperr.InvalidField("q", "err.invalid")
	}
	terms := QueryTerms(in.Q)
	if len(terms) == 0 {
		return out, nil
	}
	cond, args := s.readable(p, "d")
	var from, rank string
	var matchArg any
	if s.db.Dialect() == db.Postgres {
		from, rank, matchArg = ` FROM doc_search x JOIN doc d ON d.id = x.doc_id`+docJoins+` WHERE x.tsv @@ CAST(? AS tsquery)`, `ts_rank(x.tsv, CAST(? AS tsquery)) DESC`, tsQuery(terms)
	} else {
		from, rank, matchArg = ` FROM doc_fts x JOIN doc d ON d.id = x.rowid`+docJoins+` WHERE doc_fts MATCH ?`, `bm25(doc_fts, 10.0, 1.0)`, ftsMatch(terms)
	}
	where := from + ` AND ` + cond
	args = append([]any{matchArg}, args...)
	if in.Type > 0 {
		where += ` AND d.type = ?`
		args = append(args, in.Type)
	}
	if in.CategoryID > 0 {
		where += ` AND d.category_id = ?`
		args = append(args, in.CategoryID)
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+where, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("docs: search count: %w", err)
	}
	limit, offset := in.Page.LimitOffset()
	order := rank + `, d.id DESC`
	qargs := append([]any{}, args...)
	if s.db.Dialect() == db.Postgres {
		qargs = append(qargs, matchArg)
	}
	rows, err := s.db.Query(ctx, `SELECT `+docCols+`, d.content`+where+` ORDER BY `+order+fmt.Sprintf(` LIMIT %d OFFSET %d`, limit, offset), qargs...)
	if err != nil {
		return out, fmt.Errorf("docs: search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		x := &Document{AlarmCodes: []string{}}
		var content string
		if err := rows.Scan(&x.ID, &x.CustomerID, &x.CategoryID, &x.CategoryName, &x.Title, &x.Name, &x.Type, &x.Description, &x.Icon, &x.ReadLevel, &x.WriteLevel,
			&x.Status, &x.ModelID, &x.ModelName, &x.CreatedBy, &x.CreatorName, &x.CreatedAt, &x.UpdatedBy, &x.UpdaterName, &x.UpdatedAt, &content); err != nil {
			return out, err
		}
		out.List = append(out.List, &Hit{Document: s.finish(p, x), TitleHTML: Highlight(x.Title, terms, 0), Snippet: Highlight(richtext.Text(content), terms, snippetRunes)})
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	for _, h := range out.List {
		h.IconURL = s.sign(ctx, h.Icon)
	}
	return out, nil
}
