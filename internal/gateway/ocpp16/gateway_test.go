package ocpp16_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/access"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// cpHandler is the ocpp-go charge point's side of remote operations.
type cpHandler struct {
	mu       sync.Mutex
	cp       ocpp.ChargePoint
	got      []string
	delay    time.Duration // how long Reset takes to answer (to provoke a timeout)
	config   map[string]string
	uploaded chan string
	// manualDiag, when set, receives GetDiagnostics locations instead of the handler uploading.
	manualDiag chan string
	stop       func()
}

func (h *cpHandler) note(s string) {
	h.mu.Lock()
	h.got = append(h.got, s)
	h.mu.Unlock()
}

func (h *cpHandler) OnChangeAvailability(r *core.ChangeAvailabilityRequest) (*core.ChangeAvailabilityConfirmation, error) {
	h.note(fmt.Sprintf("ChangeAvailability %d %s", r.ConnectorId, r.Type))
	return core.NewChangeAvailabilityConfirmation(core.AvailabilityStatusAccepted), nil
}
func (h *cpHandler) OnChangeConfiguration(r *core.ChangeConfigurationRequest) (*core.ChangeConfigurationConfirmation, error) {
	h.note("ChangeConfiguration " + r.Key + "=" + r.Value)
	h.mu.Lock()
	h.config[r.Key] = r.Value
	h.mu.Unlock()
	return core.NewChangeConfigurationConfirmation(core.ConfigurationStatusAccepted), nil
}
func (h *cpHandler) OnClearCache(*core.ClearCacheRequest) (*core.ClearCacheConfirmation, error) {
	return core.NewClearCacheConfirmation(core.ClearCacheStatusAccepted), nil
}
func (h *cpHandler) OnDataTransfer(r *core.DataTransferRequest) (*core.DataTransferConfirmation, error) {
	h.note("DataTransfer " + r.VendorId + " " + r.MessageId)
	return core.NewDataTransferConfirmation(core.DataTransferStatusAccepted), nil
}
func (h *cpHandler) OnGetConfiguration(r *core.GetConfigurationRequest) (*core.GetConfigurationConfirmation, error) {
	h.note("GetConfiguration")
	h.mu.Lock()
	defer h.mu.Unlock()
	var keys []core.ConfigurationKey
	for k, v := range h.config {
		keys = append(keys, core.ConfigurationKey{Key: k, Value: &v})
	}
	return core.NewGetConfigurationConfirmation(keys), nil
}
func (h *cpHandler) OnRemoteStartTransaction(*core.RemoteStartTransactionRequest) (*core.RemoteStartTransactionConfirmation, error) {
	return core.NewRemoteStartTransactionConfirmation(types.RemoteStartStopStatusAccepted), nil
}
func (h *cpHandler) OnRemoteStopTransaction(*core.RemoteStopTransactionRequest) (*core.RemoteStopTransactionConfirmation, error) {
	return core.NewRemoteStopTransactionConfirmation(types.RemoteStartStopStatusAccepted), nil
}
func (h *cpHandler) OnReset(r *core.ResetRequest) (*core.ResetConfirmation, error) {
	h.note("Reset " + string(r.Type))
	h.mu.Lock()
	d := h.delay
	h.mu.Unlock()
	time.Sleep(d)
	return core.NewResetConfirmation(core.ResetStatusAccepted), nil
}
func (h *cpHandler) OnUnlockConnector(*core.UnlockConnectorRequest) (*core.UnlockConnectorConfirmation, error) {
	return core.NewUnlockConnectorConfirmation(core.UnlockStatusUnlocked), nil
}
func (h *cpHandler) OnGetDiagnostics(r *firmware.GetDiagnosticsRequest) (*firmware.GetDiagnosticsConfirmation, error) {
	h.note("GetDiagnostics")
	if h.manualDiag != nil {
		h.manualDiag <- r.Location
		return firmware.NewGetDiagnosticsConfirmation(), nil
	}
	go func() {
		_, _ = h.cp.DiagnosticsStatusNotification(firmware.DiagnosticsStatusUploading)
		resp, err := http.Post(r.Location+"&name=diag.log", "text/plain", strings.NewReader("boot ok\nerror 42\n"))
		if err == nil {
			resp.Body.Close()
			_, _ = h.cp.DiagnosticsStatusNotification(firmware.DiagnosticsStatusUploaded)
			h.uploaded <- resp.Status
		} else {
			h.uploaded <- err.Error()
		}
	}()
	c := firmware.NewGetDiagnosticsConfirmation()
	c.FileName = "diag.log"
	return c, nil
}
func (h *cpHandler) OnUpdateFirmware(r *firmware.UpdateFirmwareRequest) (*firmware.UpdateFirmwareConfirmation, error) {
	h.note("UpdateFirmware " + r.Location)
	go func() {
		time.Sleep(100 * time.Millisecond)
		_, _ = h.cp.FirmwareStatusNotification(firmware.FirmwareStatusDownloading)
		resp, err := http.Get(r.Location)
		if err != nil || resp.StatusCode != 200 {
			_, _ = h.cp.FirmwareStatusNotification(firmware.FirmwareStatusDownloadFailed)
			return
		}
		resp.Body.Close()
		_, _ = h.cp.FirmwareStatusNotification(firmware.FirmwareStatusDownloaded)
		time.Sleep(300 * time.Millisecond)
		_, _ = h.cp.FirmwareStatusNotification(firmware.FirmwareStatusInstalled)
	}()
	return firmware.NewUpdateFirmwareConfirmation(), nil
}
func (h *cpHandler) OnTriggerMessage(r *remotetrigger.TriggerMessageRequest) (*remotetrigger.TriggerMessageConfirmation, error) {
	h.note("TriggerMessage " + string(r.RequestedMessage))
	go func() {
		time.Sleep(50 * time.Millisecond)
		_, _ = h.cp.MeterValues(1, []types.MeterValue{{Timestamp: types.NewDateTime(time.Now()), SampledValue: []types.SampledValue{
			{Value: "231.5", Measurand: types.MeasurandVoltage, Unit: types.UnitOfMeasureV}}}})
	}()
	return remotetrigger.NewTriggerMessageConfirmation(remotetrigger.TriggerMessageStatusAccepted), nil
}

