package fleet

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Logs a charger uploads on request (control type 25, OCPP 1.6 security whitepaper GetLog;
// docs/security-profiles.md, "Signed firmware and logs"): a diagnostics log or the security log.
// A GetLog is a diagnostics job like GetDiagnostics (control type 6): the same signed upload URL
// and job (files.go, OpenDiagnosticsJob, ReceiveDiagnostics), the file filed into the device's
// attachments by the same hook (diaghook.go), its name saying which log it is.

// The logs a GetLog may ask for: params.logType of the API.
const (
	LogDiagnostics = "DiagnosticsLog"
	LogSecurity    = "SecurityLog"
)

// maxUploadRetries bounds params.retries of control types 25 (how often the charger retries an
// upload).
const maxUploadRetries = 100

// checkGetLog checks the parameters of a GetLog, one check per field: the log type, and the
// retries, if given.
func checkGetLog(p *Params) error {
	if p.LogType != LogDiagnostics && p.LogType != LogSecurity {
		return apperr.InvalidField("params.logType", "err.invalid")
	}
	if p.Retries < 0 || p.Retries > maxUploadRetries {
		return apperr.InvalidField("params.retries", "err.invalid")
	}
	return nil
}

// logAccess: a security log needs the certificate key (KeyCertificate) besides control/send's
// own; a diagnostics log nothing more.
func logAccess(p *access.Principal, ct int, prm Params) error {
	if ct == CtlGetLog && prm.LogType == LogSecurity && !p.HasAny(KeyCertificate) {
		return apperr.ErrNoPermission
	}
	return nil
}

// UploadPhase is where a charger's upload stands after one of its steps, in the core's terms.
type UploadPhase int

const (
	// UploadNone: the report is no step of an upload (OCPP 1.6 Idle, the answer to a trigger).
	UploadNone UploadPhase = iota
	// UploadRunning: the upload goes on.
	UploadRunning
	// UploadDone: the charger says the file is uploaded.
	UploadDone
	// UploadFailed: the charger gave up the upload, or refused it.
	UploadFailed
)

// LogStep is what a step of a GetLog upload adds to a DiagnosticsReport: the command it belongs
// to and the phase, which the device's latest GetLog takes as its progress (when the charger's
// requestId names that command).
type LogStep struct {
	RequestID *int // the requestId the charger gave (nil: none)
	Phase     UploadPhase
}

// sqlLogProgress: the device's latest GetLog (waiting for or given its answer), unless it ended;
// the condition on its requestId is added when the charger named one.
const sqlLogProgress = `UPDATE command SET progress = ?, progress_at = ?, progress_end = ?
	WHERE id = (SELECT MAX(id) FROM command WHERE device_id = ? AND control_type = ? AND result IN (?, ?))
	AND progress_end = ?`

// logProgress makes a GetLog step the progress of the device's latest GetLog, unless the
// step is none (Idle) or names another request.
func logProgress(ctx context.Context, b *ingest.Batch, deviceID int64, status string, step *LogStep) error {
	if step == nil || step.Phase == UploadNone {
		return nil
	}
	ended := step.Phase == UploadDone || step.Phase == UploadFailed
	q, args := sqlLogProgress, []any{status, db.NowMS(), db.BoolInt(ended), deviceID, CtlGetLog, ResultWaiting, ResultSuccess, db.BoolInt(false)}
	if step.RequestID != nil {
		q += ` AND id % 2147483648 = ?`
		args = append(args, *step.RequestID)
	}
	_, err := b.Tx.Exec(ctx, q, args...)
	return err
}

// uploadKind is the log a diagnostics job's upload is (LogDiagnostics, LogSecurity), or "" for a
// GetDiagnostics: read from the job's command.
func (s *Service) uploadKind(ctx context.Context, deviceID, commandID int64) string {
	var ct int
	var params string
	err := s.db.QueryRow(ctx, `SELECT control_type, params FROM command WHERE id = ? AND device_id = ?`, commandID, deviceID).Scan(&ct, &params)
	if err != nil || ct != CtlGetLog {
		if err != nil && !db.NotFound(err) {
			slog.Warn("fleet: upload kind", "device", deviceID, "command", commandID, "err", err)
		}
		return ""
	}
	var p Params
	_ = json.Unmarshal([]byte(params), &p)
	if p.LogType == LogSecurity {
		return LogSecurity
	}
	return LogDiagnostics
}

// uploadName is the name an upload is kept under: a log's begins with its kind (SecurityLog-,
// DiagnosticsLog-), so the attachment says which log it is; name "" (the charger gave none)
// gets one from the SN and the command.
func uploadName(kind, name, sn string, commandID int64) string {
	id := strconv.FormatInt(commandID, 10)
	switch {
	case kind == "" && name == "":
		return safeName("diagnostics-" + sn + "-" + id + ".log")
	case kind == "":
		return safeName(name)
	case name == "":
		return safeName(kind + "-" + sn + "-" + id + ".log")
	}
	n := safeName(name) // at most 100 characters; the kind is kept, the name's head cut
	if keep := 100 - len(kind) - 1; len(n) > keep {
		n = n[len(n)-keep:]
	}
	return kind + "-" + n
}
