package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// changes records the event changes a service announces.
type changes struct {
	mu  sync.Mutex
	all []fleet.EventChange
}

func (c *changes) add(e fleet.EventChange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all = append(c.all, e)
}

// await waits (10 s at most) for an announced change of device and code, open or ended.
func (c *changes) await(t *testing.T, device int64, code string, open bool) fleet.EventChange {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		for _, e := range c.all {
			if e.DeviceID == device && e.Code == code && e.Open == open {
				c.mu.Unlock()
				return e
			}
		}
		c.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s change (open %v) announced for device %d", code, open, device)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// secWorld is a fleet service with customer A's and B's devices and a listener of its events.
type secWorld struct {
	ctx     context.Context
	d       *db.DB
	s       *fleet.Service
	o       fleettest.Org
	changes *changes
}

func newSecWorld(t *testing.T, d *db.DB) *secWorld {
	t.Helper()
	ctx := context.Background()
	s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Node: "sec"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	w := &secWorld{ctx: ctx, d: d, s: s, o: fleettest.Seed(t, d), changes: &changes{}}
	s.OnEvents(w.changes.add)
	return w
}

func (w *secWorld) device(t *testing.T, customer, site int64, sn string) *fleet.Device {
	t.Helper()
	id := fleettest.Device(t, w.d, w.o, customer, site, sn)
	dev, err := w.s.DeviceByID(w.ctx, id)
	if err != nil || dev == nil {
		t.Fatalf("device %s: %v", sn, err)
	}
	return dev
}

// alarms are a device's events of a code: how many are open and how many in all.
func (w *secWorld) alarms(t *testing.T, device int64, code string) (open, all int) {
	t.Helper()
	if err := w.d.QueryRow(w.ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = ? THEN 1 ELSE 0 END), 0) FROM device_event WHERE device_id = ? AND code = ?`,
		fleet.EventOpen, device, code).Scan(&all, &open); err != nil {
		t.Fatal(err)
	}
	return open, all
}

func (w *secWorld) alarmStatus(t *testing.T, device int64) int {
	t.Helper()
	var a int
	if err := w.d.QueryRow(w.ctx, `SELECT alarm_status FROM device WHERE id = ?`, device).Scan(&a); err != nil {
		t.Fatal(err)
	}
	return a
}

// securityIDs are a device's security events of a type, oldest first, with the alarm each names.
func (w *secWorld) securityIDs(t *testing.T, device int64, typ string) (ids, alarms []int64) {
	t.Helper()
	rows, err := w.d.Query(w.ctx, `SELECT id, event_id FROM device_security_event WHERE device_id = ? AND type = ? ORDER BY id`, device, typ)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, alarm int64
		if err := rows.Scan(&id, &alarm); err != nil {
			t.Fatal(err)
		}
		ids, alarms = append(ids, id), append(alarms, alarm)
	}
	return ids, alarms
}

func (w *secWorld) send(t *testing.T, dev *fleet.Device, typ string, critical bool, info string) {
	t.Helper()
	if err := w.s.SecurityEvent(w.ctx, fleet.SecurityEventReport{Device: dev, Type: typ, TechInfo: info, Critical: critical,
		At: time.Now().Add(-time.Minute).UnixMilli()}); err != nil {
		t.Fatal(err)
	}
}

func (w *secWorld) status(t *testing.T, dev *fleet.Device, pr fleet.Problem) {
	t.Helper()
	st, state := "Available", fleet.ConnectorIdle
	if pr.Kind != 0 {
		st, state = "Faulted", fleet.ConnectorFaulted
	}
	if err := w.s.ConnectorStatus(w.ctx, fleet.ConnectorReport{Device: dev, Connector: 0, Status: st, ErrorCode: pr.Code, Problem: pr, State: state}); err != nil {
		t.Fatal(err)
	}
}

// Security events (docs/security-profiles.md, "Security events"): every event is stored; a
// critical one opens a CA alarm that its repeats join, that status reports do not end and
// that an acknowledgement in scope ends.
func TestSecurityEventAlarms(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSecWorld(t, d)
		sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
		devA := w.device(t, w.o.CustomerA, w.o.SiteA, "SEC-A-"+sfx)
		const tamper = "security.TamperDetectionActivated"

		t.Run("a critical and a non-critical event are both stored; one CA alarm opens and is announced", func(t *testing.T) {
			w.send(t, devA, "TamperDetectionActivated", true, "lid opened")
			w.send(t, devA, "InvalidMessages", false, "3 frames")
			if open, all := w.alarms(t, devA.ID, tamper); open != 1 || all != 1 {
				t.Fatalf("tamper alarms: %d open of %d", open, all)
			}
			var level, source, connector int
			var info string
			if err := d.QueryRow(w.ctx, `SELECT level, source, connector_id, info FROM device_event WHERE device_id = ? AND code = ?`, devA.ID, tamper).
				Scan(&level, &source, &connector, &info); err != nil {
				t.Fatal(err)
			}
			if level != fleet.LevelCA || source != fleet.SourceSecurity || connector != 0 || info != "lid opened" {
				t.Errorf("alarm level %d source %d connector %d info %q", level, source, connector, info)
			}
			if _, alarms := w.securityIDs(t, devA.ID, "InvalidMessages"); len(alarms) != 1 || alarms[0] != 0 {
				t.Errorf("the non-critical event: %v (want stored, no alarm)", alarms)
			}
			if n, _ := w.alarms(t, devA.ID, "security.InvalidMessages"); n != 0 {
				t.Error("a non-critical event opened an alarm")
			}
			if a := w.alarmStatus(t, devA.ID); a != fleet.AlarmAlarm {
				t.Errorf("alarm status %d, want %d", a, fleet.AlarmAlarm)
			}
			if e := w.changes.await(t, devA.ID, tamper, true); e.Level != fleet.LevelCA || e.Kind != fleet.KindAlarm {
				t.Errorf("announced %+v", e)
			}
		})

		t.Run("a repeat while the alarm is open is stored and joins it: no second alarm", func(t *testing.T) {
			w.send(t, devA, "TamperDetectionActivated", true, "lid opened again")
			if open, all := w.alarms(t, devA.ID, tamper); open != 1 || all != 1 {
				t.Fatalf("tamper alarms: %d open of %d", open, all)
			}
			ids, alarms := w.securityIDs(t, devA.ID, "TamperDetectionActivated")
			if len(ids) != 2 || alarms[0] == 0 || alarms[0] != alarms[1] {
				t.Fatalf("tamper events %v name alarms %v, want both the one open", ids, alarms)
			}
		})

		t.Run("a connector-0 status report, with or without a problem, does not end it", func(t *testing.T) {
			w.status(t, devA, fleet.Problem{Kind: fleet.KindFault, Level: fleet.LevelMA, Code: "GroundFailure", Name: "GroundFailure"})
			w.status(t, devA, fleet.Problem{})
			if open, _ := w.alarms(t, devA.ID, tamper); open != 1 {
				t.Fatal("the status reports ended the security alarm")
			}
			if open, all := w.alarms(t, devA.ID, "GroundFailure"); open != 0 || all != 1 {
				t.Errorf("the fault: %d open of %d (want opened and ended by the reports)", open, all)
			}
			if a := w.alarmStatus(t, devA.ID); a != fleet.AlarmAlarm {
				t.Errorf("alarm status %d, want %d", a, fleet.AlarmAlarm)
			}
		})

		ids, _ := w.securityIDs(t, devA.ID, "TamperDetectionActivated")
		customerB := &access.Principal{UserID: 2, Scope: access.Scope{CustomerIDs: []int64{w.o.CustomerB}, AllSites: true}}
		customerA := &access.Principal{UserID: 1, Scope: access.Scope{CustomerIDs: []int64{w.o.CustomerA}, AllSites: true}}

		t.Run("an acknowledgement naming an event outside the caller's scope is not found and ends nothing", func(t *testing.T) {
			if _, err := w.s.AckSecurityEvents(w.ctx, customerB, ids[:1]); !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("customer B acknowledges A's event: %v, want not found", err)
			}
			devB := w.device(t, w.o.CustomerB, w.o.SiteB, "SEC-B-"+sfx)
			w.send(t, devB, "InvalidMessages", false, "")
			idsB, _ := w.securityIDs(t, devB.ID, "InvalidMessages")
			if _, err := w.s.AckSecurityEvents(w.ctx, customerB, append(idsB, ids[0])); !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("a batch with one event out of scope: %v, want not found", err)
			}
			if open, _ := w.alarms(t, devA.ID, tamper); open != 1 {
				t.Fatal("a refused acknowledgement ended the alarm")
			}
		})

		t.Run("an acknowledgement in scope ends the alarm, announces it and recomputes the alarm status", func(t *testing.T) {
			n, err := w.s.AckSecurityEvents(w.ctx, customerA, ids[1:]) // the repeat's id ends the alarm it joined
			if err != nil || n != 1 {
				t.Fatalf("ack: %d ended, %v", n, err)
			}
			if open, all := w.alarms(t, devA.ID, tamper); open != 0 || all != 1 {
				t.Fatalf("tamper alarms after the ack: %d open of %d", open, all)
			}
			if a := w.alarmStatus(t, devA.ID); a != fleet.AlarmNone {
				t.Errorf("alarm status %d, want %d", a, fleet.AlarmNone)
			}
			w.changes.await(t, devA.ID, tamper, false)
			if n, err := w.s.AckSecurityEvents(w.ctx, customerA, ids); err != nil || n != 0 {
				t.Errorf("acknowledging again: %d ended, %v (want none, no error)", n, err)
			}
		})

		t.Run("the type again after the acknowledgement opens a new alarm", func(t *testing.T) {
			w.send(t, devA, "TamperDetectionActivated", true, "lid opened a third time")
			if open, all := w.alarms(t, devA.ID, tamper); open != 1 || all != 2 {
				t.Fatalf("tamper alarms: %d open of %d", open, all)
			}
		})

		t.Run("a reboot after a console Reset names the command and opens no alarm; without one it alarms", func(t *testing.T) {
			explained := w.device(t, w.o.CustomerA, w.o.SiteA, "SEC-RESET-"+sfx)
			unexplained := w.device(t, w.o.CustomerA, w.o.SiteA, "SEC-BOOT-"+sfx)
			cmd, err := db.InsertID(w.ctx, d, `INSERT INTO command (device_id, sn, control_type, result, created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?)`,
				explained.ID, explained.SN, fleet.CtlSoftReset, fleet.ResultSuccess, time.Now().Add(-5*time.Minute).UnixMilli(), time.Now().Add(-5*time.Minute).UnixMilli())
			if err != nil {
				t.Fatal(err)
			}
			for _, dev := range []*fleet.Device{explained, unexplained} {
				if err := w.s.SecurityEvent(w.ctx, fleet.SecurityEventReport{Device: dev, Type: "StartupOfTheDevice", Critical: true,
					ExplainedBy: []int{fleet.CtlSoftReset, fleet.CtlHardReset}, At: time.Now().UnixMilli()}); err != nil {
					t.Fatal(err)
				}
			}
			var command, alarm int64
			if err := d.QueryRow(w.ctx, `SELECT command_id, event_id FROM device_security_event WHERE device_id = ?`, explained.ID).Scan(&command, &alarm); err != nil {
				t.Fatal(err)
			}
			if command != cmd || alarm != 0 {
				t.Fatalf("after the Reset: command %d (want %d), alarm %d (want none)", command, cmd, alarm)
			}
			if open, _ := w.alarms(t, explained.ID, "security.StartupOfTheDevice"); open != 0 {
				t.Fatal("an explained reboot opened an alarm")
			}
			if open, _ := w.alarms(t, unexplained.ID, "security.StartupOfTheDevice"); open != 1 {
				t.Fatal("a reboot nobody asked for opened no alarm")
			}
		})

		t.Run("an empty acknowledgement is invalid", func(t *testing.T) {
			if _, err := w.s.AckSecurityEvents(w.ctx, customerA, nil); err == nil {
				t.Fatal("no ids accepted")
			}
		})
	})
}

// The certificate-expiry check (docs/security-profiles.md, "Security events"): a device whose
// newest installed certificate ends within 30 days has one MA alarm, kept by status reports and
// by a second check, ended once a renewed certificate is installed.
func TestCertificateExpiryAlarm(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSecWorld(t, d)
		sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
		day := 24 * time.Hour
		cert := func(t *testing.T, dev int64, serial string, ends time.Duration, state int) {
			t.Helper()
			now := time.Now()
			if _, err := d.Exec(w.ctx, `INSERT INTO device_certificate (device_id, serial, subject, issuer, not_before, not_after, fingerprint, state, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev, serial, "CN=x", "CN=ca", now.Add(-300*day).UnixMilli(), now.Add(ends).UnixMilli(), serial, state,
				now.UnixMilli(), now.UnixMilli()); err != nil {
				t.Fatal(err)
			}
		}
		check := func(t *testing.T) fleet.CertificateExpiry {
			t.Helper()
			r, err := w.s.CheckCertificateExpiry(w.ctx)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		expiring := w.device(t, w.o.CustomerA, w.o.SiteA, "EXP-1-"+sfx)
		expired := w.device(t, w.o.CustomerA, w.o.SiteA, "EXP-2-"+sfx)
		fine := w.device(t, w.o.CustomerB, w.o.SiteB, "EXP-3-"+sfx)
		cert(t, expiring.ID, "AA01", 10*day, fleet.CertInstalled)
		cert(t, expiring.ID, "AA02", 400*day, fleet.CertRejected) // not installed: does not count
		cert(t, expired.ID, "BB01", -day, fleet.CertInstalled)
		cert(t, fine.ID, "CC01", 10*day, fleet.CertInstalled)
		cert(t, fine.ID, "CC02", 200*day, fleet.CertInstalled) // its newest installed one
		code := fleet.CertificateExpiringCode

		t.Run("expiring and expired certificates open an MA alarm each; a valid newest one none", func(t *testing.T) {
			check(t)
			for _, dev := range []*fleet.Device{expiring, expired} {
				if open, all := w.alarms(t, dev.ID, code); open != 1 || all != 1 {
					t.Errorf("%s: %d open of %d", dev.SN, open, all)
				}
				if a := w.alarmStatus(t, dev.ID); a != fleet.AlarmAlarm {
					t.Errorf("%s: alarm status %d", dev.SN, a)
				}
			}
			var level, source int
			var info string
			if err := d.QueryRow(w.ctx, `SELECT level, source, info FROM device_event WHERE device_id = ? AND code = ?`, expiring.ID, code).Scan(&level, &source, &info); err != nil {
				t.Fatal(err)
			}
			if level != fleet.LevelMA || source != fleet.SourceCertificate || info == "" {
				t.Errorf("level %d source %d info %q", level, source, info)
			}
			if _, all := w.alarms(t, fine.ID, code); all != 0 {
				t.Errorf("%s has a valid newest certificate but an alarm", fine.SN)
			}
			w.changes.await(t, expiring.ID, code, true)
		})

		t.Run("a second check and a status report change nothing", func(t *testing.T) {
			r := check(t)
			w.status(t, expiring, fleet.Problem{})
			if open, all := w.alarms(t, expiring.ID, code); open != 1 || all != 1 {
				t.Errorf("%d open of %d after the second check (it opened %d)", open, all, r.Opened)
			}
		})

		t.Run("a renewed certificate ends the alarm", func(t *testing.T) {
			cert(t, expiring.ID, "AA03", 365*day, fleet.CertInstalled)
			if r := check(t); r.Ended < 1 {
				t.Errorf("check ended %d", r.Ended)
			}
			if open, all := w.alarms(t, expiring.ID, code); open != 0 || all != 1 {
				t.Errorf("%d open of %d after the renewal", open, all)
			}
			if a := w.alarmStatus(t, expiring.ID); a != fleet.AlarmNone {
				t.Errorf("alarm status %d after the renewal", a)
			}
			if open, _ := w.alarms(t, expired.ID, code); open != 1 {
				t.Error("the other device's alarm ended too")
			}
			w.changes.await(t, expiring.ID, code, false)
		})
	})
}