// startCP connects an ocpp-go charge point (the independent client) as sn.
func startCP(t *testing.T, base, sn, key string) (ocpp.ChargePoint, *cpHandler, error) {
	return startCPWith(t, ocppws.NewClient(), base, sn, key)
}

// startCPWith starts an ocpp-go charge point over the given ws client (plain or TLS).
func startCPWith(t *testing.T, client *ocppws.Client, base, sn, key string) (ocpp.ChargePoint, *cpHandler, error) {
	t.Helper()
	if key != "" {
		client.SetBasicAuth(sn, key)
	}
	cp := fleettest.ChargePoint(sn, client)
	h := &cpHandler{cp: cp, config: map[string]string{"HeartbeatInterval": "60", "MeterValueSampleInterval": "30"}, uploaded: make(chan string, 1)}
	cp.SetCoreHandler(h)
	cp.SetFirmwareManagementHandler(h)
	cp.SetRemoteTriggerHandler(h)
	if err := cp.Start(base); err != nil {
		return nil, nil, err
	}
	var once sync.Once
	t.Cleanup(func() { once.Do(cp.Stop) })
	h.stop = func() { once.Do(cp.Stop) }
	return cp, h, nil
}

// httpCode is the HTTP status with which the gateway refused a handshake (0: not refused).
func httpCode(err error) int {
	var he ocppws.HttpConnectionError
	if errors.As(err, &he) {
		return he.HttpCode
	}
	return 0
}

func wsBase(env *apitest.Env) string { return fleettest.WSBase(env) }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func deviceStatus(t *testing.T, d *db.DB, id int64) (status, alarm int) {
	t.Helper()
	if err := d.QueryRow(context.Background(), `SELECT status, alarm_status FROM device WHERE id = ?`, id).Scan(&status, &alarm); err != nil {
		t.Fatal(err)
	}
	return
}

type sendAnswer = fleettest.SendAnswer

// control sends a control type through the API and returns the answer.
func control(t *testing.T, c *apitest.Client, ids []int64, ct int, params any) (apitest.Answer, sendAnswer) {
	return fleettest.Control(t, c, ids, ct, params)
}

// result polls control/detail until the command is no longer waiting.
func result(t *testing.T, c *apitest.Client, id int64) fleet.CommandView {
	return fleettest.Result(t, c, id)
}

func sendOne(t *testing.T, c *apitest.Client, id int64, ct int, params any) fleet.CommandView {
	return fleettest.SendOne(t, c, id, ct, params)
}

