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
}

type rule struct {
	common bool
	keys   []string
}

// Registry answers which keys an /api/auth call needs, from the api_interface table (so that an
// administrator's changes in the menu and interface screen apply) cached in memory.
type Registry struct {
	db    *db.DB
	mu    sync.RWMutex
	rules map[string]rule
}

func NewRegistry(d *db.DB) *Registry { return &Registry{db: d, rules: map[string]rule{}} }

// Sync inserts the declared interfaces that are missing and refreshes those no administrator
// has customised, then reloads the cache.
func (r *Registry) Sync(ctx context.Context, specs []InterfaceSpec) error {
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
			case customised == 1:
				continue
			default:
				if _, err := tx.Exec(ctx, `UPDATE api_interface SET name = ?, common = ? WHERE id = ?`, s.Name, db.BoolInt(s.Common), id); err != nil {
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
	r.mu.RLock()
	ru, ok := r.rules[strings.ToUpper(method)+" "+path]
	r.mu.RUnlock()
	if !ok {
		return p.Root
	}
	return p.Root || ru.common || p.HasAny(ru.keys...)
}
