package access

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"chargeops/internal/db"
)

// InterfaceSpec is an API endpoint as the code declares it: the default of its row in
// api_interface.
type InterfaceSpec struct {
	Method, Path, Name string
	Keys               []string
	Common             bool
	// Locked interfaces (root-only, every user's own, or security-relevant) always follow the
	// code: the console cannot make them common, change their keys or delete them.
	Locked bool
}

type rule struct {
	common bool
	keys   []string
}

// Registry answers which keys an /api/auth call needs, from the api_interface table (so that an
// administrator's changes in the menu and interface screen apply) cached in memory.
type Registry struct {
	db     *db.DB
	mu     sync.RWMutex
	rules  map[string]rule
	locked map[string]rule // the code's rule of each locked interface
}

func NewRegistry(d *db.DB) *Registry {
	return &Registry{db: d, rules: map[string]rule{}, locked: map[string]rule{}}
}

// Locked reports whether the interface method url follows the code whatever the console says.
func (r *Registry) Locked(method, url string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.locked[strings.ToUpper(method)+" "+url]
	return ok
}

// Sync inserts the declared interfaces that are missing and refreshes those no administrator
// has customised, then reloads the cache.
func (r *Registry) Sync(ctx context.Context, specs []InterfaceSpec) error {
	locked := map[string]rule{}
	for _, s := range specs {
		if s.Locked {
			locked[s.Method+" "+s.Path] = rule{common: s.Common, keys: s.Keys}
		}
	}
	r.mu.Lock()
	r.locked = locked
	r.mu.Unlock()
	err := r.db.InTx(ctx, func(tx *db.Tx) error {
		for _, s := range specs {
			for _, k := range s.Keys {
				if !IsKey(k) {
					return fmt.Errorf("route %s %s names unknown permission key %q", s.Method, s.Path, k)
				}
			}
			var id int64
			var customised int
			err := tx.QueryRow(ctx, `SELECT id, customised FROM api_interface WHERE method = ? AND url = ?`, s.Method, s.Path).Scan(&id, &customised)
			switch {
			case db.NotFound(err):
				id, err = db.InsertID(ctx, tx, `INSERT INTO api_interface (name, method, url, common) VALUES (?, ?, ?, ?)`, s.Name, s.Method, s.Path, db.BoolInt(s.Common))
				if err != nil {
					return err
				}
			case err != nil:
				return err
			case customised == 1 && !s.Locked:
				continue
			default:
				if _, err := tx.Exec(ctx, `UPDATE api_interface SET name = ?, common = ?, customised = 0 WHERE id = ?`, s.Name, db.BoolInt(s.Common), id); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `DELETE FROM api_interface_permission WHERE interface_id = ?`, id); err != nil {
					return err
				}
			}
			for _, k := range s.Keys {
				if _, err := tx.Exec(ctx, `INSERT INTO api_interface_permission (interface_id, perm_key) VALUES (?, ?)`, id, k); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return r.Reload(ctx)
}

// Reload reads the api_interface table into the cache.
func (r *Registry) Reload(ctx context.Context) error {
	rows, err := r.db.Query(ctx, `SELECT i.method, i.url, i.common, COALESCE(p.perm_key, '')
		FROM api_interface i LEFT JOIN api_interface_permission p ON p.interface_id = i.id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	rules := map[string]rule{}
	for rows.Next() {
		var method, url, key string
		var common int
		if err := rows.Scan(&method, &url, &common, &key); err != nil {
			return err
		}
		id := method + " " + url
		ru := rules[id]
		ru.common = common == 1
		if key != "" {
			ru.keys = append(ru.keys, key)
		}
		rules[id] = ru
	}
	if err := rows.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	r.rules = rules
	r.mu.Unlock()
	return nil
}

// Allowed reports whether p may call method path. An interface with no row is refused: an
// endpoint must be declared to be reachable.
func (r *Registry) Allowed(p *Principal, method, path string) bool {
	id := strings.ToUpper(method) + " " + path
	r.mu.RLock()
	ru, ok := r.locked[id]
	if !ok {
		ru, ok = r.rules[id]
	}
	r.mu.RUnlock()
	if !ok {
		return p.Root
	}
	return p.Root || ru.common || p.HasAny(ru.keys...)
}