func TestGatewayWithOCPPGoChargePoint(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 1500*time.Millisecond, t.TempDir() })
		org := fleettest.Seed(t, d)
		a1 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-A1")
		a2 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-A2")
		b1 := fleettest.Device(t, d, org, org.CustomerB, org.SiteB, "SN-B1")
		root := env.Root()
		base := wsBase(env)
		ctx := context.Background()

		cp, h, err := startCP(t, base, "SN-A1", "")
		if err != nil {
			t.Fatal(err)
		}
		boot, err := cp.BootNotification("AC-22", "Test", func(r *core.BootNotificationRequest) { r.FirmwareVersion = "1.0.0" })
		if err != nil || boot.Status != core.RegistrationStatusAccepted || boot.Interval != 60 {
			t.Fatalf("boot: %+v %v", boot, err)
		}
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "Idle", func() bool { s, _ := deviceStatus(t, d, a1); return s == fleet.StatusIdle })
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusCharging); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "Working", func() bool { s, _ := deviceStatus(t, d, a1); return s == fleet.StatusWorking })

		// A transaction and meter values; replays are not counted twice.
		ts := types.NewDateTime(time.Now().Add(-time.Minute).Truncate(time.Second))
		st1, err := cp.StartTransaction(1, "TAG1", 1000, ts)
		if err != nil {
			t.Fatal(err)
		}
		st2, err := cp.StartTransaction(1, "TAG1", 1000, ts)
		if err != nil || st2.TransactionId != st1.TransactionId {
			t.Fatalf("replayed start: %d vs %d (%v)", st2.TransactionId, st1.TransactionId, err)
		}
		mts := types.NewDateTime(time.Now().Add(-30 * time.Second).Truncate(time.Second))
		mv := []types.MeterValue{{Timestamp: mts, SampledValue: []types.SampledValue{
			{Value: "230.1", Measurand: types.MeasurandVoltage, Unit: types.UnitOfMeasureV},
			{Value: "16.0", Measurand: types.MeasurandCurrentImport, Unit: types.UnitOfMeasureA},
			{Value: "3680", Measurand: types.MeasurandPowerActiveImport, Unit: types.UnitOfMeasureW},
			{Value: "1500", Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureWh},
			{Value: "55", Measurand: types.MeasurandSoC, Unit: types.UnitOfMeasurePercent},
			{Value: "31.5", Measurand: types.MeasurandTemperature, Unit: types.UnitOfMeasureCelsius},
		}}}
		for range 2 {
			if _, err := cp.MeterValues(1, mv); err != nil {
				t.Fatal(err)
			}
		}
		var n int
		_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = 'Voltage'`, a1).Scan(&n)
		if n != 1 {
			t.Fatalf("replayed meter value stored %d times", n)
		}
		if _, err := cp.StopTransaction(1800, types.NewDateTime(time.Now()), st1.TransactionId); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.Authorize("TAG1"); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.Heartbeat(); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.DataTransfer("vendor", func(r *core.DataTransferRequest) { r.MessageId = "hello" }); err != nil {
			t.Fatal(err)
		}
		var rt read.RuntimeView
		apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/runtime/detail", map[string]any{"id": a1})).Into(t, &rt)
		if !rt.Online || rt.SoftwareVersion != "1.0.0" || len(rt.Values) < 6 {
			t.Fatalf("runtime: %+v", rt)
		}
		var series []read.Series
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/data/series", map[string]any{"deviceId": a1, "names": []string{"Voltage", "SoC"},
			"connectorId": 1, "startTime": time.Now().Add(-time.Hour).UnixMilli(), "endTime": time.Now().Add(time.Minute).UnixMilli(), "step": 5})).Into(t, &series)
		if len(series) != 2 || len(series[0].Points) != 1 || series[0].Points[0].Avg != 230.1 {
			t.Fatalf("series: %+v", series)
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/data/series", map[string]any{"deviceId": a1, "names": []string{"Voltage"},
			"connectorId": 1, "startTime": time.Now().AddDate(0, -3, 0).UnixMilli(), "endTime": time.Now().Add(time.Minute).UnixMilli(), "step": 43200})).Into(t, &series)
		if len(series[0].Points) != 1 {
			t.Fatalf("monthly series: %+v", series)
		}

		// A fault opens a CA fault; NoError closes it.
		if _, err := cp.StatusNotification(1, core.GroundFailure, core.ChargePointStatusFaulted); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "Faulted", func() bool {
			s, al := deviceStatus(t, d, a1)
			return s == fleet.StatusFaulted && al == fleet.AlarmFault
		})
		var events struct {
			Total int64            `json:"total"`
			List  []read.EventView `json:"list"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/alarm/list", map[string]any{"deviceId": a1, "status": 0})).Into(t, &events)
		if events.Total != 1 || events.List[0].Kind != fleet.KindFault || events.List[0].Level != fleet.LevelCA || events.List[0].Code != "GroundFailure" {
			t.Fatalf("events: %+v", events)
		}
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "fault closed", func() bool { s, al := deviceStatus(t, d, a1); return s == fleet.StatusIdle && al == fleet.AlarmNone })

		// Every remote operation end to end.
		for _, c := range []struct {
			ct     int
			params map[string]any
			want   string
		}{
			{1, nil, "Reset Soft"},
			{2, nil, "Reset Hard"},
			{3, nil, "ChangeAvailability 0 Inoperative"},
			{3, map[string]any{"enable": true}, "ChangeAvailability 0 Operative"},
			{4, map[string]any{"connectorId": 1}, "ChangeAvailability 1 Inoperative"},
			{7, nil, "DataTransfer chargeops VpnStart"},
			{8, nil, "DataTransfer chargeops VpnStop"},
			{9, nil, "GetConfiguration"},
			{10, map[string]any{"message": "MeterValues", "connectorId": 1}, "TriggerMessage MeterValues"},
			{11, map[string]any{"items": []map[string]string{{"key": "HeartbeatInterval", "value": "120"}}}, "ChangeConfiguration HeartbeatInterval=120"},
		} {
			var v fleet.CommandView
			if c.ct == fleet.CtlVPNStart || c.ct == fleet.CtlVPNStop {
				// The console and the OpenAPI send 7 and 8 as the remote link's (internal/remote,
				// which needs a charger opening a tunnel); the gateway's part is the DataTransfer of
				// the fleet's command, sent here as the link service sends it.
				p := &access.Principal{Root: true, Scope: access.FullScope(), UserName: "root_admin"}
				res, err := env.App.Fleet.Send(ctx, p, fleet.SendInput{DeviceIDs: []int64{a1}, ControlType: c.ct})
				if err != nil || len(res.Commands) != 1 {
					t.Fatalf("control %d: %v %+v", c.ct, err, res)
				}
				v = result(t, root, res.Commands[0].ID)
			} else {
				v = sendOne(t, root, a1, c.ct, c.params)
			}
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("control %d: result %d %s", c.ct, v.Result, v.Message)
			}
			h.mu.Lock()
			last := h.got[len(h.got)-1]
			h.mu.Unlock()
			if last != c.want {
				t.Fatalf("control %d: charger got %q, want %q", c.ct, last, c.want)
			}
		}
		var cfg []fleet.ConfigItem
		apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/config/values", map[string]any{"deviceId": a1})).Into(t, &cfg)
		found := false
		for _, it := range cfg {
			found = found || (it.Key == "HeartbeatInterval" && it.Value == "120")
		}
		if !found {
			t.Fatalf("config after set: %+v", cfg)
		}
		// Setting the value it already has is refused.
		a, _ := control(t, root, []int64{a1}, 11, map[string]any{"items": []map[string]string{{"key": "HeartbeatInterval", "value": "120"}}})
		apitest.WantCode(t, a, 30005)

		// Firmware: upload, UpdateFirmware with a signed URL, progress, status 5 meanwhile.
		var fw struct {
			ID        int64  `json:"id"`
			UploadURL string `json:"uploadUrl"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": "fw-2.0.bin"})).Into(t, &fw)
		req, _ := http.NewRequest("PUT", env.URL+fw.UploadURL, bytes.NewReader(bytes.Repeat([]byte("F"), 4096)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 201 {
			t.Fatalf("firmware upload: %v %v", resp, err)
		}
		if v := sendOne(t, root, a1, 5, map[string]any{"firmwareId": fw.ID}); v.Result != fleet.ResultSuccess {
			t.Fatalf("update firmware: %+v", v)
		}
		waitFor(t, "firmware update status", func() bool { s, _ := deviceStatus(t, d, a1); return s == fleet.StatusFirmware })
		waitFor(t, "firmware installed", func() bool { s, _ := deviceStatus(t, d, a1); return s == fleet.StatusIdle })

		// Diagnostics: GetDiagnostics to an upload URL; the file is kept and downloadable.
		if v := sendOne(t, root, a1, 6, nil); v.Result != fleet.ResultSuccess {
			t.Fatalf("get diagnostics: %+v", v)
		}
		if st := <-h.uploaded; st != "201 Created" {
			t.Fatalf("diagnostics upload: %s", st)
		}
		var files struct {
			Total int64            `json:"total"`
			List  []fleet.FileInfo `json:"list"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/diagnostics/list", map[string]any{"deviceId": a1})).Into(t, &files)
		if files.Total != 1 || files.List[0].Name != "diag.log" {
			t.Fatalf("diagnostics files: %+v", files)
		}
		var link struct{ URL string }
		apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": files.List[0].ID})).Into(t, &link)
		resp, err = http.Get(env.URL + link.URL)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("download: %v %v", resp, err)
		}
		resp.Body.Close()

		// Timeout (4) and busy: the charger takes longer than the command timeout.
		h.mu.Lock()
		h.delay = 2500 * time.Millisecond
		h.mu.Unlock()
		a, s := control(t, root, []int64{a1}, 1, nil)
		apitest.Must(t, a)
		busy, _ := control(t, root, []int64{a1}, 2, nil)
		apitest.WantCode(t, busy, 30002)
		// Batch: A1 busy, A2 offline (5 at once) → "some devices busy" with per-device results.
		batch, bs := control(t, root, []int64{a1, a2}, 1, nil)
		apitest.WantCode(t, batch, 30003)
		if len(bs.Commands) != 2 || bs.Commands[0].Code != 30002 || bs.Commands[1].Result != fleet.ResultOffline {
			t.Fatalf("batch: %s", batch.Data)
		}
		if v := result(t, root, s.Commands[0].ID); v.Result != fleet.ResultTimeout {
			t.Fatalf("want timeout, got %+v", v)
		}
		h.mu.Lock()
		h.delay = 0
		h.mu.Unlock()
		time.Sleep(1200 * time.Millisecond) // let the late Reset answer pass
		// Offline device alone: result 5 at once.
		_, off := control(t, root, []int64{a2}, 1, nil)
		if off.Commands[0].Result != fleet.ResultOffline {
			t.Fatalf("offline: %+v", off)
		}

		// Scope: a user of customer A cannot operate customer B's device.
		uid, roleID := env.CreateUser(root, "operator_a", "Oper#Pass123", "auth_device_edit", "auth_device_detail")
		if _, err := d.Exec(ctx, `UPDATE role SET customer_access = 1, site_access = 0 WHERE id = ?`, roleID); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE app_user SET customer_id = ? WHERE id = ?`, org.CustomerA, uid); err != nil {
			t.Fatal(err)
		}
		op := env.Client().MustLogin("operator_a", "Oper#Pass123")
		a, _ = control(t, op, []int64{b1}, 1, nil)
		apitest.WantCode(t, a, 10002)
		a, _ = control(t, op, []int64{a1, b1}, 1, nil)
		apitest.WantCode(t, a, 10002)
		apitest.WantCode(t, op.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": off.Commands[0].ID}), 0)
		if v := sendOne(t, op, a1, 1, nil); v.Result != fleet.ResultSuccess {
			t.Fatalf("scoped operator on own device: %+v", v)
		}

		// Protocol log through the API.
		var logs struct {
			Total int64          `json:"total"`
			List  []read.LogView `json:"list"`
		}
		waitFor(t, "protocol log rows", func() bool {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/logs/protocol/list", map[string]any{"sn": "SN-A1", "type": 0})).Into(t, &logs)
			return logs.Total == 1
		})
		apitest.Must(t, root.Call("POST", "/api/auth/sys/logs/protocol/list", map[string]any{"sn": "SN-A1", "pageSize": 10, "sort": "type"})).Into(t, &logs)
		if logs.Total < 40 || len(logs.List) != 10 || logs.List[0].Type != 0 {
			t.Fatalf("protocol log: total %d, first %+v", logs.Total, logs.List[0])
		}

		// Closing the charger marks it offline and opens an offline event.
		h.stop()
		waitFor(t, "Offline", func() bool { s, _ := deviceStatus(t, d, a1); return s == fleet.StatusOffline })
	})
}

func dialRaw(base, sn, user, pass string) (*websocket.Conn, int, error) {
	h := http.Header{}
	if user != "" {
		req, _ := http.NewRequest("GET", "http://x", nil)
		req.SetBasicAuth(user, pass)
		h.Set("Authorization", req.Header.Get("Authorization"))
	}
	dialer := websocket.Dialer{Subprotocols: []string{"ocpp1.6"}, HandshakeTimeout: 5 * time.Second}
	c, resp, err := dialer.Dial(base+"/"+sn, h)
	code := 0
	if resp != nil {
		code = resp.StatusCode
	}
	return c, code, err
}

func TestAdmissionRefusalsAndReplacement(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		keyed := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-KEY")
		dup := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-DUP")
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-BLACK")
		fleettest.Secure(t, d, keyed, env.App.Fleet.HashAuthKey("SN-KEY", "s3cretKey0001"), 1)
		root := env.Root()
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/blacklist/add", map[string]any{"sn": "SN-BLACK", "mac": "00:11:22:33:44:55", "protocolVersion": "ocpp1.6"}))
		base := wsBase(env)

		// The independent client sees the HTTP status of each refusal.
		for _, c := range []struct {
			sn, key string
			want    int
		}{
			{"SN-UNKNOWN", "", 404},
			{"SN-BLACK", "", 401},
			{"SN-KEY", "", 401},
			{"SN-KEY", "wrong-key-000", 401},
		} {
			_, _, err := startCP(t, base, c.sn, c.key)
			if got := httpCode(err); got != c.want {
				t.Fatalf("%s with key %q: got HTTP %d (%v), want %d", c.sn, c.key, got, err, c.want)
			}
		}
		// Profile 2 (TLS) device over plain ws: the right key is still refused.
		tlsOnly := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-TLS")
		fleettest.Secure(t, d, tlsOnly, env.App.Fleet.HashAuthKey("SN-TLS", "tlsKey0000001"), 2)
		if _, _, err := startCP(t, base, "SN-TLS", "tlsKey0000001"); httpCode(err) != 401 {
			t.Fatalf("profile 2 over plain ws: %v", err)
		}
		cp, _, err := startCP(t, base, "SN-KEY", "s3cretKey0001")
		if err != nil {
			t.Fatalf("right key refused: %v", err)
		}
		if _, err := cp.BootNotification("m", "v"); err != nil {
			t.Fatal(err)
		}
		var refusals struct {
			Total int64           `json:"total"`
			List  []fleet.Refusal `json:"list"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/refusal/list", map[string]any{})).Into(t, &refusals)
		reasons := map[string]int64{}
		for _, r := range refusals.List {
			reasons[r.SN+" "+r.Reason] = r.Count
		}
		if reasons["SN-UNKNOWN unknown_sn"] != 1 || reasons["SN-BLACK blacklisted"] != 1 || reasons["SN-KEY wrong_key"] != 2 || reasons["SN-TLS wrong_security_profile"] != 1 {
			t.Fatalf("refusals: %v", reasons)
		}
		var pending struct {
			List []fleet.PendingDevice `json:"list"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/pending/list", map[string]any{})).Into(t, &pending)
		if len(pending.List) != 1 || pending.List[0].SN != "SN-UNKNOWN" {
			t.Fatalf("pending: %+v", pending)
		}

		// Replacement: a second connection of the same SN replaces the first; the first's late
		// close leaves the device online.
		c1, _, err := dialRaw(base, "SN-DUP", "", "")
		if err != nil {
			t.Fatal(err)
		}
		defer c1.Close()
		waitFor(t, "first online", func() bool { s, _ := deviceStatus(t, d, dup); return s == fleet.StatusIdle })
		c2, _, err := dialRaw(base, "SN-DUP", "", "")
		if err != nil {
			t.Fatal(err)
		}
		defer c2.Close()
		_ = c1.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := c1.ReadMessage(); err == nil {
			t.Fatal("old connection still open")
		}
		time.Sleep(300 * time.Millisecond)
		if s, _ := deviceStatus(t, d, dup); s != fleet.StatusIdle {
			t.Fatalf("after replacement the device is %d", s)
		}
		// The new connection works.
		if err := c2.WriteMessage(websocket.TextMessage, []byte(`[2,"1","Heartbeat",{}]`)); err != nil {
			t.Fatal(err)
		}
		_ = c2.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, msg, err := c2.ReadMessage()
		if err != nil || !strings.HasPrefix(string(msg), `[3,"1",{"currentTime"`) {
			t.Fatalf("heartbeat answer %s %v", msg, err)
		}
		// A blacklisted SN that is connected is dropped at once.
		var bl struct {
			ID int64 `json:"id"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/blacklist/add", map[string]any{"sn": "SN-DUP"})).Into(t, &bl)
		if _, _, err := c2.ReadMessage(); err == nil {
			t.Fatal("blacklisted connection still open")
		}
		waitFor(t, "offline after blacklist", func() bool { s, _ := deviceStatus(t, d, dup); return s == fleet.StatusOffline })
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/blacklist/delete", map[string]any{"ids": []int64{bl.ID}}))
	})
}

