package device

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/devstate"
	"chargeops/internal/kit"
	"chargeops/internal/stats"
)

// Filter is the device list's filter without status and paging: what the status counts
// follow (issue 8).
type Filter struct {
	AlarmStatus *int   `json:"alarmStatus"`
	SiteID      int64  `json:"siteId"`
	ModelID     int64  `json:"modelId"`
	CustomerID  int64  `json:"customerId"`
	Keyword     string `json:"keyword"` // SN or name, matched from the start
	// Restarting: true lists the devices restarting now (a Reset accepted, not connected
	// since; docs/dashboards.md), false the others.
	Restarting *bool `json:"restarting"`
	// OfflineFor (seconds): only the offline devices not heard from for longer than this
	// (issue 30 item 7); 0 is no such filter.
	OfflineFor int64 `json:"offlineFor"`
	// Protocol: only the devices whose last connection spoke it (devstate.Protocols: ocpp1.6,
	// ocpp2.0.1); "" is no such filter.
	Protocol string `json:"protocol"`
	// Category: only the devices whose model is of this device type, the site device category
	// (devmodel.TypeChargingPile 1 ... TypeV2G 6: EV charger, AC charger, storage charger,
	// storage device, home storage, V2G charger); 0 is no such filter.
	Category int `json:"category"`
}

// validate checks the filter's fields that can be wrong, one check each, naming the field.
func (f Filter) validate() error {
	if f.OfflineFor < 0 {
		return apperr.InvalidField("offlineFor", "err.invalid")
	}
	if f.Protocol != "" && !slices.Contains(devstate.Protocols, f.Protocol) {
		return apperr.InvalidField("protocol", "err.invalid")
	}
	if f.Category != 0 && (f.Category < devmodel.TypeChargingPile || f.Category > devmodel.TypeV2G) {
		return apperr.InvalidField("category", "err.invalid")
	}
	return nil
}

// ListFilter is what the device list screen offers (docs/api.md#lists; issue 3).
type ListFilter struct {
	db.Page
	Filter
	Status *int `json:"status"`
	// Sort is a sortable column, "-" in front for descending (sortKeys); "" is newest first.
	Sort string `json:"sort"`
}

// sortKeys maps the list's sortable columns to the device column each is walked on (the
// column an index leads with, migration 0043), ties broken by id in the same direction.
var sortKeys = map[string]string{
	"id":            "d.id",
	"createdAt":     "d.id",
	"status":        "d.status",
	"lastRefreshAt": "d.last_refresh_at",
	"sn":            "d.sn",
	"name":          "d.name",
}

// order is the list's order: a device column and a direction.
type order struct {
	col  string
	desc bool
}

// orderOf reads a Sort ("" is newest first); an unknown column is an invalid "sort".
func orderOf(sort string) (order, error) {
	if sort == "" {
		return newestFirst, nil
	}
	desc := strings.HasPrefix(sort, "-")
	col, ok := sortKeys[strings.TrimPrefix(sort, "-")]
	if !ok {
		return order{}, apperr.InvalidField("sort", "err.invalid")
	}
	return order{col, desc}, nil
}

// newestFirst is the order of counts and of a list without a sort.
var newestFirst = order{"d.id", true}

// by is the ORDER BY of o over the column expressions col and id.
func (o order) by(col, id string) string {
	dir := " ASC"
	if o.desc {
		dir = " DESC"
	}
	if col == id {
		return id + dir
	}
	return col + dir + ", " + id + dir
}

// statuses is how many device statuses there are (0-6, fleet/status.go; docs/gateway.md#status-alarms-events).
const statuses = 7

// MaxListWindow is the device list's window (db.MaxWindow; docs/benchmarks.md).
const MaxListWindow = db.MaxWindow

// maxBranches is how many scope values are split into separate index walks; a longer list is
// filtered with a plain IN.
const maxBranches = 64

// List is a page of devices with a bounded total.
type List struct {
	Total     int64    `json:"total"`
	TotalMore bool     `json:"totalMore"` // total is a lower bound (MaxListWindow reached)
	List      []Device `json:"list"`
}

// plan is the device-only part of a list query: conditions every row must meet, and branches
// of which a row must meet one. Each branch is walked on its own index in id order (or in
// SN/name order for a keyword), so no branch ever sorts a large set: an IN list or an OR
// across two indexes would make both databases sort every match.
type plan struct {
	conds    []string
	args     []any
	branches []branch
}

