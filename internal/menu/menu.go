// Package menu is the menu and interface management screen (system/menu): the menu tree (the
// permission keys with their names, sort and URL) and the API interfaces bound to menus.
package menu

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
)

// Menu is one node of the menu tree.
type Menu struct {
	Entry
	Type           string  `json:"type"`
	InterfaceCount int64   `json:"interfaceCount"`
	Children       []*Menu `json:"children"`
}

// Interface is an API endpoint and the menus (keys) that grant it.
type Interface struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Method string   `json:"method"`
	URL    string   `json:"url"`
	Common bool     `json:"common"`
	Keys   []string `json:"keys"`
	// Locked: the interface follows the code and cannot be changed here (read-only).
	Locked bool `json:"locked"`
}

// Service manages menus and interfaces; changes reload the registry every request checks.
type Service struct {
	db       *db.DB
	registry *access.Registry
}

func NewService(d *db.DB, r *access.Registry) *Service { return &Service{db: d, registry: r} }

// mayChange: menus and interfaces are the console's structure, the same for every customer, so
// only root or a caller who sees every customer changes them.
func mayChange(p *access.Principal) error {
	if p.Root || p.Scope.AllCustomers {
		return nil
	}
	return apperr.ErrNoPermission
}

// Tree returns the menus as a tree, by sort.
func (s *Service) Tree(ctx context.Context) ([]*Menu, error) {
	all, err := db.All(ctx, s.db, &db.Query{From: "permission p"}, `p.key, p.parent_key, p.type, p.name_en, p.name_zh, p.sort, p.url, p.hidden,
		(SELECT COUNT(*) FROM api_interface_permission ip WHERE ip.perm_key = p.key)`, "p.sort, p.key", 10000, 0, func(r db.Scanner) (*Menu, error) {
		m := &Menu{Children: []*Menu{}}
		var hidden int
		err := r.Scan(&m.Key, &m.ParentKey, &m.Type, &m.NameEn, &m.NameZh, &m.Sort, &m.URL, &hidden, &m.InterfaceCount)
		m.Hidden = hidden == 1
		m.BuiltIn = access.IsKey(m.Key)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("menu: tree: %w", err)
	}
	byKey := map[string]*Menu{}
	for _, m := range all {
		byKey[m.Key] = m
	}
	roots := []*Menu{}
	for _, m := range all {
		if parent, ok := byKey[m.ParentKey]; ok {
			parent.Children = append(parent.Children, m)
		} else {
			roots = append(roots, m)
		}
	}
	return roots, nil
}

// Entry is one sidebar menu of the caller (GET /api/unauth/info, role.menus): the console
// builds its sidebar from these, so renames, order and hidden menus made here reach every user.
type Entry struct {
	Key       string `json:"key"`
	ParentKey string `json:"parentKey"`
	NameEn    string `json:"nameEn"`
	NameZh    string `json:"nameZh"`
	Sort      int    `json:"sort"`
	URL       string `json:"url"`
	Hidden    bool   `json:"hidden"`
	// BuiltIn: a key of the catalogue (the console has a route for it); else an administrator's
	// own menu, shown as a link to URL.
	BuiltIn bool `json:"builtIn"`
}

// SidebarFor lists the menus (type menu) the caller holds, every one for root, by sort.
func (s *Service) SidebarFor(ctx context.Context, p *access.Principal) ([]Entry, error) {
	all, err := db.All(ctx, s.db, (&db.Query{From: "permission"}).And("type = ?", menuType),
		"key, parent_key, name_en, name_zh, sort, url, hidden", "sort, key", 10000, 0, func(r db.Scanner) (Entry, error) {
			var e Entry
			var hidden int
			err := r.Scan(&e.Key, &e.ParentKey, &e.NameEn, &e.NameZh, &e.Sort, &e.URL, &hidden)
			e.Hidden, e.BuiltIn = hidden == 1, access.IsKey(e.Key)
			return e, err
		})
	if err != nil {
		return nil, fmt.Errorf("menu: sidebar: %w", err)
	}
	out := make([]Entry, 0, len(all))
	for _, e := range all {
		if p.HasAny(e.Key) {
			out = append(out, e)
		}
	}
	return out, nil
}

const menuType = "menu"

// MenuInput adds or changes a menu.
type MenuInput struct {
	Key       string `json:"key"`
	ParentKey string `json:"parentKey"`
	NameEn    string `json:"nameEn"`
	NameZh    string `json:"nameZh"`
	Sort      int    `json:"sort"`
	URL       string `json:"url"`
	// Hidden: not in the sidebar (the pages stay reachable for holders of the keys).
	Hidden bool `json:"hidden"`
}

// keepVisible: menus that cannot be hidden, or the sidebar would lose the way back to this screen.
var keepVisible = map[string]bool{"auth_menu": true, "auth_system": true}

var keyRule = regexp.MustCompile(`^[a-z][A-Za-z0-9_]{2,63}$`)

// The bounds of a menu's fields.
const (
	MaxMenuName = 64  // bytes
	MaxURL      = 255 // bytes
	MaxSort     = 9999
)

func checkKey(key string) error {
	if !keyRule.MatchString(key) {
		return apperr.InvalidField("key", "err.invalid")
	}
	return nil
}

func checkHidden(key string, hidden bool) error {
	if hidden && keepVisible[key] {
		return apperr.InvalidField("hidden", "err.menu_keep_visible")
	}
	return nil
}

// required is kit.Required counted in bytes, as the menu and interface names have always been.
func required(field, v string, max int) error {
	if v == "" || len(v) > max {
		return apperr.InvalidField(field, "err.required")
	}
	return nil
}

func (s *Service) validate(ctx context.Context, in *MenuInput) error {
	in.NameEn, in.NameZh, in.URL = strings.TrimSpace(in.NameEn), strings.TrimSpace(in.NameZh), strings.TrimSpace(in.URL)
	if err := kit.First(
		checkKey(in.Key),
		required("nameEn", in.NameEn, MaxMenuName),
		required("nameZh", in.NameZh, MaxMenuName),
		kit.MaxBytes("url", in.URL, MaxURL),
		kit.Range("sort", in.Sort, 0, MaxSort),
		checkHidden(in.Key, in.Hidden),
	); err != nil {
		return err
	}
	if in.ParentKey == "" {
		return nil
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM permission WHERE key = ?`, in.ParentKey).Scan(&n); err != nil {
		return fmt.Errorf("menu: parent: %w", err)
	}
	if n == 0 || in.ParentKey == in.Key {
		return apperr.InvalidField("parentKey", "err.invalid")
	}
	return nil
}

// The unique keys of menus and interfaces (internal/db/migrations/0001_foundation.sql).
const (
	menuKey      = "permission_pkey"
	interfaceKey = "api_interface_method_url_key"
)

// clash maps a clash of the unique key named key to "already exists".
func clash(err error, key string) error {
	if name, _ := kit.Clash(err); name == key {
		return apperr.New(apperr.Conflict, "err.name_taken")
	}
	return err
}

// AddMenu adds a menu of the administrator's own (for example a link to another tool).
func (s *Service) AddMenu(ctx context.Context, p *access.Principal, in MenuInput) error {
	if err := mayChange(p); err != nil {
		return err
	}
	if err := s.validate(ctx, &in); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `INSERT INTO permission (key, parent_key, type, name_en, name_zh, sort, url, hidden, customised) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		in.Key, in.ParentKey, menuType, in.NameEn, in.NameZh, in.Sort, in.URL, db.BoolInt(in.Hidden), db.BoolInt(true))
	return kit.Wrap("menu", "add", clash(err, menuKey))
}

// UpdateMenu renames, re-sorts or moves a menu; built-in menus then keep these changes.
func (s *Service) UpdateMenu(ctx context.Context, p *access.Principal, in MenuInput) error {
	if err := mayChange(p); err != nil {
		return err
	}
	if err := s.validate(ctx, &in); err != nil {
		return err
	}
	res, err := s.db.Exec(ctx, `UPDATE permission SET parent_key = ?, name_en = ?, name_zh = ?, sort = ?, url = ?, hidden = ?, customised = ? WHERE key = ?`,
		in.ParentKey, in.NameEn, in.NameZh, in.Sort, in.URL, db.BoolInt(in.Hidden), db.BoolInt(true), in.Key)
	return kit.Wrap("menu", "update", db.Affected(res, err, apperr.ErrNotFound))
}

// DeleteMenu removes a menu of the administrator's own that has no interface and no child, and
// takes it from every role, in one transaction.
func (s *Service) DeleteMenu(ctx context.Context, p *access.Principal, key string) error {
	if err := mayChange(p); err != nil {
		return err
	}
	if access.IsKey(key) {
		return apperr.New(apperr.Conflict, "err.menu_builtin")
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var interfaces, children int
		if err := tx.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM api_interface_permission WHERE perm_key = ?), (SELECT COUNT(*) FROM permission WHERE parent_key = ?)`,
			key, key).Scan(&interfaces, &children); err != nil {
			return err
		}
		if interfaces > 0 {
			return apperr.New(apperr.Conflict, "err.menu_has_interfaces")
		}
		if children > 0 {
			return apperr.New(apperr.Conflict, "err.in_use")
		}
		res, err := tx.Exec(ctx, `DELETE FROM permission WHERE key = ?`, key)
		if err := db.Affected(res, err, apperr.ErrNotFound); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM role_permission WHERE perm_key = ?`, key)
		return err
	})
	return kit.Wrap("menu", "delete", err)
}

