// Package notify turns device events into console messages and alarm mail (docs/messages.md):
// who receives what (data scope, reception settings, the site's notification receivers), the
// rules against floods (offline debounce, grouped repeats, a per-user mail rate limit, delayed
// digests), and the message centre's calls. Pending work lives in the database (notify_event,
// alarm_mail) and is claimed by conditional UPDATEs, so a restart loses nothing and two nodes
// never handle one event twice.
package notify

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet"
	"chargeops/internal/mail"
)

// Options are the flood rules and the worker's pace.
type Options struct {
	OfflineDebounce time.Duration  // an offline event is messaged only once it lasted this long
	RepeatWindow    time.Duration  // a repeat of device+kind+code within it adds to the open message
	MailsPerHour    int            // alarm mails per user and hour; the rest wait for the next digest
	Poll            time.Duration  // how often the worker looks for due work without being woken
	Catchup         time.Duration  // events started this long ago are still picked up after a crash
	Location        *time.Location // times in mail
}

// DefaultOptions are the defaults of the --alarm-* flags.
func DefaultOptions() Options {
	return Options{OfflineDebounce: 2 * time.Minute, RepeatWindow: 10 * time.Minute, MailsPerHour: 10, Poll: 5 * time.Second, Catchup: time.Hour}
}

// Service is the notifier and the message centre.
type Service struct {
	db   *db.DB
	mail *mail.Mailer
	opt  Options
	in   chan fleet.EventChange
	wake chan struct{}

	mu       sync.Mutex
	watchers map[int64]map[chan struct{}]struct{}
}

// New returns the service; Run starts its worker.
func New(d *db.DB, m *mail.Mailer, opt Options) *Service {
	def := DefaultOptions()
	if opt.OfflineDebounce < 0 {
		opt.OfflineDebounce = 0
	}
	if opt.RepeatWindow <= 0 {
		opt.RepeatWindow = def.RepeatWindow
	}
	if opt.MailsPerHour <= 0 {
		opt.MailsPerHour = def.MailsPerHour
	}
	if opt.Poll <= 0 {
		opt.Poll = def.Poll
	}
	if opt.Catchup <= 0 {
		opt.Catchup = def.Catchup
	}
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	return &Service{db: d, mail: m, opt: opt, in: make(chan fleet.EventChange, 8192), wake: make(chan struct{}, 1),
		watchers: map[int64]map[chan struct{}]struct{}{}}
}

// Announce is the fleet's event hook (fleet.Service.OnEvents). It runs on the ingest writer, so
// it never blocks: when the queue is full the change is left to the worker's catch-up scan.
func (s *Service) Announce(c fleet.EventChange) {
	select {
	case s.in <- c:
	default:
		slog.Warn("notify: event queue full, left to the catch-up scan", "event", c.EventID)
	}
}

// Run records announced changes and works through the due events and mails until ctx ends.
func (s *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.intake(ctx)
	}()
	t := time.NewTimer(s.opt.Poll)
	defer t.Stop()
	var lastCatchup time.Time
	for {
		if time.Since(lastCatchup) >= time.Minute {
			s.catchup(ctx)
			lastCatchup = time.Now()
		}
		s.work(ctx)
		t.Reset(s.untilNextDue(ctx))
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}

// untilNextDue is how long the worker may sleep: until the next pending event or mail is due
// (a debounce or digest ending), at most Poll (work another node added).
func (s *Service) untilNextDue(ctx context.Context) time.Duration {
	var next *int64
	err := s.db.QueryRow(ctx, `SELECT MIN(d) FROM (SELECT MIN(due_at) AS d FROM notify_event WHERE done = 0
		UNION ALL SELECT MIN(due_at) AS d FROM alarm_mail WHERE sent_at = 0) x`).Scan(&next)
	if err != nil || next == nil {
		return s.opt.Poll
	}
	return min(max(time.Duration(*next-db.NowMS())*time.Millisecond, 10*time.Millisecond), s.opt.Poll)
}