type branch struct {
	cond  string
	args  []any
	order string // index order of the walk; "" means d.id in the list's direction
}

func (s *Service) plan(sc access.Scope, f ListFilter) plan {
	var p plan
	add := func(c string, a ...any) { p.conds = append(p.conds, c); p.args = append(p.args, a...) }
	if f.Status != nil {
		add("d.status = ?", *f.Status)
	}
	if f.AlarmStatus != nil {
		add("d.alarm_status = ?", *f.AlarmStatus)
	}
	if f.SiteID != 0 {
		add("d.site_id = ?", f.SiteID)
	}
	if f.ModelID != 0 {
		add("d.model_id = ?", f.ModelID)
	}
	if f.CustomerID != 0 {
		add("d.customer_id = ?", f.CustomerID)
	}
	if f.OfflineFor > 0 {
		add("d.status = ? AND d.last_refresh_at < ?", devstate.StatusOffline, db.NowMS()-f.OfflineFor*1000)
	}
	if f.Category != 0 {
		// like the protocol: a primary-key probe of the model per row the walk reaches
		add("EXISTS (SELECT 1 FROM device_model m WHERE m.id = d.model_id AND m.device_type = ?)", f.Category)
	}
	if f.Protocol != "" {
		// checked on the rows an index walk reaches (a primary-key probe each), as the window bounds them
		add("EXISTS (SELECT 1 FROM device_state st WHERE st.device_id = d.id AND st.protocol = ?)", f.Protocol)
	}
	if f.Restarting != nil {
		c, a := stats.RestartingCond(db.NowMS())
		if !*f.Restarting {
			c = "NOT (" + c + ")"
		}
		add(c, a...)
	}
	kw := strings.TrimSpace(f.Keyword)
	switch {
	case kw != "":
		// Walked in SN and name order, up to the window each; beyond it the list is a window
		// of the matches (totalMore), as everywhere.
		hi := kw + "\U0010FFFF"
		p.branches = []branch{{"d.sn >= ? AND d.sn < ?", []any{kw, hi}, "d.sn"}, {"d.name >= ? AND d.name < ?", []any{kw, hi}, "d.name"}}
	case !sc.AllSites && f.SiteID == 0 && len(sc.SiteIDs) > 1 && len(sc.SiteIDs) <= maxBranches:
		for _, id := range sc.SiteIDs {
			p.branches = append(p.branches, branch{cond: "d.site_id = ?", args: []any{id}})
		}
	case sc.AllSites && !sc.AllCustomers && f.CustomerID == 0 && len(sc.CustomerIDs) > 1 && len(sc.CustomerIDs) <= maxBranches:
		for _, id := range sc.CustomerIDs {
			p.branches = append(p.branches, branch{cond: "d.customer_id = ?", args: []any{id}})
		}
	}
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	add(cond, args...)
	return p
}

// ids returns the SQL and arguments selecting the ids of rows [offset, offset+limit) in the
// list's order, or, with count, a bounded count of the matches.
func (p plan) ids(o order, limit, offset int, count bool) (string, []any) {
	where := " WHERE " + strings.Join(p.conds, " AND ")
	if len(p.branches) == 0 {
		if count {
			return "SELECT COUNT(*) FROM (SELECT 1 FROM device d" + where + " LIMIT ?) AS capped", append(append([]any{}, p.args...), MaxListWindow+1)
		}
		return "SELECT d.id FROM device d" + where + " ORDER BY " + o.by(o.col, "d.id") + " LIMIT ? OFFSET ?", append(append([]any{}, p.args...), limit, offset)
	}
	window := offset + limit
	if count {
		window = MaxListWindow + 1
	}
	var parts []string
	var args []any
	for i, b := range p.branches {
		walk, take := b.order, MaxListWindow+1
		if walk == "" {
			// Walked in the list's own order, a branch's first rows are the only ones the
			// merged page can use.
			walk, take = o.by(o.col, "d.id"), window
		}
		parts = append(parts, "SELECT id, k FROM (SELECT d.id, "+o.col+" AS k FROM device d"+where+" AND "+b.cond+" ORDER BY "+walk+" LIMIT ?) AS b"+strconv.Itoa(i))
		args = append(append(append(args, p.args...), b.args...), take)
	}
	// Branches on one column's distinct values are disjoint: UNION ALL spares the
	// de-duplicating sort. SN and name branches can match the same device: UNION.
	glue := " UNION ALL "
	if p.branches[0].order != "" {
		glue = " UNION "
	}
	union := strings.Join(parts, glue)
	if count {
		return "SELECT COUNT(*) FROM (SELECT id FROM (" + union + ") AS u LIMIT ?) AS capped", append(args, MaxListWindow+1)
	}
	return "SELECT id FROM (" + union + ") AS u ORDER BY " + o.by("k", "id") + " LIMIT ? OFFSET ?", append(args, limit, offset)
}

