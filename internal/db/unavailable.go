package db

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
)

// SQLite's primary result codes that mean "not now" rather than "not this statement"
// (https://sqlite.org/rescode.html): busy, locked, out of memory, read-only file, I/O error,
// disk full, cannot open.
const (
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteNoMem    = 7
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// PostgreSQL's SQLSTATE classes and codes that mean the server could not do the work now: a
// lost connection (08), insufficient resources such as a full disk (53), an operator
// intervention such as a shutdown (57), a system error (58), a serialization failure or
// deadlock (40001, 40P01).
var pgTransient = []string{"08", "53", "57", "58", "40001", "40P01"}

// Unavailable reports whether err says the database could not do the work now (connection
// lost, server down, disk full, I/O error, busy) as opposed to refusing the statement itself
// (a constraint, a bad value). Work that failed this way is worth retrying as it is, for as long
// as it takes; an error the database answered with for the statement is not. A network error or
// a lost connection counts as unavailable; any other error does not (callers that must not give
// up also ask the server with a ping).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var lite interface{ Code() int }
	if errors.As(err, &lite) {
		switch lite.Code() & 0xff { // the primary code of an extended one
		case sqliteBusy, sqliteLocked, sqliteNoMem, sqliteReadOnly, sqliteIOErr, sqliteFull, sqliteCantOpen:
			return true
		}
		return false
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		state := pg.SQLState()
		for _, p := range pgTransient {
			if strings.HasPrefix(state, p) {
				return true
			}
		}
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "failed to connect")
}

// Closed reports the error of a pool that was closed (the node is shutting down): nothing will
// ever succeed on it.
func Closed(err error) bool {
	return err != nil && strings.Contains(err.Error(), "database is closed")
}

// Reason names, for a public health answer, why the database could not do the work, without
// the error's details (addresses, names), which go to the log.
func Reason(err error) string {
	var lite interface{ Code() int }
	var pg interface{ SQLState() string }
	switch {
	case err == nil:
		return ""
	case errors.As(err, &lite) && lite.Code()&0xff == sqliteFull, errors.As(err, &pg) && pg.SQLState() == "53100":
		return "disk full"
	case errors.As(err, &lite) && lite.Code()&0xff == sqliteIOErr:
		return "disk I/O error"
	case errors.As(err, &lite) && (lite.Code()&0xff == sqliteBusy || lite.Code()&0xff == sqliteLocked):
		return "database busy"
	case errors.As(err, &pg) && strings.HasPrefix(pg.SQLState(), "57"):
		return "database shutting down"
	case Unavailable(err) && !errors.As(err, &lite) && !errors.As(err, &pg):
		return "database unreachable"
	}
	return "database error"
}
