package ocpp16_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Exact meter and status data (docs/gateway.md, "Status, alarms, events" and "Meter values"),
// told by ocpp-go's charge point over a real socket, on both databases.

// seriesValues are a device's series points of name on a connector, oldest first.
func seriesValues(t *testing.T, d *db.DB, dev int64, name string, connector int) ([]int64, []float64) {
	t.Helper()
	rows, err := d.Query(context.Background(), `SELECT ts, value FROM device_series WHERE device_id = ? AND name = ? AND connector_id = ? ORDER BY ts`, dev, name, connector)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ts []int64
	var vs []float64
	for rows.Next() {
		var at int64
		var v float64
		if err := rows.Scan(&at, &v); err != nil {
			t.Fatal(err)
		}
		ts, vs = append(ts, at), append(vs, v)
	}
	return ts, vs
}

// latest is a device's latest value and unit of name on a connector ("" when none).
func latest(t *testing.T, d *db.DB, dev int64, name string, connector int) (string, string) {
	t.Helper()
	var v, u string
	err := d.QueryRow(context.Background(), `SELECT value, unit FROM device_runtime WHERE device_id = ? AND name = ? AND connector_id = ?`, dev, name, connector).Scan(&v, &u)
	if err != nil && !db.NotFound(err) {
		t.Fatal(err)
	}
	return v, u
}

// connectCP connects an ocpp-go charge point for sn and sends its BootNotification.
func connectCP(t *testing.T, env *apitest.Env, sn string) (ocpp.ChargePoint, *cpHandler) {
	t.Helper()
	cp, h, err := startCP(t, wsBase(env), sn, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
		t.Fatal(err)
	}
	return cp, h
}

func at(t time.Time) *types.DateTime { return types.NewDateTime(t.UTC().Truncate(time.Second)) }

