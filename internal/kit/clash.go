package kit

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// Clash reports a unique-key clash and the name of the constraint (or unique index) it broke,
// the same name on both databases: PostgreSQL's own (pgconn.PgError.ConstraintName of SQLSTATE
// 23505); on SQLite, which names only the table and columns (extended code 2067
// SQLITE_CONSTRAINT_UNIQUE, 1555 SQLITE_CONSTRAINT_PRIMARYKEY), the name PostgreSQL gives the
// same key (sqliteName). Callers compare the name with the constraint of the field they report.
func Clash(err error) (name string, ok bool) {
	if err == nil {
		return "", false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		if pg.Code != "23505" {
			return "", false
		}
		return pg.ConstraintName, true
	}
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return sqliteName(lite)
	}
	return "", false
}

// IsClash reports whether err broke the unique key named constraint (Clash's name).
func IsClash(err error, constraint string) bool {
	name, ok := Clash(err)
	return ok && name == constraint
}

// SQLite's extended result codes of a broken unique key (sqlite3.h).
const (
	sqliteUnique     = 2067 // SQLITE_CONSTRAINT_UNIQUE
	sqlitePrimaryKey = 1555 // SQLITE_CONSTRAINT_PRIMARYKEY
)

// sqliteKeyDetail is how SQLite names the key's columns in its message (sqlite3HaltConstraint:
// "UNIQUE constraint failed: t.a, t.b"), the one place the driver gives them.
const sqliteKeyDetail = "UNIQUE constraint failed: "

// sqliteName derives PostgreSQL's name for the key SQLite reports: table_pkey for a primary
// key, the name of a named unique index or constraint (namedKeys), else PostgreSQL's default
// name of a UNIQUE constraint, table_col1_col2_key. TestClashNamesMatchPostgres checks this
// against every unique key of the PostgreSQL schema.
func sqliteName(e *sqlite.Error) (string, bool) {
	code := e.Code()
	if code != sqliteUnique && code != sqlitePrimaryKey {
		return "", false
	}
	msg := e.Error()
	i := strings.Index(msg, sqliteKeyDetail)
	if i < 0 {
		return "", false
	}
	detail := msg[i+len(sqliteKeyDetail):]
	if j := strings.LastIndex(detail, " ("); j >= 0 { // the driver's " (2067)"
		detail = detail[:j]
	}
	if name, ok := strings.CutPrefix(detail, "index '"); ok { // a key on expressions
		return strings.TrimSuffix(name, "'"), true
	}
	table, cols := "", []string{}
	for _, tc := range strings.Split(detail, ", ") {
		t, c, ok := strings.Cut(tc, ".")
		if !ok || (table != "" && t != table) {
			return "", false
		}
		table = t
		cols = append(cols, c)
	}
	return KeyName(table, cols, code == sqlitePrimaryKey), true
}

// KeyName is PostgreSQL's name of the unique key of table on cols (primary: its primary key).
func KeyName(table string, cols []string, primary bool) string {
	if primary {
		return table + "_pkey"
	}
	key := table + "(" + strings.Join(cols, ",") + ")"
	if name, ok := namedKeys[key]; ok {
		return name
	}
	return pgObjectName(table, strings.Join(cols, "_"), "key")
}

// pgObjectName is PostgreSQL's makeObjectName: name1_name2_label within 63 bytes
// (NAMEDATALEN - 1), shortening the longer of name1 and name2 first.
func pgObjectName(name1, name2, label string) string {
	avail := 63 - 2 - len(label) // less the two underscores and the label
	n1, n2 := len(name1), len(name2)
	for n1+n2 > avail {
		if n1 > n2 {
			n1--
		} else {
			n2--
		}
	}
	return name1[:n1] + "_" + name2[:n2] + "_" + label
}

// namedKeys are the unique indexes and constraints the migrations name themselves
// (internal/db/migrations: CREATE UNIQUE INDEX uq_..., CONSTRAINT uq_... UNIQUE), by table and
// columns in their order.
var namedKeys = map[string]string{
	"application(app_id)":                    "uq_application_app_id",
	"attach_folder(customer_id,path)":        "uq_attach_folder_path",
	"attach_share(token_hash)":               "uq_attach_share_token",
	"command(device_id)":                     "uq_command_waiting",
	"doc_category(customer_id,name)":         "uq_doc_category_name",
	"model_item(model_id,control_type_code)": "uq_model_item_control",
	"model_item(model_id,kind,protocol_key)": "uq_model_item_key",
	"remote_link(device_id)":                 "uq_remote_link_active",
	"reservation(device_id,connector_id)":    "uq_reservation_open",
	"ticket_share(token_hash)":               "uq_ticket_share_token",
	"token(customer_id,tag_key)":             "uq_token_tag",
	"upload(object_key)":                     "uq_upload_key",
}
