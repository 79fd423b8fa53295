package ocpp16_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// opsCP is an ocpp-go charge point answering the operator actions (control types 12-18) with
// the statuses a test sets, and noting every request it gets.
type opsCP struct {
	mu      sync.Mutex
	got     []string
	answers map[string]string // action → status to answer (default Accepted, Unlocked)
	data    string            // DataTransfer answer data
	reserve map[int]int       // reservationId → connectorId of the ReserveNow requests
	expiry  map[int]time.Time // reservationId → expiryDate
}

func (h *opsCP) note(s string) {
	h.mu.Lock()
	h.got = append(h.got, s)
	h.mu.Unlock()
}

func (h *opsCP) answer(action, def string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a := h.answers[action]; a != "" {
		return a
	}
	return def
}

func (h *opsCP) set(action, status string) {
	h.mu.Lock()
	h.answers[action] = status
	h.mu.Unlock()
}

func (h *opsCP) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string{}, h.got...)
}

func (h *opsCP) OnChangeAvailability(*core.ChangeAvailabilityRequest) (*core.ChangeAvailabilityConfirmation, error) {
	return core.NewChangeAvailabilityConfirmation(core.AvailabilityStatusAccepted), nil
}
func (h *opsCP) OnChangeConfiguration(*core.ChangeConfigurationRequest) (*core.ChangeConfigurationConfirmation, error) {
	return core.NewChangeConfigurationConfirmation(core.ConfigurationStatusAccepted), nil
}
func (h *opsCP) OnClearCache(*core.ClearCacheRequest) (*core.ClearCacheConfirmation, error) {
	h.note("ClearCache")
	return core.NewClearCacheConfirmation(core.ClearCacheStatus(h.answer("ClearCache", "Accepted"))), nil
}
func (h *opsCP) OnDataTransfer(r *core.DataTransferRequest) (*core.DataTransferConfirmation, error) {
	h.note(fmt.Sprintf("DataTransfer %s %s %v", r.VendorId, r.MessageId, r.Data))
	c := core.NewDataTransferConfirmation(core.DataTransferStatus(h.answer("DataTransfer", "Accepted")))
	h.mu.Lock()
	if h.data != "" {
		c.Data = h.data
	}
	h.mu.Unlock()
	return c, nil
}
func (h *opsCP) OnGetConfiguration(*core.GetConfigurationRequest) (*core.GetConfigurationConfirmation, error) {
	return core.NewGetConfigurationConfirmation(nil), nil
}
func (h *opsCP) OnRemoteStartTransaction(r *core.RemoteStartTransactionRequest) (*core.RemoteStartTransactionConfirmation, error) {
	conn := 0
	if r.ConnectorId != nil {
		conn = *r.ConnectorId
	}
	h.note(fmt.Sprintf("RemoteStartTransaction %d %s", conn, r.IdTag))
	return core.NewRemoteStartTransactionConfirmation(types.RemoteStartStopStatus(h.answer("RemoteStartTransaction", "Accepted"))), nil
}
func (h *opsCP) OnRemoteStopTransaction(r *core.RemoteStopTransactionRequest) (*core.RemoteStopTransactionConfirmation, error) {
	h.note(fmt.Sprintf("RemoteStopTransaction %d", r.TransactionId))
	return core.NewRemoteStopTransactionConfirmation(types.RemoteStartStopStatus(h.answer("RemoteStopTransaction", "Accepted"))), nil
}
func (h *opsCP) OnReset(*core.ResetRequest) (*core.ResetConfirmation, error) {
	return core.NewResetConfirmation(core.ResetStatusAccepted), nil
}
func (h *opsCP) OnUnlockConnector(r *core.UnlockConnectorRequest) (*core.UnlockConnectorConfirmation, error) {
	h.note(fmt.Sprintf("UnlockConnector %d", r.ConnectorId))
	return core.NewUnlockConnectorConfirmation(core.UnlockStatus(h.answer("UnlockConnector", "Unlocked"))), nil
}
func (h *opsCP) OnReserveNow(r *reservation.ReserveNowRequest) (*reservation.ReserveNowConfirmation, error) {
	h.note(fmt.Sprintf("ReserveNow %d %s", r.ConnectorId, r.IdTag))
	h.mu.Lock()
	h.reserve[r.ReservationId] = r.ConnectorId
	h.expiry[r.ReservationId] = r.ExpiryDate.Time
	h.mu.Unlock()
	return reservation.NewReserveNowConfirmation(reservation.ReservationStatus(h.answer("ReserveNow", "Accepted"))), nil
}
func (h *opsCP) OnCancelReservation(r *reservation.CancelReservationRequest) (*reservation.CancelReservationConfirmation, error) {
	h.note(fmt.Sprintf("CancelReservation %d", r.ReservationId))
	return reservation.NewCancelReservationConfirmation(reservation.CancelReservationStatus(h.answer("CancelReservation", "Accepted"))), nil
}
func (h *opsCP) OnTriggerMessage(r *remotetrigger.TriggerMessageRequest) (*remotetrigger.TriggerMessageConfirmation, error) {
	h.note("TriggerMessage " + string(r.RequestedMessage))
	return remotetrigger.NewTriggerMessageConfirmation(remotetrigger.TriggerMessageStatusAccepted), nil
}

