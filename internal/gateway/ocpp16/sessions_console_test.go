package ocpp16_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// TestChargingSessionFromOCPPGoShowsInConsole: a session an ocpp-go charge point makes over a
// real socket (StartTransaction, MeterValues with its transactionId, StopTransaction) is listed
// to a user of its customer and not to another customer's, and its detail holds the energy,
// duration, stop reason and the register and power timeline between start and stop.
func TestChargingSessionFromOCPPGoShowsInConsole(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-SESS-A")
		root := env.Root()
		ctx := context.Background()
		limited := func(name string, customer int64) *apitest.Client {
			uid, roleID := env.CreateUser(root, name, "Sess#Pass123", "auth_session", "auth_session_list")
			if _, err := d.Exec(ctx, `UPDATE role SET customer_access = 1, site_access = 0 WHERE id = ?`, roleID); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(ctx, `UPDATE app_user SET customer_id = ? WHERE id = ?`, customer, uid); err != nil {
				t.Fatal(err)
			}
			return env.Client().MustLogin(name, "Sess#Pass123")
		}
		userA, userB := limited("sessions_a", org.CustomerA), limited("sessions_b", org.CustomerB)

		cp, _, err := startCP(t, wsBase(env), "SN-SESS-A", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		start := time.Now().Add(-40 * time.Minute).Truncate(time.Second)
		st, err := cp.StartTransaction(1, "TAG-CONSOLE", 1000, types.NewDateTime(start))
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i <= 3; i++ {
			mv := []types.MeterValue{{Timestamp: types.NewDateTime(start.Add(time.Duration(i) * 10 * time.Minute)), SampledValue: []types.SampledValue{
				{Value: fmt.Sprint(1000 + i*1200), Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureWh},
				{Value: "7200", Measurand: types.MeasurandPowerActiveImport, Unit: types.UnitOfMeasureW},
			}}}
			if _, err := cp.MeterValues(1, mv, func(r *core.MeterValuesRequest) { r.TransactionId = &st.TransactionId }); err != nil {
				t.Fatal(err)
			}
		}
		stop := start.Add(35 * time.Minute)
		if _, err := cp.StopTransaction(5000, types.NewDateTime(stop), st.TransactionId, func(r *core.StopTransactionRequest) { r.Reason = core.ReasonRemote }); err != nil {
			t.Fatal(err)
		}

		var list read.SessionList
		apitest.Must(t, userA.Call("POST", "/api/auth/sys/session/list", map[string]any{"sn": "SN-SESS-A"})).Into(t, &list)
		if len(list.List) != 1 || list.List[0].ID != int64(st.TransactionId) || list.List[0].EnergyWh != 4000 || list.List[0].Reason != "Remote" {
			t.Fatalf("A's list: %+v", list)
		}
		apitest.Must(t, userB.Call("POST", "/api/auth/sys/session/list", map[string]any{"sn": "SN-SESS-A"})).Into(t, &list)
		if len(list.List) != 0 {
			t.Fatalf("B lists A's session: %+v", list)
		}
		if a := userB.Call("GET", "/api/auth/sys/session/detail", map[string]any{"id": st.TransactionId}); a.Code != apperr.NotFound {
			t.Fatalf("B reads A's session: code %d", a.Code)
		}

		var v read.SessionDetail
		apitest.Must(t, userA.Call("GET", "/api/auth/sys/session/detail", map[string]any{"id": st.TransactionId})).Into(t, &v)
		if v.SN != "SN-SESS-A" || v.IDTag != "TAG-CONSOLE" || v.MeterStart != 1000 || v.MeterStop != 5000 || v.DurationMS != 35*60_000 {
			t.Fatalf("detail: %+v", v.SessionView)
		}
		energy := []float64{}
		for _, p := range v.Timeline.Energy {
			energy = append(energy, p.Value)
		}
		if fmt.Sprint(energy) != "[1000 2200 3400 4600 5000]" {
			t.Errorf("register timeline %v, want the start, the three samples and the stop", energy)
		}
		if len(v.Timeline.Power) != 3 || v.Timeline.Power[0].Value != 7200 || v.Timeline.Power[0].Time < start.UnixMilli() {
			t.Errorf("power timeline %+v", v.Timeline.Power)
		}
	})
}
