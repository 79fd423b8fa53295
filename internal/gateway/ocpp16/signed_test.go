package ocpp16_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/logging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"

	"chargeops/internal/apperr"
	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
	"chargeops/internal/tlsconf/tlstest"
)

// signedCharger is an ocpp-go charge point with the firmware, secure-firmware and log handlers:
// it hands each request it is sent to the test and answers as the test set.
type signedCharger struct {
	fleettest.AcceptingCharger
	updates chan string // UpdateFirmware locations
	signed  chan *securefirmware.SignedUpdateFirmwareRequest
	logs    chan *logging.GetLogRequest

	mu           sync.Mutex
	signedAnswer securefirmware.UpdateFirmwareStatus
	logAnswer    logging.LogStatus
}

func (h *signedCharger) OnGetDiagnostics(*firmware.GetDiagnosticsRequest) (*firmware.GetDiagnosticsConfirmation, error) {
	return firmware.NewGetDiagnosticsConfirmation(), nil
}
func (h *signedCharger) OnUpdateFirmware(r *firmware.UpdateFirmwareRequest) (*firmware.UpdateFirmwareConfirmation, error) {
	h.updates <- r.Location
	return firmware.NewUpdateFirmwareConfirmation(), nil
}
func (h *signedCharger) OnSignedUpdateFirmware(r *securefirmware.SignedUpdateFirmwareRequest) (*securefirmware.SignedUpdateFirmwareResponse, error) {
	h.signed <- r
	h.mu.Lock()
	defer h.mu.Unlock()
	return securefirmware.NewSignedUpdateFirmwareResponse(h.signedAnswer), nil
}
func (h *signedCharger) OnGetLog(r *logging.GetLogRequest) (*logging.GetLogResponse, error) {
	h.logs <- r
	h.mu.Lock()
	defer h.mu.Unlock()
	res := logging.NewGetLogResponse(h.logAnswer)
	if h.logAnswer != logging.LogStatusRejected {
		res.Filename = "security.log"
	}
	return res, nil
}

// answer sets what the charger answers SignedUpdateFirmware and GetLog.
func (h *signedCharger) answer(fw securefirmware.UpdateFirmwareStatus, log logging.LogStatus) {
	h.mu.Lock()
	h.signedAnswer, h.logAnswer = fw, log
	h.mu.Unlock()
}

// takeOne is what the charger was sent (what), failing the test after 10 s without it.
func takeOne[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10 s", what)
		var zero T
		return zero
	}
}

