package fleet

import (
	"context"
	"sync/atomic"

	"chargeops/internal/fleet/ingest"
)

// The hooks: after a batch commits, what it changed is announced once to the listeners: device
// events opened or ended (the notifier, internal/notify, and the webhooks), device status
// changes and the stored results of commands (the webhooks, internal/openapi/webhook). A
// listener must not block: event and status listeners run on the ingest writer. fleet does not
// know who listens; listeners import fleet, never the reverse. Each node announces only what it
// committed itself, so a change is announced once in a cluster.

// EventChange is a device event opened (Open) or ended.
type EventChange struct {
	EventID    int64
	DeviceID   int64
	SN         string
	SiteID     int64
	CustomerID int64
	Kind       int
	Level      int
	Code       string
	Name       string
	VendorCode string // the charger's own error code (StatusNotification vendorErrorCode), if any
	Open       bool
	At         int64 // unix ms: the event's start (open) or end
}

// CommandResult is the stored outcome of a command: Result is ResultSuccess, ResultFailed,
// ResultTimeout or ResultOffline; Message a message key (err.*) or the charger's text.
type CommandResult struct {
	CommandID   int64
	DeviceID    int64
	SN          string
	ControlType int
	Result      int
	Message     string
	At          int64 // unix ms: when the result was stored
}

// OnEvents adds a listener of committed event changes; listeners hear them in the order they
// were added. nil removes every listener. Add them before chargers connect.
func (s *Service) OnEvents(f func(EventChange)) { addHook(&s.eventHook, f) }

// OnStatus adds a listener of committed device status changes (connects, disconnects, status
// and alarm status; the same events the consoles' stream gets from this node). nil removes
// every listener.
func (s *Service) OnStatus(f func(StatusEvent)) { addHook(&s.statusHook, f) }

// OnCommandResults adds a listener of stored command results: a command ended by its answer, a
// timeout or a closed connection, and a command to an offline device (result 5 at once). A
// command a sweep ends after its node died is not announced. nil removes every listener.
func (s *Service) OnCommandResults(f func(CommandResult)) { addHook(&s.commandHook, f) }

// addHook chains f after the listener p holds (nil clears it).
func addHook[T any](p *atomic.Pointer[func(T)], f func(T)) {
	if f == nil {
		p.Store(nil)
		return
	}
	for {
		old := p.Load()
		next := f
		if old != nil {
			prev := *old
			next = func(v T) { prev(v); f(v) }
		}
		if p.CompareAndSwap(old, &next) {
			return
		}
	}
}

// announce registers c with the batch: the listeners hear of it once the batch is committed.
func (s *Service) announce(b *ingest.Batch, c EventChange) {
	f := s.eventHook.Load()
	if f == nil {
		return
	}
	b.AfterCommit(func() { (*f)(c) })
}

// statusChanged tells the status listeners of a committed status event.
func (s *Service) statusChanged(e StatusEvent) {
	if f := s.statusHook.Load(); f != nil {
		(*f)(e)
	}
}

// commandEnded tells the command listeners of a stored result.
func (s *Service) commandEnded(r CommandResult) {
	if f := s.commandHook.Load(); f != nil {
		(*f)(r)
	}
}

// endCommand stores a waiting command's outcome through the ingest pipeline and, when it did
// end the command (a sweep may have ended it first), announces it after the commit.
func (s *Service) endCommand(ctx context.Context, r CommandResult, answer string) error {
	return s.Ingest.Commit(ctx, &ingest.Unit{Step: func(ctx context.Context, b *ingest.Batch) error {
		res, err := b.Tx.Exec(ctx, sqlCommandResult, r.Result, r.Message, answer, r.At, r.CommandID, ResultWaiting)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 && s.commandHook.Load() != nil {
			b.AfterCommit(func() { s.commandEnded(r) })
		}
		return nil
	}})
}
