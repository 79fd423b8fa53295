package mqttbench

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/ess"
	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/mqttwire"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// small is the tests' load: 50 units, two messages each, two readings a message.
func small(addr string) LoadOptions {
	return LoadOptions{Addr: addr, N: 50, Interval: time.Second, Duration: 2 * time.Second, Readings: 2, Timeout: 10 * time.Second}
}

// TestPayload: a telemetry message is a strict mqttwire.Telemetry whose readings hold the 15
// values of the storage model, 13 of them numbers, with their timestamps in order.
func TestPayload(t *testing.T) {
	b := appendTelemetry(nil, "BESS-000001-7", 1_800_000_000_000, 2500, 2, 0, 7)
	var tm mqttwire.Telemetry
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&tm); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if tm.ID != "BESS-000001-7" || len(tm.Readings) != 2 || tm.Readings[0].TS != 1_800_000_000_000-2500 || tm.Readings[1].TS != 1_800_000_000_000 {
		t.Fatalf("%+v", tm)
	}
	for _, r := range tm.Readings {
		numeric := 0
		for name, v := range r.Values {
			p, ok := ess.PointOf(name)
			if !ok {
				t.Fatalf("%s is not a storage value", name)
			}
			if p.Numeric {
				numeric++
				var f float64
				if err := json.Unmarshal(v, &f); err != nil {
					t.Fatalf("%s: %s", name, v)
				}
			}
		}
		if len(r.Values) != ValuesPerReading || numeric != NumericValues {
			t.Fatalf("%d values, %d numeric", len(r.Values), numeric)
		}
	}
	t.Logf("%d bytes a message of 2 readings", len(b))
}

// TestBareBroker: every message of 50 units is acked by the broker alone.
func TestBareBroker(t *testing.T) {
	t.Parallel()
	b, err := StartBare(BareOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := run(t, small(b.Addr()))
	if got := b.Telemetry.Load(); got != r.Acked {
		t.Fatalf("the broker handled %d, %d acked", got, r.Acked)
	}
}

// TestNode: every reading of 50 units sent to a chargeops node (its embedded broker and MQTT
// adapter, started as Serve does) is acked once committed, and is in device_series once, with
// each unit's newest reading as its latest value.
func TestNode(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		env := apitest.New(t, d, nil)
		lo := small("")
		if s, err := SeedUnits(ctx, d, lo); err != nil || s.Inserted != lo.N {
			t.Fatalf("seed: %+v %v", s, err)
		}
		if n := testutil.Count(t, d, `SELECT COUNT(*) FROM device d JOIN device_model m ON m.id = d.model_id WHERE m.device_type = 4 AND d.sn LIKE 'BESS-%'`); n != lo.N {
			t.Fatalf("%d storage units seeded", n)
		}
		log := slog.Default()
		b, err := mqtt.StartBroker(mqtt.BrokerOptions{Addr: "127.0.0.1:0", Log: log,
			Admission: &mqtt.Admission{Core: env.App.Fleet, KeyBackoff: time.Minute, Log: log}})
		if err != nil {
			t.Fatal(err)
		}
		a := mqtt.New(env.App.Fleet, env.App.Fleet.Registry, b.Bus(), mqtt.Options{Node: "bench", Log: log})
		if err := a.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { a.Close(); _ = b.Close() }()
		lo.Addr = b.Addr()
		r := run(t, lo)
		s, err := countStored(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		acked := r.Acked * int64(lo.Readings)
		if s.SeriesSoC != acked || s.SeriesAll != acked*NumericValues || s.RuntimeSoC != int64(r.AckedUnits) || s.RuntimeTSSum != r.LastTSSum {
			t.Fatalf("stored %+v for %d readings acked, %d units (newest Σ %d)", s, acked, r.AckedUnits, r.LastTSSum)
		}
		if got := a.Stats().Readings.Load(); got != acked {
			t.Fatalf("the adapter counted %d readings", got)
		}
	})
}

// run connects lo's units, runs the load and checks that every message was acked OK.
func run(t *testing.T, lo LoadOptions) *LoadReport {
	t.Helper()
	ctx := context.Background()
	f, err := Dial(ctx, lo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Connect.Connected != lo.N {
		t.Fatalf("connected %d: %v %s", f.Connect.Connected, f.Connect.Failures, f.Connect.LastError)
	}
	r := f.Load(ctx)
	want := int64(lo.N) * int64(lo.Duration/lo.Interval)
	if r.Offered != want || r.Published != want || r.Acked != want || r.Missing != 0 || r.Nacked != 0 || r.Refused != 0 || r.Unexpected != 0 {
		t.Fatalf("%d due: %+v (%s)", want, r, r.NackSample)
	}
	if r.AckedUnits != lo.N {
		t.Fatalf("%d units acked", r.AckedUnits)
	}
	t.Logf("%d messages, ack p50 %s p99 %s", r.Acked, r.Ack.Quantile(0.5), r.Ack.Quantile(0.99))
	return r
}
