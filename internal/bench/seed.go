package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"chargeops/internal/db"
)

// SeedOptions say which devices Seed generates. Device i (0-based) gets the SN
// Prefix + (First+i) zero-padded to Digits, and the name NamePrefix + the same number.
type SeedOptions struct {
	Devices    int    // how many devices
	Prefix     string // SN prefix (default "BENCH-")
	NamePrefix string // device name prefix (default "Bench ")
	Digits     int    // width of the number (default 7)
	First      int    // number of the first device (default 0; the bench fleet uses 1)
	// Label heads the names of the customers, sites and models ("Customer 01" with Label ""),
	// Code the codes ("C01" with Code ""). Rows that exist already (same code, or same model
	// name) are reused, so seeding twice adds nothing.
	Label, Code string
	Customers   int // default 1
	Sites       int // default 1; site s belongs to customer s mod Customers
	Models      int // default 1
	// Mixed spreads devices over random sites and models with the status mix of a live fleet
	// (the device-list benchmark); otherwise device i is at site i mod Sites, model i mod
	// Models, status 0 (never connected).
	Mixed    bool
	Batch    int            // rows per INSERT (default 500)
	TxRows   int            // rows per transaction (default 20,000)
	Progress func(done int) // called after each transaction
}

func (o *SeedOptions) defaults() {
	if o.Prefix == "" {
		o.Prefix = "BENCH-"
	}
	if o.NamePrefix == "" {
		o.NamePrefix = "Bench "
	}
	if o.Digits <= 0 {
		o.Digits = 7
	}
	o.Customers, o.Sites, o.Models = max(o.Customers, 1), max(o.Sites, 1), max(o.Models, 1)
	if o.Batch <= 0 {
		o.Batch = 500
	}
	if o.TxRows <= 0 {
		o.TxRows = 20000
	}
}

// Seeded is what Seed made.
type Seeded struct {
	CustomerIDs, SiteIDs, ModelIDs []int64
	Inserted                       int // devices inserted (existing SNs and names are kept)
	Took                           time.Duration
}

// SN is the charger serial number of number n with a prefix and a width, as Seed writes it
// and the bench fleet connects with it.
func SN(prefix string, digits, n int) string { return fmt.Sprintf("%s%0*d", prefix, digits, n) }

// mixedStatuses is the status mix of the device-list benchmark (fleet/status.go).
var mixedStatuses = []int{0, 1, 1, 1, 2, 2, 3, 4, 5, 6}

// Seed bulk-inserts customers, sites, models and devices: multi-row INSERTs, many per
// transaction, then the planner statistics are refreshed (PostgreSQL: VACUUM ANALYZE, which a
// bulk load needs before index-only scans; SQLite: ANALYZE). On a fresh database the ids are
// 1..n in order. About 60 s for 1,000,000 devices on SQLite (docs/benchmarks.md).
func Seed(ctx context.Context, d *db.DB, o SeedOptions) (Seeded, error) {
	o.defaults()
	start := time.Now()
	var out Seeded
	var err error
	if out.CustomerIDs, out.SiteIDs, out.ModelIDs, err = seedOrg(ctx, d, o); err != nil {
		return out, err
	}
	now := db.NowMS()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < o.Devices; i += o.TxRows {
		end := min(i+o.TxRows, o.Devices)
		err := d.InTx(ctx, func(tx *db.Tx) error {
			for j := i; j < end; j += o.Batch {
				n, err := insertDevices(ctx, tx, o, out, rng, j, min(j+o.Batch, end), now)
				if err != nil {
					return err
				}
				out.Inserted += n
			}
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("seed devices %d-%d: %w", i, end-1, err)
		}
		if o.Progress != nil {
			o.Progress(end)
		}
	}
	stats := `ANALYZE`
	if d.Dialect() == db.Postgres {
		stats = `VACUUM ANALYZE device`
	}
	if _, err := d.Exec(ctx, stats); err != nil {
		return out, fmt.Errorf("seed: %s: %w", stats, err)
	}
	out.Took = time.Since(start)
	return out, nil
}

// seedOrg finds or creates the customers, sites and models.
func seedOrg(ctx context.Context, d *db.DB, o SeedOptions) (customers, sites, models []int64, err error) {
	now := db.NowMS()
	// findOrInsert returns the id of the row whose key column has the value, inserting it first
	// when there is none.
	findOrInsert := func(table, keyCol, key, insert string, args ...any) (int64, error) {
		var id int64
		err := d.QueryRow(ctx, `SELECT id FROM `+table+` WHERE `+keyCol+` = ?`, key).Scan(&id)
		if db.NotFound(err) {
			id, err = db.InsertID(ctx, d, insert, args...)
		}
		if err != nil {
			return 0, fmt.Errorf("seed %s %q: %w", table, key, err)
		}
		return id, nil
	}
	for c := 1; c <= o.Customers; c++ {
		code := fmt.Sprintf("%sC%02d", o.Code, c)
		id, err := findOrInsert("customer", "code", code, `INSERT INTO customer (name, code, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			fmt.Sprintf("%sCustomer %02d", o.Label, c), code, now, now)
		if err != nil {
			return nil, nil, nil, err
		}
		customers = append(customers, id)
	}
	for s := 1; s <= o.Sites; s++ {
		code := fmt.Sprintf("%sS%03d", o.Code, s)
		id, err := findOrInsert("site", "code", code, `INSERT INTO site (customer_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			customers[(s-1)%o.Customers], fmt.Sprintf("%sSite %03d", o.Label, s), code, now, now)
		if err != nil {
			return nil, nil, nil, err
		}
		sites = append(sites, id)
	}
	for m := 1; m <= o.Models; m++ {
		name := fmt.Sprintf("%sModel %02d", o.Label, m)
		id, err := findOrInsert("device_model", "name", name, `INSERT INTO device_model (name, device_type, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			name, m%6+1, now, now)
		if err != nil {
			return nil, nil, nil, err
		}
		models = append(models, id)
	}
	return customers, sites, models, nil
}

// insertDevices inserts devices [from, to) in one statement; an SN or name that exists is kept.
func insertDevices(ctx context.Context, tx *db.Tx, o SeedOptions, org Seeded, rng *rand.Rand, from, to int, now int64) (int, error) {
	var sb strings.Builder
	args := make([]any, 0, (to-from)*9)
	sb.WriteString(`INSERT INTO device (sn, name, model_id, site_id, customer_id, status, alarm_status, created_at, updated_at) VALUES `)
	for j := from; j < to; j++ {
		if j > from {
			sb.WriteByte(',')
		}
		sb.WriteString("(?,?,?,?,?,?,?,?,?)")
		site, model, status, alarm := j%o.Sites, j%o.Models, 0, 0
		if o.Mixed { // this order of draws is the device-list benchmark's since it was written
			site = rng.IntN(o.Sites)
			status = mixedStatuses[rng.IntN(len(mixedStatuses))]
			model = rng.IntN(o.Models)
			alarm = rng.IntN(3) / 2
		}
		n := o.First + j
		args = append(args, SN(o.Prefix, o.Digits, n), SN(o.NamePrefix, o.Digits, n), org.ModelIDs[model], org.SiteIDs[site],
			org.CustomerIDs[site%o.Customers], status, alarm, now, now)
	}
	sb.WriteString(` ON CONFLICT DO NOTHING`)
	res, err := tx.Exec(ctx, sb.String(), args...)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
