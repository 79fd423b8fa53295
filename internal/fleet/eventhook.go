package fleet

// The event hook: after a batch commits, every device event it opened or ended is announced
// once to the listener (the notifier, internal/notify), which must not block: it runs on the
// ingest writer. fleet does not know who listens; the listener imports fleet, never the reverse.

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
	Open       bool
	At         int64 // unix ms: the event's start (open) or end
}

// OnEvents sets the listener of committed event changes (nil: none). Set it before chargers
// connect; a later call replaces the listener for the batches that follow.
func (s *Service) OnEvents(f func(EventChange)) {
	if f == nil {
		s.eventHook.Store(nil)
		return
	}
	s.eventHook.Store(&f)
}

// announce registers c with the batch: the listener hears of it once the batch is committed.
func (s *Service) announce(b *Batch, c EventChange) {
	f := s.eventHook.Load()
	if f == nil {
		return
	}
	b.AfterCommit(func() { (*f)(c) })
}
