package read

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// The protocol-log list: filters, the caller's scope, keyset pages and cursors.

// LogListInput filters protocol logs (docs/gateway.md#protocol-logs-and-backpressure order fields: default, SN, communication type).
type LogListInput struct {
	db.Page
	SN    string `json:"sn"`
	Type  *int   `json:"type"`
	Start int64  `json:"startTime"`
	End   int64  `json:"endTime"`
	Sort  string `json:"sort"` // "" (newest first), sn, -sn, type, -type; newest first within
	// Cursor continues the list after the last row of an earlier page (that answer's next):
	// a keyset walk that costs the same at any depth. Page is then ignored; the filters and
	// sort must be the ones of that page.
	Cursor string `json:"cursor"`
}

// LogView is one protocol-log row.
type LogView struct {
	ID   int64  `json:"id"`
	SN   string `json:"sn"`
	Type int    `json:"type"`
	Data string `json:"data"`
	Time int64  `json:"time"`
}

// LogList is a page of protocol-log rows.
type LogList struct {
	// Total counts the matches up to db.MaxWindow; TotalMore says there are more.
	Total     int64     `json:"total"`
	TotalMore bool      `json:"totalMore,omitempty"`
	List      []LogView `json:"list"`
	// Next is the cursor of the page after this one; empty after the last row.
	Next string `json:"next,omitempty"`
}

// SQL of the protocol-log list. Every order is an index walk: (created_at, id) for the
// default, (sn, created_at, id) and (type, created_at, id) for the others (migration 0003;
// on PostgreSQL the first is the primary key of the partitioned table, 0012).
const (
	sqlLogColumns = `l.id, l.sn, l.type, l.data, l.created_at`
	sqlLogTable   = `protocol_log l`
	// %s the source (sqlLogTable or sqlLogPerDevice), %s its WHERE
	sqlLogCount = `SELECT COUNT(*) FROM (SELECT 1 FROM %s%s LIMIT ?) AS capped`
	// %s the columns, the source, its WHERE, the ORDER BY
	sqlLogPage = `SELECT %s FROM %s%s%s LIMIT ? OFFSET ?`
	// a caller's scope, filtered row by row in the walk of the whole table
	sqlLogScopeFilter = `l.sn IN (SELECT d.sn FROM device d WHERE %s)`
	// a scope of few devices, bounded count: is it at most logScopePerDeviceMax devices?
	sqlLogScopeDevices = `SELECT COUNT(*) FROM (SELECT 1 FROM device d WHERE %s LIMIT ?) AS capped`
	// each device of the scope walked on (sn, created_at, id), at most so many rows each; the
	// device's SN is compared in the log's collation so that index serves (device.sn is "C")
	sqlLogPerDevice = `device d CROSS JOIN LATERAL (SELECT %s FROM protocol_log l WHERE l.sn = d.sn COLLATE "default"%s%s LIMIT ?) AS l`
	// the rows of a page of keys (%[2]s), by primary key
	sqlLogByKeys = `SELECT %[1]s FROM (%[2]s) AS k JOIN protocol_log l ON l.created_at = k.created_at AND l.id = k.id`
)

// logScopePerDeviceMax: a scope of at most so many devices is listed device by device on
// PostgreSQL (a short index walk in each partition for each device), a larger one by walking
// all rows in time order and keeping those of its devices. The first costs devices ×
// partitions, the second about MaxWindow / (the scope's share of the rows) for the bounded
// count; at 100 million rows, 20,000 SNs and 35 partitions they cross near 300 devices
// (docs/benchmarks.md, issue 9).
const logScopePerDeviceMax = 300

// logQuery is the FROM and WHERE of one protocol-log list call: the table with the filters,
// or, for a scope of few devices on PostgreSQL, the per-device walks (perDevice) joined to
// the scope's devices.
type logQuery struct {
	conds     []string
	args      []any
	perDevice bool
	scope     string // the devices' condition (perDevice)
	scopeArgs []any
}

// where is the WHERE of the log rows with one more condition (may be "").
func (q logQuery) where(extra string, extraArgs []any, lead string) (string, []any) {
	conds := append([]string{}, q.conds...)
	args := append([]any{}, q.args...)
	if extra != "" {
		conds, args = append(conds, extra), append(args, extraArgs...)
	}
	if len(conds) == 0 {
		return "", args
	}
	return lead + strings.Join(conds, " AND "), args
}