func TestEveryFrameIsLogged(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-LOG")
		c, _, err := dialRaw(wsBase(env), "SN-LOG", "", "")
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if err := c.WriteMessage(websocket.TextMessage, fmt.Appendf(nil, `[2,"%d","Heartbeat",{}]`, i)); err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.ReadMessage(); err != nil {
				t.Fatal(err)
			}
		}
		c.Close()
		want := map[int]int{fleet.LogOpen: 1, fleet.LogReceived: 5, fleet.LogSent: 5, fleet.LogClose: 1}
		waitFor(t, "12 protocol-log rows", func() bool {
			got := map[int]int{}
			rows, err := d.Query(context.Background(), `SELECT type, COUNT(*) FROM protocol_log WHERE sn = 'SN-LOG' GROUP BY type`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var typ, n int
				_ = rows.Scan(&typ, &n)
				got[typ] = n
			}
			return fmt.Sprint(got) == fmt.Sprint(want)
		})
		var first string
		_ = d.QueryRow(context.Background(), `SELECT data FROM protocol_log WHERE sn = 'SN-LOG' AND type = 2 ORDER BY id LIMIT 1`).Scan(&first)
		if first != `[2,"0","Heartbeat",{}]` {
			t.Fatalf("received frame stored as %q", first)
		}
	})
}