func TestMeterAndStatusData(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		ctx := context.Background()
		base := time.Now().Add(-time.Hour)

		t.Run("an older StatusNotification after a newer one leaves the newer status", func(t *testing.T) {
			dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-ST1")
			cp, _ := connectCP(t, env, "SN-ST1")
			status := func(s core.ChargePointStatus, code core.ChargePointErrorCode, when time.Time) {
				t.Helper()
				if _, err := cp.StatusNotification(1, code, s, func(r *core.StatusNotificationRequest) { r.Timestamp = at(when) }); err != nil {
					t.Fatalf("%s answered with %v", s, err)
				}
			}
			status(core.ChargePointStatusCharging, core.NoError, base.Add(10*time.Minute))
			// sent before the Charging report, arriving after it (a retry, a queue flushed late)
			status(core.ChargePointStatusAvailable, core.NoError, base.Add(5*time.Minute))
			status(core.ChargePointStatusFaulted, core.GroundFailure, base.Add(6*time.Minute))
			var st string
			var statusAt int64
			if err := d.QueryRow(ctx, `SELECT status, status_at FROM device_connector WHERE device_id = ? AND connector_id = 1`, dev).Scan(&st, &statusAt); err != nil {
				t.Fatal(err)
			}
			if st != "Charging" || statusAt != at(base.Add(10*time.Minute)).UnixMilli() {
				t.Fatalf("connector %s at %d, want Charging at the charger's time of the newer report", st, statusAt)
			}
			if s, alarm := deviceStatus(t, d, dev); s != fleet.StatusWorking || alarm != fleet.AlarmNone {
				t.Fatalf("device status %d alarm %d, want Working without alarm", s, alarm)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind IN (1, 2)`, dev); n != 0 {
				t.Fatalf("the older fault opened %d events", n)
			}
			// a report at the same time or newer applies
			status(core.ChargePointStatusFinishing, core.NoError, base.Add(10*time.Minute))
			status(core.ChargePointStatusFaulted, core.GroundFailure, base.Add(11*time.Minute))
			if s, alarm := deviceStatus(t, d, dev); s != fleet.StatusFaulted || alarm != fleet.AlarmFault {
				t.Fatalf("device status %d alarm %d after a newer fault, want Faulted with a fault", s, alarm)
			}
			// an older NoError does not end the newer fault
			status(core.ChargePointStatusAvailable, core.NoError, base.Add(10*time.Minute+30*time.Second))
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = 2 AND status = 0`, dev); n != 1 {
				t.Fatalf("%d open faults after an older NoError, want 1", n)
			}
		})

		t.Run("Body and Outlet temperature and L1/L2/L3 voltage stay separate series and latest values", func(t *testing.T) {
			dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-LOC1")
			cp, _ := connectCP(t, env, "SN-LOC1")
			for i, when := range []time.Time{base.Add(time.Minute), base.Add(2 * time.Minute)} {
				f := float64(i)
				mv := []types.MeterValue{{Timestamp: at(when), SampledValue: []types.SampledValue{
					{Value: fmt.Sprint(40 + f), Measurand: types.MeasurandTemperature, Location: types.LocationBody, Unit: types.UnitOfMeasureCelsius},
					{Value: fmt.Sprint(30 + f), Measurand: types.MeasurandTemperature, Location: types.LocationOutlet, Unit: types.UnitOfMeasureCelsius},
					{Value: fmt.Sprint(229 + f), Measurand: types.MeasurandVoltage, Phase: types.PhaseL1N, Unit: types.UnitOfMeasureV},
					{Value: fmt.Sprint(230 + f), Measurand: types.MeasurandVoltage, Phase: types.PhaseL2N, Unit: types.UnitOfMeasureV},
					{Value: fmt.Sprint(231 + f), Measurand: types.MeasurandVoltage, Phase: types.PhaseL3N, Unit: types.UnitOfMeasureV},
					{Value: fmt.Sprint(7000 + f), Measurand: types.MeasurandPowerActiveImport, Location: types.LocationInlet, Unit: types.UnitOfMeasureW},
					{Value: fmt.Sprint(6900 + f), Measurand: types.MeasurandPowerActiveImport, Unit: types.UnitOfMeasureW},
				}}}
				if _, err := cp.MeterValues(1, mv); err != nil {
					t.Fatal(err)
				}
			}
			for name, want := range map[string][]float64{
				"Temperature@Body": {40, 41}, "Temperature": {30, 31},
				"Voltage.L1-N": {229, 230}, "Voltage.L2-N": {230, 231}, "Voltage.L3-N": {231, 232},
				"Power.Active.Import@Inlet": {7000, 7001}, "Power.Active.Import": {6900, 6901},
			} {
				if _, got := seriesValues(t, d, dev, name, 1); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("series %s = %v, want %v", name, got, want)
				}
				if v, _ := latest(t, d, dev, name, 1); v != fmt.Sprint(want[1]) {
					t.Errorf("latest %s = %q, want %v", name, v, want[1])
				}
			}
		})

		t.Run("a kWh sample and a Wh sample land as Wh in one series", func(t *testing.T) {
			dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-KWH1")
			cp, _ := connectCP(t, env, "SN-KWH1")
			send := func(when time.Time, svs ...types.SampledValue) {
				t.Helper()
				if _, err := cp.MeterValues(1, []types.MeterValue{{Timestamp: at(when), SampledValue: svs}}); err != nil {
					t.Fatal(err)
				}
			}
			send(base.Add(time.Minute),
				types.SampledValue{Value: "12.345", Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureKWh},
				types.SampledValue{Value: "7.2", Measurand: types.MeasurandPowerActiveImport, Unit: types.UnitOfMeasureKW})
			send(base.Add(2*time.Minute),
				types.SampledValue{Value: "12400", Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureWh},
				types.SampledValue{Value: "7100", Measurand: types.MeasurandPowerActiveImport, Unit: types.UnitOfMeasureW})
			send(base.Add(3*time.Minute), types.SampledValue{Value: "12500"}) // no measurand, no unit: the register in Wh
			if _, got := seriesValues(t, d, dev, "Energy.Active.Import.Register", 1); fmt.Sprint(got) != "[12345 12400 12500]" {
				t.Fatalf("energy series %v, want [12345 12400 12500] (Wh)", got)
			}
			if _, got := seriesValues(t, d, dev, "Power.Active.Import", 1); fmt.Sprint(got) != "[7200 7100]" {
				t.Fatalf("power series %v, want [7200 7100] (W)", got)
			}
			send(base.Add(4*time.Minute), types.SampledValue{Value: "12.6", Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureKWh},
				types.SampledValue{Value: "21.5", Measurand: types.MeasurandTemperature, Unit: types.UnitOfMeasureFahrenheit})
			if v, u := latest(t, d, dev, "Energy.Active.Import.Register", 1); v != "12600" || u != "Wh" {
				t.Fatalf("latest register %q %q, want 12600 Wh", v, u)
			}
			if v, u := latest(t, d, dev, "Temperature", 1); v != "21.5" || u != "Fahrenheit" {
				t.Fatalf("latest temperature %q %q, want 21.5 Fahrenheit (kept as sent)", v, u)
			}
			// the console's series answer names each series' stored unit
			var series []read.Series
			apitest.Must(t, env.Root().Call("POST", "/api/auth/sys/dev/data/series", map[string]any{"deviceId": dev, "connectorId": 1,
				"names": []string{"Energy.Active.Import.Register", "Power.Active.Import", "Temperature"}, "step": 1,
				"startTime": base.UnixMilli(), "endTime": base.Add(10 * time.Minute).UnixMilli()})).Into(t, &series)
			var units []string
			for _, se := range series {
				units = append(units, se.Unit)
			}
			if fmt.Sprint(units) != "[Wh W Fahrenheit]" {
				t.Fatalf("series units %v, want [Wh W Fahrenheit]", units)
			}
		})

		t.Run("a SignedData sample leaves the register and the session energy right and is kept for the session", func(t *testing.T) {
			dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-SIG1")
			cp, _ := connectCP(t, env, "SN-SIG1")
			st, err := cp.StartTransaction(1, "TAG1", 10_000, at(base))
			if err != nil {
				t.Fatal(err)
			}
			ocmf := `OCMF|{"FV":"1.0","RD":[{"RV":"10.5","RU":"kWh"}]}|{"SD":"3045022100ab"}`
			mv := []types.MeterValue{{Timestamp: at(base.Add(time.Minute)), SampledValue: []types.SampledValue{
				{Value: "10.5", Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureKWh, Context: types.ReadingContextSamplePeriodic},
				{Value: ocmf, Measurand: types.MeasurandEnergyActiveImportRegister, Format: types.ValueFormatSignedData, Context: types.ReadingContextSamplePeriodic},
			}}}
			for range 2 { // the replay adds nothing
				if _, err := cp.MeterValues(1, mv, func(r *core.MeterValuesRequest) { r.TransactionId = &st.TransactionId }); err != nil {
					t.Fatal(err)
				}
			}
			if v, u := latest(t, d, dev, "Energy.Active.Import.Register", 1); v != "10500" || u != "Wh" {
				t.Fatalf("latest register %q %q, want the numeric 10500 Wh", v, u)
			}
			if _, got := seriesValues(t, d, dev, "Energy.Active.Import.Register", 1); fmt.Sprint(got) != "[10000 10500]" {
				t.Fatalf("register series %v, want the start and the numeric sample [10000 10500]", got)
			}
			signedEnd := `OCMF|{"FV":"1.0","RD":[{"RV":"12.0","RU":"kWh"}]}|{"SD":"3045022100cd"}`
			stop := func() {
				t.Helper()
				if _, err := cp.StopTransaction(12_000, at(base.Add(30*time.Minute)), st.TransactionId, func(r *core.StopTransactionRequest) {
					r.TransactionData = []types.MeterValue{{Timestamp: at(base.Add(30 * time.Minute)), SampledValue: []types.SampledValue{
						{Value: signedEnd, Format: types.ValueFormatSignedData, Context: types.ReadingContextTransactionEnd},
					}}}
				}); err != nil {
					t.Fatal(err)
				}
			}
			stop()
			stop()
			var energy int64
			if err := d.QueryRow(ctx, `SELECT energy_wh FROM device_transaction WHERE id = ?`, st.TransactionId).Scan(&energy); err != nil {
				t.Fatal(err)
			}
			if energy != 2_000 {
				t.Fatalf("session energy %d Wh, want 2000", energy)
			}
			rows, err := d.Query(ctx, `SELECT transaction_id, connector_id, measurand, context, format, value, ts FROM session_signed_value WHERE device_id = ? ORDER BY ts`, dev)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for rows.Next() {
				var tx, ts int64
				var conn int
				var m, c, f, v string
				if err := rows.Scan(&tx, &conn, &m, &c, &f, &v, &ts); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%d|%d|%s|%s|%s|%s|%d", tx, conn, m, c, f, v, ts))
			}
			rows.Close()
			want := []string{
				fmt.Sprintf("%d|1|Energy.Active.Import.Register|Sample.Periodic|SignedData|%s|%d", st.TransactionId, ocmf, at(base.Add(time.Minute)).UnixMilli()),
				fmt.Sprintf("%d|1|Energy.Active.Import.Register|Transaction.End|SignedData|%s|%d", st.TransactionId, signedEnd, at(base.Add(30*time.Minute)).UnixMilli()),
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("signed values:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})

		t.Run("two MeterValue elements with odd timestamps keep both values", func(t *testing.T) {
			dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-TS1")
			cp, _ := connectCP(t, env, "SN-TS1")
			odd := []*types.DateTime{
				types.NewDateTime(time.Time{}),                                 // "0001-01-01T00:00:00Z": ocpp-go's zero time
				types.NewDateTime(time.Unix(0, 0)),                             // 1970: a clock never set
				types.NewDateTime(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)), // before 2015
				types.NewDateTime(time.Now().Add(48 * time.Hour)),              // far ahead
			}
			var mv []types.MeterValue
			for i, ts := range odd {
				mv = append(mv, types.MeterValue{Timestamp: ts, SampledValue: []types.SampledValue{
					{Value: fmt.Sprint(230 + i), Measurand: types.MeasurandVoltage, Unit: types.UnitOfMeasureV}}})
			}
			before := time.Now().Add(-time.Second).UnixMilli()
			if _, err := cp.MeterValues(1, mv); err != nil {
				t.Fatal(err)
			}
			ts, got := seriesValues(t, d, dev, "Voltage", 1)
			if fmt.Sprint(got) != "[230 231 232 233]" {
				t.Fatalf("voltage series %v, want every element's value in order [230 231 232 233]", got)
			}
			if ts[0] < before || ts[3] > time.Now().Add(time.Second).UnixMilli() {
				t.Fatalf("times %v, want the server's time of receipt", ts)
			}
			if v, _ := latest(t, d, dev, "Voltage", 1); v != "233" {
				t.Fatalf("latest voltage %q, want the last element's 233", v)
			}
		})
	})
}
