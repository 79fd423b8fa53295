package ocpp16

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
)

// Client certificates for security profile 3 (docs/security-profiles.md, "The charge-point
// CA"): a charger sends a CSR (SignCertificate), the charge-point CA signs it, and the gateway
// sends the chain back (CertificateSigned).

// CertSigner signs a charger's CSR: internal/cpca's CA.
type CertSigner interface {
	Sign(csrPEM, sn string) (chain string, leaf *x509.Certificate, err error)
}

// signCertificate answers a SignCertificate: Accepted when the CA signed the CSR (the chain
// follows in a CertificateSigned call), Rejected when there is no CA on this node, the CSR is
// not one or names another charger.
func (c *conn) signCertificate(dev *fleet.Device, raw json.RawMessage) (any, error) {
	var req security.SignCertificateRequest
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if c.g.opt.Signer == nil {
		slog.Warn("ocpp SignCertificate rejected: no charge-point CA on this node", "sn", dev.SN)
		return security.NewSignCertificateResponse(types.GenericStatusRejected), nil
	}
	chain, leaf, err := c.g.opt.Signer.Sign(req.CSR, dev.SN)
	if err != nil {
		slog.Warn("ocpp SignCertificate rejected", "sn", dev.SN, "err", err)
		return security.NewSignCertificateResponse(types.GenericStatusRejected), nil
	}
	go c.sendCertificate(dev, chain, leaf)
	return security.NewSignCertificateResponse(types.GenericStatusAccepted), nil
}

// sendCertificate records the signed certificate, sends it (CertificateSigned) and records
// what the charger answered. It runs after the SignCertificate answer has gone out.
func (c *conn) sendCertificate(dev *fleet.Device, chain string, leaf *x509.Certificate) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f := c.g.fleet
	id, err := f.CertificateIssued(ctx, dev, leaf)
	if err != nil {
		slog.Error("ocpp certificate not recorded; not sent", "sn", dev.SN, "err", err)
		return
	}
	state := fleet.CertUndelivered
	raw, err := c.call(ctx, security.CertificateSignedFeatureName, security.NewCertificateSignedRequest(chain))
	if err == nil {
		var conf security.CertificateSignedResponse
		if err = json.Unmarshal(raw, &conf); err == nil {
			state = fleet.CertRejected
			if conf.Status == security.CertificateSignedStatusAccepted {
				state = fleet.CertInstalled
			}
		}
	}
	slog.Info("ocpp certificate sent", "sn", dev.SN, "serial", leaf.SerialNumber.Text(16), "notAfter", leaf.NotAfter, "state", state, "err", err)
	if err := f.CertificateAnswered(ctx, id, state); err != nil {
		slog.Warn("ocpp certificate answer not recorded", "sn", dev.SN, "err", err)
	}
}
