package testutil

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/setting"
)

// The migrated databases tests copy (docs/benchmarks.md, "The Go test suite"). Their name
// carries a digest of what makes the schema, so every package of a run, and later runs, share
// one while it is the same:
//   - the migration files (internal/db/migrations),
//   - the permission catalogue SyncCatalogue writes (api/permissions.json),
//   - the UTC day: migration 0012 creates PostgreSQL's log and series partitions around today.
// A change to any of them makes a new template at the first test that needs one.

// templateLockKey is the PostgreSQL advisory lock under which one test process at a time
// checks for and builds the template (db.Migrate uses 7262001).
const templateLockKey = 7262028

// templateKey is "YYYYMMDD_<12 hex digits>", computed once per process.
var templateKey = sync.OnceValues(func() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot locate internal/testutil to find the migrations")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "db", "migrations")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("read migrations: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		body, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return "", fmt.Errorf("read migration %s: %w", n, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(body))
		h.Write(body)
	}
	cat, err := json.Marshal(access.Catalogue())
	if err != nil {
		return "", fmt.Errorf("encode the catalogue: %w", err)
	}
	h.Write(cat)
	h.Write([]byte("\x00login key pair")) // templates made before it held one
	return time.Now().UTC().Format("20060102") + "_" + hex.EncodeToString(h.Sum(nil))[:12], nil
})

// migrate brings a new database to the current schema with the permission catalogue.
func migrate(ctx context.Context, d *db.DB) error {
	if _, err := d.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := access.SyncCatalogue(ctx, d); err != nil {
		return fmt.Errorf("sync catalogue: %w", err)
	}
	// the login key pair, made once here instead of by every node a test starts (an RSA key
	// was most of a test node's start-up CPU)
	if _, err := setting.NewStore(d).LoginKeyPEM(ctx); err != nil {
		return fmt.Errorf("login key: %w", err)
	}
	return nil
}

// sqliteTemplate is the path of the migrated SQLite file tests copy: built once per key in
// the system's temporary folder (written under a private name, then renamed, so parallel test
// processes never see half a file) and reused by later processes and runs.
var sqliteTemplate = sync.OnceValues(func() (string, error) {
	key, err := templateKey()
	if err != nil {
		return "", err
	}
	path := filepath.Join(os.TempDir(), "chargeops-test-"+key+".db")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	work, err := os.MkdirTemp("", "chargeops-test-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	ctx := context.Background()
	d, err := db.Open(ctx, "", work)
	if err != nil {
		return "", fmt.Errorf("open: %w", err)
	}
	defer d.Close()
	if err := migrate(ctx, d); err != nil {
		return "", err
	}
	// one self-contained file, no write-ahead log beside it
	part := filepath.Join(work, "template.db")
	if _, err := d.Exec(ctx, `VACUUM INTO '`+strings.ReplaceAll(part, "'", "''")+`'`); err != nil {
		return "", fmt.Errorf("vacuum into: %w", err)
	}
	tmp, err := os.CreateTemp("", "chargeops-test-tmpl-")
	if err != nil {
		return "", err
	}
	tmp.Close()
	if err := copyFile(part, tmp.Name()); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	removeOldSQLiteTemplates(key)
	return path, nil
})

// removeOldSQLiteTemplates deletes templates of days before yesterday (a run that started
// then has ended).
func removeOldSQLiteTemplates(key string) {
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), "chargeops-test-2*.db"))
	for _, p := range old {
		if day := strings.TrimPrefix(filepath.Base(p), "chargeops-test-"); day[:8] < dayBefore(key) {
			os.Remove(p)
		}
	}
}

// dayBefore is the day before the key's, as YYYYMMDD.
func dayBefore(key string) string {
	day, err := time.Parse("20060102", key[:8])
	if err != nil {
		return ""
	}
	return day.AddDate(0, 0, -1).Format("20060102")
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// pgTemplateName caches the template database's name once this process has made sure of it.
var (
	pgTemplateMu   sync.Mutex
	pgTemplateName string
)

// pgTemplate returns the name of the migrated template database, building it when no test
// process has yet. An advisory lock makes the packages of a parallel `go test` wait for the
// one that builds it. The template takes no connections, so copies of it never fail on a
// session left open on it.
func pgTemplate(admin *sql.DB) (string, error) {
	pgTemplateMu.Lock()
	defer pgTemplateMu.Unlock()
	if pgTemplateName != "" {
		return pgTemplateName, nil
	}
	key, err := templateKey()
	if err != nil {
		return "", err
	}
	name := "chargeops_tmpl_" + key
	ctx := context.Background()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, templateLockKey); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, templateLockKey)
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil {
		return "", fmt.Errorf("look for %s: %w", name, err)
	}
	if n == 0 {
		if err := buildPgTemplate(ctx, conn, name); err != nil {
			return "", err
		}
		dropOldPgTemplates(ctx, conn, key)
	}
	dropLeftovers(ctx, conn)
	pgTemplateName = name
	return name, nil
}

