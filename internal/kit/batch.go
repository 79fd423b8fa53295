package kit

import (
	"context"
	"fmt"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Batch is one batch action as one scoped statement: an UPDATE (Set given) or a DELETE of the
// rows of Table WHERE id IN (ids) AND Scope, in a transaction. Fewer rows than distinct ids
// (one missing or out of scope) answer apperr.ErrNotFound and nothing is changed: a batch is
// all or nothing (docs/architecture.md, "Decisions later work must know").
type Batch struct {
	Table string // the table, e.g. "site"
	// Set is the UPDATE's assignments ("status = ?, updated_at = ?"); empty: DELETE.
	Set     string
	SetArgs []any
	// Scope limits the rows to the caller's (on Table's own columns, e.g. from
	// access.Scope.CustomerCond); empty: every row.
	Scope     string
	ScopeArgs []any
	// Before runs in the transaction before the statement: a check (ownership, in use), the
	// children a DELETE must remove first. Its error rolls back.
	Before func(ctx context.Context, tx *db.Tx, ids IDs) error
	// After runs in the transaction once every row changed (children, search indexes).
	After func(ctx context.Context, tx *db.Tx, ids IDs) error
}

// Run applies the batch to ids (checked with Check) in its own transaction.
func (b Batch) Run(ctx context.Context, d *db.DB, ids IDs) error {
	if err := ids.Check(); err != nil {
		return err
	}
	return d.InTx(ctx, func(tx *db.Tx) error { return b.RunTx(ctx, tx, ids) })
}

// RunTx applies the batch inside tx, for a caller with more to do in the same transaction; the
// caller checks ids (Check or CheckMax) and rolls back on an error.
func (b Batch) RunTx(ctx context.Context, tx *db.Tx, ids IDs) error {
	ids = ids.Distinct()
	if b.Before != nil {
		if err := b.Before(ctx, tx, ids); err != nil {
			return Wrap("kit", "batch "+b.Table, err)
		}
	}
	q := "DELETE FROM " + b.Table
	args := []any{}
	if b.Set != "" {
		q = "UPDATE " + b.Table + " SET " + b.Set
		args = append(args, b.SetArgs...)
	}
	q += " WHERE id IN (" + ids.In() + ")"
	args = append(args, ids.Args()...)
	if b.Scope != "" {
		q += " AND " + b.Scope
		args = append(args, b.ScopeArgs...)
	}
	res, err := tx.Exec(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("kit: batch %s: %w", b.Table, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("kit: batch %s: rows: %w", b.Table, err)
	}
	if n < int64(len(ids)) {
		return apperr.ErrNotFound
	}
	if b.After != nil {
		return Wrap("kit", "batch "+b.Table, b.After(ctx, tx, ids))
	}
	return nil
}
