package fleet

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
	"chargeops/internal/setting"
	"chargeops/internal/storage"
)

// Options of the device core.
type Options struct {
	CommandTimeout    time.Duration  // default 30 s
	RetentionDays     int            // protocol-log retention; 0 keeps rows forever
	HeartbeatInterval time.Duration  // interval the gateway hands chargers; default 60 s
	DataDir           string         // default home of Files: DataDir/objects
	LogQueue          int            // ingest queue size (units; see ingest.Options)
	LogBatch          int            // ingest batch size (rows and steps per transaction)
	IngestRetryMax    time.Duration  // longest back-off of a held ingest batch (ingest.Options.RetryMax)
	Node              string         // this node's name (default host name + pid)
	Registry          Registry       // default: in-process
	Location          *time.Location // days and months of the statistics (default UTC)
	Files             storage.Store  // firmware and diagnostics files (default: local, under DataDir/objects)
	RestartGrace      time.Duration  // how long a charger away for a console Reset is not offline (default DefaultRestartGrace)
	Now               func() int64   // the clock of connections, last-seen times and runtime counts, unix ms (default db.NowMS; tests step it)
	// ResendDelay is how long after a BootNotification the charger's stored charging profiles
	// are sent again (default 1 s: after the answer); ResendPoll how often a busy device or a
	// waiting command is looked at meanwhile (default 500 ms) (charging_profiles.go).
	ResendDelay, ResendPoll time.Duration
}

// Service is the device core of one node.
type Service struct {
	db  *db.DB
	opt Options
	// Ingest is the one write path of device data (pipeline.go), protocol-log rows included.
	Ingest   *ingest.Pipeline
	Registry Registry
	Hub      *Hub
	secret   []byte
	admit    *admissionLimiter
	keyPurge atomic.Int64 // last purge of charger_key_failure (keybackoff.go), ms
	beaten   atomic.Bool  // this node's beat is in cluster_node (liveness.go)
	hot      hotDevices
	sessions openSessions
	tokens   tokenAuthority
	wg       sync.WaitGroup
	// closing ends background work that outlives a request (profiles re-sent after a boot)
	// when Close is called
	closing    context.Context
	endClosing context.CancelFunc
	// following: devices whose smart-charging follow-up after a connect or boot is on its way
	// (charging_profiles.go)
	following sync.Map
	// limitsAsked: devices asked for their smart-charging limits since this node started
	limitsAsked sync.Map
	// targets: which chargers take part in smart charging (charging_profiles.go)
	targets smartTargets
	// eventHook, statusHook and commandHook hear of committed event changes, status changes
	// and command results (eventhook.go)
	eventHook   atomic.Pointer[func(EventChange)]
	statusHook  atomic.Pointer[func(StatusEvent)]
	commandHook atomic.Pointer[func(CommandResult)]
	// diagHook hears of completed diagnostics uploads (diaghook.go)
	diagHook atomic.Pointer[func(context.Context, DiagnosticsUpload)]
}

// New builds the core; Close stops it.
func New(ctx context.Context, d *db.DB, settings *setting.Store, opt Options) (*Service, error) {
	if opt.CommandTimeout <= 0 {
		opt.CommandTimeout = 30 * time.Second
	}
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	if opt.Now == nil {
		opt.Now = db.NowMS
	}
	if opt.ResendDelay <= 0 {
		opt.ResendDelay = time.Second
	}
	if opt.ResendPoll <= 0 {
		opt.ResendPoll = 500 * time.Millisecond
	}
	if opt.HeartbeatInterval <= 0 {
		opt.HeartbeatInterval = 60 * time.Second
	}
	if opt.Node == "" {
		h, _ := os.Hostname()
		opt.Node = h + "-" + strconv.Itoa(os.Getpid())
	}
	if opt.Registry == nil {
		opt.Registry = NewLocalRegistry()
	}
	if opt.Files == nil {
		opt.Files = storage.NewLocal(filepath.Join(opt.DataDir, "objects"), nil, "", "")
	}
	secret, err := settings.Secret(ctx, "fleet.url_secret")
	if err != nil {
		return nil, fmt.Errorf("fleet secret: %w", err)
	}
	s := &Service{db: d, opt: opt, Registry: opt.Registry, Hub: NewHub(), secret: secret,
		admit: newAdmissionLimiter(admitWindow)}
	s.Ingest = ingest.New(d, ingest.Options{QueueSize: opt.LogQueue, BatchRows: opt.LogBatch, RetryMax: opt.IngestRetryMax})
	s.hot.m = map[int64]*hotDevice{}
	s.closing, s.endClosing = context.WithCancel(context.Background())
	return s, nil
}