// TestSignedFirmwareAndGetLog (issue 23; docs/security-profiles.md, "Signed firmware and
// logs"): with ocpp-go's charge point, control type 5 on a signed firmware file sends
// SignedUpdateFirmware with its certificate and signature and follows the charger's
// SignedFirmwareStatusNotifications (InvalidSignature ends the upgrade as failed), an unsigned
// file still gets UpdateFirmware; GetLog (control type 25) has the charger upload its security
// log to the job's signed URL, which lands in the device's attachments.
func TestSignedFirmwareAndGetLog(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		const sn = "SN-SIGNED-1"
		env, _, id := fleettest.Node(t, d, sn, func(c *config.Config) { c.CommandTimeout = 5 * time.Second })
		root := env.Root()

		h := &signedCharger{updates: make(chan string, 2), signed: make(chan *securefirmware.SignedUpdateFirmwareRequest, 2),
			logs: make(chan *logging.GetLogRequest, 2), signedAnswer: securefirmware.UpdateFirmwareStatusAccepted, logAnswer: logging.LogStatusAccepted}
		cp := fleettest.ChargePoint(sn, ocppws.NewClient())
		cp.SetCoreHandler(h)
		cp.SetFirmwareManagementHandler(h)
		cp.SetSecureFirmwareHandler(h)
		cp.SetLogHandler(h)
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

		// A firmware file signed with a key whose certificate goes with it.
		image := bytes.Repeat([]byte("F"), 2048)
		signer := tlstest.NewCA(t, "Firmware signer")
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(image)
		rawSig, err := ecdsa.SignASN1(rand.Reader, key, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		signature := base64.StdEncoding.EncodeToString(rawSig)
		addFirmware := func(t *testing.T, body map[string]any) int64 {
			t.Helper()
			var fw struct {
				ID        int64  `json:"id"`
				UploadURL string `json:"uploadUrl"`
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/firmware/add", body)).Into(t, &fw)
			req, _ := http.NewRequest("PUT", env.URL+fw.UploadURL, bytes.NewReader(image))
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != 201 {
				t.Fatalf("firmware upload: %v %v", resp, err)
			}
			resp.Body.Close()
			return fw.ID
		}
		signedFW := addFirmware(t, map[string]any{"name": "fw-4.0-signed.bin", "signingCertificate": string(signer.PEM), "signature": signature})
		plainFW := addFirmware(t, map[string]any{"name": "fw-4.0.bin"})

		stored := func(t *testing.T, cmd int64) (progress, message string, ended int) {
			t.Helper()
			if err := d.QueryRow(ctx, `SELECT progress, message, progress_end FROM command WHERE id = ?`, cmd).Scan(&progress, &message, &ended); err != nil {
				t.Fatal(err)
			}
			return
		}
		waitStep := func(t *testing.T, cmd int64, want string) {
			t.Helper()
			waitFor(t, "progress "+want, func() bool { p, _, _ := stored(t, cmd); return p == want })
		}
		step := func(t *testing.T, s securefirmware.FirmwareStatus, requestID int) {
			t.Helper()
			if _, err := cp.SignedUpdateFirmwareStatusNotification(s, func(r *securefirmware.SignedFirmwareStatusNotificationRequest) { r.RequestID = &requestID }); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		t.Run("the listing marks the signed file", func(t *testing.T) {
			var page struct {
				List []fleet.FileInfo `json:"list"`
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/firmware/list", map[string]any{"page": 1, "pageSize": 10})).Into(t, &page)
			marks := map[int64]bool{}
			for _, f := range page.List {
				marks[f.ID] = f.Signed
			}
			if !marks[signedFW] || marks[plainFW] {
				t.Fatalf("listed: %+v", page.List)
			}
		})

		t.Run("a signed file is sent with SignedUpdateFirmware, its steps lead to Installed", func(t *testing.T) {
			v := sendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": signedFW, "retries": 2})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("signed update: %+v", v)
			}
			req := takeOne(t, h.signed, "SignedUpdateFirmware")
			fw := req.Firmware
			if fw.SigningCertificate != strings.TrimSpace(string(signer.PEM)) || fw.Signature != signature || req.RequestID != fleet.RequestID(v.ID) ||
				req.Retries == nil || *req.Retries != 2 || fw.RetrieveDateTime == nil || fw.RetrieveDateTime.IsZero() {
				t.Fatalf("request: %+v firmware %+v", req, fw)
			}
			if !strings.Contains(fw.Location, "/fleet/files/firmware/"+strconv.FormatInt(signedFW, 10)+"/") {
				t.Fatalf("location %s", fw.Location)
			}
			resp, err := http.Get(fw.Location)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("download: %v %v", resp, err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !bytes.Equal(got, image) {
				t.Fatalf("downloaded %d bytes, not the image", len(got))
			}
			waitStep(t, v.ID, "Accepted")
			for _, s := range []securefirmware.FirmwareStatus{securefirmware.FirmwareStatusDownloadScheduled, securefirmware.FirmwareStatusDownloading,
				securefirmware.FirmwareStatusDownloaded, securefirmware.FirmwareStatusSignatureVerified, securefirmware.FirmwareStatusInstallScheduled,
				securefirmware.FirmwareStatusInstalling, securefirmware.FirmwareStatusInstallRebooting} {
				step(t, s, req.RequestID)
				waitStep(t, v.ID, string(s))
			}
			waitFor(t, "status Firmware update", func() bool { s, _ := deviceStatus(t, d, id); return s == fleet.StatusFirmware })
			step(t, securefirmware.FirmwareStatusInstalled, req.RequestID)
			waitStep(t, v.ID, "Installed")
			if _, _, ended := stored(t, v.ID); ended != 1 {
				t.Fatal("Installed did not end the upgrade")
			}
			waitFor(t, "Idle again", func() bool { s, _ := deviceStatus(t, d, id); return s == fleet.StatusIdle })
		})
		t.Run("InvalidSignature ends the upgrade as failed", func(t *testing.T) {
			v := sendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": signedFW})
			req := takeOne(t, h.signed, "SignedUpdateFirmware")
			step(t, securefirmware.FirmwareStatusDownloaded, req.RequestID)
			waitStep(t, v.ID, "Downloaded")
			step(t, securefirmware.FirmwareStatusInvalidSignature, req.RequestID)
			waitStep(t, v.ID, "InvalidSignature")
			if p, _, ended := stored(t, v.ID); p != "InvalidSignature" || ended != 1 {
				t.Fatalf("progress %q ended %d", p, ended)
			}
			var fwStatus string
			if err := d.QueryRow(ctx, `SELECT firmware_status FROM device_state WHERE device_id = ?`, id).Scan(&fwStatus); err != nil || fwStatus != "InvalidSignature" {
				t.Fatalf("device firmware status %q (%v): the last step is shown as sent", fwStatus, err)
			}
			waitFor(t, "Idle after the failure", func() bool { s, _ := deviceStatus(t, d, id); return s == fleet.StatusIdle })
		})
		t.Run("a charger refusing the certificate fails the command with its status", func(t *testing.T) {
			h.answer(securefirmware.UpdateFirmwareStatusInvalidCertificate, logging.LogStatusAccepted)
			defer h.answer(securefirmware.UpdateFirmwareStatusAccepted, logging.LogStatusAccepted)
			v := sendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": signedFW})
			takeOne(t, h.signed, "SignedUpdateFirmware")
			if _, msg, _ := stored(t, v.ID); v.Result != fleet.ResultFailed || msg != "device answered InvalidCertificate" {
				t.Fatalf("command %+v, stored message %q", v, msg)
			}
		})
		t.Run("an unsigned file still gets UpdateFirmware", func(t *testing.T) {
			v := sendOne(t, root, id, fleet.CtlUpdateFirmware, map[string]any{"firmwareId": plainFW})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("update: %+v", v)
			}
			if loc := takeOne(t, h.updates, "UpdateFirmware"); !strings.Contains(loc, "/fleet/files/firmware/"+strconv.FormatInt(plainFW, 10)+"/") {
				t.Fatalf("location %s", loc)
			}
			select {
			case r := <-h.signed:
				t.Fatalf("an unsigned file sent signed: %+v", r)
			default:
			}
		})

		t.Run("GetLog: the security log is uploaded and lands in the device's attachments", func(t *testing.T) {
			v := sendOne(t, root, id, fleet.CtlGetLog, map[string]any{"logType": fleet.LogSecurity, "retries": 1})
			if v.Result != fleet.ResultSuccess {
				t.Fatalf("get log: %+v", v)
			}
			req := takeOne(t, h.logs, "GetLog")
			if req.LogType != logging.LogTypeSecurity || req.RequestID != fleet.RequestID(v.ID) || req.Retries == nil || *req.Retries != 1 ||
				!strings.Contains(req.Log.RemoteLocation, "/fleet/files/diagnostics/") {
				t.Fatalf("request: %+v", req)
			}
			if _, msg, _ := stored(t, v.ID); msg != "security.log" {
				t.Fatalf("message %q, want the charger's file name", msg)
			}
			if _, err := cp.LogStatusNotification(logging.UploadLogStatusUploading, req.RequestID); err != nil {
				t.Fatal(err)
			}
			waitStep(t, v.ID, "Uploading")
			put, _ := http.NewRequest("PUT", req.Log.RemoteLocation+"&name=security.log", strings.NewReader("2026-01-01T00:00:00Z FirmwareUpdated\n"))
			put.Header.Set("Content-Type", "text/plain")
			resp, err := http.DefaultClient.Do(put)
			if err != nil || resp.StatusCode != 201 {
				t.Fatalf("upload: %v %v", resp, err)
			}
			resp.Body.Close()
			if _, err := cp.LogStatusNotification(logging.UploadLogStatusUploaded, req.RequestID); err != nil {
				t.Fatal(err)
			}
			waitStep(t, v.ID, "Uploaded")
			var name string
			if err := d.QueryRow(ctx, `SELECT f.name FROM attach_file f JOIN attach_folder p ON p.id = f.folder_id WHERE p.path = ?`,
				"diagnostics/"+sn).Scan(&name); err != nil || name != "SecurityLog-security.log" {
				t.Fatalf("attachment %q (%v)", name, err)
			}
			var files struct {
				List []fleet.FileInfo `json:"list"`
			}
			apitest.Must(t, root.Call("POST", "/api/auth/sys/dev/diagnostics/list", map[string]any{"deviceId": id})).Into(t, &files)
			if len(files.List) != 1 || files.List[0].Name != "SecurityLog-security.log" {
				t.Fatalf("diagnostics files: %+v", files.List)
			}
			logID := files.List[0].ID
			t.Run("a reader of the device without the certificate key sees neither the file nor its attachment", func(t *testing.T) {
				var level int
				if err := d.QueryRow(ctx, `SELECT read_level FROM attach_file WHERE name = ?`, "SecurityLog-security.log").Scan(&level); err != nil || level != 1 {
					t.Fatalf("attachment read level %d (%v), want 1", level, err)
				}
				_, role := env.CreateUser(root, "log_reader", "Log#Pass1234", "auth_device_detail")
				allData(t, root, role)
				reader := env.Client().MustLogin("log_reader", "Log#Pass1234")
				apitest.Must(t, reader.Call("POST", "/api/auth/sys/dev/diagnostics/list", map[string]any{"deviceId": id})).Into(t, &files)
				if len(files.List) != 0 {
					t.Fatalf("the reader lists %+v", files.List)
				}
				apitest.WantCode(t, reader.Call("GET", "/api/auth/sys/dev/file/url", map[string]any{"id": logID}), apperr.NotFound)
			})
		})
		t.Run("a rejected GetLog fails and its URL takes no upload", func(t *testing.T) {
			h.answer(securefirmware.UpdateFirmwareStatusAccepted, logging.LogStatusRejected)
			v := sendOne(t, root, id, fleet.CtlGetLog, map[string]any{"logType": fleet.LogDiagnostics})
			req := takeOne(t, h.logs, "GetLog")
			if _, msg, _ := stored(t, v.ID); v.Result != fleet.ResultFailed || msg != "device answered Rejected" || req.LogType != logging.LogTypeDiagnostics {
				t.Fatalf("command %+v, stored message %q, log %s", v, msg, req.LogType)
			}
			resp, err := http.Post(req.Log.RemoteLocation, "text/plain", strings.NewReader("late"))
			if err != nil || resp.StatusCode != http.StatusNotFound {
				t.Fatalf("upload to a refused job: %v %v", resp, err)
			}
			resp.Body.Close()
		})
	})
}
