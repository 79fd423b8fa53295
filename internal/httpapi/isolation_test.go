package httpapi_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/httpapi"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// isoWorld is customer A's objects, named so that any answer leaking one of them shows it
// (every name holds a marker from alphaMarkers), a customer-B user whose role holds every key
// and the highest levels but sees only B, a customer-A user holding every key at the lowest
// levels with WEB/SSH disabled, and an anonymous browser.
type isoWorld struct {
	*org
	power, low, anon                  *apitest.Client
	powerApp, lowApp                  *apitest.Client // applications bound to power and low (signed routes)
	roleA, modelA, itemA, aliasA, fwA int64
	cmdA, blacklistA, lowUser         int64
	uploadA                           string    // an object A's admin uploaded
	folderA, fileA, shareA            int64     // an attachment folder, file and share of A
	ticket                            isoTicket // a ticket of A and its share (isolation_ticket_test.go)
	docs                              isoDocs   // a category and document of A (isolation_docs_test.go)
	app                               int64     // an application of A (isolation_application_test.go)
	webhook                           int64     // a webhook of A's application (isolation_webhook_test.go)
	session                           int64     // a charging session of A's device (isolation_session_test.go)
	token                             int64     // a token of A (isolation_token_test.go)
	secEvent                          int64     // a critical security event of A's device (isolation_security_events_test.go)
}

// alphaMarkers are strings only customer A's objects hold; the B user never sends them, so an
// answer to B that contains one leaks A's data.
var alphaMarkers = []string{"alpha charging", "alpha futian", "alpha_admin", "alpha_low", "alpha role", "alpha-model",
	"alpha-fw", "alpha 1", "alpha-0002", "alphacfglevel1"}

const isoPassword = "Iso#Pass1234"

