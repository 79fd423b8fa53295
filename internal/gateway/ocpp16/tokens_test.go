package ocpp16_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/localauth"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/token"
)

// listHandler is the ocpp-go charge point's local authorization list: what it was sent.
type listHandler struct {
	mu      sync.Mutex
	version int
	lists   []*localauth.SendLocalListRequest
	asked   int
}

func (h *listHandler) OnGetLocalListVersion(*localauth.GetLocalListVersionRequest) (*localauth.GetLocalListVersionConfirmation, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked++
	return localauth.NewGetLocalListVersionConfirmation(h.version), nil
}

func (h *listHandler) OnSendLocalList(r *localauth.SendLocalListRequest) (*localauth.SendLocalListConfirmation, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lists = append(h.lists, r)
	h.version = r.ListVersion
	return localauth.NewSendLocalListConfirmation(localauth.UpdateStatusAccepted), nil
}

func (h *listHandler) sent() []*localauth.SendLocalListRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*localauth.SendLocalListRequest{}, h.lists...)
}

func addToken(t *testing.T, c *apitest.Client, customerID int64, tag string, extra map[string]any) int64 {
	t.Helper()
	body := map[string]any{"customerId": customerID, "idTag": tag}
	for k, v := range extra {
		body[k] = v
	}
	var id struct {
		ID int64 `json:"id"`
	}
	apitest.Must(t, c.Call("POST", "/api/auth/sys/token/add", body)).Into(t, &id)
	return id.ID
}

func listState(t *testing.T, c *apitest.Client, deviceID int64) token.ListState {
	t.Helper()
	var st token.ListState
	apitest.Must(t, c.Call("GET", "/api/auth/sys/token/locallist/state", map[string]any{"deviceId": deviceID})).Into(t, &st)
	return st
}

