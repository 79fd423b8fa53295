package ocpp16

import (
	"context"
	"encoding/json"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/certificates"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
)

// Certificates on the charger (docs/security-profiles.md, "Certificates on the charger"): the
// roots a charger trusts, installed (control type 22), listed (23) and deleted (24) with the
// security extension's InstallCertificate, GetInstalledCertificateIds and DeleteCertificate.
// The core checked the parameters; the answers keep the device's list
// (fleet/certificates_installed.go).

// certAnswer reads a certificate call's answer into conf and checks it with ocpp-go's rules;
// a failed outcome when it cannot be read.
func certAnswer(raw json.RawMessage, conf any) (fleet.Outcome, bool) {
	err := json.Unmarshal(raw, conf)
	if err == nil {
		err = types.Validate.Struct(conf)
	}
	if err != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + err.Error(), Answer: raw}, false
	}
	return fleet.Outcome{Answer: raw}, true
}

// installCertificate runs control type 22: Accepted succeeds and lists the root on the device
// (with its subject); Rejected and Failed fail with the status.
func (c *conn) installCertificate(ctx context.Context, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	req := certificates.NewInstallCertificateRequest(types.CertificateUse(p.CertificateType), p.Certificate)
	raw, err := c.call(ctx, certificates.InstallCertificateFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf certificates.InstallCertificateResponse
	out, ok := certAnswer(raw, &conf)
	if !ok {
		return out, nil
	}
	if conf.Status != certificates.CertificateStatusAccepted {
		out.Result, out.Message = fleet.ResultFailed, "device answered "+string(conf.Status)
		return out, nil
	}
	out.Result = fleet.ResultSuccess
	return out, c.g.fleet.CertificateInstalled(context.WithoutCancel(ctx), dev.ID, p.CertificateType, p.Certificate)
}

// getInstalledCertificateIDs runs control type 23: Accepted replaces the device's list of that
// type with the answer's, NotFound empties it (the charger holds none); both succeed.
func (c *conn) getInstalledCertificateIDs(ctx context.Context, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	req := certificates.NewGetInstalledCertificateIdsRequest(types.CertificateUse(p.CertificateType))
	raw, err := c.call(ctx, certificates.GetInstalledCertificateIdsFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf certificates.GetInstalledCertificateIdsResponse
	out, ok := certAnswer(raw, &conf)
	if !ok {
		return out, nil
	}
	list := make([]fleet.CertificateHash, 0, len(conf.CertificateHashData))
	if conf.Status == certificates.GetInstalledCertificateStatusAccepted {
		for _, h := range conf.CertificateHashData {
			list = append(list, fleet.CertificateHash{HashAlgorithm: string(h.HashAlgorithm), IssuerNameHash: h.IssuerNameHash,
				IssuerKeyHash: h.IssuerKeyHash, SerialNumber: h.SerialNumber})
		}
	}
	out.Result = fleet.ResultSuccess
	return out, c.g.fleet.InstalledCertificatesRead(context.WithoutCancel(ctx), dev.ID, p.CertificateType, list)
}

// deleteCertificate runs control type 24: Accepted succeeds and removes the row; NotFound fails
// ("device answered NotFound") and removes it too, the charger not holding it; Failed fails and
// keeps it.
func (c *conn) deleteCertificate(ctx context.Context, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	if p.CertificateHash == nil { // checked by the core; a command restored without it
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.invalid"}, nil
	}
	h := *p.CertificateHash
	req := certificates.NewDeleteCertificateRequest(types.CertificateHashData{HashAlgorithm: types.HashAlgorithmType(h.HashAlgorithm),
		IssuerNameHash: h.IssuerNameHash, IssuerKeyHash: h.IssuerKeyHash, SerialNumber: h.SerialNumber})
	raw, err := c.call(ctx, certificates.DeleteCertificateFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf certificates.DeleteCertificateResponse
	out, ok := certAnswer(raw, &conf)
	if !ok {
		return out, nil
	}
	out.Result, out.Message = fleet.ResultFailed, "device answered "+string(conf.Status)
	if conf.Status == certificates.DeleteCertificateStatusAccepted {
		out.Result, out.Message = fleet.ResultSuccess, ""
	}
	if conf.Status == certificates.DeleteCertificateStatusFailed {
		return out, nil
	}
	return out, c.g.fleet.CertificateRemoved(context.WithoutCancel(ctx), dev.ID, h)
}
