package stats

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/user"
)

// Counts are enabled and disabled objects.
type Counts struct {
	Total    int64 `json:"total"`
	Enabled  int64 `json:"enabled"`
	Disabled int64 `json:"disabled"`
}

// CustomerCounts are the customers, the platform's own and the read-only ones among them.
type CustomerCounts struct {
	Total    int64 `json:"total"`
	Platform int64 `json:"platform"`
	ReadOnly int64 `json:"readOnly"`
}

// UserCounts add the locked accounts.
type UserCounts struct {
	Counts
	Locked int64 `json:"locked"`
}

// TypeCount is how many device models are of a device type (docs/dashboards.md#device-categories: 1 to 6).
type TypeCount struct {
	Type  int   `json:"type"`
	Count int64 `json:"count"`
}

// ModelCounts are the device models by type.
type ModelCounts struct {
	Total  int64       `json:"total"`
	ByType []TypeCount `json:"byType"`
}

// DeviceCounts are the devices and how many are online.
type DeviceCounts struct {
	Total  int64 `json:"total"`
	Online int64 `json:"online"`
}

// Node is a node with chargers connected.
type Node struct {
	ID        string `json:"id"`
	Connected int64  `json:"connected"`
	SeenAt    int64  `json:"seenAt"`
}

// SystemInfo is what the serving node says of itself (the handler fills the node's part).
type SystemInfo struct {
	Version       string  `json:"version"`
	Node          string  `json:"node"`
	StartedAt     int64   `json:"startedAt"`
	UptimeMS      int64   `json:"uptimeMs"`
	Database      string  `json:"database"`
	DatabaseBytes int64   `json:"databaseBytes"`
	Connected     int64   `json:"connected"`
	InboundPerSec float64 `json:"inboundPerSec"`
	QueueDepth    int64   `json:"queueDepth"`
	QueueCapacity int64   `json:"queueCapacity"`
	Nodes         []Node  `json:"nodes"`
}

// SystemOverview is the system dashboard's overview.
type SystemOverview struct {
	Users     UserCounts     `json:"users"`
	Customers CustomerCounts `json:"customers"`
	Models    ModelCounts    `json:"models"`
	Devices   DeviceCounts   `json:"devices"`
	System    *SystemInfo    `json:"system"`
}

// SeesPlatform reports whether p may read the node's own figures: root, or a role that sees
// every customer.
func SeesPlatform(p *access.Principal) bool { return p.Root || p.Scope.AllCustomers }

// System counts users, customers, models and devices in p's scope; info, the node's own
// figures, is added (with the database size and the node list) only for platform callers.
func (s *Service) System(ctx context.Context, p *access.Principal, info SystemInfo) (SystemOverview, error) {
	var out SystemOverview
	now := s.now()
	ucond, uargs := p.UserCond("u")
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN u.status = ? THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN u.locked_until > ? THEN 1 ELSE 0 END), 0)
		FROM app_user u WHERE `+ucond, append([]any{user.Enabled, now}, uargs...)...).Scan(&out.Users.Total, &out.Users.Enabled, &out.Users.Locked); err != nil {
		return out, fmt.Errorf("stats: users: %w", err)
	}
	out.Users.Disabled = out.Users.Total - out.Users.Enabled
	ccond, cargs := p.Scope.CustomerCond("c.id")
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(c.platform), 0), COALESCE(SUM(c.read_only), 0) FROM customer c WHERE `+ccond, cargs...).
		Scan(&out.Customers.Total, &out.Customers.Platform, &out.Customers.ReadOnly); err != nil {
		return out, fmt.Errorf("stats: customers: %w", err)
	}
	// models: the platform's shared ones (customer 0) and those of the customers in scope
	mcond, margs := p.Scope.CustomerCond("m.customer_id")
	if p.Root {
		mcond, margs = "1 = 1", nil
	}
	rows, err := s.db.Query(ctx, `SELECT m.device_type, COUNT(*) FROM device_model m WHERE (m.customer_id = 0 OR `+mcond+`) GROUP BY m.device_type ORDER BY m.device_type`, margs...)
	if err != nil {
		return out, fmt.Errorf("stats: models: %w", err)
	}
	out.Models.ByType = []TypeCount{}
	if err := scanAll(rows, func(r db.Scanner) error {
		var t TypeCount
		err := r.Scan(&t.Type, &t.Count)
		out.Models.ByType = append(out.Models.ByType, t)
		out.Models.Total += t.Count
		return err
	}); err != nil {
		return out, err
	}
	dcond, dargs := p.Scope.SiteCond("d.customer_id", "d.site_id")
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN d.status NOT IN (0, 6) THEN 1 ELSE 0 END), 0) FROM device d WHERE `+dcond, dargs...).
		Scan(&out.Devices.Total, &out.Devices.Online); err != nil {
		return out, fmt.Errorf("stats: devices: %w", err)
	}
	if !SeesPlatform(p) {
		return out, nil
	}
	info.Database = s.db.Dialect().String()
	if info.DatabaseBytes, err = s.databaseBytes(ctx); err != nil {
		return out, err
	}
	rows, err = s.db.Query(ctx, `SELECT node, COUNT(*), MAX(last_seen_at) FROM device_state WHERE online = 1 GROUP BY node ORDER BY node`)
	if err != nil {
		return out, fmt.Errorf("stats: nodes: %w", err)
	}
	info.Nodes = []Node{}
	if err := scanAll(rows, func(r db.Scanner) error {
		var n Node
		err := r.Scan(&n.ID, &n.Connected, &n.SeenAt)
		info.Nodes = append(info.Nodes, n)
		return err
	}); err != nil {
		return out, err
	}
	out.System = &info
	return out, nil
}

func (s *Service) databaseBytes(ctx context.Context) (int64, error) {
	var n int64
	var err error
	if s.db.Dialect() == db.Postgres {
		err = s.db.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&n)
	} else {
		err = s.db.QueryRow(ctx, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&n)
	}
	if err != nil {
		return 0, fmt.Errorf("stats: database size: %w", err)
	}
	return n, nil
}
