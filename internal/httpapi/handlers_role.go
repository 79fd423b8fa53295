package httpapi

import (
	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/role"
)

// Roles: permission catalogue, role list and changes, menu and data authorisation.

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
