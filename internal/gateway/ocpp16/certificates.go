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

// sendCertificate sends the signed chain (CertificateSigned) and records the charger's answer
// (fleet.DeliverCertificate). It runs after the SignCertificate answer has gone out.
func (c *conn) sendCertificate(dev *fleet.Device, chain string, leaf *x509.Certificate) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fleet.DeliverCertificate(ctx, c.g.fleet, dev, leaf, func(ctx context.Context) (bool, error) {
		raw, err := c.call(ctx, security.CertificateSignedFeatureName, security.NewCertificateSignedRequest(chain))
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
