package agent

import (
	"slices"
	"strconv"
	"sync"
	"time"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
)

// alarmState turns each read's active alarm codes into reports of what was raised and
// cleared, kept (in memory) until chargeops acks them. Reports go one at a time, in order: a
// clear resent ahead of its raise would leave the alarm open in chargeops. After each
// connection one Full report (every active alarm) replaces whatever was pending, since it says
// all they would have.
type alarmState struct {
	mu       sync.Mutex
	idPrefix string
	n        int
	known    bool            // a read has succeeded: active is the unit's
	active   map[string]bool // codes active at the last read
	needFull bool            // connected before any read: the first read sends the Full report
	pending  []*alarmMsg     // oldest first; only the first is in flight
}

type alarmMsg struct {
	report mqttwire.AlarmReport
	sent   time.Time // zero: not sent on this connection
}

// observe takes one read's alarm codes (invalid ones are left out: chargeops would refuse the
// whole report for one of them); it reports whether a report was queued.
func (s *alarmState) observe(codes []string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := make(map[string]bool, len(codes))
	for _, c := range codes {
		if ess.ValidAlarmCode(c) {
			cur[c] = true
		}
	}
	prev, known := s.active, s.known
	s.active, s.known = cur, true
	if s.needFull {
		s.queueFull(now)
		return true
	}
	if !known {
		return false // the Full report of the next connection covers the first read
	}
	var diff []mqttwire.Alarm
	for _, c := range sortedKeys(cur) {
		if !prev[c] {
			diff = append(diff, mqttwire.Alarm{Code: c, Active: true})
		}
	}
	for _, c := range sortedKeys(prev) {
		if !cur[c] {
			diff = append(diff, mqttwire.Alarm{Code: c, Active: false})
		}
	}
	if len(diff) == 0 {
		return false
	}
	s.pending = append(s.pending, &alarmMsg{report: mqttwire.AlarmReport{ID: s.nextID(), TS: now.UnixMilli(), Alarms: diff}})
	return true
}

// connected replaces the pending reports with a Full one (once a read has told what is active).
func (s *alarmState) connected(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.needFull = true
	if s.known {
		s.queueFull(now)
	}
}

// queueFull: callers hold mu.
func (s *alarmState) queueFull(now time.Time) {
	alarms := []mqttwire.Alarm{}
	for _, c := range sortedKeys(s.active) {
		alarms = append(alarms, mqttwire.Alarm{Code: c, Active: true})
	}
	s.pending = []*alarmMsg{{report: mqttwire.AlarmReport{ID: s.nextID(), TS: now.UnixMilli(), Full: true, Alarms: alarms}}}
	s.needFull = false
}

// due returns the report to send now, if any: the oldest, when it was not sent on this
// connection or its ack is overdue.
func (s *alarmState) due(now time.Time, ackTimeout time.Duration) (mqttwire.AlarmReport, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return mqttwire.AlarmReport{}, false
	}
	m := s.pending[0]
	if !m.sent.IsZero() && now.Sub(m.sent) < ackTimeout {
		return mqttwire.AlarmReport{}, false
	}
	m.sent = now
	return m.report, true
}

// unsent marks the report in flight as not sent, after a publish failed or the connection went.
func (s *alarmState) unsent() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) > 0 {
		s.pending[0].sent = time.Time{}
	}
}

// ack removes the report with the ack's id; ok is false when no pending report has it (a
// telemetry ack, or a late one).
func (s *alarmState) ack(id string) (ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.pending, func(m *alarmMsg) bool { return m.report.ID == id })
	if i < 0 {
		return false
	}
	s.pending = slices.Delete(s.pending, i, i+1)
	return true
}

// isAlarmID tells an alarm report's id from a telemetry message's.
func (s *alarmState) isAlarmID(id string) bool {
	return len(id) > len(s.idPrefix) && id[:len(s.idPrefix)] == s.idPrefix
}

// nextID: callers hold mu.
func (s *alarmState) nextID() string {
	s.n++
	return s.idPrefix + strconv.Itoa(s.n)
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func formatMillis(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
