package ocpp16_test

import (
	"chargeops/internal/fleet/ingest"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// logRows returns the protocol-log data of an SN's frames of one type, oldest first.
func logRows(t *testing.T, d *db.DB, sn string, typ int) []string {
	t.Helper()
	rows, err := db.Column[string](context.Background(), d, `SELECT data FROM protocol_log WHERE sn = ? AND type = ? ORDER BY id`, sn, typ)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func countRows(t *testing.T, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// An AuthorizationKey set from the console travels in clear to the charger and comes back in a
// GetConfiguration answer; the protocol log keeps both frames with the value masked.
func TestProtocolLogMasksAuthorizationKey(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-MASK")
		root := env.Root()
		cp, _, err := startCP(t, wsBase(env), "SN-MASK", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("m", "v"); err != nil {
			t.Fatal(err)
		}
		const key = "Very-Secret-Key-0001"
		if v := sendOne(t, root, dev, fleet.CtlChangeConfig, map[string]any{"items": []map[string]string{{"key": "AuthorizationKey", "value": key}}}); v.Result != fleet.ResultSuccess {
			t.Fatalf("set key: %+v", v)
		}
		if v := sendOne(t, root, dev, fleet.CtlGetConfiguration, nil); v.Result != fleet.ResultSuccess {
			t.Fatalf("get configuration: %+v", v)
		}
		find := func(typ int, marker string) string {
			var found string
			waitFor(t, marker+" in the protocol log", func() bool {
				for _, r := range logRows(t, d, "SN-MASK", typ) {
					if strings.Contains(r, marker) {
						found = r
						return true
					}
				}
				return false
			})
			return found
		}
		t.Run("the sent ChangeConfiguration keeps its frame without the key", func(t *testing.T) {
			row := find(fleet.LogSent, `"ChangeConfiguration"`)
			if strings.Contains(row, key) || !strings.Contains(row, `{"key":"AuthorizationKey","value":"***"}`) {
				t.Fatalf("sent frame stored as %s", row)
			}
		})
		t.Run("the received GetConfiguration answer keeps its frame without the key", func(t *testing.T) {
			row := find(fleet.LogReceived, `"configurationKey"`)
			if strings.Contains(row, key) || !strings.Contains(row, `"AuthorizationKey"`) || !strings.Contains(row, `"value":"***"`) {
				t.Fatalf("received frame stored as %s", row)
			}
		})
		t.Run("no protocol-log row holds the key", func(t *testing.T) {
			if n := countRows(t, d, `SELECT COUNT(*) FROM protocol_log WHERE data LIKE ?`, "%"+key+"%"); n != 0 {
				t.Fatalf("%d rows hold the key", n)
			}
		})
	})
}

// The gateway cannot be used to impersonate chargers, to drop files at will, to fill the
// protocol log with huge frames or the refusal and pending lists with made-up SNs.
func TestGatewayAbuseIsBounded(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		real := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-REAL")
		root := env.Root()
		base := wsBase(env)
		cp, h, err := startCP(t, base, "SN-REAL", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cp.BootNotification("m", "v"); err != nil {
			t.Fatal(err)
		}

		t.Run("only /ocpp/{SN} is an identity: /ocpp/junk/{SN} is not found and replaces nothing", func(t *testing.T) {
			if _, _, err := startCP(t, base+"/junk", "SN-REAL", ""); httpCode(err) != http.StatusNotFound {
				t.Fatalf("connect at /ocpp/junk/SN-REAL: %v, want HTTP 404", err)
			}
			if _, err := cp.Heartbeat(); err != nil {
				t.Fatalf("the real charger lost its connection: %v", err)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_refusal WHERE sn = 'SN-REAL'`); n != 0 {
				t.Fatalf("%d refusal rows for a path that is no identity", n)
			}
		})

		t.Run("a diagnostics URL takes one upload of a log type, only while its job is open", func(t *testing.T) {
			h.mu.Lock()
			h.manualDiag = make(chan string, 4)
			h.mu.Unlock()
			post := func(loc, contentType string, body io.Reader) int {
				t.Helper()
				req, _ := http.NewRequest("POST", loc, body)
				req.Header.Set("Content-Type", contentType)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			getDiagnostics := func() string {
				t.Helper()
				if v := sendOne(t, root, real, fleet.CtlGetDiagnostics, nil); v.Result != fleet.ResultSuccess {
					t.Fatalf("get diagnostics: %+v", v)
				}
				return <-h.manualDiag
			}
			loc := getDiagnostics()
			if code := post(loc, "text/html", strings.NewReader("<script>alert(1)</script>")); code != http.StatusUnsupportedMediaType {
				t.Fatalf("html upload: HTTP %d, want 415", code)
			}
			tooBig := io.LimitReader(zeros{}, fleet.MaxDiagnosticsBytes+1)
			if code := post(loc, "application/octet-stream", tooBig); code != http.StatusBadRequest {
				t.Fatalf("upload over %d bytes: HTTP %d, want 400", fleet.MaxDiagnosticsBytes, code)
			}
			if code := post(loc, "text/plain", strings.NewReader("boot ok\n")); code != http.StatusCreated {
				t.Fatalf("first upload: HTTP %d, want 201", code)
			}
			if code := post(loc, "text/plain", strings.NewReader("second file\n")); code != http.StatusNotFound {
				t.Fatalf("second upload to the same URL: HTTP %d, want 404", code)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM fleet_file WHERE kind = 'diagnostics' AND device_id = ? AND customer_id = ?`, real, org.CustomerA); n != 1 {
				t.Fatalf("%d diagnostics files kept for the device's customer, want 1", n)
			}
			// A charger that gave up (UploadFailed) closes its job.
			loc = getDiagnostics()
			if _, err := cp.DiagnosticsStatusNotification(firmware.DiagnosticsStatusUploadFailed); err != nil {
				t.Fatal(err)
			}
			if code := post(loc, "text/plain", strings.NewReader("late\n")); code != http.StatusNotFound {
				t.Fatalf("upload after UploadFailed: HTTP %d, want 404", code)
			}
		})

		t.Run("a huge frame is cut in the protocol log, with a marker", func(t *testing.T) {
			big := strings.Repeat("x", 200<<10)
			if _, err := cp.DataTransfer("vendor", func(r *core.DataTransferRequest) { r.Data = big }); err != nil {
				t.Fatal(err)
			}
			var row string
			waitFor(t, "the DataTransfer row", func() bool {
				for _, r := range logRows(t, d, "SN-REAL", fleet.LogReceived) {
					if strings.Contains(r, `"DataTransfer"`) {
						row = r
						return true
					}
				}
				return false
			})
			if len(row) > ingest.MaxLogData+64 || !strings.Contains(row, "…[cut: ") {
				t.Fatalf("stored %d bytes ending %q", len(row), row[max(0, len(row)-60):])
			}
		})

		t.Run("keyless devices are refused when every charger must have a key", func(t *testing.T) {
			strict := apitest.New(t, d, func(c *config.Config) { c.DataDir, c.RequireDeviceKeys = t.TempDir(), true })
			keyless := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-NOKEY")
			keyed := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-HASKEY")
			fleettest.Secure(t, d, keyed, strict.App.Fleet.HashAuthKey("SN-HASKEY", "keyedKey00001"), 1)
			if _, _, err := startCP(t, wsBase(strict), "SN-NOKEY", ""); httpCode(err) != http.StatusUnauthorized {
				t.Fatalf("keyless device %d: %v, want HTTP 401", keyless, err)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_refusal WHERE sn = 'SN-NOKEY' AND reason = ?`, fleet.RefuseNoKey); n != 1 {
				t.Fatalf("no_key refusals: %d", n)
			}
			if _, _, err := startCP(t, wsBase(strict), "SN-HASKEY", "keyedKey00001"); err != nil {
				t.Fatalf("device with its key refused: %v", err)
			}
		})

		t.Run("a storm of unknown SNs from one address writes a bounded number of rows", func(t *testing.T) {
			storm := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
			// One SN knocking again and again: one row, at most admitPerSN writes.
			for range 30 {
				if _, _, err := startCP(t, wsBase(storm), "GHOST-SAME", ""); httpCode(err) != http.StatusNotFound {
					t.Fatalf("unknown SN: %v, want HTTP 404", err)
				}
			}
			var count int64
			if err := d.QueryRow(context.Background(), `SELECT count FROM device_refusal WHERE sn = 'GHOST-SAME'`).Scan(&count); err != nil || count < 1 || count > 30 {
				t.Fatalf("GHOST-SAME refusal count %d (%v)", count, err)
			}
			// Many made-up SNs from one address.
			const attempts = 300
			for i := range attempts {
				if _, _, err := startCP(t, wsBase(storm), fmt.Sprintf("GHOST-%04d", i), ""); httpCode(err) != http.StatusNotFound {
					t.Fatalf("unknown SN %d: %v, want HTTP 404", i, err)
				}
			}
			refusals := countRows(t, d, `SELECT COUNT(*) FROM device_refusal WHERE sn LIKE 'GHOST-%'`)
			pending := countRows(t, d, `SELECT COUNT(*) FROM device_pending WHERE sn LIKE 'GHOST-%'`)
			if refusals == 0 || refusals > 20 || pending == 0 || pending > 20 {
				t.Fatalf("%d handshakes wrote %d refusal and %d pending rows, want 1-20 each", attempts+30, refusals, pending)
			}
			if got := storm.App.Gateway.Stats().Refused; got != attempts+30 {
				t.Fatalf("gateway counted %d refusals, want %d", got, attempts+30)
			}
		})
	})
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
