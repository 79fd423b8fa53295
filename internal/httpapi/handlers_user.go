package httpapi

import (
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/user"
)

// Users: accounts, assignments, status, passwords, locked accounts.

func (s *Server) userList(c *Ctx, in user.ListFilter) (db.List[user.User], error) {
	return s.Users.ListScoped(c, c.P, in)
}

func (s *Server) userDetail(c *Ctx, in IDInput) (user.User, error) {
	return s.Users.GetScoped(c, c.P, in.ID)
}

// checkUserTarget: a non-root caller may give only roles whose keys it holds, and owner
// customers in its scope (platform users, customer 0, need the full customer scope).
func (s *Server) checkUserTarget(c *Ctx, customerID, roleID int64) error {
	if c.P.Root {
		return nil
	}
	if (customerID == 0 && !c.P.Scope.AllCustomers) || (customerID != 0 && !c.P.Scope.HasCustomer(customerID)) {
		return apperr.ErrNotFound
	}
	return s.Roles.CheckGrantable(c, c.P, roleID)
}

// UserAddInput is a new user; password is sealed like every password (docs/api.md).
type UserAddInput struct {
	user.CreateInput
	KeyID    string `json:"keyId"`
	Password string `json:"password"`
}

func (s *Server) userAdd(c *Ctx, in UserAddInput) (IDAnswer, error) {
	if err := s.checkUserTarget(c, in.CustomerID, in.RoleID); err != nil {
		return IDAnswer{}, err
	}
	vals, err := s.Auth.OpenSealed(c, in.KeyID, in.Password)
	if err != nil {
		return IDAnswer{}, err
	}
	in.CreateInput.Password = vals[0]
	id, err := s.Users.Create(c, in.CreateInput)
	return IDAnswer{ID: id}, err
}

func (s *Server) userUpdate(c *Ctx, in user.UpdateInput) (*Empty, error) {
	old, err := s.Users.GetScoped(c, c.P, in.ID)
	if err != nil {
		return nil, err
	}
	if in.ID == c.P.UserID && !c.P.Root && old.RoleID != in.RoleID {
		return nil, apperr.New(apperr.Invalid, "err.self_role")
	}
	if err := s.checkUserTarget(c, in.CustomerID, in.RoleID); err != nil {
		return nil, err
	}
	return nil, s.Users.Update(c, in)
}

func (s *Server) userAssign(c *Ctx, in user.Assignment) (*Empty, error) {
	return nil, s.Users.Assign(c, c.P, in)
}

func (s *Server) userStatus(c *Ctx, in StatusInput) (*Empty, error) {
	for _, id := range in.IDs {
		if id == c.P.UserID {
			return nil, apperr.New(apperr.Invalid, "err.self_role")
		}
		if _, err := s.Users.GetScoped(c, c.P, id); err != nil {
			return nil, err
		}
	}
	return nil, s.Users.SetStatus(c, in.IDs, in.Status)
}

// UserPasswordInput sets another user's password (sealed).
type UserPasswordInput struct {
	ID       int64  `json:"id"`
	KeyID    string `json:"keyId"`
	Password string `json:"password"`
}

func (s *Server) userPassword(c *Ctx, in UserPasswordInput) (*Empty, error) {
	vals, err := s.Auth.OpenSealed(c, in.KeyID, in.Password)
	if err != nil {
		return nil, err
	}
	if _, err := s.Users.GetScoped(c, c.P, in.ID); err != nil {
		return nil, err
	}
	return nil, s.Users.SetPassword(c, in.ID, vals[0], "")
}

func (s *Server) lockList(c *Ctx, in db.Page) (db.List[user.User], error) {
	return s.Users.List(c, user.ListFilter{Page: in, Locked: true})
}

func (s *Server) unlock(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Users.Unlock(c, in.IDs)
}