func TestTokenAuthorityOverSocket(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout = 3 * time.Second })
		org := fleettest.Seed(t, d)
		a1 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "TOK-A1")
		fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "TOK-A2")
		root := env.Root()
		base := wsBase(env)
		ctx := context.Background()

		addToken(t, root, org.CustomerA, "ACTIVE-1", map[string]any{"parentIdTag": "GROUP-1", "expiresAt": time.Now().Add(24 * time.Hour).UnixMilli()})
		blocked := addToken(t, root, org.CustomerA, "BLOCKED-1", nil)
		apitest.Must(t, root.Call("POST", "/api/auth/sys/token/block", map[string]any{"ids": []int64{blocked}}))
		addToken(t, root, org.CustomerA, "EXPIRED-1", map[string]any{"expiresAt": time.Now().Add(-time.Hour).UnixMilli()})
		addToken(t, root, org.CustomerB, "OTHER-CUST", nil)

		cp, _, err := startCP(t, base, "TOK-A1", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		authorize := func(tag string) *types.IdTagInfo {
			t.Helper()
			conf, err := cp.Authorize(tag)
			if err != nil {
				t.Fatalf("authorize %s: %v", tag, err)
			}
			return conf.IdTagInfo
		}
		t.Run("Authorize answers from the customer's tokens", func(t *testing.T) {
			cases := []struct{ name, tag, want string }{
				{"active, any case", "active-1", "Accepted"},
				{"blocked", "BLOCKED-1", "Blocked"},
				{"expired", "EXPIRED-1", "Expired"},
				{"unknown under accept-and-record", "NEW-CARD", "Accepted"},
				{"another customer's token is unknown here", "OTHER-CUST", "Accepted"},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					if info := authorize(c.tag); string(info.Status) != c.want {
						t.Fatalf("%s: %+v", c.tag, info)
					}
				})
			}
			info := authorize("ACTIVE-1")
			if info.ParentIdTag != "GROUP-1" || info.ExpiryDate == nil {
				t.Fatalf("parent and expiry: %+v", info)
			}
			var origin int
			if err := d.QueryRow(ctx, `SELECT origin FROM token WHERE customer_id = ? AND tag_key = ?`, org.CustomerA, "NEW-CARD").Scan(&origin); err != nil || origin != token.OriginRecorded {
				t.Fatalf("unknown token not recorded: %d %v", origin, err)
			}
		})
		t.Run("Authorize of an unknown token under refuse is Invalid", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/token/policy/update", map[string]any{"customerId": org.CustomerA, "unknown": token.PolicyRefuse}))
			if info := authorize("NEVER-SEEN"); info.Status != types.AuthorizationStatusInvalid {
				t.Fatalf("%+v", info)
			}
			var n int
			_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM token WHERE tag_key = ?`, "NEVER-SEEN").Scan(&n)
			if n != 0 {
				t.Fatal("a refused unknown token was recorded")
			}
		})
		t.Run("StartTransaction of a token charging elsewhere is ConcurrentTx and still stored", func(t *testing.T) {
			ts := types.NewDateTime(time.Now().Add(-time.Minute).Truncate(time.Second))
			first, err := cp.StartTransaction(1, "ACTIVE-1", 100, ts)
			if err != nil || first.IdTagInfo.Status != types.AuthorizationStatusAccepted {
				t.Fatalf("first start: %+v %v", first, err)
			}
			second, err := cp.StartTransaction(2, "ACTIVE-1", 200, types.NewDateTime(time.Now().Truncate(time.Second)))
			if err != nil || second.IdTagInfo.Status != types.AuthorizationStatusConcurrentTx {
				t.Fatalf("second start: %+v %v", second, err)
			}
			waitFor(t, "the refused session stored with its status", func() bool {
				var status string
				err := d.QueryRow(ctx, `SELECT auth_status FROM device_transaction WHERE id = ?`, second.TransactionId).Scan(&status)
				return err == nil && status == "ConcurrentTx"
			})
			blockedStart, err := cp.StartTransaction(3, "blocked-1", 0, types.NewDateTime(time.Now().Truncate(time.Second)))
			if err != nil || blockedStart.IdTagInfo.Status != types.AuthorizationStatusBlocked {
				t.Fatalf("blocked start: %+v %v", blockedStart, err)
			}
			t.Run("StopTransaction answers the idTag's status", func(t *testing.T) {
				stop, err := cp.StopTransaction(300, types.NewDateTime(time.Now()), blockedStart.TransactionId, func(r *core.StopTransactionRequest) { r.IdTag = "BLOCKED-1" })
				if err != nil || stop.IdTagInfo == nil || stop.IdTagInfo.Status != types.AuthorizationStatusBlocked {
					t.Fatalf("stop: %+v %v", stop, err)
				}
				stop, err = cp.StopTransaction(400, types.NewDateTime(time.Now()), first.TransactionId, func(r *core.StopTransactionRequest) { r.IdTag = "ACTIVE-1" })
				if err != nil || stop.IdTagInfo == nil || stop.IdTagInfo.Status != types.AuthorizationStatusAccepted {
					t.Fatalf("stop: %+v %v", stop, err)
				}
			})
			again, err := cp.StartTransaction(2, "ACTIVE-1", 500, types.NewDateTime(time.Now().Add(time.Second).Truncate(time.Second)))
			if err != nil || again.IdTagInfo.Status != types.AuthorizationStatusAccepted {
				t.Fatalf("start after the stop: %+v %v", again, err)
			}
		})
		_ = a1
	})
}

func TestLocalListOverSocket(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.CommandTimeout = 3 * time.Second })
		org := fleettest.Seed(t, d)
		a1 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "LL-A1")
		a2 := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "LL-A2")
		root := env.Root()
		base := wsBase(env)

		addToken(t, root, org.CustomerA, "CARD-1", nil)
		c2 := addToken(t, root, org.CustomerA, "CARD-2", map[string]any{"parentIdTag": "FLEET"})
		c3 := addToken(t, root, org.CustomerA, "CARD-3", nil)
		addToken(t, root, org.CustomerB, "NOT-MINE", nil)

		cp, h, err := startCP(t, base, "LL-A1", "")
		if err != nil {
			t.Fatal(err)
		}
		lists := &listHandler{}
		cp.SetLocalAuthListHandler(lists)
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		send := func(updateType string) fleet.CommandView {
			t.Helper()
			var res fleet.SendResult
			apitest.Must(t, root.Call("POST", "/api/auth/sys/token/locallist/send", map[string]any{"deviceId": a1, "updateType": updateType})).Into(t, &res)
			if len(res.Commands) != 1 || res.Commands[0].ID == 0 {
				t.Fatalf("send: %+v", res)
			}
			return result(t, root, res.Commands[0].ID)
		}
		t.Run("Full sends every token of the customer and stores the version", func(t *testing.T) {
			v := send("Full")
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("command: %+v", v)
			}
			got := lists.sent()
			if len(got) != 1 || got[0].UpdateType != localauth.UpdateTypeFull || len(got[0].LocalAuthorizationList) != 3 {
				t.Fatalf("sent: %+v", got)
			}
			for _, e := range got[0].LocalAuthorizationList {
				if e.IdTagInfo == nil || e.IdTagInfo.Status != types.AuthorizationStatusAccepted || (e.IdTag == "CARD-2" && e.IdTagInfo.ParentIdTag != "FLEET") {
					t.Fatalf("entry: %+v %+v", e, e.IdTagInfo)
				}
			}
			st := listState(t, root, a1)
			if !st.HeldKnown || st.HeldVersion != int64(got[0].ListVersion) || !st.InSync {
				t.Fatalf("state: %+v", st)
			}
		})
		t.Run("Differential sends only the changes, deletions without idTagInfo", func(t *testing.T) {
			apitest.Must(t, root.Call("POST", "/api/auth/sys/token/block", map[string]any{"ids": []int64{c2}}))
			apitest.Must(t, root.Call("POST", "/api/auth/sys/token/delete", map[string]any{"ids": []int64{c3}}))
			before := listState(t, root, a1)
			if before.InSync {
				t.Fatalf("in sync after a change: %+v", before)
			}
			v := send("Differential")
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("command: %+v", v)
			}
			got := lists.sent()
			last := got[len(got)-1]
			if last.UpdateType != localauth.UpdateTypeDifferential || len(last.LocalAuthorizationList) != 2 || last.ListVersion <= got[0].ListVersion {
				t.Fatalf("differential: %+v", last)
			}
			byTag := map[string]*types.IdTagInfo{}
			for _, e := range last.LocalAuthorizationList {
				byTag[e.IdTag] = e.IdTagInfo
			}
			if byTag["CARD-2"] == nil || byTag["CARD-2"].Status != types.AuthorizationStatusBlocked {
				t.Fatalf("blocked entry: %+v", byTag["CARD-2"])
			}
			if info, ok := byTag["CARD-3"]; !ok || info != nil {
				t.Fatalf("deleted entry: %+v %v", info, ok)
			}
			if st := listState(t, root, a1); !st.InSync || st.HeldVersion != int64(last.ListVersion) {
				t.Fatalf("state: %+v", st)
			}
		})
		t.Run("a list over SendLocalListMaxLength is refused and nothing is sent", func(t *testing.T) {
			h.mu.Lock()
			h.config["SendLocalListMaxLength"] = "1"
			h.mu.Unlock()
			if v := sendOne(t, root, a1, fleet.CtlGetConfiguration, map[string]any{}); v.Result != fleet.ResultSuccess {
				t.Fatalf("GetConfiguration: %+v", v)
			}
			n := len(lists.sent())
			a := root.Call("POST", "/api/auth/sys/token/locallist/send", map[string]any{"deviceId": a1, "updateType": "Full"})
			if a.Code != apperr.Invalid || a.Message == "" {
				t.Fatalf("refusal: %+v", a)
			}
			root.Locale = "zh-CN"
			zh := root.Call("POST", "/api/auth/sys/token/locallist/send", map[string]any{"deviceId": a1, "updateType": "Full"})
			root.Locale = "en-US"
			if zh.Code != apperr.Invalid || zh.Message == a.Message {
				t.Fatalf("refusal in Chinese: %+v", zh)
			}
			// the command path refuses it too (a control type 19 sent directly)
			if v := sendOne(t, root, a1, fleet.CtlSendLocalList, map[string]any{"updateType": "Full"}); v.Result != fleet.ResultFailed || v.Message == "" {
				t.Fatalf("command: %+v", v)
			}
			if len(lists.sent()) != n {
				t.Fatal("a list over the charger's maximum was sent")
			}
		})
		t.Run("a charger that boots holding another version gets the full list", func(t *testing.T) {
			cp2, _, err := startCP(t, base, "LL-A2", "")
			if err != nil {
				t.Fatal(err)
			}
			lists2 := &listHandler{version: 0}
			cp2.SetLocalAuthListHandler(lists2)
			if _, err := cp2.BootNotification("AC-22", "Test"); err != nil {
				t.Fatal(err)
			}
			token.Settle = 0
			waitFor(t, "online", func() bool { return listStateOnline(t, d, a2) })
			if err := env.App.Tokens.Sweep(context.Background()); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the full list", func() bool { return len(lists2.sent()) == 1 })
			got := lists2.sent()[0]
			if got.UpdateType != localauth.UpdateTypeFull || len(got.LocalAuthorizationList) != 2 {
				t.Fatalf("resent: %+v", got)
			}
			waitFor(t, "the version held", func() bool { st := listState(t, root, a2); return st.InSync })
			var history int
			_ = d.QueryRow(context.Background(), `SELECT COUNT(*) FROM command WHERE device_id = ? AND control_type IN (?, ?)`, a2, fleet.CtlGetLocalListVersion, fleet.CtlSendLocalList).Scan(&history)
			if history != 2 {
				t.Fatalf("command history has %d local-list commands", history)
			}
			// in sync: the next sweep asks nothing
			if err := env.App.Tokens.Sweep(context.Background()); err != nil {
				t.Fatal(err)
			}
			lists2.mu.Lock()
			asked := lists2.asked
			lists2.mu.Unlock()
			if asked != 1 {
				t.Fatalf("asked %d times", asked)
			}
			t.Run("a change of the customer's tokens is resent by the next sweep", func(t *testing.T) {
				addToken(t, root, org.CustomerA, "CARD-4", nil)
				if err := env.App.Tokens.Sweep(context.Background()); err != nil {
					t.Fatal(err)
				}
				waitFor(t, "the new full list", func() bool { return len(lists2.sent()) == 2 })
				if got := lists2.sent()[1]; got.UpdateType != localauth.UpdateTypeFull || len(got.LocalAuthorizationList) != 3 {
					t.Fatalf("resent: %+v", got)
				}
				waitFor(t, "the new version held", func() bool { return listState(t, root, a2).InSync })
			})
		})
	})
}

func listStateOnline(t *testing.T, d *db.DB, id int64) bool {
	var online int
	_ = d.QueryRow(context.Background(), `SELECT online FROM device_state WHERE device_id = ?`, id).Scan(&online)
	return online == 1
}
