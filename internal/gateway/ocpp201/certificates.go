package ocpp201

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/iso15118"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/security"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// Certificates of a 2.0.1 charger (docs/security-profiles.md): its client certificate signed by
// the charge-point CA (SignCertificate, CertificateSigned), and the roots it trusts (control
// types 22-24). The core keeps certificate types in the 1.6 extension's words; 2.0.1 calls the
// central system's root CSMSRootCertificate.

// certificateUse is the 2.0.1 CertificateUse of a core certificate type, and coreCertType the
// way back.
func certificateUse(t string) types.CertificateUse {
	if t == "CentralSystemRootCertificate" {
		return types.CSMSRootCertificate
	}
	return types.CertificateUse(t)
}

func coreCertType(u types.CertificateUse) string {
	if u == types.CSMSRootCertificate {
		return "CentralSystemRootCertificate"
	}
	return string(u)
}

// signCertificate answers a SignCertificate: Accepted when the CA signed the CSR (the chain
// follows in a CertificateSigned call), Rejected when this node has no CA, the CSR is not one,
// names another charger, or asks for a V2G certificate (chargeops signs charging-station
// certificates only).
func (d *Dialect) signCertificate(s ocppj.Session, dev *fleet.Device, raw json.RawMessage) (any, error) {
	var req security.SignCertificateRequest
	if err := ocppj.Decode(raw, &req); err != nil {
		return nil, err
	}
	if req.CertificateType == types.V2GCertificate {
		return security.NewSignCertificateResponse(types.GenericStatusRejected), nil
	}
	if d.opt.Signer == nil {
		slog.Warn("ocpp SignCertificate rejected: no charge-point CA on this node", "sn", dev.SN)
		return security.NewSignCertificateResponse(types.GenericStatusRejected), nil
	}
	chain, leaf, err := d.opt.Signer.Sign(req.CSR, dev.SN)
	if err != nil {
		slog.Warn("ocpp SignCertificate rejected", "sn", dev.SN, "err", err)
		return security.NewSignCertificateResponse(types.GenericStatusRejected), nil
	}
	go d.sendCertificate(s, dev, chain, leaf)
	return security.NewSignCertificateResponse(types.GenericStatusAccepted), nil
}

// sendCertificate sends the signed chain (CertificateSigned, a charging-station certificate) and
// records the station's answer (fleet.DeliverCertificate), after the SignCertificate answer
// went out.
func (d *Dialect) sendCertificate(s ocppj.Session, dev *fleet.Device, chain string, leaf *x509.Certificate) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fleet.DeliverCertificate(ctx, d.core, dev, leaf, func(ctx context.Context) (bool, error) {
		req := security.NewCertificateSignedRequest(chain)
		req.TypeOfCertificate = types.ChargingStationCert
		raw, err := s.Call(ctx, security.CertificateSignedFeatureName, req)
		if err != nil {
			return false, err
		}
		var conf security.CertificateSignedResponse
		if err := json.Unmarshal(raw, &conf); err != nil {
			return false, err
		}
		return conf.Status == security.CertificateSignedStatusAccepted, nil
	})
}

// installCertificate runs control type 22: Accepted lists the root on the device.
func (d *Dialect) installCertificate(ctx context.Context, s ocppj.Session, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	req := iso15118.NewInstallCertificateRequest(certificateUse(p.CertificateType), p.Certificate)
	out, _, err := statusCall(ctx, s, iso15118.InstallCertificateFeatureName, req, string(iso15118.CertificateStatusAccepted))
	if err != nil || out.Result != fleet.ResultSuccess {
		return out, err
	}
	return out, d.core.CertificateInstalled(context.WithoutCancel(ctx), dev.ID, p.CertificateType, p.Certificate)
}

// getInstalledCertificateIDs runs control type 23: Accepted replaces the device's list of the
// type with the answer's, NotFound empties it.
func (d *Dialect) getInstalledCertificateIDs(ctx context.Context, s ocppj.Session, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	req := iso15118.NewGetInstalledCertificateIdsRequest()
	req.CertificateTypes = []types.CertificateUse{certificateUse(p.CertificateType)}
	raw, err := s.Call(ctx, iso15118.GetInstalledCertificateIdsFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf iso15118.GetInstalledCertificateIdsResponse
	if err := json.Unmarshal(raw, &conf); err != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + err.Error(), Answer: raw}, nil
	}
	list := make([]fleet.CertificateHash, 0, len(conf.CertificateHashDataChain))
	if conf.Status == iso15118.GetInstalledCertificateStatusAccepted {
		for _, c := range conf.CertificateHashDataChain {
			if coreCertType(c.CertificateType) != p.CertificateType {
				continue
			}
			h := c.CertificateHashData
			list = append(list, fleet.CertificateHash{HashAlgorithm: string(h.HashAlgorithm), IssuerNameHash: h.IssuerNameHash,
				IssuerKeyHash: h.IssuerKeyHash, SerialNumber: h.SerialNumber})
		}
	}
	out := fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}
	return out, d.core.InstalledCertificatesRead(context.WithoutCancel(ctx), dev.ID, p.CertificateType, list)
}

// deleteCertificate runs control type 24: Accepted removes the row; NotFound fails and removes
// it too (the charger does not hold it); Failed keeps it.
func (d *Dialect) deleteCertificate(ctx context.Context, s ocppj.Session, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	if p.CertificateHash == nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.invalid"}, nil
	}
	h := *p.CertificateHash
	req := iso15118.NewDeleteCertificateRequest(types.CertificateHashData{HashAlgorithm: types.HashAlgorithmType(h.HashAlgorithm),
		IssuerNameHash: h.IssuerNameHash, IssuerKeyHash: h.IssuerKeyHash, SerialNumber: h.SerialNumber})
	out, st, err := statusCall(ctx, s, iso15118.DeleteCertificateFeatureName, req, string(iso15118.DeleteCertificateStatusAccepted))
	if err != nil || st == string(iso15118.DeleteCertificateStatusFailed) {
		return out, err
	}
	return out, d.core.CertificateRemoved(context.WithoutCancel(ctx), dev.ID, h)
}
