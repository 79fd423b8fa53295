package agent

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/mqttwire"
)

// maxInFlight is how many telemetry messages wait for chargeops' ack at once: enough to keep
// a slow link busy, few enough that a resend after a lost ack repeats little.
const maxInFlight = 4

// window is the telemetry in flight on this connection: messages sent and not yet acked, in
// buffer order, and the next reading to send.
type window struct {
	next    uint64
	flights []*flight
}

type flight struct {
	id          string
	first, last uint64 // buffer sequence numbers of its first and last reading
	sent        time.Time
	done, ok    bool // acked (out of order: it waits for those before it), and how
}

// reset makes the window send again from the oldest unacknowledged reading.
func (w *window) reset(from uint64) {
	w.next = from
	w.flights = nil
}

func (w *window) find(id string) *flight {
	for _, f := range w.flights {
		if f.id == id {
			return f
		}
	}
	return nil
}

// send is the unit's only publisher of telemetry, alarms and births. It wakes on a new
// reading, an ack, a connection change, or a tick that checks for overdue acks.
func (u *unit) send(ctx context.Context) {
	tick := time.NewTicker(max(min(time.Second, u.opts.AckTimeout/4), 10*time.Millisecond))
	defer tick.Stop()
	var w window
	var handled uint64 // the connection the connect sequence ran for
	for {
		up, gen := u.connState()
		for _, a := range u.takeAcks() {
			u.onAck(a, &w)
		}
		switch {
		case !up:
			w.reset(0)
			u.alarms.unsent()
		case gen != handled:
			handled = gen
			u.onConnected(ctx)
			w.reset(u.buf.first())
		}
		if up {
			if u.birthStale.Load() {
				u.publishBirth(ctx)
			}
			u.resendOverdue(&w)
			u.fill(ctx, &w)
			u.sendAlarms(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-u.wake:
		case <-tick.C:
		}
	}
}

// fill sends buffered readings, in order, until the window is full or the buffer sent.
func (u *unit) fill(ctx context.Context, w *window) {
	topic := mqttwire.Topic(u.cfg.SN, mqttwire.KindTelemetry)
	for len(w.flights) < maxInFlight {
		w.next = max(w.next, u.buf.first()) // readings dropped over the size limit are skipped
		recs, err := u.buf.read(w.next, mqttwire.MaxReadings)
		if err != nil {
			u.log.Error("agent: read buffer", "err", err)
			return
		}
		if len(recs) == 0 {
			return
		}
		f := &flight{first: recs[0].seq, last: recs[len(recs)-1].seq, sent: time.Now()}
		f.id = telemetryID(u.cfg.SN, f.first, f.last)
		msg := mqttwire.Telemetry{ID: f.id, Readings: make([]mqttwire.Reading, 0, len(recs))}
		for _, r := range recs {
			var rd mqttwire.Reading
			if err := json.Unmarshal(r.data, &rd); err == nil { // checksummed on disk: cannot fail
				msg.Readings = append(msg.Readings, rd)
			}
		}
		w.flights = append(w.flights, f)
		w.next = f.last + 1
		if err := u.publish(ctx, topic, msg, false); err != nil {
			// sent again when its ack is overdue, or on the next connection
			u.log.Debug("agent: telemetry not published", "id", f.id, "err", err)
			return
		}
		u.published.Add(uint64(len(msg.Readings)))
	}
}

// resendOverdue starts over from the oldest unacknowledged reading when the oldest message's
// ack is overdue (lost on the way, or chargeops restarted): duplicates are harmless, chargeops
// ignores readings it has by their timestamp.
func (u *unit) resendOverdue(w *window) {
	if len(w.flights) == 0 || time.Since(w.flights[0].sent) < u.opts.AckTimeout {
		return
	}
	u.log.Warn("agent: no ack for telemetry; sending again", "id", w.flights[0].id)
	w.reset(u.buf.first())
}

// onAck settles the message an ack names: acked readings leave the buffer; refused ones too
// (ok:false means malformed, and sending it again will not help), counted as dropped.
func (u *unit) onAck(a mqttwire.Ack, w *window) {
	if u.alarms.isAlarmID(a.ID) {
		if !a.OK {
			u.log.Warn("agent: chargeops refused an alarm report; dropped", "id", a.ID, "err", a.Error)
		}
		if u.alarms.ack(a.ID) {
			u.poke() // the next report may go
		}
		return
	}
	first, last, ok := parseTelemetryID(u.cfg.SN, a.ID)
	if !ok {
		u.log.Debug("agent: ack of an unknown message ignored", "id", a.ID)
		return
	}
	if !a.OK {
		u.log.Warn("agent: chargeops refused telemetry; dropped", "id", a.ID, "err", a.Error, "readings", last-first+1)
	}
	if f := w.find(a.ID); f != nil {
		f.done, f.ok = true, a.OK
		for len(w.flights) > 0 && w.flights[0].done {
			u.settle(w.flights[0].last, w.flights[0].ok)
			w.flights = w.flights[1:]
		}
		return
	}
	// An ack of a message sent before a resend: its id still names its readings, and when
	// they are the oldest in the buffer they are settled.
	if oldest := u.buf.first(); first <= oldest && oldest <= last {
		u.settle(last, a.OK)
	}
}

// settle removes every reading up to last from the buffer.
func (u *unit) settle(last uint64, ok bool) {
	n, err := u.buf.ackTo(last + 1)
	if err != nil {
		u.log.Error("agent: buffer ack", "err", err)
	}
	if ok {
		u.acked.Add(uint64(n))
	} else {
		u.dropped.Add(uint64(n))
	}
}

// sendAlarms publishes the alarm report that is due.
func (u *unit) sendAlarms(ctx context.Context) {
	r, ok := u.alarms.due(time.Now(), u.opts.AckTimeout)
	if !ok {
		return
	}
	if err := u.publish(ctx, mqttwire.Topic(u.cfg.SN, mqttwire.KindAlarms), r, false); err != nil {
		u.log.Debug("agent: alarm report not published", "id", r.ID, "err", err)
		u.alarms.unsent()
	}
}

// telemetryID names a message by the unit and its buffer range: unique, and an ack of it says
// which readings are stored even after the window was reset.
func telemetryID(sn string, first, last uint64) string {
	return sn + "-" + strconv.FormatUint(first, 10) + "-" + strconv.FormatUint(last, 10)
}

func parseTelemetryID(sn, id string) (first, last uint64, ok bool) {
	rest, found := strings.CutPrefix(id, sn+"-")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rest, "-")
	if !found {
		return 0, 0, false
	}
	first, err1 := strconv.ParseUint(a, 10, 64)
	last, err2 := strconv.ParseUint(b, 10, 64)
	if err1 != nil || err2 != nil || last < first {
		return 0, 0, false
	}
	return first, last, true
}