// InterfaceFilter filters interfaces.
type InterfaceFilter struct {
	db.Page
	Key string `json:"key"`
	URL string `json:"url"`
}

// Interfaces lists interfaces, of one menu or all.
func (s *Service) Interfaces(ctx context.Context, f InterfaceFilter) (db.List[Interface], error) {
	q := &db.Query{From: "api_interface i"}
	if f.Key != "" {
		q.And("i.id IN (SELECT interface_id FROM api_interface_permission WHERE perm_key = ?)", f.Key)
	}
	if f.URL != "" {
		q.And(`i.url LIKE ? ESCAPE '\'`, db.Contains(f.URL))
	}
	out, err := db.Paged(ctx, s.db, q, "i.id, i.name, i.method, i.url, i.common", "i.url, i.method", f.Page, func(r db.Scanner) (Interface, error) {
		var it Interface
		var common int
		err := r.Scan(&it.ID, &it.Name, &it.Method, &it.URL, &common)
		it.Common = common == 1
		return it, err
	})
	if err != nil {
		return out, fmt.Errorf("menu: interfaces: %w", err)
	}
	for i := range out.List {
		out.List[i].Locked = s.registry.Locked(out.List[i].Method, out.List[i].URL)
		out.List[i].Keys, err = db.All(ctx, s.db, (&db.Query{From: "api_interface_permission"}).And("interface_id = ?", out.List[i].ID), "perm_key", "perm_key", 100, 0,
			func(r db.Scanner) (string, error) { var k string; err := r.Scan(&k); return k, err })
		if err != nil {
			return out, fmt.Errorf("menu: interface keys: %w", err)
		}
	}
	return out, nil
}

