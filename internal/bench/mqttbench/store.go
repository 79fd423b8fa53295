package mqttbench

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"time"

	"chargeops/internal/bench"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/ess"
)

// SeedUnits bulk-inserts the units o.First .. o.First+o.N-1 (o.Prefix, o.Digits) as devices of
// one storage model (device type 4, "BESS Model 01") at one site, keyless; seeding twice adds
// nothing (bench.Seed).
func SeedUnits(ctx context.Context, d *db.DB, o LoadOptions) (bench.Seeded, error) {
	o.defaults()
	res, err := bench.Seed(ctx, d, bench.SeedOptions{Devices: o.N, Prefix: o.Prefix, Digits: o.Digits, First: o.First,
		NamePrefix: "Bench " + o.Prefix, Label: "BESS ", Code: "BESS-"})
	if err != nil {
		return res, err
	}
	// bench.Seed gives its first model device type 2; these are storage units
	if _, err := d.Exec(ctx, `UPDATE device_model SET device_type = ? WHERE id = ?`, devmodel.TypePower, res.ModelIDs[0]); err != nil {
		return res, fmt.Errorf("storage model: %w", err)
	}
	return res, nil
}

// Stored is what the node's database holds after a run: the readings of the load are every
// acked reading, once.
type Stored struct {
	SeriesSoC  int64 `json:"seriesSoC"`  // device_series rows of Battery.SoC
	SeriesAll  int64 `json:"seriesAll"`  // device_series rows of the load's values (the births' attributes left out)
	RuntimeSoC int64 `json:"runtimeSoC"` // devices with a latest Battery.SoC (device_runtime)
	// RuntimeTSSum adds up the latest Battery.SoC's sampled_at over the devices: the newest
	// acked reading of each unit (LoadReport.LastTSSum) when nothing older overwrote it.
	RuntimeTSSum int64         `json:"runtimeTsSum"`
	LogTelemetry int64         `json:"logTelemetry"` // protocol-log rows of telemetry received
	LogAcks      int64         `json:"logAcks"`      // protocol-log rows of acks sent
	Took         time.Duration `json:"took"`
}

// countStored reads Stored from d.
func countStored(ctx context.Context, d *db.DB) (Stored, error) {
	start := time.Now()
	var s Stored
	var sum sql.NullInt64
	q := []struct {
		dst  []any
		sql  string
		args []any
	}{
		{[]any{&s.SeriesSoC}, `SELECT COUNT(*) FROM device_series WHERE name = ?`, []any{ess.SoC}},
		{[]any{&s.SeriesAll}, `SELECT COUNT(*) FROM device_series WHERE name NOT IN (?, ?)`, []any{ess.Capacity, ess.RatedPower}},
		{[]any{&s.RuntimeSoC, &sum}, `SELECT COUNT(*), SUM(sampled_at) FROM device_runtime WHERE name = ?`, []any{ess.SoC}},
		{[]any{&s.LogTelemetry}, `SELECT COUNT(*) FROM protocol_log WHERE data LIKE ?`, []any{"telemetry %"}},
		{[]any{&s.LogAcks}, `SELECT COUNT(*) FROM protocol_log WHERE data LIKE ?`, []any{"ack %"}},
	}
	for _, c := range q {
		if err := d.QueryRow(ctx, c.sql, c.args...).Scan(c.dst...); err != nil {
			return s, fmt.Errorf("%s: %w", c.sql, err)
		}
	}
	s.RuntimeTSSum = sum.Int64
	s.Took = time.Since(start)
	return s, nil
}

// scratchPG creates an empty database beside the one adminURL names and returns its URL and a
// function that drops it.
func scratchPG(ctx context.Context, adminURL string) (string, func() error, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("--db: %w", err)
	}
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, err
	}
	name := "chargeops_mqttbench_" + strconv.Itoa(os.Getpid()) + "_" + strconv.FormatInt(time.Now().Unix(), 10)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	u.Path = "/" + name
	drop := func() error {
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		return err
	}
	return u.String(), drop, nil
}
