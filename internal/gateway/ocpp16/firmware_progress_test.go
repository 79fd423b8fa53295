package ocpp16_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// manualFirmware is an ocpp-go charge point that accepts UpdateFirmware and reports its steps
// only when the test says so.
type manualFirmware struct {
	fleettest.AcceptingCharger
	located chan string
}

func (m *manualFirmware) OnGetDiagnostics(*firmware.GetDiagnosticsRequest) (*firmware.GetDiagnosticsConfirmation, error) {
	return firmware.NewGetDiagnosticsConfirmation(), nil
}
func (m *manualFirmware) OnUpdateFirmware(r *firmware.UpdateFirmwareRequest) (*firmware.UpdateFirmwareConfirmation, error) {
	m.located <- r.Location
	return firmware.NewUpdateFirmwareConfirmation(), nil
}

// Issue 30 item 9: the UpdateFirmware command's own row follows the charger's
// FirmwareStatusNotifications (Accepted → Downloading → Installing → Installed), a failure ends
// it, an Idle answer to a TriggerMessage is no step, and the steps of an ended upgrade do not
// move to an older command.
func TestFirmwareProgressOnCommand(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env, _, id := fleettest.Node(t, d, "SN-FW1", func(c *config.Config) { c.CommandTimeout = 3 * time.Second })
		root := env.Root()

		h := &manualFirmware{located: make(chan string, 4)}
		cp := fleettest.ChargePoint("SN-FW1", ocppws.NewClient())
		cp.SetCoreHandler(h)
		cp.SetFirmwareManagementHandler(h)
		if err := cp.Start(wsBase(env)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cp.Stop)
		if _, err := cp.BootNotification("AC-22", "Test"); err != nil {
			t.Fatal(err)
		}
		if _, err := cp.StatusNotification(1, core.NoError, core.ChargePointStatusAvailable); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "Idle", func() bool { s, _ := deviceStatus(t, d, id); return s == fleet.StatusIdle })

		var fw struct {
			ID        int64  `json:"id"`
			UploadURL string `json:"uploadUrl"`
		}
		apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/firmware/add", map[string]any{"name": "fw-3.0.bin"})).Into(t, &fw)
		req, _ := http.NewRequest("PUT", env.URL+fw.UploadURL, bytes.NewReader(bytes.Repeat([]byte("F"), 1024)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 201 {
			t.Fatalf("firmware upload: %v %v", resp, err)
		}
		resp.Body.Close()

		// the command row as the device page's history reads it
		latest := func(t *testing.T) fleet.CommandView {
			t.Helper()
			var page struct {
				List []fleet.CommandView `json:"list"`
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/control/list", map[string]any{"deviceId": id, "pageNo": 1, "pageSize": 10})).Into(t, &page)
			if len(page.List) == 0 {
				t.Fatal("no command listed")
			}
			return page.List[0]
		}
		waitStep := func(t *testing.T, want string) fleet.CommandView {
			t.Helper()
			var v fleet.CommandView
			waitFor(t, "progress "+want, func() bool { v = latest(t); return v.Progress == want })
			if v.ProgressAt == 0 || v.ControlType != fleet.CtlUpdateFirmware {
				t.Fatalf("progress %s: %+v", want, v)
			}
			return v
		}
		step := func(t *testing.T, s firmware.FirmwareStatus) {
			t.Helper()
			if _, err := cp.FirmwareStatusNotification(s); err != nil {
				t.Fatal(err)
			}
		}

		var first fleet.CommandView
		t.Run("the command's row follows the charger's steps", func(t *testing.T) {
			first = sendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": fw.ID})
			if first.Result != fleet.ResultSuccess {
				t.Fatalf("update firmware: %+v", first)
			}
			<-h.located
			waitStep(t, "Accepted")
			step(t, firmware.FirmwareStatusDownloading)
			waitStep(t, "Downloading")
			step(t, firmware.FirmwareStatusDownloaded)
			waitStep(t, "Downloaded")
			step(t, firmware.FirmwareStatusInstalling)
			if v := waitStep(t, "Installing"); v.Result != fleet.ResultSuccess {
				t.Fatalf("the command's result stays Success: %+v", v)
			}
			step(t, firmware.FirmwareStatusInstalled)
			waitStep(t, "Installed")
		})
		t.Run("an Idle answer and a late step do not undo an ended upgrade", func(t *testing.T) {
			step(t, firmware.FirmwareStatusIdle)
			step(t, firmware.FirmwareStatusInstalling)
			var progress string
			if err := d.QueryRow(t.Context(), `SELECT progress FROM command WHERE id = ?`, first.ID).Scan(&progress); err != nil || progress != "Installed" {
				t.Fatalf("ended upgrade moved to %q (%v)", progress, err)
			}
		})
		t.Run("a failed second upgrade ends its own row, the first keeps Installed", func(t *testing.T) {
			second := sendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": fw.ID})
			<-h.located
			waitStep(t, "Accepted")
			step(t, firmware.FirmwareStatusDownloading)
			waitStep(t, "Downloading")
			step(t, firmware.FirmwareStatusDownloadFailed)
			if v := waitStep(t, "DownloadFailed"); v.ID != second.ID {
				t.Fatalf("failure on command %d, want %d", v.ID, second.ID)
			}
			var d1 fleet.CommandView
			apitest.Must(t, root.Call("GET", "/api/auth/sys/dev/control/detail", map[string]any{"id": first.ID})).Into(t, &d1)
			if d1.Progress != "Installed" {
				t.Fatalf("first upgrade: %+v", d1)
			}
		})
	})
}
