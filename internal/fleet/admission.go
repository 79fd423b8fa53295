package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"chargeops/internal/db"
)

// Refusal reasons.
const (
	RefuseBlacklisted = "blacklisted"
	RefuseWrongKey    = "wrong_key"
	RefuseNoKey       = "no_key" // the device has no key and --require-device-keys is set
	RefuseProfile     = "wrong_security_profile"
	// a client certificate (security profile 3) that does not hold: not issued by the
	// charge-point CA, outside its validity, or issued to another SN
	RefuseCertUntrusted = "certificate_untrusted"
	RefuseCertExpired   = "certificate_expired"
	RefuseCertIdentity  = "certificate_wrong_identity"
	RefuseUnknown       = "unknown_sn"
	RefuseDisabled      = "disabled"
	// RefuseProtocol: the charger offered no WebSocket sub-protocol the gateway speaks
	// (Attempt.Protocol lists what it offered)
	RefuseProtocol = "unsupported_protocol"
)

// Blacklisted reports whether sn is on the blacklist.
func (s *Service) Blacklisted(ctx context.Context, sn string) (bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_blacklist WHERE sn = ?`, sn).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("fleet: blacklisted: %w", err)
	}
	return n > 0, nil
}

// Attempt is a charger's connection attempt as the gateway saw it.
type Attempt struct {
	SN       string
	Addr     string // client address
	Protocol string // WebSocket sub-protocol (refused for RefuseProtocol: those offered, comma-separated)
}

// maxRefusalProtocols bounds the offered sub-protocols a refusal keeps (a header the charger writes).
const maxRefusalProtocols = 200

// RecordRefusal keeps a refused connection (counted per SN and reason); an unknown SN is also
// listed as a pending device. Rows are throttled per address and per SN (admissionLimiter).
func (s *Service) RecordRefusal(ctx context.Context, a Attempt, reason string) {
	n, ok := s.admit.allow(a.Addr, a.SN, "refusal|"+reason+"|"+a.SN)
	if !ok {
		return
	}
	now := db.NowMS()
	protocols := ""
	if reason == RefuseProtocol {
		protocols = truncate(a.Protocol, maxRefusalProtocols)
	}
	s.admissionRow(ctx, `INSERT INTO device_refusal (sn, reason, remote_addr, protocols, count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (sn, reason) DO UPDATE SET count = device_refusal.count + excluded.count, remote_addr = excluded.remote_addr, protocols = excluded.protocols,
		  last_seen = excluded.last_seen`,
		a.SN, reason, a.Addr, protocols, n, now, now)
	if reason == RefuseUnknown {
		s.writePending(ctx, a, BootInfo{}, n)
	}
}

// RecordPending lists an unknown SN as a pending device (with what its boot told, if it
// booted). Rows are throttled per address and per SN (admissionLimiter).
func (s *Service) RecordPending(ctx context.Context, a Attempt, b BootInfo) {
	key := "pending|" + a.SN
	if b != (BootInfo{}) {
		key = "boot|" + a.SN
	}
	if n, ok := s.admit.allow(a.Addr, a.SN, key); ok {
		s.writePending(ctx, a, b, n)
	}
}

func (s *Service) writePending(ctx context.Context, a Attempt, b BootInfo, count int64) {
	now := db.NowMS()
	s.admissionRow(ctx, `INSERT INTO device_pending (sn, remote_addr, protocol_version, vendor, model, firmware_version, count, first_seen, last_seen)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (sn) DO UPDATE SET count = device_pending.count + excluded.count, remote_addr = excluded.remote_addr, last_seen = excluded.last_seen,
		  protocol_version = CASE WHEN excluded.protocol_version <> '' THEN excluded.protocol_version ELSE device_pending.protocol_version END,
		  vendor = CASE WHEN excluded.vendor <> '' THEN excluded.vendor ELSE device_pending.vendor END,
		  model = CASE WHEN excluded.model <> '' THEN excluded.model ELSE device_pending.model END,
		  firmware_version = CASE WHEN excluded.firmware_version <> '' THEN excluded.firmware_version ELSE device_pending.firmware_version END`,
		a.SN, a.Addr, a.Protocol, b.Vendor, b.Model, b.FirmwareVersion, count, now, now)
}

// admissionRow writes a refusal or pending-device row through the ingest pipeline, like every
// row the gateway writes; the throttling above bounds how many there are.
func (s *Service) admissionRow(ctx context.Context, q string, args ...any) {
	if err := s.Ingest.Exec(ctx, q, args...); err != nil {
		slog.Warn("admission row not kept", "err", err)
	}
}

// Admission throttling (docs/gateway.md, "Admission"): within each window, one client address
// writes at most perAddr refusal/pending rows, one SN at most perSN, the node at most perNode.
// An attempt over a limit writes nothing; it is held (counted in memory) and added to the
// row's count at the row's next write, so counts stay right while a storm of made-up SNs
// from one address costs a bounded number of rows and writes.
const (
	admitWindow  = 10 * time.Second
	admitPerAddr = 20
	admitPerSN   = 5
	admitPerNode = 1000
	admitMaxKeys = 10000 // addresses, SNs and held rows tracked per window (bounded memory)
)

type admissionLimiter struct {
	mu      sync.Mutex
	window  time.Duration
	start   time.Time
	total   int
	addr    map[string]int
	sn      map[string]int
	held    map[string]int64 // row key → attempts not written yet
	dropped int64            // attempts neither written nor held (the held map was full)
}

func newAdmissionLimiter(window time.Duration) *admissionLimiter {
	return &admissionLimiter{window: window, addr: map[string]int{}, sn: map[string]int{}, held: map[string]int64{}}
}

// allow reports whether the row key may be written now and, if so, how many attempts the
// write counts (this one and those held since the last write).
func (l *admissionLimiter) allow(addr, sn, key string) (int64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.start) >= l.window {
		if l.dropped > 0 {
			slog.Warn("connection attempts not recorded (admission throttle)", "attempts", l.dropped)
		}
		l.start, l.total, l.dropped = now, 0, 0
		clear(l.addr)
		clear(l.sn)
	}
	_, knownAddr := l.addr[addr]
	_, knownSN := l.sn[sn]
	if l.total >= admitPerNode || l.addr[addr] >= admitPerAddr || l.sn[sn] >= admitPerSN ||
		(!knownAddr && len(l.addr) >= admitMaxKeys) || (!knownSN && len(l.sn) >= admitMaxKeys) {
		if _, ok := l.held[key]; ok || len(l.held) < admitMaxKeys {
			l.held[key]++
		} else {
			l.dropped++
		}
		return 0, false
	}
	l.total++
	l.addr[addr]++
	l.sn[sn]++
	n := 1 + l.held[key]
	delete(l.held, key)
	return n, true
}

// RaiseSecurityProfile records that device id proved profile, when that is above its recorded
// one: a charger moves its profile up, never down (OCPP 1.6 security whitepaper; only an
// operator lowers one). It reports whether the profile was raised.
func (s *Service) RaiseSecurityProfile(ctx context.Context, id int64, profile int) (bool, error) {
	res, err := s.db.Exec(ctx, `UPDATE device SET security_profile = ? WHERE id = ? AND security_profile < ?`, profile, id, profile)
	if err != nil {
		return false, fmt.Errorf("fleet: raise security profile: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("fleet: raise security profile: %w", err)
	}
	return n > 0, nil
}

// KeylessDevices counts the devices that --require-device-keys refuses: no key, and below
// security profile 3 (a client certificate stands in for a key).
func (s *Service) KeylessDevices(ctx context.Context) (int, error) {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device WHERE auth_key_hash = '' AND security_profile < ?`, ProfileCertificate).Scan(&n); err != nil {
		return 0, fmt.Errorf("fleet: keyless devices: %w", err)
	}
	return n, nil
}

// truncate keeps at most n bytes of s, never half a character (PostgreSQL refuses broken UTF-8).
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
