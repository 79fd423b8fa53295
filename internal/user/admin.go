package user

import (
	"context"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/kit"
)

// Grants says whether a caller may hand out a role: its keys, its data access and every level
// no wider than the caller's own (internal/role). The user service asks it before anyone is given
// a role, and before anyone changes a user, so no administrator takes over a stronger account.
type Grants interface {
	CheckGrantable(ctx context.Context, p *access.Principal, roleID int64) error
}

var (
	errSelf     = apperr.New(apperr.Invalid, "err.self_role")
	errStronger = apperr.New(apperr.NoPermission, "err.user_stronger")
)

// checkTarget: a non-root caller gives only owner customers in its scope (platform users,
// customer 0, need the full customer scope) and roles it could hold itself.
func (s *Service) checkTarget(ctx context.Context, p *access.Principal, customerID, roleID int64) error {
	if p.Root {
		return nil
	}
	if (customerID == 0 && !p.Scope.AllCustomers) || (customerID != 0 && !p.Scope.HasCustomer(customerID)) {
		return apperr.ErrNotFound
	}
	return s.grants.CheckGrantable(ctx, p, roleID)
}

// manageable returns the user p may change: one p sees whose present role p could grant. A
// user whose role is stronger than the caller's (keys, data access, levels, WEB/SSH) is out of
// reach even within the same customer.
func (s *Service) manageable(ctx context.Context, p *access.Principal, id int64) (User, error) {
	u, err := s.GetScoped(ctx, p, id)
	if err != nil || p.Root || u.ID == p.UserID {
		return u, err
	}
	if err := s.grants.CheckGrantable(ctx, p, u.RoleID); err != nil {
		if e, ok := apperr.As(err); ok && e.Code == apperr.NoPermission {
			return u, errStronger
		}
		return u, err
	}
	return u, nil
}

// Manageable is the user p may change (see manageable): applications bind only such a user,
// so nobody gets a secret that acts as a stronger account (internal/application).
func (s *Service) Manageable(ctx context.Context, p *access.Principal, id int64) (User, error) {
	return s.manageable(ctx, p, id)
}

// AddBy creates an account for p: an owner customer in p's scope and a role p may grant.
func (s *Service) AddBy(ctx context.Context, p *access.Principal, in CreateInput) (int64, error) {
	in.Root = false
	if err := s.checkTarget(ctx, p, in.CustomerID, in.RoleID); err != nil {
		return 0, err
	}
	return s.Create(ctx, in)
}

// UpdateBy changes an account for p. Nobody but root changes their own role; the user's
// present role and the new one must both be grantable by p.
func (s *Service) UpdateBy(ctx context.Context, p *access.Principal, in UpdateInput) error {
	old, err := s.manageable(ctx, p, in.ID)
	if err != nil {
		return err
	}
	if in.ID == p.UserID && !p.Root && old.RoleID != in.RoleID {
		return errSelf
	}
	if err := s.checkTarget(ctx, p, in.CustomerID, in.RoleID); err != nil {
		return err
	}
	if err := kit.First(in.validate(), checkRole(old.Root, in.RoleID)); err != nil {
		return err
	}
	return s.update(ctx, old, in)
}

// SetStatusBy enables or disables accounts for p: all of them or none. Nobody disables
// themself or a stronger user.
func (s *Service) SetStatusBy(ctx context.Context, p *access.Principal, ids kit.IDs, status int) error {
	for _, id := range ids {
		if id == p.UserID {
			return errSelf
		}
		if _, err := s.manageable(ctx, p, id); err != nil {
			return err
		}
	}
	if err := kit.OneOf("status", status, Enabled, Disabled); err != nil {
		return err
	}
	return s.setStatus(ctx, p, ids, status)
}

// SetPasswordBy sets another user's password for p (plain, checked against the rules).
func (s *Service) SetPasswordBy(ctx context.Context, p *access.Principal, id int64, plain string) error {
	if _, err := s.manageable(ctx, p, id); err != nil {
		return err
	}
	return s.SetPassword(ctx, id, plain, "")
}