// List returns a page of the devices in p's scope: the page's ids from the device table alone,
// then those rows with their model, site and customer names.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (List, error) {
	pl := s.plan(p.Scope, f)
	limit, offset := f.Page.LimitOffset()
	if offset+limit > MaxListWindow {
		offset = max(0, MaxListWindow-limit)
	}
	out := List{List: []Device{}}
	o, err := orderOf(f.Sort)
	if err != nil {
		return out, err
	}
	if err := f.validate(); err != nil {
		return out, err
	}
	q, args := pl.ids(o, 0, 0, true)
	if err := s.db.QueryRow(ctx, q, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("device: list: count: %w", err)
	}
	if out.Total > MaxListWindow {
		out.Total, out.TotalMore = MaxListWindow, true
	}
	q, args = pl.ids(o, limit, offset, false)
	ids, err := db.Column[int64](ctx, s.db, q, args...)
	if err != nil || len(ids) == 0 {
		return out, kit.Wrap("device", "list: ids", err)
	}
	out.List, err = db.All(ctx, s.db, (&db.Query{From: from}).And("d.id IN ("+db.Placeholders(len(ids))+")", db.Args(ids)...), columns, o.by(o.col, "d.id"), len(ids), 0, scan)
	return out, kit.Wrap("device", "list", err)
}

// filtered is the plain (unbranched) query of a filter, for exports that walk all matches.
func (s *Service) filtered(sc access.Scope, f ListFilter) *db.Query {
	pl := s.plan(sc, f)
	q := &db.Query{From: from}
	q.And(strings.Join(pl.conds, " AND "), pl.args...)
	if len(pl.branches) > 0 {
		var conds []string
		var args []any
		for _, b := range pl.branches {
			conds = append(conds, "("+b.cond+")")
			args = append(args, b.args...)
		}
		q.And("("+strings.Join(conds, " OR ")+")", args...)
	}
	return q
}

// StatusCounts counts the devices in p's scope by status (for the list's status badges and home).
// Without a filter it is one grouped count of the scope; with one, each status is the list's
// own bounded count of that filter and status (index walks of at most MaxListWindow+1 rows,
// docs/benchmarks.md), so a badge equals the total the list shows for it, and a count above
// MaxListWindow means "more than MaxListWindow".
func (s *Service) StatusCounts(ctx context.Context, p *access.Principal, f Filter) (map[int]int64, error) {
	f.Keyword = strings.TrimSpace(f.Keyword)
	if err := f.validate(); err != nil {
		return nil, err
	}
	if f == (Filter{}) {
		return s.scopeStatusCounts(ctx, p.Scope)
	}
	out := map[int]int64{}
	for st := range statuses {
		q, args := s.plan(p.Scope, ListFilter{Filter: f, Status: &st}).ids(newestFirst, 0, 0, true)
		var n int64
		if err := s.db.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			return nil, fmt.Errorf("device: status counts: %w", err)
		}
		if n > 0 {
			out[st] = n
		}
	}
	return out, nil
}

func (s *Service) scopeStatusCounts(ctx context.Context, sc access.Scope) (map[int]int64, error) {
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	rows, err := s.db.Query(ctx, `SELECT d.status, COUNT(*) FROM device d WHERE `+cond+` GROUP BY d.status`, args...)
	if err != nil {
		return nil, fmt.Errorf("device: status counts: %w", err)
	}
	defer rows.Close()
	out := map[int]int64{}
	for rows.Next() {
		var st int
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("device: status counts: %w", err)
		}
		out[st] = n
	}
	return out, rows.Err()
}
