package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/memstat"
)

// Metric names the bench reads from a node's /metrics (internal/httpapi/metrics.go; the bare
// server exposes the connection gauge and the Go collector's).
const (
	metricConnections = "chargeops_ocpp_connections"
	metricLogRows     = "chargeops_protocol_log_rows_written_total"
	metricQueue       = "chargeops_ingest_queue"
	metricWriting     = "chargeops_ingest_writing"
	metricGoroutines  = "go_goroutines"
)

// serverProbe reads a server's figures: /metrics (Prometheus text) and POST /debug/gc (the
// memory after a full collection, internal/bench/memstat), both behind the metrics guard:
// loopback, or the bearer token.
type serverProbe struct {
	metricsURL, gcURL, token string
	http                     *http.Client
}

// newServerProbe reads the server whose metrics are at metricsURL (…/metrics); its debug
// endpoint is …/debug/gc beside it.
func newServerProbe(metricsURL, token string) *serverProbe {
	base := strings.TrimSuffix(metricsURL, "/metrics")
	return &serverProbe{metricsURL: metricsURL, gcURL: base + "/debug/gc", token: token, http: &http.Client{Timeout: 60 * time.Second}}
}

func (p *serverProbe) do(ctx context.Context, method, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: HTTP %d %.200s", method, url, resp.StatusCode, body)
	}
	return body, nil
}

// scrape reads the unlabelled samples of /metrics.
func (p *serverProbe) scrape(ctx context.Context) (map[string]float64, error) {
	body, err := p.do(ctx, http.MethodGet, p.metricsURL)
	if err != nil {
		return nil, err
	}
	return parseMetrics(string(body)), nil
}

// gc asks the server to collect its garbage and answer its memory.
func (p *serverProbe) gc(ctx context.Context) (memstat.Snapshot, error) {
	var s memstat.Snapshot
	body, err := p.do(ctx, http.MethodPost, p.gcURL)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(body, &s); err != nil {
		return s, fmt.Errorf("POST %s: %w", p.gcURL, err)
	}
	return s, nil
}

// parseMetrics reads the Prometheus text format: name (with its labels, if any) → value.
func parseMetrics(text string) map[string]float64 {
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		name, rest := line, ""
		if i := strings.IndexByte(line, '}'); i >= 0 && strings.IndexByte(line, '{') < i {
			name, rest = line[:i+1], line[i+1:]
		} else if i := strings.IndexByte(line, ' '); i >= 0 {
			name, rest = line[:i], line[i:]
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		if v, err := strconv.ParseFloat(fields[0], 64); err == nil {
			out[name] = v
		}
	}
	return out
}

// waitSettled waits (at most limit) until the server holds no more connections than conns (the
// run's sockets are closed, so their close rows are queued), its ingest queue is empty, no batch
// is being filled or written, and its protocol-log row count has stopped moving, so that every
// frame of the run can be counted.
func (p *serverProbe) waitSettled(ctx context.Context, limit time.Duration, conns float64) (map[string]float64, error) {
	deadline := time.Now().Add(limit)
	var last map[string]float64
	for {
		m, err := p.scrape(ctx)
		if err != nil {
			return nil, err
		}
		if last != nil && m[metricConnections] <= conns && m[metricQueue] == 0 && m[metricWriting] == 0 && m[metricLogRows] == last[metricLogRows] {
			return m, nil
		}
		if time.Now().After(deadline) || !sleepCtx(ctx, 300*time.Millisecond) {
			return m, nil
		}
		last = m
	}
}
