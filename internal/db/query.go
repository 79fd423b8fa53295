package db

import (
	"context"
	"strings"
)

// Scanner is a row to scan (*sql.Row or *sql.Rows).
type Scanner interface{ Scan(dest ...any) error }

// Query builds a filtered SELECT for list calls.
type Query struct {
	From  string // "device d JOIN site s ON s.id = d.site_id"
	where []string
	args  []any
}

// And adds a condition with its arguments.
func (q *Query) And(cond string, args ...any) *Query {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
	return q
}

// Where returns " WHERE ..." (or "") and the arguments.
func (q *Query) Where() (string, []any) {
	if len(q.where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(q.where, " AND "), q.args
}

// Count counts the matching rows.
func (q *Query) Count(ctx context.Context, d Querier) (int64, error) {
	where, args := q.Where()
	var n int64
	err := d.QueryRow(ctx, "SELECT COUNT(*) FROM "+q.From+where, args...).Scan(&n)
	return n, err
}

// All runs SELECT cols ... ORDER BY order LIMIT n OFFSET m and scans every row.
func All[T any](ctx context.Context, d Querier, q *Query, cols, order string, limit, offset int, scan func(Scanner) (T, error)) ([]T, error) {
	where, args := q.Where()
	sqlText := "SELECT " + cols + " FROM " + q.From + where
	if order != "" {
		sqlText += " ORDER BY " + order
	}
	sqlText += " LIMIT ? OFFSET ?"
	rows, err := d.Query(ctx, sqlText, append(append([]any{}, args...), limit, offset)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Paged answers a list call: the total and one page.
func Paged[T any](ctx context.Context, d Querier, q *Query, cols, order string, p Page, scan func(Scanner) (T, error)) (List[T], error) {
	out := List[T]{List: []T{}}
	var err error
	if out.Total, err = q.Count(ctx, d); err != nil {
		return out, err
	}
	limit, offset := p.LimitOffset()
	out.List, err = All(ctx, d, q, cols, order, limit, offset, scan)
	return out, err
}

// SortOrder maps a client sort ("field" or "-field") through allowed columns; unknown fields
// get the default. The id breaks ties so pages are stable.
func SortOrder(sort string, columns map[string]string, def string) string {
	desc := strings.HasPrefix(sort, "-")
	col, ok := columns[strings.TrimPrefix(sort, "-")]
	if !ok || sort == "" {
		return def
	}
	dir := " ASC"
	if desc {
		dir = " DESC"
	}
	return col + dir
}

// One returns the single row q selects, or notFound when there is none.
func One[T any](ctx context.Context, d Querier, q *Query, cols string, scan func(Scanner) (T, error), notFound error) (T, error) {
	list, err := All(ctx, d, q, cols, "", 1, 0, scan)
	if err != nil {
		var zero T
		return zero, err
	}
	if len(list) == 0 {
		var zero T
		return zero, notFound
	}
	return list[0], nil
}

// Column runs a query of one column and returns every row's value.
func Column[T any](ctx context.Context, d Querier, query string, args ...any) ([]T, error) {
	rows, err := d.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Args turns values into query arguments (for IN lists).
func Args[T any](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}
