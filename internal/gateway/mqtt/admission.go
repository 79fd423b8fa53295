package mqtt

import (
	"context"
	"crypto/x509"
	"log/slog"
	"time"

	"chargeops/internal/device"
	"chargeops/internal/fleet"
)

// Admission judges a device's MQTT CONNECT on the embedded broker with the same rules as an
// OCPP handshake (docs/gateway.md, "Admission"; docs/mqtt.md, "Credentials and ACL"): the
// username is the SN; the password is the device's key, or a client certificate the
// charge-point CA issued to that SN stands in for it. Unknown SNs land on the pending list.
type Admission struct {
	Core fleet.Core
	// RequireKeys refuses a device without a key or certificate (--require-device-keys).
	RequireKeys bool
	// ClientCAs are the CAs a client certificate may chain to (nil: certificates prove nothing).
	ClientCAs *x509.CertPool
	// KeyBackoff is the first back-off after repeated wrong keys (--ocpp-key-backoff).
	KeyBackoff time.Duration
	Log        *slog.Logger
}

// Admit reports whether sn may connect with password (and the TLS client chain, if any) from addr.
func (a *Admission) Admit(ctx context.Context, sn string, password []byte, chain []*x509.Certificate, addr string) bool {
	if !device.ValidSN(sn) {
		return false
	}
	at := fleet.Attempt{SN: sn, Addr: addr, Protocol: "mqtt"}
	refuse := func(reason string) bool {
		a.Core.RecordRefusal(ctx, at, reason)
		a.Log.Info("mqtt connection refused", "sn", sn, "addr", addr, "reason", reason)
		return false
	}
	if black, err := a.Core.Blacklisted(ctx, sn); err != nil {
		a.Log.Warn("mqtt admission: blacklist", "sn", sn, "err", err)
		return false
	} else if black {
		return refuse(fleet.RefuseBlacklisted)
	}
	dev, err := a.Core.DeviceBySN(ctx, sn)
	if err != nil {
		a.Log.Warn("mqtt admission: device", "sn", sn, "err", err)
		return false
	}
	if dev == nil {
		return refuse(fleet.RefuseUnknown)
	}
	if !dev.Enabled {
		return refuse(fleet.RefuseDisabled)
	}
	certified, reason, cerr := fleet.CheckClientCert(chain, a.ClientCAs, sn, time.Now())
	if reason != "" {
		a.Log.Info("mqtt client certificate refused", "sn", sn, "reason", reason, "err", cerr)
		return refuse(reason)
	}
	if certified {
		return true
	}
	if dev.AuthKeyHash == "" {
		if a.RequireKeys {
			return refuse(fleet.RefuseNoKey)
		}
		return true
	}
	ka := fleet.KeyAttempt{SN: sn, Addr: addr, Backoff: a.KeyBackoff}
	check, err := a.Core.KeyBlocked(ctx, ka)
	if err != nil {
		a.Log.Warn("mqtt admission: key back-off", "sn", sn, "err", err)
		return false
	}
	if check.Wait > 0 {
		return refuse(fleet.RefuseKeyBackoff)
	}
	if !a.Core.CheckAuthKey(sn, string(password), dev.AuthKeyHash) {
		if _, err := a.Core.KeyFailed(ctx, ka); err != nil {
			a.Log.Warn("mqtt admission: key failure", "sn", sn, "err", err)
		}
		return refuse(fleet.RefuseWrongKey)
	}
	if check.SNFailures {
		if err := a.Core.KeyAccepted(ctx, sn); err != nil {
			a.Log.Warn("mqtt admission: key accepted", "sn", sn, "err", err)
		}
	}
	return true
}