// buildPgTemplate migrates a new database under a work name and renames it to name when done,
// so a template that exists is always complete.
func buildPgTemplate(ctx context.Context, conn *sql.Conn, name string) error {
	work := name + "_build"
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+work+` WITH (FORCE)`); err != nil {
		return fmt.Errorf("drop a stale %s: %w", work, err)
	}
	if _, err := conn.ExecContext(ctx, `CREATE DATABASE `+work); err != nil {
		return fmt.Errorf("create %s: %w", work, err)
	}
	dsn, err := pgURL(work)
	if err != nil {
		return err
	}
	d, err := db.Open(ctx, dsn, "")
	if err != nil {
		return fmt.Errorf("open %s: %w", work, err)
	}
	err = migrate(ctx, d)
	d.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", work, err)
	}
	// a closed pool's sessions may still be ending on the server
	if _, err := conn.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, work); err != nil {
		return fmt.Errorf("end sessions on %s: %w", work, err)
	}
	for _, stmt := range []string{
		`ALTER DATABASE ` + work + ` RENAME TO ` + name,
		`ALTER DATABASE ` + name + ` WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`,
	} {
		if err := retryBusy(func() error { _, err := conn.ExecContext(ctx, stmt); return err }); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}

// dropOldPgTemplates drops templates of days before yesterday (a run that started then has
// ended); errors are left for the next run.
func dropOldPgTemplates(ctx context.Context, conn *sql.Conn, key string) {
	rows, err := conn.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'chargeops\_tmpl\_%' AND datname < $1`,
		"chargeops_tmpl_"+dayBefore(key))
	if err != nil {
		return
	}
	var old []string
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			old = append(old, n)
		}
	}
	rows.Close()
	for _, n := range old {
		_, _ = conn.ExecContext(ctx, `ALTER DATABASE `+n+` WITH IS_TEMPLATE false`)
		_, _ = conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+n+` WITH (FORCE)`)
	}
}

// dropLeftovers drops the test databases of test processes of this machine that ended without
// their clean-ups (killed at a timeout): their name holds the process id. Only for a server on
// this machine, where the process ids are ours.
func dropLeftovers(ctx context.Context, conn *sql.Conn) {
	if u, err := url.Parse(PostgresURL()); err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		return
	}
	names, err := conn.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'chargeops\_t\_%'`)
	if err != nil {
		return
	}
	var gone []string
	for names.Next() {
		var n string
		if names.Scan(&n) != nil {
			continue
		}
		var pid, seq int
		if _, err := fmt.Sscanf(n, "chargeops_t_%d_%d", &pid, &seq); err == nil && pid > 0 && syscall.Kill(pid, 0) == syscall.ESRCH {
			gone = append(gone, n)
		}
	}
	names.Close()
	for _, n := range gone {
		_, _ = conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+n+` WITH (FORCE)`)
	}
}

// createFromTemplate creates database name as a copy of tmpl.
func createFromTemplate(admin *sql.DB, name, tmpl string) error {
	err := retryBusy(func() error {
		_, err := admin.Exec(`CREATE DATABASE ` + name + ` TEMPLATE ` + tmpl)
		return err
	})
	if err != nil {
		return fmt.Errorf("create database %s from %s: %w", name, tmpl, err)
	}
	return nil
}

// objectInUse is PostgreSQL's SQLSTATE for a database another session is connected to.
const objectInUse = "55006"

// retryBusy retries fn for up to 10 s while PostgreSQL answers that another session uses the
// database (a session that is still ending).
func retryBusy(fn func() error) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := fn()
		var pe *pgconn.PgError
		if err == nil || !errors.As(err, &pe) || pe.Code != objectInUse || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