// count is the bounded count of the matches.
func (q logQuery) count() (string, []any) {
	if !q.perDevice {
		w, args := q.where("", nil, " WHERE ")
		return fmt.Sprintf(sqlLogCount, sqlLogTable, w), append(args, db.MaxWindow+1)
	}
	w, args := q.where("", nil, " AND ")
	from := fmt.Sprintf(sqlLogPerDevice, "1", w, "")
	args = append(append(append(args, db.MaxWindow+1), q.scopeArgs...), db.MaxWindow+1)
	return fmt.Sprintf(sqlLogCount, from, " WHERE "+q.scope), args
}

// rows selects cols of the rows after the extra condition in order, offset..offset+limit.
// Per device, the walks read only the index (the keys of the order), and the page's rows are
// then fetched by their primary key (created_at, id): otherwise each device's walk would read
// a table row in every partition before the merge keeps the page's few.
func (q logQuery) rows(cols, extra string, extraArgs []any, order logSort, limit, offset int) (string, []any) {
	if !q.perDevice {
		w, args := q.where(extra, extraArgs, " WHERE ")
		return fmt.Sprintf(sqlLogPage, cols, sqlLogTable, w, order.orderBy()), append(args, limit, offset)
	}
	w, args := q.where(extra, extraArgs, " AND ")
	keys := order.keyColumns()
	from := fmt.Sprintf(sqlLogPerDevice, keys, w, order.orderBy())
	args = append(append(append(args, limit+offset), q.scopeArgs...), limit, offset)
	page := fmt.Sprintf(sqlLogPage, keys, from, " WHERE "+q.scope, order.orderBy())
	if cols == keys {
		return page, args
	}
	return fmt.Sprintf(sqlLogByKeys, cols, page) + order.orderBy(), args
}

// logSort is an order of the list: by key (sn or type, or none) in its direction, then newest
// first, then by id, so that every row has one place and a cursor names it.
type logSort struct {
	name string // the input's sort: "", "sn", "-sn", "type", "-type"
	key  string // "", "l.sn" or "l.type"
	desc bool
}

func parseLogSort(s string) logSort {
	switch s {
	case "sn", "-sn":
		return logSort{name: s, key: "l.sn", desc: s[0] == '-'}
	case "type", "-type":
		return logSort{name: s, key: "l.type", desc: s[0] == '-'}
	}
	return logSort{}
}

func (o logSort) orderBy() string {
	if o.key == "" {
		return ` ORDER BY l.created_at DESC, l.id DESC`
	}
	dir := " ASC"
	if o.desc {
		dir = " DESC"
	}
	return ` ORDER BY ` + o.key + dir + `, l.created_at DESC, l.id DESC`
}

// keyColumns are the columns a cursor holds, in the order scanCursor reads them.
func (o logSort) keyColumns() string {
	if o.key == "" {
		return `l.created_at, l.id`
	}
	return o.key + `, l.created_at, l.id`
}

// logCursor is the place of a row in one order: its sort key, time and id.
type logCursor struct {
	Sort string `json:"s,omitempty"`
	SN   string `json:"n,omitempty"`
	Type int    `json:"y,omitempty"`
	At   int64  `json:"t"`
	ID   int64  `json:"i"`
}

func (o logSort) cursorOf(v LogView) logCursor {
	c := logCursor{Sort: o.name, At: v.Time, ID: v.ID}
	switch o.key {
	case "l.sn":
		c.SN = v.SN
	case "l.type":
		c.Type = v.Type
	}
	return c
}

