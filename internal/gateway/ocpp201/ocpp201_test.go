package ocpp201_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/tlsconf/tlstest"
)

// energy is an Energy.Active.Import.Register sample in Wh read in context ctx.
func energy(wh float64, ctx types.ReadingContext) types.SampledValue {
	return types.SampledValue{Value: wh, Context: ctx, Measurand: types.MeasurandEnergyActiveImportRegister, UnitOfMeasure: &types.UnitOfMeasure{Unit: "Wh"}}
}

func meterAt(at time.Time, svs ...types.SampledValue) []types.MeterValue {
	return []types.MeterValue{{Timestamp: *types.NewDateTime(at), SampledValue: svs}}
}

// TestChargingStationLifecycle runs ocpp-go's 2.0.1 charging station (a client chargeops did
// not write) through the whole life docs/ocpp201.md describes, on both databases: boot, EVSE and
// connector statuses, a transaction with its meter values and the traps of repeated and
// out-of-order events, an alarm via NotifyEvent, a full report, and the operator's commands.
func TestChargingStationLifecycle(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-V201-LIFE"
		env, _, id := fleettest.Node(t, d, sn, func(c *config.Config) { c.CommandTimeout = 5 * time.Second })
		root := env.Root()
		st, err := startStation(t, fleettest.WSBase(env), sn, nil)
		if err != nil {
			t.Fatal(err)
		}
		q := func(t *testing.T, query string, args []any, dst ...any) bool {
			t.Helper()
			err := d.QueryRow(ctx, query, args...).Scan(dst...)
			if err != nil && !db.NotFound(err) {
				t.Fatal(err)
			}
			return err == nil
		}

		t.Run("boot is accepted and the connection is a 2.0.1 one", func(t *testing.T) {
			boot, err := st.cs.BootNotification(provisioning.BootReasonPowerUp, "AC-2", "Vendor201", func(r *provisioning.BootNotificationRequest) {
				r.ChargingStation.FirmwareVersion = "2.0.1-a"
				r.ChargingStation.SerialNumber = "S201"
			})
			if err != nil || boot.Status != provisioning.RegistrationStatusAccepted || boot.Interval != 60 {
				t.Fatalf("boot: %+v %v", boot, err)
			}
			var proto, vendor string
			testutil.Eventually(t, "the protocol recorded", func() bool {
				return q(t, `SELECT protocol FROM device_state WHERE device_id = ?`, []any{id}, &proto) && proto == devstate.ProtocolOCPP201
			})
			if !q(t, `SELECT vendor FROM device_state WHERE device_id = ?`, []any{id}, &vendor) || vendor != "Vendor201" {
				t.Fatalf("vendor %q", vendor)
			}
			if _, err := st.cs.Heartbeat(); err != nil {
				t.Fatalf("heartbeat: %v", err)
			}
		})

		t.Run("statuses: each EVSE is a connector of the core, its connectors kept beside it", func(t *testing.T) {
			for _, s := range []struct {
				evse, conn int
				status     availability.ConnectorStatus
			}{{1, 1, availability.ConnectorStatusAvailable}, {1, 2, availability.ConnectorStatusUnavailable}, {2, 1, availability.ConnectorStatusAvailable}} {
				if _, err := st.cs.StatusNotification(now(), s.status, s.evse, s.conn); err != nil {
					t.Fatal(err)
				}
			}
			var n int
			q(t, `SELECT COUNT(*) FROM device_evse_connector WHERE device_id = ?`, []any{id}, &n)
			var s1, s2, plug string
			q(t, `SELECT status FROM device_connector WHERE device_id = ? AND connector_id = 1`, []any{id}, &s1)
			q(t, `SELECT status FROM device_connector WHERE device_id = ? AND connector_id = 2`, []any{id}, &s2)
			q(t, `SELECT status FROM device_evse_connector WHERE device_id = ? AND evse_id = 1 AND connector_id = 2`, []any{id}, &plug)
			if n != 3 || s1 != "Available" || s2 != "Available" || plug != "Unavailable" {
				t.Fatalf("connectors %d, EVSE 1 %q, EVSE 2 %q, EVSE 1 connector 2 %q", n, s1, s2, plug)
			}
			var status int
			q(t, `SELECT status FROM device WHERE id = ?`, []any{id}, &status)
			if status != fleet.StatusIdle {
				t.Fatalf("device status %d, want idle", status)
			}
		})

		start := time.Now().Add(-10 * time.Minute).UTC().Truncate(time.Second)
		info := func(cs transactions.ChargingState) transactions.Transaction {
			return transactions.Transaction{TransactionID: "TX-201-1", ChargingState: cs}
		}
		event := func(t *testing.T, typ transactions.TransactionEvent, at time.Time, reason transactions.TriggerReason, seq int, tx transactions.Transaction,
			props ...func(*transactions.TransactionEventRequest)) *transactions.TransactionEventResponse {
			t.Helper()
			res, err := st.cs.TransactionEvent(typ, types.NewDateTime(at), reason, seq, tx, props...)
			if err != nil {
				t.Fatalf("%s %d: %v", typ, seq, err)
			}
			return res
		}
		session := func(t *testing.T) (txID int64, connector int, meterStart, stoppedAt, energyWh int64, reason string) {
			t.Helper()
			if !q(t, `SELECT id, connector_id, meter_start, stopped_at, energy_wh, reason FROM device_transaction WHERE device_id = ? AND charger_tx_id = 'TX-201-1'`,
				[]any{id}, &txID, &connector, &meterStart, &stoppedAt, &energyWh, &reason) {
				t.Fatal("no session TX-201-1")
			}
			return
		}

		t.Run("a transaction: Started, Updated (sent twice), Ended, Ended again", func(t *testing.T) {
			if _, err := st.cs.StatusNotification(now(), availability.ConnectorStatusOccupied, 1, 1); err != nil {
				t.Fatal(err)
			}
			res := event(t, transactions.TransactionEventStarted, start, transactions.TriggerReasonAuthorized, 0, info(transactions.ChargingStateCharging),
				func(r *transactions.TransactionEventRequest) {
					r.Evse = &types.EVSE{ID: 1, ConnectorID: intp(1)}
					r.IDToken = &types.IdToken{IdToken: "RFID201", Type: types.IdTokenTypeISO14443}
					r.MeterValue = meterAt(start, energy(10000, types.ReadingContextTransactionBegin))
				})
			if res.IDTokenInfo == nil || res.IDTokenInfo.Status != types.AuthorizationStatusAccepted {
				t.Fatalf("Started answered %+v", res.IDTokenInfo)
			}
			_, connector, meterStart, stopped, _, _ := session(t)
			if connector != 1 || meterStart != 10000 || stopped != 0 {
				t.Fatalf("session on %d, start %d, stopped %d", connector, meterStart, stopped)
			}
			var evseStatus string
			q(t, `SELECT status FROM device_connector WHERE device_id = ? AND connector_id = 1`, []any{id}, &evseStatus)
			if evseStatus != "Charging" {
				t.Fatalf("EVSE 1 is %q while charging", evseStatus)
			}
			upd := func(r *transactions.TransactionEventRequest) {
				r.MeterValue = meterAt(start.Add(5*time.Minute), energy(11500, types.ReadingContextSamplePeriodic),
					types.SampledValue{Value: 7.2, Measurand: types.MeasurandPowerActiveImport, UnitOfMeasure: &types.UnitOfMeasure{Unit: "kW"}})
			}
			event(t, transactions.TransactionEventUpdated, start.Add(5*time.Minute), transactions.TriggerReasonMeterValuePeriodic, 1, info(transactions.ChargingStateCharging), upd)
			event(t, transactions.TransactionEventUpdated, start.Add(5*time.Minute), transactions.TriggerReasonMeterValuePeriodic, 1, info(transactions.ChargingStateCharging), upd)
			var points int
			q(t, `SELECT COUNT(*) FROM device_series WHERE device_id = ? AND name = ?`, []any{id, fleet.EnergyRegister}, &points)
			if points != 2 { // the start and one update: the repeat adds nothing
				t.Fatalf("%d energy points", points)
			}
			var power, unit string
			q(t, `SELECT value, unit FROM device_runtime WHERE device_id = ? AND connector_id = 1 AND name = 'Power.Active.Import'`, []any{id}, &power, &unit)
			if power == "" {
				t.Fatal("no power value")
			}
			end := start.Add(9 * time.Minute)
			ended := func(r *transactions.TransactionEventRequest) {
				r.MeterValue = meterAt(end, energy(12.5, types.ReadingContextTransactionEnd))
				r.MeterValue[0].SampledValue[0].UnitOfMeasure = &types.UnitOfMeasure{Unit: "kWh"}
			}
			stopInfo := info("")
			stopInfo.StoppedReason = transactions.ReasonEVDisconnected
			event(t, transactions.TransactionEventEnded, end, transactions.TriggerReasonEVCommunicationLost, 2, stopInfo, ended)
			event(t, transactions.TransactionEventEnded, end, transactions.TriggerReasonEVCommunicationLost, 2, stopInfo, ended)
			var sessions int
			q(t, `SELECT COUNT(*) FROM device_transaction WHERE device_id = ?`, []any{id}, &sessions)
			_, _, _, stoppedAt, wh, reason := session(t)
			if sessions != 1 || stoppedAt != end.UnixMilli() || wh != 2500 || reason != "EVDisconnected" {
				t.Fatalf("%d sessions; stopped %d (want %d), %d Wh, reason %q", sessions, stoppedAt, end.UnixMilli(), wh, reason)
			}
			if _, err := st.cs.StatusNotification(now(), availability.ConnectorStatusAvailable, 1, 1); err != nil {
				t.Fatal(err)
			}
			q(t, `SELECT status FROM device_connector WHERE device_id = ? AND connector_id = 1`, []any{id}, &evseStatus)
			if evseStatus != "Available" {
				t.Fatalf("EVSE 1 is %q after the transaction", evseStatus)
			}
		})

		t.Run("an Ended whose Started never came is a session of its own; its late Started changes nothing", func(t *testing.T) {
			at := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
			tx := transactions.Transaction{TransactionID: "TX-201-ORPHAN", StoppedReason: transactions.ReasonLocal}
			event(t, transactions.TransactionEventEnded, at, transactions.TriggerReasonStopAuthorized, 3, tx, func(r *transactions.TransactionEventRequest) {
				r.Evse = &types.EVSE{ID: 2}
				r.Offline = true
				r.MeterValue = meterAt(at, energy(500, types.ReadingContextTransactionEnd))
			})
			event(t, transactions.TransactionEventStarted, at.Add(-time.Minute), transactions.TriggerReasonAuthorized, 0, tx, func(r *transactions.TransactionEventRequest) {
				r.Evse = &types.EVSE{ID: 2}
				r.Offline = true
			})
			var n int
			var stoppedAt, wh int64
			q(t, `SELECT COUNT(*), MAX(stopped_at), MAX(energy_wh) FROM device_transaction WHERE device_id = ? AND charger_tx_id = 'TX-201-ORPHAN'`,
				[]any{id}, &n, &stoppedAt, &wh)
			if n != 1 || stoppedAt != at.UnixMilli() || wh != 0 {
				t.Fatalf("%d sessions, stopped %d, %d Wh (an Ended alone counts no energy)", n, stoppedAt, wh)
			}
		})

		t.Run("plugged in first, authorized later: the session takes the token of the later event", func(t *testing.T) {
			at := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
			tx := transactions.Transaction{TransactionID: "TX-201-PLUG", ChargingState: transactions.ChargingStateEVConnected}
			event(t, transactions.TransactionEventStarted, at, transactions.TriggerReasonCablePluggedIn, 0, tx,
				func(r *transactions.TransactionEventRequest) { r.Evse = &types.EVSE{ID: 2, ConnectorID: intp(1)} })
			res := event(t, transactions.TransactionEventUpdated, at.Add(10*time.Second), transactions.TriggerReasonAuthorized, 1, tx,
				func(r *transactions.TransactionEventRequest) {
					r.IDToken = &types.IdToken{IdToken: "RFID-LATE", Type: types.IdTokenTypeISO14443}
				})
			var tag string
			var startedAt int64
			q(t, `SELECT id_tag, started_at FROM device_transaction WHERE device_id = ? AND charger_tx_id = 'TX-201-PLUG'`, []any{id}, &tag, &startedAt)
			if res.IDTokenInfo == nil || tag != "RFID-LATE" || startedAt != at.UnixMilli() {
				t.Fatalf("answer %+v; session token %q, started %d (want %d)", res.IDTokenInfo, tag, startedAt, at.UnixMilli())
			}
			stop := tx
			stop.StoppedReason = transactions.ReasonLocal
			event(t, transactions.TransactionEventEnded, at.Add(20*time.Second), transactions.TriggerReasonStopAuthorized, 2, stop)
		})

		t.Run("a station whose clock is in 1970: the session gets the server's time and is flagged", func(t *testing.T) {
			epoch := time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC) // a station that lost its clock (unix 0 itself reads as missing)
			before := time.Now().UnixMilli()
			event(t, transactions.TransactionEventStarted, epoch, transactions.TriggerReasonAuthorized, 0, transactions.Transaction{TransactionID: "TX-201-1970"},
				func(r *transactions.TransactionEventRequest) {
					r.Evse = &types.EVSE{ID: 2}
					r.MeterValue = meterAt(epoch, energy(100, types.ReadingContextTransactionBegin))
				})
			event(t, transactions.TransactionEventEnded, epoch, transactions.TriggerReasonStopAuthorized, 1, transactions.Transaction{TransactionID: "TX-201-1970"},
				func(r *transactions.TransactionEventRequest) {
					r.MeterValue = meterAt(epoch, energy(50, types.ReadingContextTransactionEnd))
				})
			var startedAt, wh int64
			var flags int
			q(t, `SELECT started_at, energy_wh, flags FROM device_transaction WHERE device_id = ? AND charger_tx_id = 'TX-201-1970'`, []any{id}, &startedAt, &wh, &flags)
			if startedAt < before || flags&fleet.FlagClock == 0 || wh != 0 {
				t.Fatalf("started %d (before %d), flags %b, %d Wh (a meter that went back counts none)", startedAt, before, flags, wh)
			}
		})

		t.Run("NotifyEvent: a problem opens an alarm on its EVSE, its clearing ends it", func(t *testing.T) {
			ev := diagnostics.EventData{EventID: 1, Timestamp: now(), Trigger: diagnostics.EventTriggerDelta, ActualValue: "true", TechCode: "E42",
				EventNotificationType: diagnostics.EventHardWiredNotification, Component: types.Component{Name: "Connector", EVSE: &types.EVSE{ID: 2, ConnectorID: intp(1)}},
				Variable: types.Variable{Name: "Problem"}}
			if _, err := st.cs.NotifyEvent(now(), 0, []diagnostics.EventData{ev}); err != nil {
				t.Fatal(err)
			}
			open := func() (n int) {
				q(t, `SELECT COUNT(*) FROM device_event WHERE device_id = ? AND kind = ? AND connector_id = 2 AND code = ? AND status = ?`,
					[]any{id, fleet.KindAlarm, "Connector@2.1/Problem", fleet.EventOpen}, &n)
				return
			}
			if open() != 1 {
				t.Fatal("no open alarm for the problem")
			}
			// a status report of the EVSE does not end it
			if _, err := st.cs.StatusNotification(now(), availability.ConnectorStatusAvailable, 2, 1); err != nil {
				t.Fatal(err)
			}
			if open() != 1 {
				t.Fatal("a status report ended the component's alarm")
			}
			ev.EventID, ev.ActualValue, ev.Cleared = 2, "false", true
			if _, err := st.cs.NotifyEvent(now(), 1, []diagnostics.EventData{ev}); err != nil {
				t.Fatal(err)
			}
			if open() != 0 {
				t.Fatal("the cleared problem is still open")
			}
			temp := diagnostics.EventData{EventID: 3, Timestamp: now(), Trigger: diagnostics.EventTriggerPeriodic, ActualValue: "41.5",
				EventNotificationType: diagnostics.EventCustomMonitor, Component: types.Component{Name: "EVSE", EVSE: &types.EVSE{ID: 1}},
				Variable: types.Variable{Name: "Temperature"}}
			if _, err := st.cs.NotifyEvent(now(), 2, []diagnostics.EventData{temp}); err != nil {
				t.Fatal(err)
			}
			var v string
			q(t, `SELECT value FROM device_runtime WHERE device_id = ? AND connector_id = 1 AND name = 'EVSE@1/Temperature'`, []any{id}, &v)
			if v != "41.5" {
				t.Fatalf("periodic value %q", v)
			}
		})

		t.Run("the full report and variables become the device's configuration values", func(t *testing.T) {
			v := fleettest.SendOne(t, root, id, fleet.CtlGetConfiguration, map[string]any{})
			if v.Result != fleet.ResultSuccess || st.last() != "GetBaseReport FullInventory" {
				t.Fatalf("base report: %+v; station got %q", v, st.last())
			}
			var hb string
			testutil.Eventually(t, "the reported heartbeat interval", func() bool {
				return q(t, `SELECT value FROM device_config WHERE device_id = ? AND key = 'SampledDataCtrlr/TxUpdatedInterval'`, []any{id}, &hb)
			})
			q(t, `SELECT value FROM device_config WHERE device_id = ? AND key = 'OCPPCommCtrlr/HeartbeatInterval'`, []any{id}, &hb)
			if hb != "60" {
				t.Fatalf("heartbeat interval %q", hb)
			}
			v = fleettest.SendOne(t, root, id, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{{"key": "OCPPCommCtrlr/HeartbeatInterval", "value": "90"}}})
			if v.Result != fleet.ResultSuccess || st.last() != "SetVariables OCPPCommCtrlr/HeartbeatInterval=90" {
				t.Fatalf("set: %+v; station got %q", v, st.last())
			}
			v = fleettest.SendOne(t, root, id, fleet.CtlGetConfiguration, map[string]any{"keys": []string{"OCPPCommCtrlr/HeartbeatInterval"}})
			q(t, `SELECT value FROM device_config WHERE device_id = ? AND key = 'OCPPCommCtrlr/HeartbeatInterval'`, []any{id}, &hb)
			if v.Result != fleet.ResultSuccess || hb != "90" {
				t.Fatalf("get: %+v, stored %q", v, hb)
			}
		})

		t.Run("operator commands map to 2.0.1 calls", func(t *testing.T) {
			// an open session to stop
			event(t, transactions.TransactionEventStarted, time.Now().UTC(), transactions.TriggerReasonCablePluggedIn, 0,
				transactions.Transaction{TransactionID: "TX-201-2", ChargingState: transactions.ChargingStateEVConnected},
				func(r *transactions.TransactionEventRequest) { r.Evse = &types.EVSE{ID: 2, ConnectorID: intp(1)} })
			var txID int64
			q(t, `SELECT id FROM device_transaction WHERE device_id = ? AND charger_tx_id = 'TX-201-2'`, []any{id}, &txID)
			ca := tlstest.NewCA(t, "Test CSMS Root 201")
			cases := []struct {
				name   string
				ct     int
				params map[string]any
				want   string // the call the station got
			}{
				{"soft reset is Reset OnIdle", fleet.CtlSoftReset, nil, "Reset OnIdle"},
				{"hard reset is Reset Immediate", fleet.CtlHardReset, nil, "Reset Immediate"},
				{"station availability", fleet.CtlAvailability, map[string]any{"enable": false}, "ChangeAvailability Inoperative -1"},
				{"EVSE availability", fleet.CtlConnectorAvail, map[string]any{"connectorId": 2, "enable": true}, "ChangeAvailability Operative 2"},
				{"trigger a status", fleet.CtlTriggerMessage, map[string]any{"message": "StatusNotification", "connectorId": 1}, "TriggerMessage StatusNotification 1"},
				{"remote start", fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "RFID201"}, "RequestStartTransaction 1 RFID201 ISO14443"},
				{"remote stop names the charger's transaction", fleet.CtlRemoteStop, map[string]any{"transactionId": txID}, "RequestStopTransaction TX-201-2"},
				{"unlock", fleet.CtlUnlockConnector, map[string]any{"connectorId": 1}, "UnlockConnector 1 1"},
				{"clear cache", fleet.CtlClearCache, nil, "ClearCache"},
				{"data transfer", fleet.CtlDataTransfer, map[string]any{"vendorId": "com.example", "messageId": "Ping", "data": "x"}, "DataTransfer com.example Ping x"},
				{"diagnostics are GetLog", fleet.CtlGetDiagnostics, nil, "GetLog DiagnosticsLog"},
				{"a security log", fleet.CtlGetLog, map[string]any{"logType": "SecurityLog"}, "GetLog SecurityLog"},
				{"local list version", fleet.CtlGetLocalListVersion, nil, "GetLocalListVersion"},
				{"send local list", fleet.CtlSendLocalList, map[string]any{"updateType": "Full"}, "SendLocalList"},
				{"install a root", fleet.CtlInstallCertificate, map[string]any{"certificateType": "CentralSystemRootCertificate", "certificate": string(ca.PEM)},
					"InstallCertificate CSMSRootCertificate"},
				{"list roots", fleet.CtlGetCertificateIDs, map[string]any{"certificateType": "CentralSystemRootCertificate"}, "GetInstalledCertificateIds [CSMSRootCertificate]"},
				{"delete a root", fleet.CtlDeleteCertificate, map[string]any{"certificateHashData": map[string]string{"hashAlgorithm": "SHA256",
					"issuerNameHash": strings.Repeat("a", 64), "issuerKeyHash": strings.Repeat("b", 64), "serialNumber": "0c"}}, "DeleteCertificate 0c"},
				{"renew the client certificate", fleet.CtlRenewCertificate, nil, "TriggerMessage SignChargingStationCertificate 0"},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					v := fleettest.SendOne(t, root, id, c.ct, c.params)
					if v.Result != fleet.ResultSuccess || !strings.HasPrefix(st.last(), c.want) {
						t.Fatalf("result %d %q; the station got %q, want %q", v.Result, v.Message, st.last(), c.want)
					}
				})
			}
			t.Run("a refusal fails the command with the station's status", func(t *testing.T) {
				st.answer("RequestStartTransaction", "Rejected")
				v := fleettest.SendOne(t, root, id, fleet.CtlRemoteStart, map[string]any{"connectorId": 2, "idTag": "RFID201"})
				if v.Result != fleet.ResultFailed {
					t.Fatalf("a rejected start: %+v", v)
				}
			})
			t.Run("a firmware update sends UpdateFirmware and its steps run the job", func(t *testing.T) {
				var fw struct {
					ID        int64  `json:"id"`
					UploadURL string `json:"uploadUrl"`
				}
				apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": "fw-201.bin"})).Into(t, &fw)
				req, _ := http.NewRequest("PUT", env.URL+fw.UploadURL, bytes.NewReader(bytes.Repeat([]byte("F"), 1024)))
				resp, err := http.DefaultClient.Do(req)
				if err != nil || resp.StatusCode != 201 {
					t.Fatalf("firmware upload: %v %v", resp, err)
				}
				resp.Body.Close()
				v := fleettest.SendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": fw.ID})
				if v.Result != fleet.ResultSuccess || !strings.HasPrefix(st.last(), "UpdateFirmware") {
					t.Fatalf("update: %+v; station got %q", v, st.last())
				}
				if _, err := st.cs.FirmwareStatusNotification("Installed", func(r *firmware.FirmwareStatusNotificationRequest) { r.RequestID = intp(fleet.RequestID(v.ID)) }); err != nil {
					t.Fatal(err)
				}
				var fwStatus string
				q(t, `SELECT firmware_status FROM device_state WHERE device_id = ?`, []any{id}, &fwStatus)
				if fwStatus != "Installed" {
					t.Fatalf("firmware status %q", fwStatus)
				}
			})
		})
	})
}