var methods = map[string]bool{"GET": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true}

// The bounds of an interface's fields.
const (
	MaxInterfaceName = 100 // bytes
	MaxInterfaceKeys = 20
	// interfacePrefix: an interface is a signed-in call of the console's API.
	interfacePrefix = "/api/auth/"
)

func checkMethod(method string) error {
	if !methods[method] {
		return apperr.InvalidField("method", "err.invalid")
	}
	return nil
}

func checkInterfaceURL(url string) error {
	if !strings.HasPrefix(url, interfacePrefix) {
		return apperr.InvalidField("url", "err.invalid")
	}
	return nil
}

func (s *Service) validateInterface(ctx context.Context, in *Interface) error {
	in.Method, in.URL, in.Name = strings.ToUpper(strings.TrimSpace(in.Method)), strings.TrimSpace(in.URL), strings.TrimSpace(in.Name)
	if err := kit.First(
		checkMethod(in.Method),
		checkInterfaceURL(in.URL),
		required("name", in.Name, MaxInterfaceName),
		kit.Count("keys", in.Keys, MaxInterfaceKeys),
	); err != nil {
		return err
	}
	for _, k := range in.Keys {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM permission WHERE key = ?`, k).Scan(&n); err != nil {
			return fmt.Errorf("menu: interface key: %w", err)
		}
		if n == 0 {
			return apperr.New(apperr.Invalid, "err.unknown_key").With(map[string]any{"key": k})
		}
	}
	return nil
}

// SaveInterface adds (ID 0) or changes an interface; a changed row is no longer refreshed from
// the code at start-up.
func (s *Service) SaveInterface(ctx context.Context, p *access.Principal, in Interface) (int64, error) {
	if err := mayChange(p); err != nil {
		return 0, err
	}
	if err := s.validateInterface(ctx, &in); err != nil {
		return 0, err
	}
	if err := s.checkUnlocked(ctx, in.ID); err != nil {
		return 0, err
	}
	if s.registry.Locked(in.Method, in.URL) {
		return 0, errLocked
	}
	id := in.ID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		if id == 0 {
			id, err = db.InsertID(ctx, tx, `INSERT INTO api_interface (name, method, url, common, customised) VALUES (?, ?, ?, ?, ?)`,
				in.Name, in.Method, in.URL, db.BoolInt(in.Common), db.BoolInt(true))
		} else {
			var res sql.Result
			res, err = tx.Exec(ctx, `UPDATE api_interface SET name = ?, method = ?, url = ?, common = ?, customised = ? WHERE id = ?`,
				in.Name, in.Method, in.URL, db.BoolInt(in.Common), db.BoolInt(true), id)
			err = db.Affected(res, err, apperr.ErrNotFound)
		}
		if err := clash(err, interfaceKey); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM api_interface_permission WHERE interface_id = ?`, id); err != nil {
			return err
		}
		for _, k := range in.Keys {
			if _, err := tx.Exec(ctx, `INSERT INTO api_interface_permission (interface_id, perm_key) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, kit.Wrap("menu", "save interface", err)
	}
	return id, kit.Wrap("menu", "save interface: reload", s.registry.Reload(ctx))
}

// DeleteInterfaces removes interfaces (a removed built-in one is back at the next start), all
// of them or none, in one statement: a locked one (see checkUnlocked) or one not found refuses
// the batch.
func (s *Service) DeleteInterfaces(ctx context.Context, p *access.Principal, ids kit.IDs) error {
	if err := mayChange(p); err != nil {
		return err
	}
	b := kit.Batch{Table: "api_interface", Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
		type endpoint struct{ method, url string }
		found, err := db.All(ctx, tx, (&db.Query{From: "api_interface"}).And("id IN ("+ids.In()+")", ids.Args()...), "method, url", "id", len(ids), 0,
			func(r db.Scanner) (endpoint, error) { var e endpoint; err := r.Scan(&e.method, &e.url); return e, err })
		if err != nil {
			return err
		}
		if len(found) < len(ids) {
			return apperr.ErrNotFound
		}
		for _, e := range found {
			if s.registry.Locked(e.method, e.url) {
				return errLocked
			}
		}
		return nil
	}}
	if err := b.Run(ctx, s.db, ids); err != nil {
		return kit.Wrap("menu", "delete interfaces", err)
	}
	return kit.Wrap("menu", "delete interfaces: reload", s.registry.Reload(ctx))
}

// errLocked: root-only, every user's own and security-relevant interfaces follow the code
// (docs/decisions.md, "Permissions and data scope").
var errLocked = apperr.New(apperr.NoPermission, "err.interface_locked")

// checkUnlocked refuses a change of an existing interface (id > 0) that the code locks.
func (s *Service) checkUnlocked(ctx context.Context, id int64) error {
	if id == 0 {
		return nil
	}
	var method, url string
	err := s.db.QueryRow(ctx, `SELECT method, url FROM api_interface WHERE id = ?`, id).Scan(&method, &url)
	if db.NotFound(err) {
		return apperr.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("menu: interface %d: %w", id, err)
	}
	if s.registry.Locked(method, url) {
		return errLocked
	}
	return nil
}
