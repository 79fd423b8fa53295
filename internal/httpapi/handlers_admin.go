package httpapi

import (
	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/mail"
	"chargeops/internal/role"
	"chargeops/internal/user"
)

// IDInput names one object (GET detail?id=).
type IDInput struct {
	ID int64 `json:"id"`
}

// IDsInput names objects to act on.
type IDsInput struct {
	IDs []int64 `json:"ids"`
}

// IDAnswer is the answer of an add.
type IDAnswer struct {
	ID int64 `json:"id"`
}

// validate: an action names 1 to 1,000 objects (checked by H for every such input).
func (in IDsInput) validate() error { return checkIDs(in.IDs) }

func checkIDs(ids []int64) error {
	if len(ids) == 0 || len(ids) > 1000 {
		return apperr.InvalidField("ids", "err.required")
	}
	return nil
}

// PermissionNode is one key of the catalogue tree.
type PermissionNode struct {
	access.Permission
	Children []*PermissionNode `json:"children"`
}

func (s *Server) permissionTree(c *Ctx, _ Empty) ([]*PermissionNode, error) {
	nodes := map[string]*PermissionNode{}
	var roots []*PermissionNode
	for _, p := range access.Catalogue() {
		nodes[p.Key] = &PermissionNode{Permission: p, Children: []*PermissionNode{}}
	}
	for _, p := range access.Catalogue() {
		if p.Parent == "" {
			roots = append(roots, nodes[p.Key])
		} else {
			nodes[p.Parent].Children = append(nodes[p.Parent].Children, nodes[p.Key])
		}
	}
	return roots, nil
}

func (s *Server) roleList(c *Ctx, in role.ListFilter) (db.List[role.Role], error) {
	return s.Roles.List(c, c.P, in)
}

func (s *Server) roleDetail(c *Ctx, in IDInput) (role.Role, error) {
	return s.Roles.GetScoped(c, c.P, in.ID)
}

func (s *Server) roleAdd(c *Ctx, in role.Input) (IDAnswer, error) {
	id, err := s.Roles.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) roleUpdate(c *Ctx, in role.Input) (*Empty, error) {
	return nil, s.Roles.Update(c, c.P, in)
}

func (s *Server) roleDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Roles.Delete(c, c.P, in.IDs)
}

// RoleKeysInput sets a role's keys.
type RoleKeysInput struct {
	ID   int64    `json:"id"`
	Keys []string `json:"keys"`
}

func (s *Server) roleSetKeys(c *Ctx, in RoleKeysInput) (*Empty, error) {
	return nil, s.Roles.SetKeys(c, c.P, in.ID, in.Keys)
}

// RoleDataInput sets a role's data authorisation.
type RoleDataInput struct {
	ID int64 `json:"id"`
	access.RoleSettings
}

func (s *Server) roleSetData(c *Ctx, in RoleDataInput) (*Empty, error) {
	return nil, s.Roles.SetSettings(c, c.P, in.ID, in.RoleSettings)
}

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

// StatusInput enables (1) or disables (0) objects.
type StatusInput struct {
	IDs    []int64 `json:"ids"`
	Status int     `json:"status"`
}

func (in StatusInput) validate() error { return checkIDs(in.IDs) }

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

func (s *Server) outboxList(c *Ctx, in db.Page) (db.List[mail.OutboxMail], error) {
	return s.Mailer.Outbox(c, in)
}

func (s *Server) actionLogList(c *Ctx, in actionlog.Filter) (db.List[actionlog.Entry], error) {
	return s.ActionLog.List(c, in)
}