// startOpsCP connects an ocpp-go charge point as sn that reports connectors 1 and 2.
func startOpsCP(t *testing.T, base, sn string) (ocpp.ChargePoint, *opsCP) {
	t.Helper()
	cp := fleettest.ChargePoint(sn, ocppws.NewClient())
	h := &opsCP{answers: map[string]string{}, reserve: map[int]int{}, expiry: map[int]time.Time{}}
	cp.SetCoreHandler(h)
	cp.SetReservationHandler(h)
	cp.SetRemoteTriggerHandler(h)
	if err := cp.Start(base); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cp.Stop)
	if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{1, 2} {
		if _, err := cp.StatusNotification(c, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
	}
	return cp, h
}

// testTokens is a TokenAuthority with fixed answers (Accepted for tokens it does not list).
type testTokens map[string]fleet.TokenVerdict

func (a testTokens) Authorize(_ context.Context, _ *fleet.Device, idTag string) (fleet.TokenAnswer, error) {
	if s, ok := a[idTag]; ok {
		return fleet.TokenAnswer{Status: s}, nil
	}
	return fleet.TokenAnswer{Status: fleet.TokenAccepted}, nil
}

func reservationStatus(t *testing.T, d *db.DB, id int) string {
	t.Helper()
	var s string
	if err := d.QueryRow(context.Background(), `SELECT status FROM reservation WHERE id = ?`, id).Scan(&s); err != nil {
		t.Fatalf("reservation %d: %v", id, err)
	}
	return s
}

// allData lets a role see every customer and site at the lowest levels of control.
func allData(t *testing.T, root *apitest.Client, roleID int64) {
	t.Helper()
	apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": roleID, "customerAccess": 0, "siteAccess": 0, "webSshAccess": 0,
		"webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}))
}

