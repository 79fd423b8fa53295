package ocpp16

import (
	"log/slog"
	"net/http"
	"time"

	"chargeops/internal/fleet"
)

// Security profiles at the handshake (docs/security-profiles.md): what a known device's
// connection proves, against what the device demands.

// admit checks a known device's connection and answers a refusal itself (ok false). proven is
// the profile the connection showed: 3 a client certificate the charge-point CA issued to the
// SN, 2 the device's key over TLS, 1 its key over plain ws, 0 nothing. A connection proving
// more than the device demands is admitted: the charger has moved up (admitted then raises
// the recorded profile); one proving less is refused. A certificate that does not hold is
// refused with its reason at profile 3 and ignored below it.
func (g *Gateway) admit(w http.ResponseWriter, r *http.Request, dev *fleet.Device) (proven int, weakKey, ok bool) {
	required, reason := g.demand(dev)
	if reason != "" && reason != fleet.RefuseNoKey {
		g.refuse(w, r, dev.SN, reason, http.StatusUnauthorized)
		return 0, false, false
	}
	certified, certReason := g.clientCert(r, dev.SN)
	if certReason != "" {
		if required == fleet.ProfileCertificate {
			g.refuse(w, r, dev.SN, certReason, http.StatusUnauthorized)
			return 0, false, false
		}
		// Below profile 3 a certificate that does not hold proves nothing, and the key decides:
		// a charger may show a factory certificate whenever a server asks for one.
		slog.Info("ocpp client certificate ignored below profile 3", "sn", dev.SN, "reason", certReason)
	}
	// keys required (--require-device-keys): a client certificate stands in for a key
	if reason == fleet.RefuseNoKey && !certified {
		g.refuse(w, r, dev.SN, reason, http.StatusUnauthorized)
		return 0, false, false
	}
	switch {
	case certified:
		proven = fleet.ProfileCertificate
	case required == fleet.ProfileCertificate:
		// no certificate: a key does not stand in for it
		g.refuse(w, r, dev.SN, fleet.RefuseProfile, http.StatusUnauthorized)
		return 0, false, false
	case required > fleet.ProfileNone:
		if ok, weakKey = g.checkKey(w, r, dev); !ok {
			return 0, false, false
		}
		proven = fleet.ProfileKey
		if g.secure(r) {
			proven = fleet.ProfileKeyTLS
		}
	}
	if proven < required {
		g.refuse(w, r, dev.SN, fleet.RefuseProfile, http.StatusUnauthorized)
		return 0, false, false
	}
	return proven, weakKey, true
}

// admitted records that dev proved profile: above the recorded one (and at least TLS), the
// recorded profile is raised, so the charger cannot come back at the lower one. A charger
// never lowers its profile; an operator does, on the device's page.
func (g *Gateway) admitted(r *http.Request, dev *fleet.Device, proven int) {
	if proven < fleet.ProfileKeyTLS || proven <= dev.SecurityProfile {
		return
	}
	raised, err := g.fleet.RaiseSecurityProfile(r.Context(), dev.ID, proven)
	if err != nil {
		slog.Warn("ocpp security profile not raised", "sn", dev.SN, "profile", proven, "err", err)
		return
	}
	if raised {
		slog.Info("ocpp security profile raised", "sn", dev.SN, "from", dev.SecurityProfile, "to", proven)
		dev.SecurityProfile = proven
	}
}

// clientCert checks the TLS client certificate a request shows (on its own TLS connection, or
// passed on by a trusted proxy: proxycert.go): certified when the charge-point CA
// (Options.ClientCAs) issued it for client authentication to sn and it is valid now; a refusal
// reason when it shows one that does not hold; neither when it shows none.
func (g *Gateway) clientCert(r *http.Request, sn string) (certified bool, refusal string) {
	chain, _ := g.peerCertificates(r)
	if len(chain) == 0 {
		return false, ""
	}
	if g.opt.ClientCAs == nil {
		return false, fleet.RefuseCertUntrusted
	}
	certified, refusal, err := fleet.CheckClientCert(chain, g.opt.ClientCAs, sn, time.Now())
	if err != nil {
		slog.Info("ocpp client certificate refused", "sn", sn, "subject", chain[0].Subject.String(), "issuer", chain[0].Issuer.String(), "reason", refusal, "err", err)
	}
	return certified, refusal
}
