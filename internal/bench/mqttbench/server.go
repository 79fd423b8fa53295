package mqttbench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is the broker or node under test, a child process.
type server struct {
	cmd     *exec.Cmd
	log     *os.File
	logPath string
	exited  chan struct{}
	err     error // its exit, once exited is closed
}

// startServer runs argv with its output in logPath.
func startServer(argv []string, logPath string) (*server, error) {
	lf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = lf, lf
	// its own process group: a Ctrl-C of the bench reaches the bench, which stops it cleanly
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	s := &server{cmd: cmd, log: lf, logPath: logPath, exited: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		lf.Close()
		close(s.exited)
	}()
	return s, nil
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// waitReady waits until addr accepts TCP connections (and healthURL, if any, answers 200).
func (s *server) waitReady(ctx context.Context, addr, healthURL string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-s.exited:
			return fmt.Errorf("the server exited (%v): %s", s.err, s.tail(20))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			if healthURL == "" || httpOK(ctx, healthURL) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server did not listen on %s within %s: %s", addr, limit, s.tail(20))
		}
		if !sleepCtx(ctx, 100*time.Millisecond) {
			return ctx.Err()
		}
	}
}

// stop sends SIGTERM and waits (then SIGKILL after limit); the exit error of a clean stop is nil.
func (s *server) stop(limit time.Duration) (time.Duration, error) {
	start := time.Now()
	select {
	case <-s.exited:
		return 0, s.err
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		return time.Since(start), s.err
	case <-time.After(limit):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return time.Since(start), fmt.Errorf("no exit within %s of SIGTERM: killed", limit)
	}
}

// tail is the last n lines of the server's output.
func (s *server) tail(n int) string {
	raw, err := os.ReadFile(s.logPath)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// logCounts counts the server's log lines by level (text or JSON slog output).
func (s *server) logCounts() (warn, errs int, sample string) {
	f, err := os.Open(s.logPath)
	if err != nil {
		return 0, 0, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "level=WARN"), strings.Contains(line, `"level":"WARN"`):
			warn++
		case strings.Contains(line, "level=ERROR"), strings.Contains(line, `"level":"ERROR"`):
			errs++
		default:
			continue
		}
		if sample == "" {
			sample = line
		}
	}
	return warn, errs, sample
}

// freeAddr is a loopback address with a port free now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func httpOK(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode == http.StatusOK
}

// scrape reads the unlabelled samples of a node's /metrics (Prometheus text format).
func scrape(ctx context.Context, url string) (map[string]float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || strings.ContainsRune(line, '{') {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(strings.Fields(val)[0], 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}

// Node metrics the bench reads (internal/httpapi/metrics.go).
const (
	metricConnections = "chargeops_ocpp_connections" // the connection registry: MQTT links too
	metricQueue       = "chargeops_ingest_queue"
	metricWriting     = "chargeops_ingest_writing"
	metricUnits       = "chargeops_ingest_units_total"
	metricBatches     = "chargeops_ingest_batches_total"
	metricCommitSecs  = "chargeops_ingest_commit_seconds_total"
	metricBlocked     = "chargeops_ingest_blocked_total"
	metricFailures    = "chargeops_ingest_failures_total"
	metricLogRows     = "chargeops_protocol_log_rows_written_total"
	metricGoroutines  = "go_goroutines"
)

// waitIdle waits (at most limit) until the node holds at least conns connections and its ingest
// pipeline is empty twice in a row; it returns the last scrape.
func waitIdle(ctx context.Context, url string, conns int, limit time.Duration) (map[string]float64, error) {
	deadline := time.Now().Add(limit)
	quiet := 0
	for {
		m, err := scrape(ctx, url)
		if err != nil {
			return nil, err
		}
		if int(m[metricConnections]) >= conns && m[metricQueue] == 0 && m[metricWriting] == 0 {
			if quiet++; quiet >= 2 {
				return m, nil
			}
		} else {
			quiet = 0
		}
		if time.Now().After(deadline) {
			return m, errors.New("not idle in time")
		}
		if !sleepCtx(ctx, 250*time.Millisecond) {
			return m, ctx.Err()
		}
	}
}