func newIsoWorld(t *testing.T, d *db.DB) *isoWorld {
	o := newOrg(t, d)
	w := &isoWorld{org: o, anon: o.env.Client()}
	r := o.root
	// A's own role, model (with a level-1 config item and an alias), firmware file, command,
	// blacklisted device; made by A's admin where the admin may, so they belong to A.
	w.roleA = id(t, o.a.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": "alpha role"}))
	w.modelA = id(t, o.a.Call("POST", "/api/auth/sys/dev/model/add", map[string]any{"name": "Alpha-Model", "deviceType": 2}))
	for _, model := range []int64{w.modelA, o.model} {
		item := id(t, r.Call("POST", "/api/auth/sys/dev/model/item/add", map[string]any{"modelId": model, "kind": "config",
			"configGroup": "Security", "configItem": "Alpha level-1 item", "protocolKey": "AlphaCfgLevel1", "readLevel": 1, "writeLevel": 1,
			"dataType": "int", "dataRange": "10~3600"}))
		if model == w.modelA {
			w.itemA = item
		}
	}
	w.aliasA = id(t, r.Call("POST", "/api/auth/sys/dev/model/alias/add", map[string]any{"modelId": w.modelA, "alias": "Alpha-Model-Alias"}))
	var fw struct {
		ID int64 `json:"id"`
	}
	apitest.Must(t, o.a.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": "alpha-fw.bin"})).Into(t, &fw)
	w.fwA = fw.ID
	_, up := upload(t, o.env, o.a, "image", "alpha-photo.png", "", storagetest.Sample("png"))
	var confirmed struct{ ObjectKey string }
	apitest.Must(t, up).Into(t, &confirmed)
	w.uploadA = confirmed.ObjectKey
	w.folderA = id(t, r.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"customerId": o.custA, "name": "Alpha Futian docs", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
	_, up = upload(t, o.env, r, "file", "docs/alpha-0002 manual.pdf", "", storagetest.Sample("pdf"))
	apitest.Must(t, up).Into(t, &confirmed)
	w.fileA = id(t, r.Call("POST", "/api/auth/sys/attach/file/add", map[string]any{"folderId": w.folderA, "objectKey": confirmed.ObjectKey,
		"name": "alpha-0002 manual.pdf", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
	w.shareA = id(t, r.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": w.fileA, "validity": 7}))
	w.ticket = seedIsoTicket(t, w)
	w.docs = seedIsoDocs(t, w)
	w.app = seedIsoApp(t, w)
	w.webhook = seedIsoWebhook(t, w)
	w.token = seedIsoToken(t, w)
	seedIsoLogs(t, w, d)
	seedIsoCertificate(t, w, d)
	w.session = seedIsoSession(t, w, d)
	w.secEvent = seedIsoSecurityEvent(t, w, d)
	var sent struct{ Commands []struct{ ID int64 } }
	apitest.Must(t, r.Call("POST", "/api/auth/sys/dev/control/send", map[string]any{"deviceIds": []int64{o.devA}, "controlType": 1})).Into(t, &sent)
	w.cmdA = sent.Commands[0].ID
	id(t, r.Call("POST", "/api/auth/sys/dev/basic/add", map[string]any{"sn": "ALPHA-0002", "name": "Alpha 2", "modelId": o.model, "siteId": o.siteA}))
	w.blacklistA = id(t, r.Call("POST", "/api/auth/sys/dev/blacklist/add", map[string]any{"sn": "ALPHA-0002"}))

	allKeys := access.AllKeys()
	role := func(name string, customer int64, levels, webSSH int) int64 {
		rid := id(t, r.Call("POST", "/api/auth/sys/role/add", map[string]any{"name": name, "customerId": customer}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/menu", map[string]any{"id": rid, "keys": allKeys}))
		apitest.Must(t, r.Call("POST", "/api/auth/sys/role/auth/data", map[string]any{"id": rid, "customerAccess": 1, "siteAccess": 0,
			"webSshAccess": webSSH, "webSshLevel": levels, "cfgReadLevel": levels, "cfgWriteLevel": levels, "cfgDownloadLevel": levels,
			"paramLevel": levels, "docLevel": levels, "attachLevel": levels}))
		return rid
	}
	user := func(name string, customer, roleID int64) (int64, *apitest.Client) {
		k := r.Key()
		uid := id(t, r.Call("POST", "/api/auth/sys/user/add", map[string]any{"userName": name, "keyId": k.KeyID,
			"password": k.NewPassword(t, isoPassword), "roleId": roleID, "customerId": customer}))
		return uid, o.env.Client().MustLogin(name, isoPassword)
	}
	powerUser, power := user("beta_power", o.custB, role("beta everything", o.custB, 0, 3))
	w.power = power
	w.lowUser, w.low = user("alpha_low", o.custA, role("alpha lowest", o.custA, 5, 0))
	w.powerApp = o.env.NewApp(r, "beta power link", powerUser)
	w.lowApp = o.env.NewApp(r, "low link", w.lowUser)
	return w
}

// snapshot is what root sees of customer A's objects and of the platform's shared ones (menus,
// interfaces, catalogue, platform models), so any change by another caller shows as a diff.
func (w *isoWorld) snapshot(t *testing.T) map[string]any {
	t.Helper()
	r := w.root
	out := map[string]any{}
	get := func(name, method, path string, body map[string]any) {
		a := r.Call(method, path, body)
		var v any
		_ = json.Unmarshal(a.Data, &v)
		out[name] = stripVolatile(v)
	}
	get("customer", "GET", "/api/auth/sys/customer/detail", map[string]any{"id": w.custA})
	get("site", "GET", "/api/auth/sys/site/detail", map[string]any{"id": w.siteA})
	get("device", "GET", "/api/auth/sys/dev/basic/detail", map[string]any{"id": w.devA})
	get("devices", "POST", "/api/auth/sys/dev/basic/list", map[string]any{"customerId": w.custA, "pageSize": 100})
	get("user", "GET", "/api/auth/sys/user/detail", map[string]any{"id": w.userA})
	get("users", "POST", "/api/auth/sys/user/list", map[string]any{"customerId": w.custA, "pageSize": 100})
	get("roleA", "GET", "/api/auth/sys/role/detail", map[string]any{"id": w.roleA})
	get("models", "POST", "/api/auth/sys/dev/model/list", map[string]any{"pageSize": 100})
	get("modelA", "GET", "/api/auth/sys/dev/model/detail", map[string]any{"id": w.modelA})
	get("itemsA", "POST", "/api/auth/sys/dev/model/item/list", map[string]any{"modelId": w.modelA})
	get("itemsShared", "POST", "/api/auth/sys/dev/model/item/list", map[string]any{"modelId": w.model})
	get("aliases", "POST", "/api/auth/sys/dev/model/alias/list", map[string]any{"pageSize": 100})
	get("menus", "GET", "/api/auth/sys/menu/tree", nil)
	for page := 1; page <= 3; page++ {
		get(fmt.Sprint("interfaces", page), "POST", "/api/auth/sys/interface/list", map[string]any{"page": page, "pageSize": 100})
	}
	get("groups", "POST", "/api/auth/sys/dict/group/list", map[string]any{"pageSize": 100})
	get("items", "POST", "/api/auth/sys/dict/item/list", map[string]any{"pageSize": 100})
	get("blacklist", "POST", "/api/auth/sys/dev/blacklist/list", map[string]any{"pageSize": 100})
	get("firmware", "POST", "/api/auth/sys/dev/firmware/list", map[string]any{"pageSize": 100})
	get("ticketA", "GET", "/api/auth/sys/issue/detail", map[string]any{"id": w.ticket.id})
	get("ticketSharesA", "POST", "/api/auth/sys/issue/share/list", map[string]any{"id": w.ticket.id})
	get("appA", "GET", "/api/auth/sys/application/detail", map[string]any{"id": w.app})
	get("webhooksA", "POST", "/api/auth/sys/application/webhook/list", map[string]any{"appId": w.app})
	get("webhookDeliveriesA", "POST", "/api/auth/sys/application/webhook/deliveries", map[string]any{"appId": w.app, "pageSize": 100})
	get("docA", "GET", "/api/auth/sys/article/detail", map[string]any{"id": w.docs.doc})
	get("docCategories", "GET", "/api/auth/sys/article/category/list", nil)
	get("commands", "POST", "/api/auth/sys/dev/control/list", map[string]any{"deviceId": w.devA, "pageSize": 100})
	get("locks", "POST", "/api/auth/sys/user/lock/list", map[string]any{"pageSize": 100})
	get("attachTree", "GET", "/api/auth/sys/attach/folder/tree", map[string]any{"customerId": w.custA})
	get("attachFiles", "POST", "/api/auth/sys/attach/file/list", map[string]any{"customerId": w.custA, "pageSize": 100})
	get("attachShares", "POST", "/api/auth/sys/attach/share/list", map[string]any{"fileId": w.fileA})
	get("tokenA", "GET", "/api/auth/sys/token/detail", map[string]any{"id": w.token})
	get("tokensA", "POST", "/api/auth/sys/token/list", map[string]any{"customerId": w.custA, "pageSize": 100})
	get("tokenPolicyA", "GET", "/api/auth/sys/token/policy", map[string]any{"customerId": w.custA})
	get("sitePowerA", "GET", "/api/auth/sys/site/power", map[string]any{"siteId": w.siteA})
	get("devicePowerA", "GET", "/api/auth/sys/dev/power", map[string]any{"deviceId": w.devA})
	get("profilesA", "GET", "/api/auth/sys/dev/profile/list", map[string]any{"deviceId": w.devA})
	return out
}

// stripVolatile drops figures that change with time or with other customers' use of a shared
// object (how many users hold a platform role, list totals), not with a change to the object
// itself, and the objects the B user may make for its own customer (all named "intruder").
func stripVolatile(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"userCount", "unmaintainedDays", "unmaintainedPeriod", "total", "totalMore"} {
			delete(x, k)
		}
		for k, e := range x {
			x[k] = stripVolatile(e)
		}
	case []any:
		kept := []any{}
		for _, e := range x {
			if b, _ := json.Marshal(e); !strings.Contains(strings.ToLower(string(b)), "intruder") {
				kept = append(kept, stripVolatile(e))
			}
		}
		return kept
	}
	return v
}

// isoRange is the month the statistics calls ask for: the days around the test's run.
var isoRange = [2]int64{time.Now().Add(-15 * 24 * time.Hour).UnixMilli(), time.Now().Add(15 * 24 * time.Hour).UnixMilli()}

// isoCall is what a caller sends to a route in the matrix, aimed at customer A's objects.
type isoCall struct {
	body map[string]any
	// aimsAtA: the call names one of A's objects; a caller outside A must be refused.
	aimsAtA bool
}

// isoScenarios gives every route of the table a call aimed at A's objects. A route missing here
// fails TestRouteIsolation: a new endpoint is covered the day it is added.
func (w *isoWorld) isoScenarios(t *testing.T, caller *apitest.Client) map[string]isoCall {
	k1, k2 := caller.Key(), caller.Key()
	A := func(b map[string]any) isoCall { return isoCall{body: b, aimsAtA: true} }
	L := func(b map[string]any) isoCall { return isoCall{body: b} }
	ids := func(v ...int64) []int64 { return v }
	sys := "/api/auth/sys/"
	return map[string]isoCall{
		"GET /api/unauth/config":              L(nil),
		"GET /api/unauth/login/key":           L(nil),
		"GET /api/unauth/captcha":             L(nil),
		"POST /api/unauth/login":              L(map[string]any{"userName": "nobody_here", "password": "x", "keyId": "x"}),
		"POST /api/unauth/logout":             L(nil),
		"POST /api/unauth/info":               L(nil),
		"POST /api/unauth/password/email":     L(map[string]any{"email": "nobody@example.com"}),
		"POST /api/unauth/password/valid":     L(map[string]any{"token": "0000"}),
		"POST /api/unauth/password/reset":     L(map[string]any{"token": "0000", "keyId": "x", "password": "x"}),
		"POST " + sys + "user/owner/privacy":  L(map[string]any{"version": "1"}),
		"GET " + sys + "user/owner/detail":    L(nil),
		"POST " + sys + "user/owner/update":   L(map[string]any{"id": w.userA, "nickName": "Beta Power"}),
		"POST " + sys + "user/owner/password": L(map[string]any{"id": w.userA, "keyId": "x", "oldPassword": "x", "newPassword": "x"}),
		"POST " + sys + "user/owner/email":    L(map[string]any{"id": w.userA, "email": "power@example.com", "keyId": "x", "password": "x"}),
		"GET " + sys + "permission/tree":      L(nil),

		"POST " + sys + "role/list":      L(map[string]any{"name": "alpha"}),
		"GET " + sys + "role/detail":     A(map[string]any{"id": w.roleA}),
		"POST " + sys + "role/add":       L(map[string]any{"name": "intruder role", "customerId": w.custA}), // a limited caller's role is its own customer's
		"POST " + sys + "role/update":    A(map[string]any{"id": w.roleA, "name": "hijacked"}),
		"POST " + sys + "role/delete":    A(map[string]any{"ids": ids(w.roleA)}),
		"POST " + sys + "role/auth/menu": A(map[string]any{"id": w.roleA, "keys": []string{"auth_home"}}),
		"POST " + sys + "role/auth/data": A(map[string]any{"id": w.roleA, "customerAccess": 1, "siteAccess": 0, "webSshLevel": 5, "cfgReadLevel": 5,
			"cfgWriteLevel": 5, "cfgDownloadLevel": 5, "paramLevel": 5, "docLevel": 5, "attachLevel": 5}),

		"POST " + sys + "user/list":        L(map[string]any{"customerId": w.custA, "userName": "alpha"}),
		"GET " + sys + "user/detail":       A(map[string]any{"id": w.userA}),
		"POST " + sys + "user/add":         A(map[string]any{"userName": "intruder_user", "keyId": k1.KeyID, "password": k1.NewPassword(t, isoPassword), "roleId": w.roleA, "customerId": w.custA}),
		"POST " + sys + "user/update":      A(map[string]any{"id": w.userA, "nickName": "hijacked", "roleId": w.roleA, "customerId": w.custA}),
		"POST " + sys + "user/status":      A(map[string]any{"ids": ids(w.userA), "status": 0}),
		"POST " + sys + "user/password":    A(map[string]any{"id": w.userA, "keyId": k2.KeyID, "password": k2.NewPassword(t, "Taken#Over123")}),
		"POST " + sys + "user/lock/list":   A(map[string]any{}),
		"POST " + sys + "user/lock/unlock": A(map[string]any{"ids": ids(w.userA)}),
		"POST " + sys + "user/assign":      A(map[string]any{"id": w.userA, "customerIds": ids(w.custB), "siteIds": ids()}),

		"POST " + sys + "customer/list":   L(map[string]any{"name": "Alpha"}),
		"GET " + sys + "customer/detail":  A(map[string]any{"id": w.custA}),
		"POST " + sys + "customer/add":    L(map[string]any{"name": "Intruder Customer", "code": "INTRUDER"}),
		"POST " + sys + "customer/update": A(map[string]any{"id": w.custA, "name": "Hijacked", "code": "HJ"}),
		"POST " + sys + "customer/delete": A(map[string]any{"ids": ids(w.custA)}),
		"GET " + sys + "customer/options": L(nil),

		"POST " + sys + "site/list":       L(map[string]any{"customerId": w.custA, "name": "Alpha"}),
		"GET " + sys + "site/detail":      A(map[string]any{"id": w.siteA}),
		"GET " + sys + "site/overview":    A(map[string]any{"id": w.siteA}),
		"POST " + sys + "site/stats":      A(map[string]any{"id": w.siteA, "start": isoRange[0], "end": isoRange[1]}),
		"POST " + sys + "site/admins":     A(map[string]any{"id": w.siteA}),
		"POST " + sys + "home/overview":   L(nil),
		"POST " + sys + "home/faults":     L(map[string]any{"start": isoRange[0], "end": isoRange[1]}),
		"POST " + sys + "home/events":     L(map[string]any{"limit": 50}),
		"POST " + sys + "system/overview": L(nil),
		"POST " + sys + "site/add":        A(map[string]any{"customerId": w.custA, "name": "Intruder", "code": "INTR"}),
		"POST " + sys + "site/update":     A(map[string]any{"id": w.siteA, "customerId": w.custA, "name": "Hijacked", "code": "HJ-1"}),
		"POST " + sys + "site/status":     A(map[string]any{"ids": ids(w.siteA), "status": 0}),
		"POST " + sys + "site/delete":     A(map[string]any{"ids": ids(w.siteA)}),
		"GET " + sys + "site/options":     L(map[string]any{"customerId": w.custA}),

		"POST " + sys + "dev/model/list":         L(map[string]any{"name": "Alpha"}),
		"GET " + sys + "dev/model/detail":        A(map[string]any{"id": w.modelA}),
		"POST " + sys + "dev/model/add":          L(map[string]any{"name": "Intruder-Model", "deviceType": 2, "customerId": w.custA}),
		"POST " + sys + "dev/model/update":       A(map[string]any{"id": w.modelA, "name": "Hijacked-Model", "deviceType": 2}),
		"POST " + sys + "dev/model/delete":       A(map[string]any{"ids": ids(w.modelA)}),
		"POST " + sys + "dev/model/item/list":    A(map[string]any{"modelId": w.modelA}),
		"POST " + sys + "dev/model/item/storage": A(map[string]any{"modelId": w.modelA}),
		"POST " + sys + "dev/model/item/add":     A(map[string]any{"modelId": w.modelA, "kind": "config", "configGroup": "X", "configItem": "Intruder", "protocolKey": "Intruder", "readLevel": 5, "writeLevel": 5}),
		"POST " + sys + "dev/model/item/update":  A(map[string]any{"id": w.itemA, "modelId": w.modelA, "kind": "config", "configGroup": "X", "configItem": "Hijacked", "protocolKey": "HijackedKey", "readLevel": 5, "writeLevel": 5}),
		"POST " + sys + "dev/model/item/delete":  A(map[string]any{"ids": ids(w.itemA)}),
		"POST " + sys + "dev/model/alias/list":   L(map[string]any{"modelId": w.modelA}),
		"POST " + sys + "dev/model/alias/add":    A(map[string]any{"modelId": w.modelA, "alias": "Intruder-Alias"}),
		"POST " + sys + "dev/model/alias/delete": A(map[string]any{"ids": ids(w.aliasA)}),

		"POST " + sys + "dict/group/list":   L(map[string]any{}),
		"POST " + sys + "dict/group/add":    A(map[string]any{"name": "Intruder group"}),
		"POST " + sys + "dict/group/update": A(map[string]any{"id": 1, "name": "Hijacked group"}),
		"POST " + sys + "dict/group/delete": A(map[string]any{"ids": ids(1)}),
		"POST " + sys + "dict/item/list":    L(map[string]any{}),
		"POST " + sys + "dict/item/add":     A(map[string]any{"groupId": 1, "name": "Intruder item", "dataType": "string"}),
		"POST " + sys + "dict/item/update":  A(map[string]any{"id": 1, "groupId": 1, "name": "Hijacked item", "dataType": "string"}),
		"POST " + sys + "dict/item/delete":  A(map[string]any{"ids": ids(1)}),

		"POST " + sys + "dev/basic/list":           L(map[string]any{"customerId": w.custA, "siteId": w.siteA, "keyword": "ALPHA"}),
		"GET " + sys + "dev/basic/detail":          A(map[string]any{"id": w.devA}),
		"GET " + sys + "dev/basic/status/count":    L(nil),
		"POST " + sys + "dev/basic/add":            A(map[string]any{"sn": "INTRUDER-1", "name": "Intruder", "modelId": w.model, "siteId": w.siteA}),
		"POST " + sys + "dev/basic/update":         A(map[string]any{"id": w.devA, "name": "Hijacked", "modelId": w.model, "siteId": w.siteA}),
		"POST " + sys + "dev/basic/delete":         A(map[string]any{"ids": ids(w.devA)}),
		"POST " + sys + "dev/basic/enable":         A(map[string]any{"ids": ids(w.devA), "enabled": false}),
		"POST " + sys + "dev/basic/maintain":       A(map[string]any{"ids": ids(w.devA), "on": true}),
		"POST " + sys + "dev/basic/maintained":     A(map[string]any{"ids": ids(w.devA)}),
		"POST " + sys + "dev/basic/security":       A(map[string]any{"id": w.devA, "securityProfile": 0}),
		"POST " + sys + "dev/basic/protocol":       A(map[string]any{"id": w.devA, "protocol": "ocpp1.6"}),
		"POST " + sys + "dev/basic/key":            A(map[string]any{"id": w.devA, "authKey": "intruder-key-0000"}),
		"POST " + sys + "dev/basic/import":         L(map[string]any{"name": "x.xlsx", "content": "bm90IGFuIHhsc3g="}),
		"GET " + sys + "dev/basic/import/template": L(nil),
		"POST " + sys + "dev/basic/export":         L(map[string]any{"customerId": w.custA, "siteId": w.siteA}),

		"GET " + sys + "menu/tree":         L(nil),
		"POST " + sys + "menu/add":         A(map[string]any{"key": "intruder_menu", "name": "Intruder", "parent": "auth_system", "url": "/x"}),
		"POST " + sys + "menu/update":      A(map[string]any{"key": "auth_home", "name": "Hijacked home", "sort": 99}),
		"POST " + sys + "menu/delete":      A(map[string]any{"key": "auth_home"}),
		"POST " + sys + "interface/list":   L(map[string]any{}),
		"POST " + sys + "interface/save":   A(map[string]any{"id": 0, "name": "intruder", "method": "GET", "url": "/api/auth/sys/intruder", "common": true}),
		"POST " + sys + "interface/delete": A(map[string]any{"ids": ids(1)}),
		"POST " + sys + "mail/outbox/list": A(map[string]any{}),
		"POST " + sys + "logs/action/list": L(map[string]any{"pageSize": 100}),

		// messages: only ever the caller's own (OwnUser); a site of A in a setting is refused
		"POST " + sys + "message/list":         L(map[string]any{"pageSize": 100}),
		"GET " + sys + "message/unread":        L(nil),
		"POST " + sys + "message/read":         L(map[string]any{"ids": ids()}),
		"POST " + sys + "message/process":      A(map[string]any{"ids": ids(1, 2, 3)}),
		"GET " + sys + "message/stream":        L(nil), // a stream: its scoping is TestMessagesFromChargerEvents's
		"GET " + sys + "message/setting":       L(nil),
		"POST " + sys + "message/setting/save": A(map[string]any{"kinds": []int{2}, "levels": []int{0, 1, 2}, "allSites": false, "siteIds": ids(w.siteA), "console": true, "mail": true, "frequency": "immediate"}),

		"POST " + sys + "dev/control/send":     A(map[string]any{"deviceIds": ids(w.devA), "controlType": 1}),
		"GET " + sys + "dev/control/detail":    A(map[string]any{"id": w.cmdA}),
		"POST " + sys + "dev/control/list":     L(map[string]any{"deviceId": w.devA}),
		"GET " + sys + "dev/runtime/detail":    A(map[string]any{"id": w.devA}),
		"POST " + sys + "dev/alarm/list":       L(map[string]any{"deviceId": w.devA, "siteId": w.siteA}),
		"POST " + sys + "dev/data/series":      A(map[string]any{"deviceId": w.devA, "names": []string{"Power.Active.Import"}, "from": time.Now().Add(-time.Hour).UnixMilli(), "to": time.Now().UnixMilli(), "step": 15}),
		"GET " + sys + "dev/config/values":     A(map[string]any{"deviceId": w.devA}),
		"GET " + sys + "dev/certificate/list":  A(map[string]any{"deviceId": w.devA}),
		"GET " + sys + "dev/events/stream":     L(nil), // read by streamLeaks
		"POST " + sys + "dev/firmware/add":     L(map[string]any{"name": "intruder.bin", "customerId": w.custA}),
		"POST " + sys + "dev/firmware/list":    L(map[string]any{"customerId": w.custA}),
		"POST " + sys + "dev/diagnostics/list": L(map[string]any{"deviceId": w.devA}),
		"GET " + sys + "dev/file/url":          A(map[string]any{"id": w.fwA}),
		"POST " + sys + "dev/blacklist/add":    A(map[string]any{"sn": "ALPHA-0001"}),
		"POST " + sys + "dev/blacklist/list":   L(map[string]any{"sn": "ALPHA"}),
		"POST " + sys + "dev/blacklist/delete": A(map[string]any{"ids": ids(w.blacklistA)}),
		"POST " + sys + "dev/pending/list":     A(map[string]any{}),
		"POST " + sys + "dev/refusal/list":     L(map[string]any{}),
		"POST " + sys + "logs/protocol/list":   L(map[string]any{"sn": "ALPHA-0001"}),
		"GET " + sys + "dev/gateway/stats":     A(nil),

		"GET " + sys + "dev/certificate/installed": A(map[string]any{"deviceId": w.devA}),

		"GET " + sys + "system/oss/sts/write": L(map[string]any{"kind": "image", "fileName": "intruder.png"}),
		"POST " + sys + "system/oss/confirm":  A(map[string]any{"objectKey": w.uploadA}),
		"GET " + sys + "system/oss/sts/read":  A(map[string]any{"objectKey": w.uploadA}),
		"GET " + sys + "system/oss/url":       A(map[string]any{"objectKey": w.uploadA}),
		"PUT /api/unauth/oss/object/{key...}": L(nil), // unsigned: refused
		"GET /api/unauth/oss/object/{key...}": L(nil),

		// attachments: A's folder, file and share; the signed-out calls with a token that is no share
		"GET " + sys + "attach/folder/tree":     L(map[string]any{"customerId": w.custA}),
		"POST " + sys + "attach/folder/add":     A(map[string]any{"parentId": w.folderA, "name": "intruder", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}),
		"POST " + sys + "attach/folder/update":  A(map[string]any{"id": w.folderA, "name": "Hijacked", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}),
		"POST " + sys + "attach/folder/delete":  A(map[string]any{"id": w.folderA}),
		"POST " + sys + "attach/file/list":      L(map[string]any{"folderId": w.folderA, "customerId": w.custA}),
		"GET " + sys + "attach/file/detail":     A(map[string]any{"id": w.fileA}),
		"POST " + sys + "attach/file/add":       A(map[string]any{"folderId": w.folderA, "objectKey": w.uploadA, "name": "intruder.png", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}),
		"POST " + sys + "attach/file/update":    A(map[string]any{"id": w.fileA, "name": "hijacked.pdf", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}),
		"POST " + sys + "attach/file/move":      A(map[string]any{"ids": ids(w.fileA), "folderId": w.folderA}),
		"POST " + sys + "attach/file/delete":    A(map[string]any{"ids": ids(w.fileA)}),
		"GET " + sys + "attach/file/url":        A(map[string]any{"id": w.fileA}),
		"POST " + sys + "attach/share/add":      A(map[string]any{"fileId": w.fileA, "validity": 1}),
		"POST " + sys + "attach/share/list":     A(map[string]any{"fileId": w.fileA}),
		"POST " + sys + "attach/share/reset":    A(map[string]any{"id": w.shareA}),
		"POST " + sys + "attach/share/delete":   A(map[string]any{"id": w.shareA}),
		"POST " + sys + "attach/share/log/list": A(map[string]any{"id": w.shareA}),
		"POST /api/unauth/share/info":           L(map[string]any{"token": "00000000000000000000000000000000"}),
		"POST /api/unauth/share/download":       L(map[string]any{"token": "00000000000000000000000000000000", "code": "1234"}),
		"GET /api/unauth/oss/sts/read":          L(map[string]any{"token": "00000000000000000000000000000000", "code": "1234"}),
		"GET /api/unauth/oss/sts/write":         L(nil),
	}
}

// callText sends a call and returns its envelope (code 0 for a file) and all the text of the
// answer: the envelope's data and message, or every part of a downloaded xlsx.
func callText(t *testing.T, c *apitest.Client, method, path string, body map[string]any) (apitest.Answer, string) {
	t.Helper()
	raw := c.CallRaw(method, path, body)
	var a apitest.Answer
	if err := json.Unmarshal(raw.Body, &a); err == nil {
		return a, string(a.Data) + " " + a.Message
	}
	zr, err := zip.NewReader(bytes.NewReader(raw.Body), int64(len(raw.Body)))
	if err != nil {
		t.Fatalf("%s %s: neither an envelope nor a file (%s)", method, path, raw.ContentType)
	}
	var sb strings.Builder
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		sb.Write(b)
	}
	return apitest.Answer{Data: json.RawMessage(`"file"`)}, sb.String()
}

// leaks returns the A markers found in an answer's text.
func leaks(text string) []string {
	text = strings.ToLower(text)
	var out []string
	for _, m := range alphaMarkers {
		if strings.Contains(text, m) {
			out = append(out, m)
		}
	}
	return out
}

func TestRouteIsolation(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newIsoWorld(t, d)
		routes := w.env.App.Server.Routes()
		scenarios := w.isoScenarios(t, w.power)
		for k, v := range w.ticketIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.gapsIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.docsIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.logsIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.caIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.applicationIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.openapiIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.webhookIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.openapiConsoleIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.remoteIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.opsIsoScenarios(t) {
			scenarios[k] = v
		}
		for k, v := range w.sessionIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.tokenIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.securityEventsIsoScenarios() {
			scenarios[k] = v
		}
		for k, v := range w.smartChargingIsoScenarios(t) {
			scenarios[k] = v
		}
		// A signed route is called by an application bound to the same user.
		as := func(c *apitest.Client, rt httpapi.Route) *apitest.Client {
			if rt.Signed {
				if c == w.power {
					return w.powerApp
				}
				return w.lowApp
			}
			return c
		}

		t.Run("every route declares how its objects are scoped and has a scenario", func(t *testing.T) {
			for _, rt := range routes {
				name := rt.Method + " " + rt.Path
				if rt.Objects == httpapi.ObjectsUndeclared {
					t.Errorf("%s declares no Objects scope", name)
				}
				if rt.Objects == httpapi.NoObjects && rt.Why == "" {
					t.Errorf("%s has no objects but does not say why", name)
				}
				if _, ok := scenarios[name]; !ok {
					t.Errorf("%s has no isolation scenario in isoScenarios", name)
				}
			}
		})

		// The stream check changes A's device (as root) to make events: before the snapshot.
		t.Run("another customer's event stream carries none of A's devices", func(t *testing.T) {
			if got := streamLeaks(t, w, w.power); len(got) > 0 {
				t.Errorf("B's event stream carries A's devices: %v", got)
			}
		})

		before := w.snapshot(t)

		t.Run("an anonymous caller reaches nothing behind a session or a signature", func(t *testing.T) {
			for _, rt := range routes {
				if rt.Access == httpapi.Public {
					continue
				}
				want := apperr.NotLoggedIn
				if rt.Signed {
					want = apperr.SignatureMissing
				}
				a, _ := callText(t, w.anon, rt.Method, rt.Path, scenarios[rt.Method+" "+rt.Path].body)
				if a.Code != want {
					t.Errorf("anonymous %s %s: code %d, want %d", rt.Method, rt.Path, a.Code, want)
				}
			}
		})

		t.Run("another customer's user with every key neither reads nor changes A", func(t *testing.T) {
			for _, rt := range routes {
				name := rt.Method + " " + rt.Path
				sc := scenarios[name]
				if rt.Path == "/api/auth/sys/dev/events/stream" || rt.Path == "/api/auth/sys/message/stream" || rt.Path == "/api/unauth/logout" {
					continue // the stream is read above; logout would end B's session and names nothing
				}
				a, text := callText(t, as(w.power, rt), rt.Method, rt.Path, sc.body)
				if got := leaks(text); len(got) > 0 {
					t.Errorf("B %s leaks A's %v: %.300s", name, got, text)
				}
				switch {
				case a.Code == apperr.Internal:
					t.Errorf("B %s: internal error %q", name, a.Message)
				case rt.Objects == httpapi.PlatformOnly && a.Code != apperr.NoPermission:
					t.Errorf("B %s (platform only): code %d %q, want %d", name, a.Code, a.Message, apperr.NoPermission)
				case sc.aimsAtA && rt.Objects != httpapi.PlatformOnly && a.Code == apperr.OK:
					t.Errorf("B %s %v aimed at A succeeded", name, sc.body)
				}
			}
		})

		t.Run("A's lowest-level user is refused what its levels do not allow", func(t *testing.T) {
			for _, rt := range routes {
				if rt.Objects == httpapi.PlatformOnly {
					a, _ := callText(t, as(w.low, rt), rt.Method, rt.Path, scenarios[rt.Method+" "+rt.Path].body)
					if a.Code != apperr.NoPermission {
						t.Errorf("customer-limited %s %s (platform only): code %d, want %d", rt.Method, rt.Path, a.Code, apperr.NoPermission)
					}
				}
			}
			for _, c := range []struct {
				name string
				body map[string]any
			}{
				{"a config item above its write level", map[string]any{"deviceIds": []int64{w.devA}, "controlType": 11,
					"params": map[string]any{"items": []map[string]any{{"key": "AlphaCfgLevel1", "value": "60"}}}}},
				{"the charger's AuthorizationKey", map[string]any{"deviceIds": []int64{w.devA}, "controlType": 11,
					"params": map[string]any{"items": []map[string]any{{"key": "AuthorizationKey", "value": "0123456789abcdef"}}}}},
				{"a remote link with WEB/SSH disabled", map[string]any{"deviceIds": []int64{w.devA}, "controlType": 7}},
			} {
				if a := w.low.Call("POST", "/api/auth/sys/dev/control/send", c.body); a.Code == apperr.OK {
					t.Errorf("lowest level: %s was sent", c.name)
				}
			}
			a := w.low.Call("POST", "/api/auth/sys/dev/model/item/list", map[string]any{"modelId": w.model})
			if a.Code == apperr.OK && strings.Contains(strings.ToLower(string(a.Data)), "alphacfglevel1") {
				// the model screen may list items; the device's values are what levels hide
				t.Logf("model item list shows the level-1 item definition (not a value)")
			}
			if a := w.low.Call("GET", "/api/auth/sys/dev/config/values", map[string]any{"deviceId": w.devA}); strings.Contains(strings.ToLower(string(a.Data)), "alphacfglevel1") {
				t.Errorf("lowest level reads the level-1 config item: %.300s", a.Data)
			}
		})

		t.Run("nothing of A or of the platform changed", func(t *testing.T) {
			after := w.snapshot(t)
			for k, v := range before {
				if !reflect.DeepEqual(v, after[k]) {
					b1, _ := json.Marshal(v)
					b2, _ := json.Marshal(after[k])
					t.Errorf("%s changed:\nbefore %.600s\nafter  %.600s", k, b1, b2)
				}
			}
		})
	})
}

// streamLeaks opens the caller's event stream, makes A's device change state (root disables and
// enables it), and returns the A markers the caller received.
func streamLeaks(t *testing.T, w *isoWorld, c *apitest.Client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", w.env.URL+"/api/auth/sys/dev/events/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Cookie", httpapi.TokenCookie+"="+c.Cookie(httpapi.TokenCookie))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("open stream: %v", err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("stream answered %s", ct)
	}
	received := make(chan string, 1)
	go func() {
		var sb strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			sb.WriteString(sc.Text() + "\n")
		}
		received <- sb.String()
	}()
	time.Sleep(200 * time.Millisecond)
	apitest.Must(t, w.root.Call("POST", "/api/auth/sys/dev/basic/enable", map[string]any{"ids": []int64{w.devA}, "enabled": false}))
	apitest.Must(t, w.root.Call("POST", "/api/auth/sys/dev/basic/enable", map[string]any{"ids": []int64{w.devA}, "enabled": true}))
	text := strings.ToLower(<-received)
	var out []string
	for _, m := range []string{"alpha-0001", fmt.Sprintf(`"deviceid":%d,`, w.devA)} {
		if strings.Contains(text, m) {
			out = append(out, m)
		}
	}
	return out
}
