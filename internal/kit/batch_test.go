package kit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/testutil"
)

// customers adds n customers named prefix-i, answering their ids.
func customers(t *testing.T, d *db.DB, prefix string, n int) kit.IDs {
	t.Helper()
	ids := kit.IDs{}
	for i := range n {
		id, err := db.InsertID(context.Background(), d, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, 1, 1)`,
			fmt.Sprintf("%s-%d", prefix, i), fmt.Sprintf("%s%d", prefix, i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// logos reads the logo of each id.
func logos(t *testing.T, d *db.DB, ids kit.IDs) []string {
	t.Helper()
	out := []string{}
	for _, id := range ids {
		var logo string
		if err := d.QueryRow(context.Background(), `SELECT logo FROM customer WHERE id = ?`, id).Scan(&logo); err != nil {
			t.Fatal(err)
		}
		out = append(out, logo)
	}
	return out
}

func count(t *testing.T, d *db.DB, ids kit.IDs) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM customer WHERE id IN (`+ids.In()+`)`, ids.Args()...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestBatch(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		mine := customers(t, d, "mine", 3)
		other := customers(t, d, "other", 1)
		// The caller's scope: its own customers only.
		scope := "id IN (" + mine.In() + ")"
		mark := func(logo string) kit.Batch {
			return kit.Batch{Table: "customer", Set: "logo = ?", SetArgs: []any{logo}, Scope: scope, ScopeArgs: mine.Args()}
		}

		t.Run("every id in scope changes every row", func(t *testing.T) {
			if err := mark("a").Run(ctx, d, mine); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(logos(t, d, mine), ","); got != "a,a,a" {
				t.Fatalf("logos %s", got)
			}
		})
		t.Run("one id out of scope is not found and changes nothing", func(t *testing.T) {
			err := mark("b").Run(ctx, d, kit.IDs{mine[0], other[0]})
			if !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if got := strings.Join(logos(t, d, append(kit.IDs{}, mine[0], other[0])), ","); got != "a," {
				t.Fatalf("logos %s: the batch was half-applied", got)
			}
		})
		t.Run("an id that does not exist is not found", func(t *testing.T) {
			if err := mark("c").Run(ctx, d, kit.IDs{mine[0], 999999}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
		})
		t.Run("an id named twice is not short of rows", func(t *testing.T) {
			if err := mark("d").Run(ctx, d, kit.IDs{mine[1], mine[1], mine[2]}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(logos(t, d, mine[1:]), ","); got != "d,d" {
				t.Fatalf("logos %s", got)
			}
		})
		t.Run("an empty batch is refused naming ids", func(t *testing.T) {
			err := mark("e").Run(ctx, d, nil)
			if e, ok := apperr.As(err); !ok || e.Args["field"] != "ids" {
				t.Fatalf("got %v", err)
			}
		})
		t.Run("a failing Before rolls back", func(t *testing.T) {
			b := mark("f")
			b.Before = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error { return apperr.ErrNoPermission }
			if err := b.Run(ctx, d, mine); err != apperr.ErrNoPermission {
				t.Fatalf("got %v", err)
			}
			if got := logos(t, d, mine[:1]); got[0] != "a" {
				t.Fatalf("logo %s", got[0])
			}
		})
		t.Run("a delete with extra statements is all or nothing", func(t *testing.T) {
			var seen kit.IDs
			del := kit.Batch{Table: "customer", Scope: scope, ScopeArgs: mine.Args(),
				Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
					seen = ids
					_, err := tx.Exec(ctx, `UPDATE customer SET address = 'gone' WHERE id IN (`+ids.In()+`)`, ids.Args()...)
					return err
				}}
			if err := del.Run(ctx, d, kit.IDs{mine[2], other[0]}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if n := count(t, d, kit.IDs{mine[2], other[0]}); n != 2 {
				t.Fatalf("%d rows left, want 2", n)
			}
			var addr string
			if err := d.QueryRow(ctx, `SELECT address FROM customer WHERE id = ?`, other[0]).Scan(&addr); err != nil || addr != "" {
				t.Fatalf("address %q, %v: Before's statement was not rolled back", addr, err)
			}
			if err := del.Run(ctx, d, kit.IDs{mine[2], mine[2]}); err != nil {
				t.Fatal(err)
			}
			if len(seen) != 1 || count(t, d, mine[2:]) != 0 {
				t.Fatalf("Before saw %v; the row is still there", seen)
			}
		})
	})
}

func TestClash(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := customers(t, d, "clash", 1)[0]
		for _, s := range []struct{ name, stmt, want string }{
			{"an inline UNIQUE column is table_col_key", `INSERT INTO customer (name, code, created_at, updated_at) VALUES ('clash-0', 'other', 1, 1)`, "customer_name_key"},
			{"a second inline UNIQUE column of the same table is told apart", `INSERT INTO customer (name, code, created_at, updated_at) VALUES ('another', 'clash0', 1, 1)`, "customer_code_key"},
			{"a table UNIQUE constraint is table_cols_key", fmt.Sprintf(`INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (%d, 'S', 'S2', 1, 1)`, c), "site_customer_id_name_key"},
			{"a named unique index keeps its name", fmt.Sprintf(`INSERT INTO doc_category (customer_id, name, created_at, updated_at) VALUES (%d, 'Cat', 1, 1)`, c), "uq_doc_category_name"},
			{"a primary key is table_pkey", fmt.Sprintf(`INSERT INTO customer (id, name, code, created_at, updated_at) VALUES (%d, 'pk', 'pk', 1, 1)`, c), "customer_pkey"},
		} {
			t.Run(s.name, func(t *testing.T) {
				// The first of each kind goes in; the same again clashes.
				first := map[string]string{
					"site_customer_id_name_key": fmt.Sprintf(`INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (%d, 'S', 'S1', 1, 1)`, c),
					"uq_doc_category_name":      fmt.Sprintf(`INSERT INTO doc_category (customer_id, name, created_at, updated_at) VALUES (%d, 'Cat', 1, 1)`, c),
				}[s.want]
				if first != "" {
					if _, err := d.Exec(ctx, first); err != nil {
						t.Fatal(err)
					}
				}
				_, err := d.Exec(ctx, s.stmt)
				name, ok := kit.Clash(err)
				if !ok || name != s.want {
					t.Fatalf("Clash(%v) = %q, %v; want %q", err, name, ok, s.want)
				}
			})
		}
		t.Run("another failure is no clash", func(t *testing.T) {
			_, err := d.Exec(ctx, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (999999, 'X', 'X', 1, 1)`)
			if err == nil {
				t.Fatal("a site of no customer went in")
			}
			if name, ok := kit.Clash(err); ok {
				t.Fatalf("a foreign-key failure is clash %q", name)
			}
			if _, ok := kit.Clash(nil); ok {
				t.Fatal("nil is a clash")
			}
		})
		t.Run("a wrapped clash is found", func(t *testing.T) {
			_, err := d.Exec(ctx, `INSERT INTO customer (name, code, created_at, updated_at) VALUES ('clash-0', 'x9', 1, 1)`)
			if name, ok := kit.Clash(kit.Wrap("customer", "add", err)); !ok || name != "customer_name_key" {
				t.Fatalf("got %q, %v", name, ok)
			}
		})
	})
}

// Every unique key of the PostgreSQL schema has the name SQLite's clash on the same table and
// columns is given, so a new named unique index without its entry in namedKeys fails here.
func TestClashNamesMatchPostgres(t *testing.T) {
	d := testutil.OpenPostgres(t)
	rows, err := d.Query(context.Background(), `SELECT c.relname, t.relname, i.indisprimary,
			(SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
				JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE i.indisunique AND n.nspname = current_schema() AND NOT t.relispartition ORDER BY 2, 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var index, table, cols string
		var primary bool
		if err := rows.Scan(&index, &table, &primary, &cols); err != nil {
			t.Fatal(err)
		}
		seen++
		t.Run(index, func(t *testing.T) {
			if got := kit.KeyName(table, strings.Split(cols, ","), primary); got != index {
				t.Fatalf("SQLite's clash on %s(%s) is named %q, PostgreSQL's %q", table, cols, got, index)
			}
		})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if seen < 20 {
		t.Fatalf("only %d unique keys read", seen)
	}
}
