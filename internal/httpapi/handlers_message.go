package httpapi

import (
	"reflect"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/notify"
)

// MessageIDs names messages; no ids means all (read) or is refused (process).
type MessageIDs struct {
	IDs kit.IDs `json:"ids"`
}

// validate: none (all, for read) or a batch as kit.IDs.Check allows.
func (in MessageIDs) validate() error {
	if len(in.IDs) == 0 {
		return nil
	}
	return in.IDs.Check()
}

// UnreadCount is the badge of the message centre.
type UnreadCount struct {
	Count int64 `json:"count"`
}

func (s *Server) messageList(c *Ctx, in notify.ListInput) (db.List[notify.Message], error) {
	return s.Notify.List(c, c.P, in)
}

func (s *Server) messageUnread(c *Ctx, _ Empty) (UnreadCount, error) {
	n, err := s.Notify.Unread(c, c.P)
	return UnreadCount{Count: n}, err
}

func (s *Server) messageRead(c *Ctx, in MessageIDs) (Empty, error) {
	return Empty{}, s.Notify.MarkRead(c, c.P, in.IDs)
}

func (s *Server) messageProcess(c *Ctx, in MessageIDs) (Empty, error) {
	if err := in.IDs.Check(); err != nil {
		return Empty{}, err
	}
	return Empty{}, s.Notify.Process(c, c.P, in.IDs)
}

func (s *Server) messageSetting(c *Ctx, _ Empty) (notify.Setting, error) {
	return s.Notify.Setting(c, c.P)
}

func (s *Server) messageSettingSave(c *Ctx, in notify.Setting) (Empty, error) {
	return Empty{}, s.Notify.SaveSetting(c, c.P, in)
}

// messageStreamRecheck is how often the stream re-reads the count: a message written by
// another node, or read in another tab served by another node, shows within it.
const messageStreamRecheck = 5 * time.Second

// messageStream pushes the caller's unread count ("event: unread", data {count}) at once and
// whenever it changes, until the request or the session ends.
func (s *Server) messageStream() Handler {
	return Handler{in: reflect.TypeFor[Empty](), out: reflect.TypeFor[UnreadCount](), raw: true, serve: func(c *Ctx) (any, error) {
		changed, unwatch := s.Notify.Watch(c.P.UserID)
		defer unwatch()
		last := int64(-1)
		push := func(send sseSend) {
			if n, err := s.Notify.Unread(c, c.P); err == nil && n != last {
				last = n
				send("unread", UnreadCount{Count: n})
			}
		}
		return streamSSE(s, c, changed, messageStreamRecheck, push, func(_ struct{}, send sseSend) { push(send) })
	}}
}