// The retention of security events (docs/logs.md, "Retention"): old ones go, except those whose
// alarm is still open; recent ones stay.
func TestPurgeSecurityEvents(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		w := newSecWorld(t, d)
		dev := w.device(t, w.o.CustomerA, w.o.SiteA, fmt.Sprint("PURGE-", time.Now().UnixNano()%1e9))
		old := time.Now().Add(-10 * 24 * time.Hour).UnixMilli()
		alarm := func(status int) int64 {
			id, err := db.InsertID(w.ctx, d, `INSERT INTO device_event (device_id, customer_id, site_id, kind, level, code, name, source, status, started_at, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, dev.ID, dev.CustomerID, dev.SiteID, fleet.KindAlarm, fleet.LevelCA, "security.X", "X", fleet.SourceSecurity, status, old, old)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		add := func(typ string, created, event int64) {
			if _, err := d.Exec(w.ctx, `INSERT INTO device_security_event (device_id, customer_id, site_id, type, tech_info, critical, occurred_at, created_at, event_id)
				VALUES (?, ?, ?, ?, '', 0, ?, ?, ?)`, dev.ID, dev.CustomerID, dev.SiteID, typ, created, created, event); err != nil {
				t.Fatal(err)
			}
		}
		add("OldPlain", old, 0)
		add("OldEnded", old, alarm(fleet.EventEnded))
		add("OldOpen", old, alarm(fleet.EventOpen))
		add("Recent", time.Now().UnixMilli(), 0)
		n, err := fleet.PurgeSecurityEvents(w.ctx, d, 5)
		if err != nil || n != 2 {
			t.Fatalf("purged %d, %v; want the two old ones without an open alarm", n, err)
		}
		left, err := db.Column[string](w.ctx, d, `SELECT type FROM device_security_event WHERE device_id = ? ORDER BY type`, dev.ID)
		if err != nil || fmt.Sprint(left) != "[OldOpen Recent]" {
			t.Fatalf("left %v, %v", left, err)
		}
		if n, err := fleet.PurgeSecurityEvents(w.ctx, d, 0); err != nil || n != 0 {
			t.Fatalf("0 days purged %d, %v", n, err)
		}
	})
}
