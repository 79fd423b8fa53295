package db

import (
	"reflect"
	"strings"
	"testing"
)

// A dollar-quoted body is one statement whatever its lines end in; comments outside are dropped.
func TestSplitStatementsKeepsDollarQuotedBodies(t *testing.T) {
	src := `-- a comment
CREATE TABLE a (x INTEGER);
DO $$
DECLARE
  d BIGINT := 1;
BEGIN
  -- inside the body
  WHILE d < 3 LOOP
    d := d + 1;
  END LOOP;
END
$$;
SELECT 1;`
	got := splitStatements(src)
	if len(got) != 3 {
		t.Fatalf("statements: %q", got)
	}
	t.Run("statements around the body are cut at their semicolons", func(t *testing.T) {
		if got[0] != "CREATE TABLE a (x INTEGER)" || got[2] != "SELECT 1" {
			t.Fatalf("statements: %q", got)
		}
	})
	t.Run("the DO block is one statement with its comments and semicolons", func(t *testing.T) {
		if !strings.HasPrefix(got[1], "DO $$") || !strings.HasSuffix(got[1], "$$") || !strings.Contains(got[1], "-- inside the body") ||
			!strings.Contains(got[1], "d := d + 1;") {
			t.Fatalf("DO block cut: %q", got[1])
		}
	})
}

// A migration named NNNN_x.postgres.sql runs on PostgreSQL only, NNNN_x.sqlite.sql on SQLite
// only; both databases see every version.
func TestMigrationsPerDialect(t *testing.T) {
	versions := func(d Dialect) (map[int]string, []int) {
		ms, err := loadMigrations(d)
		if err != nil {
			t.Fatal(err)
		}
		names := map[int]string{}
		var vs []int
		for _, m := range ms {
			names[m.version] = m.name
			vs = append(vs, m.version)
		}
		return names, vs
	}
	pg, pgVersions := versions(Postgres)
	lite, liteVersions := versions(SQLite)
	t.Run("both databases see every version", func(t *testing.T) {
		if !reflect.DeepEqual(pgVersions, liteVersions) {
			t.Fatalf("versions differ: postgres %v, sqlite %v", pgVersions, liteVersions)
		}
	})
	t.Run("a dialect's file stands in for its version, shared files for both", func(t *testing.T) {
		if pg[12] != "0012_log_partitions.postgres.sql" || lite[12] != "0012_log_partitions.sqlite.sql" || pg[3] != lite[3] {
			t.Fatalf("postgres 12 %q, sqlite 12 %q", pg[12], lite[12])
		}
	})
	for in, want := range map[string]string{"x.sql": "", "x.postgres.sql": "postgres", "fleet.sqlite.sql": "sqlite"} {
		t.Run("fileDialect of "+in, func(t *testing.T) {
			if got := fileDialect(in); got != want {
				t.Errorf("fileDialect(%q) = %q, want %q", in, got, want)
			}
		})
	}
}
