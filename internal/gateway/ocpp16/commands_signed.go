package ocpp16

import (
	"context"
	"encoding/json"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/logging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"

	"chargeops/internal/fleet"
)

// Signed firmware and logs of the OCPP 1.6 security extension (docs/security-profiles.md,
// "Signed firmware and logs"; docs/ocpp16.md): control type 5 on a signed firmware file sends
// SignedUpdateFirmware, control type 25 GetLog; the charger reports with
// SignedFirmwareStatusNotification and LogStatusNotification.

// The charger's messages of signed firmware and logs (handlers.go dispatches them here).
const (
	actionSignedFirmwareStatus = securefirmware.SignedFirmwareStatusNotificationFeatureName
	actionLogStatus            = logging.LogStatusNotificationFeatureName
)

// signedUpdateFirmware runs control type 5 on a signed firmware file: SignedUpdateFirmware
// with the same signed download URL as UpdateFirmware, the signing certificate and the
// signature; Accepted or AcceptedCanceled starts the firmware job like an accepted
// UpdateFirmware, any other answer fails the command with the status. signed is false (and
// nothing sent) for an unsigned file, which gets UpdateFirmware.
func (c *conn) signedUpdateFirmware(ctx context.Context, dev *fleet.Device, cmd fleet.Command) (out fleet.Outcome, signed bool, err error) {
	f, p := c.g.fleet, cmd.Params
	sig, err := f.FirmwareSigning(ctx, p.FirmwareID)
	if err != nil || !sig.Signed() {
		return out, false, err
	}
	req := securefirmware.NewSignedUpdateFirmwareRequest(fleet.RequestID(cmd.ID), securefirmware.Firmware{
		Location: f.FirmwareURL(c.base, p.FirmwareID), RetrieveDateTime: now(), SigningCertificate: sig.Certificate, Signature: sig.Signature})
	if p.Retries > 0 {
		req.Retries = &p.Retries
	}
	raw, err := c.call(ctx, securefirmware.SignedUpdateFirmwareFeatureName, req)
	if err != nil {
		return out, true, err
	}
	if st := signedAnswer(raw); st != string(securefirmware.UpdateFirmwareStatusAccepted) && st != string(securefirmware.UpdateFirmwareStatusAcceptedCanceled) {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "device answered " + st, Answer: raw}, true, nil
	}
	return fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}, true, f.FirmwareAccepted(context.WithoutCancel(ctx), dev, cmd.ID)
}

// upload runs a command that has the charger upload a file to the signed URL of its
// diagnostics job: GetDiagnostics (control type 6) or GetLog (25). The job opens before the call
// (a charger may upload before its answer arrives) and closes when the call fails or the charger
// refuses; the upload itself closes it (docs/gateway.md, "Files").
func (c *conn) upload(ctx context.Context, dev *fleet.Device, cmd fleet.Command) (fleet.Outcome, error) {
	f := c.g.fleet
	if err := f.OpenDiagnosticsJob(ctx, dev.ID, cmd.ID); err != nil {
		return fleet.Outcome{}, err
	}
	url := f.DiagnosticsURL(c.base, dev.ID, cmd.ID)
	var retries *int
	if r := cmd.Params.Retries; r > 0 {
		retries = &r
	}
	var out fleet.Outcome
	var err error
	if cmd.ControlType == fleet.CtlGetLog {
		out, err = c.getLog(ctx, cmd, url, retries)
	} else {
		req := firmware.NewGetDiagnosticsRequest(url)
		req.Retries = retries
		var raw json.RawMessage
		if raw, err = c.call(ctx, firmware.GetDiagnosticsFeatureName, req); err == nil {
			out = fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}
		}
	}
	if err != nil || out.Result != fleet.ResultSuccess {
		f.EndDiagnosticsJob(context.WithoutCancel(ctx), dev.ID, cmd.ID)
	}
	return out, err
}

// getLog sends GetLog for the log params.logType names, to be uploaded to url: Accepted or
// AcceptedCanceled succeeds with the file name the charger gave as the message, Rejected fails.
func (c *conn) getLog(ctx context.Context, cmd fleet.Command, url string, retries *int) (fleet.Outcome, error) {
	req := logging.NewGetLogRequest(logType(cmd.Params.LogType), fleet.RequestID(cmd.ID), logging.LogParameters{RemoteLocation: url})
	req.Retries = retries
	raw, err := c.call(ctx, logging.GetLogFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var ans struct {
		Status   string `json:"status"`
		Filename string `json:"filename"`
	}
	_ = json.Unmarshal(raw, &ans)
	if ans.Status != string(logging.LogStatusAccepted) && ans.Status != string(logging.LogStatusAcceptedCanceled) {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "device answered " + ans.Status, Answer: raw}, nil
	}
	return fleet.Outcome{Result: fleet.ResultSuccess, Message: ans.Filename, Answer: raw}, nil
}

// signedFirmwareStatus handles a SignedFirmwareStatusNotification: the same firmware progress
// as a FirmwareStatusNotification (SignedFirmwareReport).
func (c *conn) signedFirmwareStatus(ctx context.Context, dev *fleet.Device, raw json.RawMessage) (any, error) {
	var req securefirmware.SignedFirmwareStatusNotificationRequest
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if err := c.g.fleet.FirmwareStatus(ctx, SignedFirmwareReport(dev, &req)); err != nil {
		return nil, err
	}
	return securefirmware.NewFirmwareStatusNotificationResponse(), nil
}

// logStatus handles a LogStatusNotification: a diagnostics step of the GetLog it names
// (LogReport).
func (c *conn) logStatus(ctx context.Context, dev *fleet.Device, raw json.RawMessage) (any, error) {
	var req LogStatusRequest
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if err := c.g.fleet.DiagnosticsStatus(ctx, LogReport(dev, &req)); err != nil {
		return nil, err
	}
	return logging.NewLogStatusNotificationResponse(), nil
}

// signedAnswer is the status field of a charger's answer ("" when it has none).
func signedAnswer(raw json.RawMessage) string {
	var a struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(raw, &a)
	return a.Status
}
