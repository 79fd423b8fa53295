package user

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/session"
)

// scopeCond limits users to those p may see (access.Principal.UserCond).
func scopeCond(p *access.Principal) (string, []any) { return p.UserCond("u") }

// GetScoped returns a user p may see.
func (s *Service) GetScoped(ctx context.Context, p *access.Principal, id int64) (User, error) {
	cond, args := scopeCond(p)
	u, err := scanUser(s.db.QueryRow(ctx, selectUser+`WHERE u.id = ? AND `+cond, append([]any{id}, args...)...))
	if db.NotFound(err) {
		return u, apperr.ErrNotFound
	}
	if err != nil {
		return u, kit.Wrap("user", "get", err)
	}
	u.CustomerIDs, err = db.Column[int64](ctx, s.db, `SELECT customer_id FROM user_customer WHERE user_id = ? ORDER BY customer_id`, id)
	if err != nil {
		return u, kit.Wrap("user", "get: customers", err)
	}
	u.SiteIDs, err = db.Column[int64](ctx, s.db, `SELECT site_id FROM user_site WHERE user_id = ? ORDER BY site_id`, id)
	return u, kit.Wrap("user", "get: sites", err)
}

// Assignment is the customers and sites assigned to a user (auth_user_customerStationList).
type Assignment struct {
	ID          int64   `json:"id"`
	CustomerIDs []int64 `json:"customerIds"`
	SiteIDs     []int64 `json:"siteIds"`
}

// Assign replaces a user's assigned customers and sites. Each must be in the caller's scope,
// every site must belong to an assigned customer or the user's own, and the user's maximum
// site count holds.
func (s *Service) Assign(ctx context.Context, p *access.Principal, a Assignment) error {
	u, err := s.manageable(ctx, p, a.ID)
	if err != nil {
		return err
	}
	if u.MaxSites > 0 && len(a.SiteIDs) > u.MaxSites {
		return apperr.New(apperr.Invalid, "err.max_sites").With(map[string]any{"max": u.MaxSites})
	}
	allowed := map[int64]bool{u.CustomerID: true}
	for _, c := range a.CustomerIDs {
		if !p.Scope.HasCustomer(c) {
			return apperr.ErrNotFound
		}
		allowed[c] = true
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM user_customer WHERE user_id = ?`, a.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM user_site WHERE user_id = ?`, a.ID); err != nil {
			return err
		}
		for _, c := range a.CustomerIDs {
			if _, err := tx.Exec(ctx, `INSERT INTO user_customer (user_id, customer_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, a.ID, c); err != nil {
				return err
			}
		}
		for _, siteID := range a.SiteIDs {
			var customerID int64
			err := tx.QueryRow(ctx, `SELECT customer_id FROM site WHERE id = ?`, siteID).Scan(&customerID)
			if db.NotFound(err) || (err == nil && (!p.Scope.HasSite(customerID, siteID) || !allowed[customerID])) {
				return apperr.InvalidField("siteIds", "err.invalid")
			}
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO user_site (user_id, site_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, a.ID, siteID); err != nil {
				return err
			}
		}
		return s.sessions.EndAllOfUser(ctx, tx, a.ID, session.ReasonForcedRelogin, "")
	})
	return kit.Wrap("user", "assign", err)
}
