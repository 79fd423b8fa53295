package fleet_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
	"chargeops/internal/tlsconf/tlstest"
)

// Signed firmware files and GetLog jobs as the store keeps them, on SQLite and PostgreSQL
// (docs/security-profiles.md, "Signed firmware and logs").
func TestSignedFirmwareAndLogStore(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var mu sync.Mutex
		var filed []fleet.DiagnosticsUpload
		s.OnDiagnostics(func(_ context.Context, u fleet.DiagnosticsUpload) {
			mu.Lock()
			filed = append(filed, u)
			mu.Unlock()
		})
		root := testutil.Root()
		cert := string(tlstest.NewCA(t, "Firmware signer").PEM)
		sig := base64.StdEncoding.EncodeToString([]byte("signature bytes"))

		t.Run("a signed file keeps its certificate and signature, listed as signed", func(t *testing.T) {
			signed, _, err := s.NewFirmware(ctx, root, fleet.NewFirmwareInput{Name: "fw-signed.bin", SigningCertificate: cert + "\n", Signature: sig})
			if err != nil || !signed.Signed {
				t.Fatalf("signed file: %+v %v", signed, err)
			}
			plain, _, err := s.NewFirmware(ctx, root, fleet.NewFirmwareInput{Name: "fw-plain.bin"})
			if err != nil || plain.Signed {
				t.Fatalf("unsigned file: %+v %v", plain, err)
			}
			got, err := s.FirmwareSigning(ctx, signed.ID)
			if err != nil || !got.Signed() || got.Certificate != strings.TrimSpace(cert) || got.Signature != sig {
				t.Fatalf("signing read back: %+v %v", got, err)
			}
			if got, err := s.FirmwareSigning(ctx, plain.ID); err != nil || got.Signed() {
				t.Fatalf("unsigned file read back: %+v %v", got, err)
			}
			if got, err := s.FirmwareSigning(ctx, 1<<40); err != nil || got.Signed() {
				t.Fatalf("no such file: %+v %v", got, err)
			}
			list, err := s.Files(ctx, root, fleet.FileListInput{Kind: fleet.FileFirmware, Page: db.Page{Page: 1, PageSize: 10}})
			if err != nil {
				t.Fatal(err)
			}
			marks := map[int64]bool{}
			for _, f := range list.List {
				marks[f.ID] = f.Signed
			}
			if !marks[signed.ID] || marks[plain.ID] || len(marks) != 2 {
				t.Fatalf("listed: %+v", list.List)
			}
		})

		t.Run("a refused signing field stores nothing", func(t *testing.T) {
			_, _, err := s.NewFirmware(ctx, root, fleet.NewFirmwareInput{Name: "fw-half.bin", Signature: sig})
			testutil.WantField(t, err, "signingCertificate", "err.firmware_signing_pair")
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM fleet_file WHERE name = ?`, "fw-half.bin").Scan(&n); err != nil || n != 0 {
				t.Fatalf("%d rows (%v)", n, err)
			}
		})

		id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SN-LOGSTORE")
		if _, err := d.Exec(ctx, `INSERT INTO device_state (device_id) VALUES (?)`, id); err != nil {
			t.Fatal(err)
		}
		dev := &fleet.Device{ID: id, SN: "SN-LOGSTORE", CustomerID: o.CustomerA}
		getLog := func(t *testing.T, logType string) int64 {
			t.Helper()
			params, _ := json.Marshal(fleet.Params{LogType: logType})
			cid, err := db.InsertID(ctx, d, `INSERT INTO command (device_id, sn, control_type, params, result, batch_id, user_id, user_name, deadline_at, created_at)
				VALUES (?, ?, ?, ?, ?, '', 0, 'test', 0, ?)`, id, dev.SN, fleet.CtlGetLog, string(params), fleet.ResultSuccess, db.NowMS())
			if err != nil {
				t.Fatal(err)
			}
			if err := s.OpenDiagnosticsJob(ctx, id, cid); err != nil {
				t.Fatal(err)
			}
			return cid
		}
		progress := func(t *testing.T, cid int64) (string, int) {
			t.Helper()
			var p string
			var end int
			if err := d.QueryRow(ctx, `SELECT progress, progress_end FROM command WHERE id = ?`, cid).Scan(&p, &end); err != nil {
				t.Fatal(err)
			}
			return p, end
		}
		step := func(t *testing.T, status string, req *int, ph fleet.UploadPhase) {
			t.Helper()
			if err := s.DiagnosticsStatus(ctx, fleet.DiagnosticsReport{Device: dev, Status: status, Ended: ph == fleet.UploadFailed,
				Log: &fleet.LogStep{RequestID: req, Phase: ph}}); err != nil {
				t.Fatal(err)
			}
		}
		ptr := func(n int64) *int { r := fleet.RequestID(n); return &r }
		var refused int64 // the GetLog whose upload the charger reports refused

		t.Run("a security log's upload is named so and filed by the diagnostics hook", func(t *testing.T) {
			cid := getLog(t, fleet.LogSecurity)
			step(t, "Uploading", ptr(cid), fleet.UploadRunning)
			if p, end := progress(t, cid); p != "Uploading" || end != 0 {
				t.Fatalf("progress %q end %d", p, end)
			}
			if err := s.ReceiveDiagnostics(ctx, fleet.DiagnosticsIn{DeviceID: id, CommandID: cid, Length: -1, ContentType: "text/plain",
				Name: "cp.log", Body: strings.NewReader("tamper detected\n")}); err != nil {
				t.Fatal(err)
			}
			step(t, "Uploaded", ptr(cid), fleet.UploadDone)
			if p, end := progress(t, cid); p != "Uploaded" || end != 1 {
				t.Fatalf("progress %q end %d", p, end)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(filed) != 1 || filed[0].Name != "SecurityLog-cp.log" || filed[0].DeviceID != id || filed[0].CustomerID != o.CustomerA {
				t.Fatalf("filed: %+v", filed)
			}
		})
		t.Run("a step naming another request, an Idle and a step after the end move nothing", func(t *testing.T) {
			cid := getLog(t, fleet.LogDiagnostics)
			refused = cid
			step(t, "Uploading", ptr(cid+1), fleet.UploadRunning)
			step(t, "Idle", nil, fleet.UploadNone)
			if p, _ := progress(t, cid); p != "" {
				t.Fatalf("progress %q", p)
			}
			step(t, "Uploading", nil, fleet.UploadRunning) // no requestId: the latest GetLog
			if p, _ := progress(t, cid); p != "Uploading" {
				t.Fatalf("progress %q", p)
			}
			step(t, "PermissionDenied", ptr(cid), fleet.UploadFailed)
			step(t, "Uploading", ptr(cid), fleet.UploadRunning)
			if p, end := progress(t, cid); p != "PermissionDenied" || end != 1 {
				t.Fatalf("progress %q end %d", p, end)
			}
		})
		t.Run("a refused upload closes the job: its URL takes no file", func(t *testing.T) {
			err := s.ReceiveDiagnostics(ctx, fleet.DiagnosticsIn{DeviceID: id, CommandID: refused, Length: -1, Body: strings.NewReader("x")})
			if !errors.Is(err, fleet.ErrNoDiagnosticsJob) {
				t.Fatalf("upload after PermissionDenied: %v", err)
			}
		})
	})
}