// Consoles get status changes pushed, limited to what each user may see.
func TestStatusStreamIsScoped(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-SSE-A")
		fleettest.Device(t, d, org, org.CustomerB, org.SiteB, "SN-SSE-B")
		root := env.Root()
		uid, roleID := env.CreateUser(root, "viewer_b", "View#Pass123", "auth_device_list")
		ctx := context.Background()
		_, _ = d.Exec(ctx, `UPDATE role SET customer_access = 1, site_access = 0 WHERE id = ?`, roleID)
		_, _ = d.Exec(ctx, `UPDATE app_user SET customer_id = ? WHERE id = ?`, org.CustomerB, uid)
		viewer := env.Client().MustLogin("viewer_b", "View#Pass123")
		req, _ := http.NewRequest("GET", env.URL+"/api/auth/sys/dev/events/stream", nil)
		req.Header.Set("Cookie", "chargeops_token="+viewer.Cookie("chargeops_token"))
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		resp, err := http.DefaultClient.Do(req.WithContext(rctx))
		if err != nil || resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("stream: %v %v", resp, err)
		}
		defer resp.Body.Close()
		lines := make(chan string, 100)
		go func() {
			buf := make([]byte, 4096)
			for {
				n, err := resp.Body.Read(buf)
				if n > 0 {
					for _, l := range strings.Split(string(buf[:n]), "\n") {
						if strings.HasPrefix(l, "data: ") {
							lines <- l
						}
					}
				}
				if err != nil {
					close(lines)
					return
				}
			}
		}()
		a, _, err := dialRaw(wsBase(env), "SN-SSE-A", "", "")
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		time.Sleep(300 * time.Millisecond)
		b, _, err := dialRaw(wsBase(env), "SN-SSE-B", "", "")
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		select {
		case l := <-lines:
			var e fleet.StatusEvent
			if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "data: ")), &e); err != nil || e.SN != "SN-SSE-B" || e.Status != fleet.StatusIdle {
				t.Fatalf("event %q (%v): want only SN-SSE-B online", l, err)
			}
		case <-time.After(8 * time.Second):
			t.Fatal("no status event")
		}
	})
}
