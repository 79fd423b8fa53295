// Package role owns roles: their permission keys (menu authorisation) and data-authorisation
// settings (docs/decisions.md#permissions-and-data-scope). Changing what a role allows ends its users' sessions (forced re-login),
// so no console keeps showing menus its user no longer holds.
package role

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/session"
)

// Role as the API shows it.
type Role struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	CustomerID  int64  `json:"customerId"` // 0: a platform role
	access.RoleSettings
	Keys      []string `json:"keys"`
	UserCount int64    `json:"userCount"`
	CreatedAt int64    `json:"createdAt"`
	UpdatedAt int64    `json:"updatedAt"`
}

// Service reads and changes roles.
type Service struct {
	db       *db.DB
	sessions *session.Store
}

func NewService(d *db.DB, s *session.Store) *Service { return &Service{db: d, sessions: s} }

const roleColumns = `r.id, r.name, r.description, r.customer_id, r.customer_access, r.site_access, r.web_ssh_access, r.web_ssh_level,
	r.cfg_read_level, r.cfg_write_level, r.cfg_download_level, r.param_level, r.doc_level, r.attach_level, r.email_alarm,
	r.user_access, r.created_at, r.updated_at, (SELECT COUNT(*) FROM app_user u WHERE u.role_id = r.id)`

const selectRole = `SELECT ` + roleColumns + ` FROM role r `

func scanRole(row db.Scanner) (Role, error) {
	var r Role
	var email, userAccess int
	s := &r.RoleSettings
	err := row.Scan(&r.ID, &r.Name, &r.Description, &r.CustomerID, &s.CustomerAccess, &s.SiteAccess, &s.WebSSHAccess, &s.WebSSHLevel,
		&s.CfgReadLevel, &s.CfgWriteLevel, &s.CfgDownloadLevel, &s.ParamLevel, &s.DocLevel, &s.AttachLevel, &email,
		&userAccess, &r.CreatedAt, &r.UpdatedAt, &r.UserCount)
	s.EmailAlarm, s.UserAccess = email == 1, userAccess == 1
	r.Keys = []string{}
	return r, err
}

// Get returns a role with its keys.
func (s *Service) Get(ctx context.Context, id int64) (Role, error) {
	r, err := scanRole(s.db.QueryRow(ctx, selectRole+`WHERE r.id = ?`, id))
	if db.NotFound(err) {
		return r, apperr.ErrNotFound
	}
	if err != nil {
		return r, kit.Wrap("role", "get", err)
	}
	r.Keys, err = s.Keys(ctx, id)
	return r, err
}

// Keys returns the permission keys a role holds.
func (s *Service) Keys(ctx context.Context, id int64) ([]string, error) {
	keys, err := db.Column[string](ctx, s.db, `SELECT perm_key FROM role_permission WHERE role_id = ? ORDER BY perm_key`, id)
	return keys, kit.Wrap("role", "keys", err)
}

// ListFilter filters the role list.
type ListFilter struct {
	db.Page
	Name string `json:"name"`
}

// visible limits roles (by their customer column col) to those p may see: every role for a
// caller who sees every customer, else platform roles and the roles of customers in scope.
func visible(p *access.Principal, col string) (string, []any) {
	if p == nil || p.Root || p.Scope.AllCustomers {
		return "1 = 1", nil
	}
	return kit.Visible(p, col)
}

// List returns a page of the roles p may see, by name.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[Role], error) {
	cond, args := visible(p, "r.customer_id")
	q := (&db.Query{From: "role r"}).And(cond, args...)
	if f.Name != "" {
		q.And(`r.name LIKE ? ESCAPE '\'`, db.Contains(f.Name))
	}
	out, err := db.Paged(ctx, s.db, q, roleColumns, "r.name, r.id", f.Page, scanRole)
	return out, kit.Wrap("role", "list", err)
}

// GetScoped returns a role p may see.
func (s *Service) GetScoped(ctx context.Context, p *access.Principal, id int64) (Role, error) {
	cond, args := visible(p, "r.customer_id")
	r, err := db.One(ctx, s.db, (&db.Query{From: "role r"}).And("r.id = ?", id).And(cond, args...), roleColumns, scanRole, apperr.ErrNotFound)
	if err != nil {
		return r, kit.Wrap("role", "get", err)
	}
	r.Keys, err = s.Keys(ctx, id)
	return r, err
}

// mayEdit: a platform role changes only for a caller who sees every customer.
func mayEdit(p *access.Principal, owner int64) error {
	if owner == kit.PlatformOwner && !p.Root && !p.Scope.AllCustomers {
		return errEscalation
	}
	return nil
}

