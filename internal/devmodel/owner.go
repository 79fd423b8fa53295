package devmodel

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Who reads and changes a model, and which models a device may use
// (docs/decisions.md#device-models).

// visible limits models (by their customer column) to those p may read: platform models and
// the models of customers in scope.
func visible(p *access.Principal, col string) (string, []any) {
	if p.Root || p.Scope.AllCustomers {
		return "1 = 1", nil
	}
	cond, args := p.Scope.CustomerCond(col)
	return "(" + col + " = ? OR " + cond + ")", append([]any{PlatformOwner}, args...)
}

// errShared refuses a change to a model that devices outside the caller's scope may use.
var errShared = apperr.New(apperr.NoPermission, "err.model_shared")

// mayChange reports whether p may change the models of owner: a platform model needs the
// unlimited scope, a customer's model that customer with all its sites, because a change to
// a model (a control item's level, say) applies to every device that uses it.
func mayChange(p *access.Principal, owner int64) error {
	if p.Root {
		return nil
	}
	if owner == PlatformOwner && !p.Scope.Everything() {
		return errShared
	}
	if !p.Scope.HasCustomer(owner) {
		return apperr.ErrNotFound
	}
	if !p.Scope.AllSites {
		return errShared
	}
	return nil
}

// distinct returns ids without repeats, so a batch naming an id twice is not short of rows.
func distinct(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// mayRead reports whether p reads the models of owner.
func mayRead(p *access.Principal, owner int64) bool {
	return owner == PlatformOwner || p.Scope.HasCustomer(owner)
}

// mayChangeAll checks a batch: every one of want objects found (their models' owners), and
// every model changeable by p. A missing or unreadable one makes the batch not found.
func mayChangeAll(p *access.Principal, owners []int64, want int) error {
	if len(owners) < want {
		return apperr.ErrNotFound
	}
	for _, owner := range owners {
		if !mayRead(p, owner) {
			return apperr.ErrNotFound
		}
	}
	for _, owner := range owners {
		if err := mayChange(p, owner); err != nil {
			return err
		}
	}
	return nil
}

// affectedAll is not-found unless a batch statement touched every one of want rows.
func affectedAll(res sql.Result, err error, want int) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n < int64(want) {
		return apperr.ErrNotFound
	}
	return nil
}

// CheckUsable reports whether a device of customer may use model: a platform model or one of
// that customer; any other model, existing or not, is "not selectable".
func CheckUsable(ctx context.Context, q db.Querier, modelID, customerID int64) error {
	var owner int64
	err := q.QueryRow(ctx, `SELECT customer_id FROM device_model WHERE id = ?`, modelID).Scan(&owner)
	if db.NotFound(err) || (err == nil && owner != PlatformOwner && owner != customerID) {
		return errNotSelectable
	}
	return wrap("check usable", err)
}

var errNotSelectable = apperr.New(apperr.Invalid, "err.model_not_selectable")

// UsableByName finds the model a device of customer names (an xlsx import row) by its name or
// one of its aliases, among the models the device may use.
func UsableByName(ctx context.Context, q db.Querier, customerID int64, name string) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT m.id FROM device_model m WHERE m.name = ? AND m.customer_id IN (?, ?)
		UNION SELECT m.id FROM device_model_alias a JOIN device_model m ON m.id = a.model_id WHERE a.alias = ? AND m.customer_id IN (?, ?)`,
		name, PlatformOwner, customerID, name, PlatformOwner, customerID).Scan(&id)
	if db.NotFound(err) {
		return 0, errNotSelectable
	}
	return id, wrap("find by name", err)
}

// wrap gives a database failure the operation's context; business errors pass unchanged.
func wrap(op string, err error) error {
	if _, business := apperr.As(err); err == nil || business {
		return err
	}
	return fmt.Errorf("devmodel: %s: %w", op, err)
}
