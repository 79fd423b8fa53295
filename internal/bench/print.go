package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Print writes the report as a table for people.
func (r *Report) Print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	fl := r.Fleet
	c := fl.Connect
	row("target", "%s, OCPP %s (%d process(es), open-file limit %d)", r.Target, r.Protocol, r.Procs, r.FileLimit)
	row("connections held", "%d of %d chargers booted (%d failed)", c.Connected, c.Chargers, c.Failed)
	row("connect rate", "%.0f/s (%.2f s for all)", c.Rate, c.Seconds)
	if len(c.Refusals) > 0 {
		row("connect refusals", "%s", counts(c.Refusals))
	}
	if c.ClientHeld > 0 {
		row("bench memory", "%s heap+stack after GC (%s from the OS) holding %d chargers", bytesIEC(float64(c.ClientHeld)), bytesIEC(float64(c.ClientSys)), c.Connected)
	}
	if b := fl.Calls["BootNotification"]; b != nil {
		row("boot RTT", "%s", latency(b.RTT))
	}
	if s := r.Server; s != nil {
		if s.Connected.Sys > 0 {
			row("server memory", "%s per connection (heap+stack after GC: %s → %s; +%.2f goroutines per connection)",
				bytesIEC(s.BytesPerConnection), bytesIEC(float64(s.Before.Held())), bytesIEC(float64(s.Connected.Held())), s.GoroutinesPerConnection)
		}
		if s.Connections >= 0 {
			row("server connections", "%.0f with the fleet connected", s.Connections)
		}
	}
	if l := fl.Load; l != nil {
		row("messages/s", "offered %.0f/s for %.0f s, achieved %.1f/s (answered %d of %d sent, %d scheduled)",
			l.OfferedRate, l.Seconds, l.Achieved, l.Answered, l.Sent, l.Scheduled)
		msg := l.Message
		if msg == "" {
			msg = "MeterValues"
		}
		row("message RTT", "%s %s", msg, latency(l.RTT))
		row("load errors", "%d CALLERROR, %d timeouts, %d not sent, %d connections lost", l.CallErrors, l.Timeouts, l.SendErrors, l.Drops)
		row("schedule", "%d late (> %s behind), lag %s; %d sent before the previous answer", l.Late, LateAfter, latency(l.Lag), l.BusySends)
	}
	fr := fl.Frames
	row("frames", "%d sent + %d received = %d over %d connections (%d lost unasked, %d late answers)",
		fr.Sent, fr.Received, fr.Sent+fr.Received, fr.Connections, fr.Drops, fr.LateAnswers)
	if s := r.Server; s != nil {
		if s.LogRows >= 0 {
			row("protocol-log rows", "%d written; frames + an open and a close per connection = %d (%s)", s.LogRows, s.LogRowsExpected, logVerdict(s))
		} else {
			row("protocol-log rows", "not exposed by the server")
		}
	}
	if cm := r.Commands; cm != nil {
		if cm.Idle != nil {
			row("command RTT idle", "%s; %s", latency(cm.Idle.RTT), counts(cm.Idle.Outcomes))
		}
		if cm.Load != nil {
			row("command RTT loaded", "%s; %s", latency(cm.Load.RTT), counts(cm.Load.Outcomes))
		}
	}
	if s := fl.Storm; s != nil {
		row("storm", "%d dropped (%s), %d back in %.2f s (per charger %s), %d stuck", s.Dropped, s.Drop, s.Recovered, s.Seconds, latency(s.Recovery), s.Stuck)
		if len(s.Refusals) > 0 {
			row("storm refusals", "%s", counts(s.Refusals))
		}
		if len(s.StuckReasons) > 0 {
			row("stuck because", "%s", counts(s.StuckReasons))
		}
	}
	if p := r.DeviceList; p != nil {
		row("device list in load", "%d lists, %d failed, %s", p.Count, p.Failed, latency(p.RTT))
	}
	if p := r.Console; p != nil {
		row("console in storm", "%d probes, %d failed, %s", p.Count, p.Failed, latency(p.RTT))
	}
	for _, p := range r.Problems {
		row("not measured", "%s", p)
	}
	_ = tw.Flush()
}

func logVerdict(s *ServerFigures) string {
	switch {
	case s.LogRows == s.LogRowsExpected:
		return "every frame logged"
	case s.LogRows > s.LogRowsExpected:
		return fmt.Sprintf("%d more: frames of refused or earlier connections", s.LogRows-s.LogRowsExpected)
	}
	return fmt.Sprintf("%d MISSING", s.LogRowsExpected-s.LogRows)
}

// latency is "p50 … p99 … max … (n)".
func latency(h *Histogram) string {
	if h == nil || h.Count() == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s  p99 %s  max %s  (n=%d)", dur(h.Quantile(0.5)), dur(h.Quantile(0.99)), dur(h.Max()), h.Count())
}

func dur(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

func counts(m map[string]int64) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func bytesIEC(b float64) string {
	neg := ""
	if b < 0 {
		neg, b = "-", -b
	}
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%s%.2f GiB", neg, b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%s%.1f MiB", neg, b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%s%.1f KiB", neg, b/(1<<10))
	}
	return fmt.Sprintf("%s%.0f B", neg, b)
}
