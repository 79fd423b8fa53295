package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/user"
)

// Users: accounts, assignments, status, passwords, locked accounts. The rules (scope, grantable
// roles, no take-over of stronger users, not oneself) live in internal/user.

func (s *Server) userList(c *Ctx, in user.ListFilter) (db.List[user.User], error) {
	return s.Users.List(c, c.P, in)
}

func (s *Server) userDetail(c *Ctx, in IDInput) (user.User, error) {
	return s.Users.GetScoped(c, c.P, in.ID)
}

// UserAddInput is a new user; password is sealed like every password (docs/api.md).
type UserAddInput struct {
	user.CreateInput
	KeyID    string `json:"keyId"`
	Password string `json:"password"`
}

func (s *Server) userAdd(c *Ctx, in UserAddInput) (IDAnswer, error) {
	vals, err := s.Auth.OpenSealed(c, in.KeyID, in.Password)
	if err != nil {
		return IDAnswer{}, err
	}
	in.CreateInput.Password = vals[0]
	id, err := s.Users.AddBy(c, c.P, in.CreateInput)
	return IDAnswer{ID: id}, err
}

func (s *Server) userUpdate(c *Ctx, in user.UpdateInput) (*Empty, error) {
	return nil, s.Users.UpdateBy(c, c.P, in)
}

func (s *Server) userAssign(c *Ctx, in user.Assignment) (*Empty, error) {
	return nil, s.Users.Assign(c, c.P, in)
}

func (s *Server) userStatus(c *Ctx, in StatusInput) (*Empty, error) {
	return nil, s.Users.SetStatusBy(c, c.P, in.IDs, in.Status)
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
	return nil, s.Users.SetPasswordBy(c, c.P, in.ID, vals[0])
}

func (s *Server) lockList(c *Ctx, in db.Page) (db.List[user.User], error) {
	return s.Users.List(c, c.P, user.ListFilter{Page: in, Locked: true})
}

func (s *Server) unlock(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Users.Unlock(c, c.P, in.IDs)
}
