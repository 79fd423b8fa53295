package device

import (
	"context"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/db"
)

// ListFilter is what the device list screen offers (spec §2; issue 3).
type ListFilter struct {
	db.Page
	Status      *int   `json:"status"`
	AlarmStatus *int   `json:"alarmStatus"`
	SiteID      int64  `json:"siteId"`
	ModelID     int64  `json:"modelId"`
	CustomerID  int64  `json:"customerId"`
	Keyword     string `json:"keyword"` // SN or name, matched from the start
	Sort        string `json:"sort"`    // "" / "-id" newest first, "id" oldest first
}

// MaxListWindow bounds how deep a list may be paged and how far it is counted: past it the
// total reads "10,000 or more" and the screen asks for a narrower filter. This keeps every page
// of every filter an index range scan, whatever the fleet's size (docs/benchmarks.md).
const MaxListWindow = 10000

// List is a page of devices with a bounded total.
type List struct {
	Total     int64    `json:"total"`
	TotalMore bool     `json:"totalMore"` // total is a lower bound (MaxListWindow reached)
	List      []Device `json:"list"`
}

func (s *Service) filtered(sc access.Scope, f ListFilter) *db.Query {
	q := scoped(sc)
	if f.Status != nil {
		q.And("d.status = ?", *f.Status)
	}
	if f.AlarmStatus != nil {
		q.And("d.alarm_status = ?", *f.AlarmStatus)
	}
	if f.SiteID != 0 {
		q.And("d.site_id = ?", f.SiteID)
	}
	if f.ModelID != 0 {
		q.And("d.model_id = ?", f.ModelID)
	}
	if f.CustomerID != 0 {
		q.And("d.customer_id = ?", f.CustomerID)
	}
	if kw := strings.TrimSpace(f.Keyword); kw != "" {
		// A prefix range uses the unique indexes on sn and name on both databases.
		hi := kw + "\U0010FFFF"
		q.And("((d.sn >= ? AND d.sn < ?) OR (d.name >= ? AND d.name < ?))", kw, hi, kw, hi)
	}
	return q
}

// List returns a page of the devices in scope.
func (s *Service) List(ctx context.Context, sc access.Scope, f ListFilter) (List, error) {
	q := s.filtered(sc, f)
	p := f.Page.Normalize()
	limit, offset := p.LimitOffset()
	if offset+limit > MaxListWindow {
		offset = max(0, MaxListWindow-limit)
	}
	out := List{List: []Device{}}
	where, args := q.Where()
	// Counting stops at the window: a bounded count is an index range scan, not a table count.
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM device d`+where+` LIMIT ?) AS capped`, append(append([]any{}, args...), MaxListWindow+1)...).Scan(&out.Total)
	if err != nil {
		return out, err
	}
	if out.Total > MaxListWindow {
		out.Total, out.TotalMore = MaxListWindow, true
	}
	order := "d.id DESC"
	if f.Sort == "id" {
		order = "d.id ASC"
	}
	out.List, err = db.All(ctx, s.db, q, columns, order, limit, offset, scan)
	return out, err
}

// StatusCounts counts the devices in scope by status (for the list's status badges and home).
func (s *Service) StatusCounts(ctx context.Context, sc access.Scope) (map[int]int64, error) {
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	rows, err := s.db.Query(ctx, `SELECT d.status, COUNT(*) FROM device d WHERE `+cond+` GROUP BY d.status`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int]int64{}
	for rows.Next() {
		var st int
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			return nil, err
		}
		out[st] = n
	}
	return out, rows.Err()
}