// Options returns the options in force.
func (s *Service) Options() Options { return s.opt }

// DB is the database of the core.
func (s *Service) DB() *db.DB { return s.db }

// Close waits for running commands and commits what the ingest pipeline holds.
func (s *Service) Close() {
	s.endClosing()
	s.wg.Wait()
	s.Ingest.Close()
}

// Run does the periodic work until ctx ends: orphaned commands time out, silent devices go
// offline; hourly, the time partitions of protocol logs and series are kept ahead (PostgreSQL)
// and protocol logs older than the retention are purged. The partitions are also made at once.
func (s *Service) Run(ctx context.Context) {
	s.hourly(ctx)
	lastHourly := time.Now()
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.sweep(ctx)
		if time.Since(lastHourly) > time.Hour {
			lastHourly = time.Now()
			s.hourly(ctx)
		}
	}
}

// hourly keeps the partitions ahead and purges expired protocol logs (PurgeLogs maintains the
// partitions itself).
func (s *Service) hourly(ctx context.Context) {
	if s.opt.RetentionDays <= 0 {
		if err := MaintainPartitions(ctx, s.db); err != nil {
			slog.Warn("log partitions", "err", err)
		}
		return
	}
	if n, err := PurgeLogs(ctx, s.db, s.opt.RetentionDays); err != nil {
		slog.Warn("protocol log purge", "err", err)
	} else if n > 0 {
		slog.Info("protocol logs purged", "rows", n)
	}
}

func (s *Service) sweep(ctx context.Context) {
	now := db.NowMS()
	// Commands whose node died before they ended (and did not start again to end them:
	// EndInterrupted); a live node ends its own at the deadline.
	if _, err := s.db.Exec(ctx, `UPDATE command SET result = ?, message = ?, finished_at = ? WHERE result = ? AND deadline_at < ?`,
		ResultTimeout, msgCommandInterrupted, now, ResultWaiting, now-5000); err != nil {
		slog.Warn("command sweep", "err", err)
	}
	if _, err := s.ExpireReservations(ctx, now); err != nil {
		slog.Warn("reservation sweep", "err", err)
	}
	if _, err := s.ExpireRestarts(ctx, now); err != nil {
		slog.Warn("restart sweep", "err", err)
	}
	// Devices marked online whose node stopped refreshing them (a crashed node), a bounded
	// number per sweep, ended in parallel so their steps share batches.
	limit := now - (3*s.opt.HeartbeatInterval + time.Minute).Milliseconds()
	rows, err := s.db.Query(ctx, `SELECT device_id, conn_id FROM device_state WHERE online = 1 AND last_seen_at < ? LIMIT ?`, limit, sweepBatch)
	if err != nil {
		return
	}
	type stale struct {
		id   int64
		conn string
	}
	var list []stale
	for rows.Next() {
		var x stale
		if rows.Scan(&x.id, &x.conn) == nil {
			list = append(list, x)
		}
	}
	rows.Close()
	sem := make(chan struct{}, sweepParallel)
	var wg sync.WaitGroup
	for _, x := range list {
		dev, err := s.DeviceByID(ctx, x.id)
		if err != nil || dev == nil {
			continue
		}
		if l, ok := s.Registry.Lookup(dev.SN); ok && l.ConnID() == x.conn {
			continue // live here: the gateway refreshes it
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.Disconnected(ctx, dev, x.conn)
		}()
	}
	wg.Wait()
}

// A sweep ends at most sweepBatch stale connections, sweepParallel at a time.
const (
	sweepBatch    = 10000
	sweepParallel = 256
)

// Node is this node's name in the cluster (cluster_node, device_state.node).
func (s *Service) Node() string { return s.opt.Node }
