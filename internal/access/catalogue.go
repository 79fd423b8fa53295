// Package access holds the permission-key catalogue, the signed-in principal and its data scope,
// and the interface registry that says which keys each API call needs.
package access

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"chargeops/api"
	"chargeops/internal/db"
)

// Permission is one key of the catalogue; type "menu" keys build menus, "action" keys guard
// screens and buttons.
type Permission struct {
	Key    string            `json:"key"`
	Parent string            `json:"parent"`
	Type   string            `json:"type"`
	Name   map[string]string `json:"name"`
	Sort   int               `json:"sort"`
}

var catalogue, catalogueIndex = mustLoadCatalogue()

func mustLoadCatalogue() ([]Permission, map[string]Permission) {
	var doc struct {
		Permissions []Permission `json:"permissions"`
	}
	if err := json.Unmarshal(api.PermissionsJSON, &doc); err != nil {
		panic(fmt.Sprintf("api/permissions.json: %v", err))
	}
	idx := make(map[string]Permission, len(doc.Permissions))
	for _, p := range doc.Permissions {
		if _, dup := idx[p.Key]; dup {
			panic("api/permissions.json: duplicate key " + p.Key)
		}
		idx[p.Key] = p
	}
	for _, p := range doc.Permissions {
		if _, ok := idx[p.Parent]; p.Parent != "" && !ok {
			panic("api/permissions.json: unknown parent " + p.Parent)
		}
	}
	return doc.Permissions, idx
}

// Catalogue returns every permission key in declaration order.
func Catalogue() []Permission { return catalogue }

// IsKey reports whether k is a key of the catalogue.
func IsKey(k string) bool { _, ok := catalogueIndex[k]; return ok }

// AllKeys returns every key, sorted.
func AllKeys() []string {
	out := make([]string, 0, len(catalogue))
	for _, p := range catalogue {
		out = append(out, p.Key)
	}
	sort.Strings(out)
	return out
}

// MenuKeys filters keys down to those of type menu.
func MenuKeys(keys []string) []string {
	out := []string{}
	for _, k := range keys {
		if catalogueIndex[k].Type == "menu" {
			out = append(out, k)
		}
	}
	return out
}

// SyncCatalogue writes the catalogue into the permission table: new keys are added, keys an
// administrator has not customised are refreshed from the file. Idempotent; run after migrate.
func SyncCatalogue(ctx context.Context, d *db.DB) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		for _, p := range catalogue {
			_, err := tx.Exec(ctx, `INSERT INTO permission (key, parent_key, type, name_en, name_zh, sort) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET parent_key = excluded.parent_key, type = excluded.type,
				name_en = excluded.name_en, name_zh = excluded.name_zh, sort = excluded.sort
				WHERE permission.customised = 0`, p.Key, p.Parent, p.Type, p.Name["en-US"], p.Name["zh-CN"], p.Sort)
			if err != nil {
				return fmt.Errorf("sync permission %s: %w", p.Key, err)
			}
		}
		return nil
	})
}