// editable returns the role if p may change it (mayEdit).
func (s *Service) editable(ctx context.Context, p *access.Principal, id int64) (Role, error) {
	r, err := s.GetScoped(ctx, p, id)
	if err != nil {
		return r, err
	}
	return r, mayEdit(p, r.CustomerID)
}

// Input is a role's name, description and, when given, its keys and settings.
type Input struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	CustomerID  int64  `json:"customerId"`
}

func (in *Input) validate() error {
	in.Name = strings.TrimSpace(in.Name)
	return kit.First(
		kit.Required("name", in.Name, 64),
		kit.MaxBytes("description", in.Description, 500),
	)
}

// nameKey is the unique key of role names (internal/db/migrations/0001_foundation.sql).
const nameKey = "role_name_key"

// nameClash maps a clash of role names to "already exists".
func nameClash(err error) error {
	if name, _ := kit.Clash(err); name == nameKey {
		return apperr.New(apperr.Conflict, "err.name_taken")
	}
	return err
}

// Add creates a role with no keys and the most restrictive data settings. A caller limited to
// some customers creates roles of its own customer only.
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (int64, error) {
	if err := in.validate(); err != nil {
		return 0, err
	}
	if !p.Root && !p.Scope.AllCustomers {
		in.CustomerID = p.CustomerID
	}
	if in.CustomerID != 0 && !p.Scope.HasCustomer(in.CustomerID) && !p.Root {
		return 0, apperr.ErrNotFound
	}
	now := db.NowMS()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO role (name, description, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		in.Name, in.Description, in.CustomerID, now, now)
	return id, kit.Wrap("role", "add", nameClash(err))
}

// Update renames a role.
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	if err := in.validate(); err != nil {
		return err
	}
	if _, err := s.editable(ctx, p, in.ID); err != nil {
		return err
	}
	res, err := s.db.Exec(ctx, `UPDATE role SET name = ?, description = ?, updated_at = ? WHERE id = ?`, in.Name, in.Description, db.NowMS(), in.ID)
	return kit.Wrap("role", "update", db.Affected(res, nameClash(err), apperr.ErrNotFound))
}

var errEscalation = apperr.New(apperr.NoPermission, "err.escalation")

// SetKeys replaces the permission keys of a role (menu authorisation). Only root may grant a
// key the caller does not hold, so no administrator can raise their own or anyone's rights.
func (s *Service) SetKeys(ctx context.Context, p *access.Principal, id int64, keys []string) error {
	for _, k := range keys {
		if !access.IsKey(k) {
			return apperr.New(apperr.Invalid, "err.unknown_key").With(map[string]any{"key": k})
		}
		if !p.Root && !p.Keys[k] {
			return errEscalation
		}
	}
	if _, err := s.editable(ctx, p, id); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE role SET updated_at = ? WHERE id = ?`, db.NowMS(), id)
		if err := db.Affected(res, err, apperr.ErrNotFound); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM role_permission WHERE role_id = ?`, id); err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, k := range keys {
			if seen[k] {
				continue
			}
			seen[k] = true
			if _, err := tx.Exec(ctx, `INSERT INTO role_permission (role_id, perm_key) VALUES (?, ?)`, id, k); err != nil {
				return err
			}
		}
		return s.sessions.EndAllOfRole(ctx, tx, id)
	})
	return kit.Wrap("role", "set keys", err)
}

