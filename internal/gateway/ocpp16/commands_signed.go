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

// updateFirmware runs control type 5: UpdateFirmware with the file's signed download URL, or,
// for a file that carries a signing certificate and a signature, SignedUpdateFirmware with them
// as well (success on Accepted or AcceptedCanceled, else failed with the status). An accepted
// upgrade starts the firmware job.
func (c *conn) updateFirmware(ctx context.Context, dev *fleet.Device, cmd fleet.Command) (fleet.Outcome, error) {
	f, p := c.g.fleet, cmd.Params
	sig, err := f.FirmwareSigning(ctx, p.FirmwareID)
	if err != nil {
		return fleet.Outcome{}, err
	}
	location := f.FirmwareURL(c.base, p.FirmwareID)
	var retries *int
	if r := p.Retries; r > 0 {
		retries = &r
	}
	var out fleet.Outcome
	if sig.Signed() {
		req := securefirmware.NewSignedUpdateFirmwareRequest(fleet.RequestID(cmd.ID), securefirmware.Firmware{
			Location: location, RetrieveDateTime: now(), SigningCertificate: sig.Certificate, Signature: sig.Signature})
		req.Retries = retries
		out, _, err = c.statusCall(ctx, securefirmware.SignedUpdateFirmwareFeatureName, req,
			string(securefirmware.UpdateFirmwareStatusAccepted), string(securefirmware.UpdateFirmwareStatusAcceptedCanceled))
	} else {
		req := firmware.NewUpdateFirmwareRequest(location, now())
		req.Retries = retries
		var raw json.RawMessage
		if raw, err = c.call(ctx, firmware.UpdateFirmwareFeatureName, req); err == nil { // its answer has no status
			out = fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}
		}
	}
	if err != nil || out.Result != fleet.ResultSuccess {
		return out, err
	}
	return out, f.FirmwareAccepted(context.WithoutCancel(ctx), dev, cmd.ID)
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
	out, _, err := c.statusCall(ctx, logging.GetLogFeatureName, req, string(logging.LogStatusAccepted), string(logging.LogStatusAcceptedCanceled))
	if err != nil || out.Result != fleet.ResultSuccess {
		return out, err
	}
	var ans struct {
		Filename string `json:"filename"`
	}
	_ = json.Unmarshal(out.Answer, &ans)
	out.Message = ans.Filename
	return out, nil
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
