package fleet

import (
	"crypto/x509"
	"errors"
	"fmt"
	"time"
)

// CheckClientCert judges the client certificate chain a device showed (OCPP security profile 3,
// an MQTT client certificate): certified when one of roots (the charge-point CA and the trusted
// ones) issued the leaf for client authentication, it is valid at now, and its subject's common
// name is the device's SN (the security whitepaper's identity). Otherwise the refusal reason
// and why.
func CheckClientCert(chain []*x509.Certificate, roots *x509.CertPool, sn string, now time.Time) (certified bool, refusal string, err error) {
	if len(chain) == 0 {
		return false, "", nil
	}
	if roots == nil {
		return false, RefuseCertUntrusted, errors.New("no charge-point CA to check it against")
	}
	leaf := chain[0]
	intermediates := x509.NewCertPool()
	for _, c := range chain[1:] {
		intermediates.AddCert(c)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: intermediates, CurrentTime: now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		var invalid x509.CertificateInvalidError
		if errors.As(err, &invalid) && invalid.Reason == x509.Expired {
			return false, RefuseCertExpired, err
		}
		return false, RefuseCertUntrusted, err
	}
	if leaf.Subject.CommonName != sn {
		return false, RefuseCertIdentity, fmt.Errorf("the certificate names %q", leaf.Subject.CommonName)
	}
	return true, "", nil
}
