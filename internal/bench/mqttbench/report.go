package mqttbench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// Print writes the results side by side, one column per server.
func Print(w io.Writer, rs []*Result) {
	if len(rs) == 0 {
		return
	}
	l0 := rs[0].Load
	if l0 != nil {
		fmt.Fprintf(w, "%d storage units, one telemetry message (%d reading(s) of %d values) each %s for %s: %.0f msg/s offered\n",
			l0.Units, l0.ReadingsPerMessage, ValuesPerReading, l0.Interval, l0.Duration, float64(l0.Units)/l0.Interval.Seconds())
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(name string, f func(r *Result) string) {
		cells := []string{name}
		for _, r := range rs {
			if r.Load == nil {
				cells = append(cells, "—")
				continue
			}
			cells = append(cells, f(r))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	// srow is a row of the server's own figures (none when the load ran against a running broker)
	srow := func(name string, f func(r *Result) string) {
		row(name, func(r *Result) string {
			if r.Server == "" {
				return "—"
			}
			return f(r)
		})
	}
	row("figure", func(r *Result) string { return label(r.Target) })
	row("connected / connect time / rate", func(r *Result) string {
		c := r.Connect
		return fmt.Sprintf("%d / %s / %.0f/s", c.Connected, c.Took.Round(time.Millisecond), c.Rate)
	})
	row("connect p50 / p99 (dial → birth PUBACK)", func(r *Result) string {
		return fmt.Sprintf("%s / %s", dur(r.Connect.Time.Quantile(0.5)), dur(r.Connect.Time.Quantile(0.99)))
	})
	row("connect failures", func(r *Result) string {
		if len(r.Connect.Failures) == 0 {
			return "0"
		}
		return strings.Join(r.Connect.SortedFailures(), ", ")
	})
	srow("births handled (node settled) after", func(r *Result) string {
		if r.Target == TargetBare {
			return "—"
		}
		return r.SettleTook.Round(time.Millisecond).String()
	})
	row("messages offered / published / acked", func(r *Result) string {
		return fmt.Sprintf("%d / %d / %d", r.Load.Offered, r.Load.Published, r.Load.Acked)
	})
	row("achieved msg/s", func(r *Result) string { return fmt.Sprintf("%.1f", r.Load.Achieved) })
	row("ack p50 / p95 / p99 / max", func(r *Result) string {
		h := r.Load.Ack
		return fmt.Sprintf("%s / %s / %s / %s", dur(h.Quantile(0.5)), dur(h.Quantile(0.95)), dur(h.Quantile(0.99)), dur(h.Max()))
	})
	row("PUBACK p50 / p99", func(r *Result) string {
		return fmt.Sprintf("%s / %s", dur(r.Load.Puback.Quantile(0.5)), dur(r.Load.Puback.Quantile(0.99)))
	})
	row("nacked, refused, missing, errors, lost", func(r *Result) string {
		l := r.Load
		return fmt.Sprintf("%d, %d, %d, %d, %d", l.Nacked, l.Refused, l.Missing, l.PublishErrors, l.Lost)
	})
	row("late sends (> 50 ms) / lag p99", func(r *Result) string {
		return fmt.Sprintf("%d / %s", r.Load.Late, dur(r.Load.Lag.Quantile(0.99)))
	})
	srow("load average before", func(r *Result) string { return fmt.Sprintf("%.2f", r.LoadAvg) })
	srow("server CPU-s: connect / load", func(r *Result) string {
		return fmt.Sprintf("%.1f / %.1f", r.ConnectCPU.Server, r.LoadCPU.Server)
	})
	srow("load CPU-s: server / bench / postgres / machine (in s)", func(r *Result) string {
		c := r.LoadCPU
		return fmt.Sprintf("%.1f / %.1f / %.1f / %.1f (%.1f s)", c.Server, c.Bench, c.Postgres, c.Machine, c.Seconds)
	})
	srow("server RSS: start / connected / max", func(r *Result) string {
		return fmt.Sprintf("%s / %s / %s", mib(r.RSSStart), mib(r.RSSConnected), mib(r.RSSMax))
	})
	srow("server RSS per connected unit", func(r *Result) string {
		if r.Connect.Connected == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f KiB", float64(r.RSSConnected-r.RSSStart)/1024/float64(r.Connect.Connected))
	})
	srow("ingest: batches / commit s / blocked", func(r *Result) string {
		if r.Ingest == nil {
			return "—"
		}
		return fmt.Sprintf("%.0f / %.1f / %.0f", r.Ingest[metricBatches], r.Ingest[metricCommitSecs], r.Ingest[metricBlocked])
	})
	srow("stored: Battery.SoC points = acked × readings", func(r *Result) string {
		if r.Stored == nil {
			return "not stored"
		}
		return fmt.Sprintf("%d = %d", r.Stored.SeriesSoC, r.Load.Acked*int64(r.Load.ReadingsPerMessage))
	})
	srow("stored: all points = acked × readings × 13", func(r *Result) string {
		if r.Stored == nil {
			return "—"
		}
		return fmt.Sprintf("%d = %d", r.Stored.SeriesAll, r.Load.Acked*int64(r.Load.ReadingsPerMessage)*NumericValues)
	})
	srow("latest SoC: devices / newest acked", func(r *Result) string {
		if r.Stored == nil {
			return "—"
		}
		ok := "all"
		if r.Stored.RuntimeTSSum != r.Load.LastTSSum {
			ok = "NOT all"
		}
		return fmt.Sprintf("%d of %d, %s", r.Stored.RuntimeSoC, r.Load.AckedUnits, ok)
	})
	srow("protocol log: telemetry / acks", func(r *Result) string {
		if r.Stored == nil {
			return "—"
		}
		return fmt.Sprintf("%d / %d", r.Stored.LogTelemetry, r.Stored.LogAcks)
	})
	row("every reading kept", func(r *Result) string {
		if r.Kept {
			return "yes"
		}
		return "NO"
	})
	srow("server log WARN / ERROR", func(r *Result) string { return fmt.Sprintf("%d / %d", r.LogWarn, r.LogError) })
	srow("SIGTERM → exit", func(r *Result) string {
		if r.StopErr != "" {
			return r.StopErr
		}
		return r.StopFor.Round(time.Millisecond).String()
	})
	tw.Flush()
	for _, r := range rs {
		for _, m := range r.Remarks {
			fmt.Fprintf(w, "%s: %s\n", label(r.Target), m)
		}
		if r.LogSample != "" {
			fmt.Fprintf(w, "%s: first WARN/ERROR line: %.300s\n", label(r.Target), r.LogSample)
		}
		if r.Load != nil && r.Load.NackSample != "" {
			fmt.Fprintf(w, "%s: a refusal: %s\n", label(r.Target), r.Load.NackSample)
		}
		if r.Connect != nil && r.Connect.LastError != "" {
			fmt.Fprintf(w, "%s: last connect error: %s\n", label(r.Target), r.Connect.LastError)
		}
	}
}

func label(target string) string {
	switch target {
	case TargetBare:
		return "broker alone"
	case TargetSQLite:
		return "chargeops SQLite"
	case TargetPostgres:
		return "chargeops PostgreSQL"
	}
	return target
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
	default:
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