func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

const (
	sqlPendingAdd  = `INSERT INTO notify_event (event_id, done, due_at, created_at) VALUES (?, 0, ?, ?) ON CONFLICT (event_id) DO NOTHING`
	sqlRecovered   = `UPDATE message SET recovered_at = ? WHERE event_id = ? AND recovered_at = 0`
	sqlCatchupOpen = `INSERT INTO notify_event (event_id, done, due_at, created_at)
		SELECT e.id, 0, CASE WHEN e.kind = ? THEN e.started_at + ? ELSE e.started_at END, ? FROM device_event e
		WHERE e.started_at >= ? AND NOT EXISTS (SELECT 1 FROM notify_event n WHERE n.event_id = e.id) ON CONFLICT (event_id) DO NOTHING`
	sqlCatchupEnded = `UPDATE message SET recovered_at = (SELECT e.ended_at FROM device_event e WHERE e.id = message.event_id)
		WHERE recovered_at = 0 AND EXISTS (SELECT 1 FROM device_event e WHERE e.id = message.event_id AND e.status = ?)`
	sqlPendingPurge = `DELETE FROM notify_event WHERE done = 1 AND created_at < ?`
)

// intake stores each announced change: an opened event becomes pending work (an offline one
// due after the debounce), an ended one marks its messages recovered.
func (s *Service) intake(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-s.in:
			var err error
			if c.Open {
				due := c.At
				if c.Kind == devstate.KindOffline {
					due += s.opt.OfflineDebounce.Milliseconds()
				}
				_, err = s.db.Exec(ctx, sqlPendingAdd, c.EventID, due, db.NowMS())
				s.poke()
			} else {
				_, err = s.db.Exec(ctx, sqlRecovered, c.At, c.EventID)
			}
			if err != nil && ctx.Err() == nil {
				slog.Warn("notify: record event change", "event", c.EventID, "err", err)
			}
		}
	}
}

// catchup finds what an announcement lost (a crash between commit and intake, a full queue):
// recent events without pending work, and ended events whose messages are not recovered. It
// also purges handled work older than the catch-up horizon.
func (s *Service) catchup(ctx context.Context) {
	now := db.NowMS()
	horizon := s.opt.Catchup.Milliseconds()
	if _, err := s.db.Exec(ctx, sqlCatchupOpen, devstate.KindOffline, s.opt.OfflineDebounce.Milliseconds(), now, now-horizon); err != nil && ctx.Err() == nil {
		slog.Warn("notify: catch up events", "err", err)
	}
	if _, err := s.db.Exec(ctx, sqlCatchupEnded, devstate.EventEnded); err != nil && ctx.Err() == nil {
		slog.Warn("notify: catch up recoveries", "err", err)
	}
	if _, err := s.db.Exec(ctx, sqlPendingPurge, now-2*horizon); err != nil && ctx.Err() == nil {
		slog.Warn("notify: purge", "err", err)
	}
}

// work handles the due events, then the due alarm mails.
func (s *Service) work(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := s.handleDueEvents(ctx)
		if err != nil {
			if ctx.Err() == nil {
				slog.Warn("notify: events", "err", err)
			}
			break
		}
		if n == 0 {
			break
		}
	}
	if err := s.sendDueMails(ctx); err != nil && ctx.Err() == nil {
		slog.Warn("notify: alarm mail", "err", err)
	}
}

// Watch returns a channel signalled when the user's messages change (new, read, processed),
// and the function that ends the watch.
func (s *Service) Watch(userID int64) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.watchers[userID] == nil {
		s.watchers[userID] = map[chan struct{}]struct{}{}
	}
	s.watchers[userID][ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.watchers[userID], ch)
		if len(s.watchers[userID]) == 0 {
			delete(s.watchers, userID)
		}
		s.mu.Unlock()
	}
}

func (s *Service) signal(userIDs ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range userIDs {
		for ch := range s.watchers[u] {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
}