// SetSettings replaces the data-authorisation settings of a role. A non-root caller cannot
// grant wider data access or higher levels than its own role has.
func (s *Service) SetSettings(ctx context.Context, p *access.Principal, id int64, st access.RoleSettings) error {
	if !p.Root && !narrowerOrEqual(st, p) {
		return errEscalation
	}
	if _, err := s.editable(ctx, p, id); err != nil {
		return err
	}
	if err := checkSettings(st); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE role SET customer_access = ?, site_access = ?, web_ssh_access = ?, web_ssh_level = ?, cfg_read_level = ?,
			cfg_write_level = ?, cfg_download_level = ?, param_level = ?, doc_level = ?, attach_level = ?, email_alarm = ?, user_access = ?, updated_at = ?
			WHERE id = ?`, st.CustomerAccess, st.SiteAccess, st.WebSSHAccess, st.WebSSHLevel, st.CfgReadLevel, st.CfgWriteLevel,
			st.CfgDownloadLevel, st.ParamLevel, st.DocLevel, st.AttachLevel, db.BoolInt(st.EmailAlarm), db.BoolInt(st.UserAccess), db.NowMS(), id)
		if err := db.Affected(res, err, apperr.ErrNotFound); err != nil {
			return err
		}
		return s.sessions.EndAllOfRole(ctx, tx, id)
	})
	return kit.Wrap("role", "set settings", err)
}

// The ranges of a role's data-authorisation settings (access.RoleSettings).
const (
	LowestLevel       = 5 // levels go from 0, the highest, to 5
	MaxCustomerAccess = 2 // all, own customers, assigned customers
	MaxSiteAccess     = 1 // all, assigned sites
	MaxWebSSHAccess   = 3 // disabled, root, web admin, web engineer
)

// checkSettings checks each setting, naming it.
func checkSettings(st access.RoleSettings) error {
	return kit.First(
		kit.Range("customerAccess", st.CustomerAccess, 0, MaxCustomerAccess),
		kit.Range("siteAccess", st.SiteAccess, 0, MaxSiteAccess),
		kit.Range("webSshAccess", st.WebSSHAccess, 0, MaxWebSSHAccess),
		kit.Range("webSshLevel", st.WebSSHLevel, 0, LowestLevel),
		kit.Range("cfgReadLevel", st.CfgReadLevel, 0, LowestLevel),
		kit.Range("cfgWriteLevel", st.CfgWriteLevel, 0, LowestLevel),
		kit.Range("cfgDownloadLevel", st.CfgDownloadLevel, 0, LowestLevel),
		kit.Range("paramLevel", st.ParamLevel, 0, LowestLevel),
		kit.Range("docLevel", st.DocLevel, 0, LowestLevel),
		kit.Range("attachLevel", st.AttachLevel, 0, LowestLevel),
	)
}

var errInUse = apperr.New(apperr.Conflict, "err.in_use")

// Delete removes roles p may change that no user holds, all of them or none, in one scoped
// statement (their keys go with them).
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids kit.IDs) error {
	cond, args := visible(p, "customer_id")
	b := kit.Batch{Table: "role", Scope: cond, ScopeArgs: args,
		Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
			owners, err := db.All(ctx, tx, (&db.Query{From: "role"}).And("id IN ("+ids.In()+")", ids.Args()...).And(cond, args...),
				"customer_id", "id", len(ids), 0, func(r db.Scanner) (int64, error) { var c int64; err := r.Scan(&c); return c, err })
			if err != nil {
				return err
			}
			if len(owners) < len(ids) {
				return apperr.ErrNotFound
			}
			for _, owner := range owners {
				if err := mayEdit(p, owner); err != nil {
					return err
				}
			}
			var users int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM app_user WHERE role_id IN (`+ids.In()+`)`, ids.Args()...).Scan(&users); err != nil {
				return err
			}
			if users > 0 {
				return errInUse
			}
			return nil
		}}
	return kit.Wrap("role", "delete", b.Run(ctx, s.db, ids))
}

// narrowerOrEqual reports whether st grants no more than p holds (levels: 0 is the highest).
func narrowerOrEqual(st access.RoleSettings, p *access.Principal) bool {
	own := p.Role
	if st.CustomerAccess == 0 && !p.Scope.AllCustomers || st.SiteAccess == 0 && !p.Scope.AllSites {
		return false
	}
	pairs := [][2]int{{st.WebSSHLevel, own.WebSSHLevel}, {st.CfgReadLevel, own.CfgReadLevel}, {st.CfgWriteLevel, own.CfgWriteLevel},
		{st.CfgDownloadLevel, own.CfgDownloadLevel}, {st.ParamLevel, own.ParamLevel}, {st.DocLevel, own.DocLevel}, {st.AttachLevel, own.AttachLevel}}
	for _, pr := range pairs {
		if pr[0] < pr[1] {
			return false
		}
	}
	return st.WebSSHAccess == 0 || st.WebSSHAccess == own.WebSSHAccess
}

// CheckGrantable reports whether p may give role id to a user: root always; others only a role
// they see whose keys they hold and whose data access and levels are no wider than their own
// (a platform role with customer access "All" is out of reach of a customer's administrator).
func (s *Service) CheckGrantable(ctx context.Context, p *access.Principal, id int64) error {
	if p.Root || id == 0 {
		return nil
	}
	r, err := s.GetScoped(ctx, p, id)
	if err != nil {
		return err
	}
	for _, k := range r.Keys {
		if !p.Keys[k] {
			return errEscalation
		}
	}
	if !narrowerOrEqual(r.RoleSettings, p) {
		return errEscalation
	}
	return nil
}