func TestOperatorActionsOverOCPP(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout, c.DataDir = 1500*time.Millisecond, t.TempDir() })
		org := fleettest.Seed(t, d)
		a1 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-OPS1")
		a2 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-OPS2")
		root := env.Root()
		ctx := context.Background()
		cp, h := startOpsCP(t, wsBase(env), "SN-OPS1")
		waitFor(t, "connectors stored", func() bool {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id > 0`, a1).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n == 2
		})
		env.App.Fleet.SetTokenAuthority(testTokens{"BLOCKED1": fleet.TokenBlocked, "EXPIRED1": fleet.TokenExpired, "INVALID1": fleet.TokenInvalid})

		// sent reports whether the charger got want as its last request since n requests.
		last := func() string {
			r := h.requests()
			if len(r) == 0 {
				return ""
			}
			return r[len(r)-1]
		}

		cases := []struct {
			name, action, status string
			ct                   int
			params               map[string]any
			want                 string // the request the charger got
			result               int
			message              string // part of the localised message of a failure
		}{
			{"remote start on a connector sends RemoteStartTransaction; Accepted succeeds", "RemoteStartTransaction", "Accepted", fleet.CtlRemoteStart,
				map[string]any{"connectorId": 1, "idTag": "TAG1"}, "RemoteStartTransaction 1 TAG1", fleet.ResultSuccess, ""},
			{"remote start with connector 0 lets the charger choose", "RemoteStartTransaction", "Accepted", fleet.CtlRemoteStart,
				map[string]any{"idTag": "TAG2"}, "RemoteStartTransaction 0 TAG2", fleet.ResultSuccess, ""},
			{"remote start Rejected fails", "RemoteStartTransaction", "Rejected", fleet.CtlRemoteStart,
				map[string]any{"connectorId": 2, "idTag": "TAG1"}, "RemoteStartTransaction 2 TAG1", fleet.ResultFailed, "Rejected"},
			{"unlock answered Unlocked succeeds", "UnlockConnector", "Unlocked", fleet.CtlUnlockConnector,
				map[string]any{"connectorId": 2}, "UnlockConnector 2", fleet.ResultSuccess, ""},
			{"unlock answered UnlockFailed fails with its reason", "UnlockConnector", "UnlockFailed", fleet.CtlUnlockConnector,
				map[string]any{"connectorId": 1}, "UnlockConnector 1", fleet.ResultFailed, "Unlock failed"},
			{"unlock answered NotSupported fails with its reason", "UnlockConnector", "NotSupported", fleet.CtlUnlockConnector,
				map[string]any{"connectorId": 1}, "UnlockConnector 1", fleet.ResultFailed, "Not supported"},
			{"clear cache Accepted succeeds", "ClearCache", "Accepted", fleet.CtlClearCache, nil, "ClearCache", fleet.ResultSuccess, ""},
			{"clear cache Rejected fails", "ClearCache", "Rejected", fleet.CtlClearCache, nil, "ClearCache", fleet.ResultFailed, "Rejected"},
			{"data transfer sends the engineer's vendor, message and data", "DataTransfer", "Accepted", fleet.CtlDataTransfer,
				map[string]any{"vendorId": "com.example", "messageId": "Ping", "data": `{"n":1}`}, `DataTransfer com.example Ping {"n":1}`, fleet.ResultSuccess, ""},
			{"data transfer UnknownVendorId fails", "DataTransfer", "UnknownVendorId", fleet.CtlDataTransfer,
				map[string]any{"vendorId": "other"}, "DataTransfer other  <nil>", fleet.ResultFailed, "Unknown vendor"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h.set(c.action, c.status)
				v := sendOne(t, root, a1, c.ct, c.params)
				if got := last(); got != c.want {
					t.Errorf("charger got %q, want %q", got, c.want)
				}
				if v.Result != c.result || !strings.Contains(v.Message, c.message) {
					t.Errorf("result %d %q, want %d with %q", v.Result, v.Message, c.result, c.message)
				}
			})
		}

		t.Run("data transfer keeps the charger's answer data on the record", func(t *testing.T) {
			h.set("DataTransfer", "Accepted")
			h.mu.Lock()
			h.data = "pong-42"
			h.mu.Unlock()
			v := sendOne(t, root, a1, fleet.CtlDataTransfer, map[string]any{"vendorId": "com.example", "messageId": "Ping"})
			if v.Result != fleet.ResultSuccess || !strings.Contains(v.Answer, "pong-42") {
				t.Fatalf("answer %q result %d", v.Answer, v.Result)
			}
		})

		t.Run("remote stop sends the session's id and Accepted succeeds", func(t *testing.T) {
			st, err := cp.StartTransaction(1, "TAG1", 100, types.NewDateTime(time.Now().Add(-time.Minute).Truncate(time.Second)))
			if err != nil {
				t.Fatal(err)
			}
			var conns []read.ConnectorOps
			apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/ops/connectors", map[string]any{"deviceId": a1})).Into(t, &conns)
			if len(conns) != 2 || conns[0].TransactionID != int64(st.TransactionId) || conns[0].SessionIDTag != "TAG1" || conns[1].TransactionID != 0 {
				t.Fatalf("connectors: %+v", conns)
			}
			v := sendOne(t, root, a1, fleet.CtlRemoteStop, map[string]any{"transactionId": st.TransactionId})
			if got, want := last(), fmt.Sprintf("RemoteStopTransaction %d", st.TransactionId); got != want || v.Result != fleet.ResultSuccess {
				t.Fatalf("charger got %q (want %q), result %d %q", got, want, v.Result, v.Message)
			}
			if _, err := cp.StopTransaction(200, types.NewDateTime(time.Now()), st.TransactionId, func(r *core.StopTransactionRequest) { r.Reason = core.ReasonRemote }); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("trigger message offers every OCPP 1.6 kind", func(t *testing.T) {
			for _, kind := range []string{"BootNotification", "DiagnosticsStatusNotification", "FirmwareStatusNotification", "Heartbeat", "MeterValues", "StatusNotification"} {
				v := sendOne(t, root, a1, fleet.CtlTriggerMessage, map[string]any{"message": kind})
				if got := last(); got != "TriggerMessage "+kind || v.Result != fleet.ResultSuccess {
					t.Errorf("%s: charger got %q, result %d", kind, got, v.Result)
				}
			}
		})

		// reserve sends a ReserveNow on connector with the charger answering status.
		reserve := func(t *testing.T, connector int, status string) (fleet.CommandView, int) {
			t.Helper()
			h.set("ReserveNow", status)
			expiry := time.Now().Add(30 * time.Minute).Truncate(time.Second)
			v := sendOne(t, root, a1, fleet.CtlReserveNow, map[string]any{"connectorId": connector, "idTag": "RES1", "expiryDate": expiry.UnixMilli()})
			var rid int
			if err := d.QueryRow(ctx, `SELECT id FROM reservation WHERE command_id = ?`, v.ID).Scan(&rid); err != nil {
				t.Fatalf("reservation of command %d: %v", v.ID, err)
			}
			h.mu.Lock()
			conn, got := h.reserve[rid], h.expiry[rid]
			h.mu.Unlock()
			if conn != connector || !got.Equal(expiry) {
				t.Fatalf("charger got reservation %d on connector %d until %v, want %d until %v", rid, conn, got, connector, expiry)
			}
			return v, rid
		}

		t.Run("reserve accepted is active, and a start with its id uses it", func(t *testing.T) {
			v, rid := reserve(t, 2, "Accepted")
			if v.Result != fleet.ResultSuccess || reservationStatus(t, d, rid) != fleet.ReservationActive {
				t.Fatalf("result %d, reservation %s", v.Result, reservationStatus(t, d, rid))
			}
			st, err := cp.StartTransaction(2, "RES1", 0, types.NewDateTime(time.Now()), func(r *core.StartTransactionRequest) { r.ReservationId = &rid })
			if err != nil {
				t.Fatal(err)
			}
			if s := reservationStatus(t, d, rid); s != fleet.ReservationUsed {
				t.Fatalf("after the start: %s", s)
			}
			var tx int
			if err := d.QueryRow(ctx, `SELECT transaction_id FROM reservation WHERE id = ?`, rid).Scan(&tx); err != nil {
				t.Fatal(err)
			}
			if tx != st.TransactionId {
				t.Errorf("reservation names session %d, want %d", tx, st.TransactionId)
			}
			if _, err := cp.StopTransaction(10, types.NewDateTime(time.Now()), st.TransactionId); err != nil {
				t.Fatal(err)
			}
		})

		for _, status := range []string{"Faulted", "Occupied", "Rejected", "Unavailable"} {
			t.Run("reserve answered "+status+" fails and the reservation is refused", func(t *testing.T) {
				v, rid := reserve(t, 1, status)
				if v.Result != fleet.ResultFailed || !strings.Contains(v.Message, status) && status != "Faulted" {
					t.Errorf("result %d %q", v.Result, v.Message)
				}
				if s := reservationStatus(t, d, rid); s != fleet.ReservationRefused {
					t.Errorf("reservation %s", s)
				}
			})
		}

		t.Run("cancel accepted cancels; the reservation list shows it", func(t *testing.T) {
			_, rid := reserve(t, 1, "Accepted")
			var open db.List[fleet.Reservation]
			apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/reservation/list", map[string]any{"deviceId": a1, "open": true})).Into(t, &open)
			if len(open.List) != 1 || int(open.List[0].ID) != rid || open.List[0].IDTag != "RES1" {
				t.Fatalf("open reservations: %+v", open.List)
			}
			var conns []read.ConnectorOps
			apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/ops/connectors", map[string]any{"deviceId": a1})).Into(t, &conns)
			if int(conns[0].ReservationID) != rid || conns[0].ReservationIDTag != "RES1" || conns[0].ReservationStatus != fleet.ReservationActive {
				t.Fatalf("connector 1: %+v", conns[0])
			}
			h.set("CancelReservation", "Accepted")
			v := sendOne(t, root, a1, fleet.CtlCancelReservation, map[string]any{"reservationId": rid})
			if last() != fmt.Sprintf("CancelReservation %d", rid) || v.Result != fleet.ResultSuccess {
				t.Fatalf("charger got %q, result %d", last(), v.Result)
			}
			if s := reservationStatus(t, d, rid); s != fleet.ReservationCancelled {
				t.Fatalf("reservation %s", s)
			}
		})

		t.Run("the sweeper ends a reservation past its expiry and keeps the others", func(t *testing.T) {
			_, rid := reserve(t, 1, "Accepted")
			now := time.Now().UnixMilli()
			if n, err := env.App.Fleet.ExpireReservations(ctx, now); err != nil || reservationStatus(t, d, rid) != fleet.ReservationActive {
				t.Fatalf("before its expiry: %d expired (%v), reservation %s", n, err, reservationStatus(t, d, rid))
			}
			if _, err := env.App.Fleet.ExpireReservations(ctx, now+31*time.Minute.Milliseconds()); err != nil {
				t.Fatal(err)
			}
			if s := reservationStatus(t, d, rid); s != fleet.ReservationExpired {
				t.Fatalf("after its expiry: %s", s)
			}
		})

		t.Run("the whole charge point (connector 0) can be reserved", func(t *testing.T) {
			_, rid := reserve(t, 0, "Accepted")
			if s := reservationStatus(t, d, rid); s != fleet.ReservationActive {
				t.Fatalf("reservation %s", s)
			}
			h.set("CancelReservation", "Accepted")
			if v := sendOne(t, root, a1, fleet.CtlCancelReservation, map[string]any{"reservationId": rid}); v.Result != fleet.ResultSuccess {
				t.Fatalf("cancel: %d", v.Result)
			}
		})

		t.Run("a reservation whose command its dead node left waiting is refused by the sweep", func(t *testing.T) {
			// as the command sweep leaves a command of a node that died before the answer
			cmd, err := db.InsertID(ctx, d, `INSERT INTO command (device_id, sn, control_type, params, result, batch_id, user_id, user_name, deadline_at, created_at, finished_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, a2, "SN-OPS2", fleet.CtlReserveNow, "{}", fleet.ResultTimeout, "b", 0, "root", 1, 1, 2)
			if err != nil {
				t.Fatal(err)
			}
			rid, err := db.InsertID(ctx, d, `INSERT INTO reservation (device_id, customer_id, site_id, connector_id, id_tag, expires_at, status, command_id, user_id, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, a2, org.CustomerA, org.SiteA, 1, "RES1", time.Now().Add(time.Hour).UnixMilli(), fleet.ReservationRequested, cmd, 0, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := env.App.Fleet.ExpireReservations(ctx, time.Now().UnixMilli()); err != nil {
				t.Fatal(err)
			}
			if s := reservationStatus(t, d, int(rid)); s != fleet.ReservationRefused {
				t.Fatalf("reservation %s, want refused", s)
			}
		})

		// Refusals: a localised error, no command row, nothing sent to the charger.
		commands := func() int {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM command`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		_, limitedRole := env.CreateUser(root, "ops_limited", "Ops#Pass1234", "auth_device_edit", "auth_device_detail")
		allData(t, root, limitedRole)
		limited := env.Client().MustLogin("ops_limited", "Ops#Pass1234")
		zh := env.Root()
		zh.Locale = "zh-CN"
		refusals := []struct {
			name    string
			c       *apitest.Client
			ids     []int64
			ct      int
			params  map[string]any
			code    int
			message string
		}{
			{"unknown connector for a remote start", root, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"connectorId": 7, "idTag": "TAG1"}, apperr.Invalid, "has no connector 7"},
			{"unknown connector for an unlock, in Chinese", zh, []int64{a1}, fleet.CtlUnlockConnector, map[string]any{"connectorId": 9}, apperr.Invalid, "没有 9 号充电枪"},
			{"blocked token", root, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "BLOCKED1"}, apperr.Invalid, "BLOCKED1 is blocked"},
			{"expired token, in Chinese", zh, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "EXPIRED1"}, apperr.Invalid, "EXPIRED1 已过期"},
			{"invalid token for a reservation", root, []int64{a1}, fleet.CtlReserveNow, map[string]any{"connectorId": 1, "idTag": "INVALID1", "expiryDate": time.Now().Add(time.Hour).UnixMilli()}, apperr.Invalid, "not valid"},
			{"idTag longer than 20", root, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"idTag": strings.Repeat("x", 21)}, apperr.Invalid, "at most 20"},
			{"idTag missing", root, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"connectorId": 1}, apperr.Invalid, "Token (idTag) cannot be empty"},
			{"stop of a session that is not open", root, []int64{a1}, fleet.CtlRemoteStop, map[string]any{"transactionId": 999999}, apperr.Invalid, "not an open charging session"},
			{"reservation expiry in the past", root, []int64{a1}, fleet.CtlReserveNow, map[string]any{"connectorId": 1, "idTag": "RES1", "expiryDate": time.Now().Add(-time.Minute).UnixMilli()}, apperr.Invalid, "in the future"},
			{"cancel of a reservation that is not open", root, []int64{a1}, fleet.CtlCancelReservation, map[string]any{"reservationId": 999999}, apperr.Invalid, "not an open reservation"},
			{"data transfer without a vendor", root, []int64{a1}, fleet.CtlDataTransfer, map[string]any{"messageId": "x"}, apperr.Invalid, "Vendor ID cannot be empty"},
			{"data transfer data over 8 KB", root, []int64{a1}, fleet.CtlDataTransfer, map[string]any{"vendorId": "v", "data": strings.Repeat("d", 8193)}, apperr.Invalid, "at most 8192"},
			{"remote start on two devices", root, []int64{a1, a2}, fleet.CtlRemoteStart, map[string]any{"idTag": "TAG1"}, apperr.Invalid, "one device at a time"},
			{"remote start without its key", limited, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "TAG1"}, apperr.NoPermission, "No permission"},
			{"remote stop without its key", limited, []int64{a1}, fleet.CtlRemoteStop, map[string]any{"transactionId": 1}, apperr.NoPermission, "No permission"},
			{"unlock without its key", limited, []int64{a1}, fleet.CtlUnlockConnector, map[string]any{"connectorId": 1}, apperr.NoPermission, "No permission"},
			{"local list without the token key", limited, []int64{a1}, fleet.CtlSendLocalList, map[string]any{"updateType": "Full"}, apperr.NoPermission, "No permission"},
			{"reserve without its key", limited, []int64{a1}, fleet.CtlReserveNow, map[string]any{"connectorId": 1, "idTag": "RES1", "expiryDate": time.Now().Add(time.Hour).UnixMilli()}, apperr.NoPermission, "No permission"},
		}
		for _, c := range refusals {
			t.Run("refused, nothing sent: "+c.name, func(t *testing.T) {
				before, sentBefore := commands(), len(h.requests())
				a, _ := control(t, c.c, c.ids, c.ct, c.params)
				if a.Code != c.code || !strings.Contains(a.Message, c.message) {
					t.Errorf("code %d %q, want %d with %q", a.Code, a.Message, c.code, c.message)
				}
				if commands() != before || len(h.requests()) != sentBefore {
					t.Errorf("something was sent: commands %d → %d, charger requests %d → %d", before, commands(), sentBefore, len(h.requests()))
				}
			})
		}

		t.Run("a limited role given the keys may start and unlock", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": limitedRole,
				"keys": []string{"auth_device", "auth_device_edit", "auth_device_detail", fleet.KeyRemoteStart, fleet.KeyUnlock}}))
			limited := env.Client().MustLogin("ops_limited", "Ops#Pass1234")
			h.set("UnlockConnector", "Unlocked")
			if v := sendOne(t, limited, a1, fleet.CtlUnlockConnector, map[string]any{"connectorId": 1}); v.Result != fleet.ResultSuccess || last() != "UnlockConnector 1" {
				t.Fatalf("unlock: %d, charger got %q", v.Result, last())
			}
			h.set("RemoteStartTransaction", "Accepted")
			if v := sendOne(t, limited, a1, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "TAG9"}); v.Result != fleet.ResultSuccess || last() != "RemoteStartTransaction 1 TAG9" {
				t.Fatalf("remote start: %d, charger got %q", v.Result, last())
			}
		})

		t.Run("the model's control items and the role's level apply as for 1-11", func(t *testing.T) {
			item := func(code, level int) apitest.Answer {
				return root.Call("POST", "/api/auth/sys/dev/model/item/add", map[string]any{"modelId": org.ModelID, "kind": "control",
					"controlName": fmt.Sprintf("op %d", code), "controlTypeCode": code, "controlLevel": level})
			}
			apitest.WantCode(t, item(devmodel.ControlLast+1, 3), apperr.Invalid) // past the last control type
			apitest.Must(t, item(fleet.CtlUnlockConnector, 3))
			apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": limitedRole, "customerAccess": 0, "siteAccess": 0,
				"webSshAccess": 0, "webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 4, "docLevel": 5, "attachLevel": 5}))
			limited := env.Client().MustLogin("ops_limited", "Ops#Pass1234")
			sent := len(h.requests())
			a, _ := control(t, limited, []int64{a1}, fleet.CtlUnlockConnector, map[string]any{"connectorId": 1})
			apitest.WantCode(t, a, apperr.NoPermission) // item at level 3, role at 4
			a, _ = control(t, limited, []int64{a1}, fleet.CtlRemoteStart, map[string]any{"connectorId": 1, "idTag": "TAG1"})
			apitest.WantCode(t, a, apperr.NoPermission) // the model lists control items, not this one
			if len(h.requests()) != sent {
				t.Fatalf("sent %v", h.requests()[sent:])
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": limitedRole, "customerAccess": 0, "siteAccess": 0,
				"webSshAccess": 0, "webSshLevel": 5, "cfgReadLevel": 5, "cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 3, "docLevel": 5, "attachLevel": 5}))
			limited = env.Client().MustLogin("ops_limited", "Ops#Pass1234")
			if v := sendOne(t, limited, a1, fleet.CtlUnlockConnector, map[string]any{"connectorId": 1}); v.Result != fleet.ResultSuccess {
				t.Fatalf("unlock at level 3: %d %q", v.Result, v.Message)
			}
			if _, err := d.Exec(ctx, `DELETE FROM model_item WHERE model_id = ? AND kind = 'control'`, org.ModelID); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("an offline charger gets result 5 and no reservation stays open", func(t *testing.T) {
			if _, err := d.Exec(ctx, `INSERT INTO device_connector (device_id, connector_id, status, updated_at) VALUES (?, 1, 'Available', ?)`, a2, time.Now().UnixMilli()); err != nil {
				t.Fatal(err)
			}
			a, s := control(t, root, []int64{a2}, fleet.CtlUnlockConnector, map[string]any{"connectorId": 1})
			apitest.Must(t, a)
			if len(s.Commands) != 1 || s.Commands[0].Result != fleet.ResultOffline {
				t.Fatalf("unlock offline: %s", a.Data)
			}
			a, s = control(t, root, []int64{a2}, fleet.CtlReserveNow, map[string]any{"connectorId": 1, "idTag": "RES1", "expiryDate": time.Now().Add(time.Hour).UnixMilli()})
			apitest.Must(t, a)
			var st string
			if err := d.QueryRow(ctx, `SELECT status FROM reservation WHERE command_id = ?`, s.Commands[0].ID).Scan(&st); err != nil {
				t.Fatal(err)
			}
			if s.Commands[0].Result != fleet.ResultOffline || st != fleet.ReservationRefused {
				t.Fatalf("reserve offline: result %d, reservation %q", s.Commands[0].Result, st)
			}
		})

		t.Run("the OpenAPI sends the same actions under the same rules", func(t *testing.T) {
			appUser, appRole := env.CreateUser(root, "ops_app_user", "Ops#Pass1234", "auth_device_edit", "auth_device_detail", fleet.KeyRemoteStart, fleet.KeyUnlock)
			allData(t, root, appRole)
			app := env.NewApp(root, "ops-app", appUser)
			h.set("UnlockConnector", "Unlocked")
			a := app.Call("POST", "/openapi/v1/commands", map[string]any{"deviceIds": []int64{a1}, "controlType": fleet.CtlUnlockConnector, "params": map[string]any{"connectorId": 2}})
			apitest.Must(t, a)
			var s sendAnswer
			a.Into(t, &s)
			if v := result(t, root, s.Commands[0].ID); v.Result != fleet.ResultSuccess || last() != "UnlockConnector 2" {
				t.Fatalf("unlock through the OpenAPI: %d, charger got %q", v.Result, last())
			}
			sent := len(h.requests())
			a = app.Call("POST", "/openapi/v1/commands", map[string]any{"deviceIds": []int64{a1}, "controlType": fleet.CtlRemoteStart, "params": map[string]any{"connectorId": 1, "idTag": "BLOCKED1"}})
			if a.Code != apperr.Invalid || len(h.requests()) != sent {
				t.Fatalf("blocked token through the OpenAPI: %d %q", a.Code, a.Message)
			}
		})
	})
}