func (c logCursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeLogCursor(s string, o logSort) (logCursor, error) {
	var c logCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Sort != o.name || c.ID <= 0 {
		return c, apperr.InvalidField("cursor", "err.invalid")
	}
	return c, nil
}

// scanCursor reads the keyColumns of a row.
func (o logSort) scanCursor(row interface{ Scan(...any) error }) (logCursor, error) {
	c := logCursor{Sort: o.name}
	switch o.key {
	case "l.sn":
		return c, row.Scan(&c.SN, &c.At, &c.ID)
	case "l.type":
		return c, row.Scan(&c.Type, &c.At, &c.ID)
	}
	return c, row.Scan(&c.At, &c.ID)
}

// after is the keyset condition of the rows after c in this order (from c on, inclusive). The
// plain bound on created_at lets PostgreSQL skip the newer partitions.
func (o logSort) after(c logCursor, inclusive bool) (string, []any) {
	cmp := "<"
	if inclusive {
		cmp = "<="
	}
	timeCond := "(l.created_at, l.id) " + cmp + " (?, ?) AND l.created_at <= ?"
	timeArgs := []any{c.At, c.ID, c.At}
	if o.key == "" {
		return timeCond, timeArgs
	}
	var key any = c.SN
	if o.key == "l.type" {
		key = c.Type
	}
	beyond, from := " > ?", " >= ?"
	if o.desc {
		beyond, from = " < ?", " <= ?"
	}
	return o.key + from + " AND (" + o.key + beyond + " OR (" + timeCond + "))", append([]any{key, key}, timeArgs...)
}

// ProtocolLogs lists protocol-log rows of devices in the caller's scope (rows of unknown SNs
// only for callers who see everything). The total is counted up to db.MaxWindow. A page is
// found by keyset: from the input's cursor, or, for a page number, from the row at its offset
// (at most db.MaxWindow rows deep, read from the index alone), so a page costs an index walk
// of its own rows whatever the table's size. Next continues from the page's last row.
func (s *Service) ProtocolLogs(ctx context.Context, p *access.Principal, in LogListInput) (LogList, error) {
	out := LogList{List: []LogView{}}
	order := parseLogSort(in.Sort)
	var from *logCursor
	if in.Cursor != "" {
		c, err := decodeLogCursor(in.Cursor, order)
		if err != nil {
			return out, err
		}
		from = &c
	}
	q, err := s.logQuery(ctx, p.Scope, in)
	if err != nil {
		return out, err
	}

	sqlCount, args := q.count()
	if err := s.db.QueryRow(ctx, sqlCount, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("read: protocol log count: %w", err)
	}
	if out.Total > db.MaxWindow {
		out.Total, out.TotalMore = db.MaxWindow, true
	}

	limit, offset := in.Page.LimitOffset()
	inclusive := false
	if from == nil && offset > 0 {
		// The page's first row, from the index alone; the page is then a keyset walk from it.
		offset = min(offset, max(0, db.MaxWindow-limit))
		sqlKey, args := q.rows(order.keyColumns(), "", nil, order, 1, offset)
		c, err := order.scanCursor(s.db.QueryRow(ctx, sqlKey, args...))
		if db.NotFound(err) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("read: protocol log page: %w", err)
		}
		from, inclusive = &c, true
	}
	var after string
	var afterArgs []any
	if from != nil {
		after, afterArgs = order.after(*from, inclusive)
	}
	sqlPage, args := q.rows(sqlLogColumns, after, afterArgs, order, limit+1, 0)
	rows, err := s.db.Query(ctx, sqlPage, args...)
	if err != nil {
		return out, fmt.Errorf("read: protocol log list: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l LogView
		if err := rows.Scan(&l.ID, &l.SN, &l.Type, &l.Data, &l.Time); err != nil {
			return out, fmt.Errorf("read: protocol log list: %w", err)
		}
		out.List = append(out.List, l)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("read: protocol log list: %w", err)
	}
	if len(out.List) > limit {
		out.List = out.List[:limit]
		out.Next = order.cursorOf(out.List[limit-1]).encode()
	}
	return out, nil
}

// logQuery turns the filters and the caller's scope into a logQuery.
func (s *Service) logQuery(ctx context.Context, sc access.Scope, in LogListInput) (logQuery, error) {
	var q logQuery
	if sn := strings.TrimSpace(in.SN); sn != "" {
		q.conds, q.args = append(q.conds, "l.sn = ?"), append(q.args, sn)
	}
	if in.Type != nil {
		q.conds, q.args = append(q.conds, "l.type = ?"), append(q.args, *in.Type)
	}
	if in.Start > 0 {
		q.conds, q.args = append(q.conds, "l.created_at >= ?"), append(q.args, in.Start)
	}
	if in.End > 0 {
		q.conds, q.args = append(q.conds, "l.created_at < ?"), append(q.args, in.End)
	}
	if sc.Everything() {
		return q, nil
	}
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	if s.db.Dialect() == db.Postgres && strings.TrimSpace(in.SN) == "" {
		var devices int
		if err := s.db.QueryRow(ctx, fmt.Sprintf(sqlLogScopeDevices, cond), append(append([]any{}, args...), logScopePerDeviceMax+1)...).Scan(&devices); err != nil {
			return q, fmt.Errorf("read: protocol log scope: %w", err)
		}
		if devices <= logScopePerDeviceMax {
			q.perDevice, q.scope, q.scopeArgs = true, cond, args
			return q, nil
		}
	}
	q.conds, q.args = append(q.conds, fmt.Sprintf(sqlLogScopeFilter, cond)), append(q.args, args...)
	return q, nil
}
