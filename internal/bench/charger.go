package bench

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// charger is one simulated charge point. Its socket is read by one goroutine (link.read);
// writes from the load workers, the answers to the server's calls and pings are serialised by
// mu, which also guards l.
type charger struct {
	sn        string
	mu        sync.Mutex
	l         *link        // the current connection (nil: not connected)
	tx        atomic.Int64 // 1.6: the transaction its MeterValues belong to; 2.0.1: 1 once Started (0: none started yet)
	meterBusy atomic.Int32 // load messages waiting for their answer
	txID      []byte       // 2.0.1: its own transactionId, as JSON (txID201)
	seq       atomic.Int64 // 2.0.1: the seqNo of its last TransactionEvent
}

// link is one WebSocket connection of a charger.
type link struct {
	ws     *websocket.Conn
	closed chan struct{}
	once   sync.Once
	err    error       // why the link ended; read after closed is closed
	quiet  atomic.Bool // ended on purpose (storm drop, end of run): not counted as a drop
	booted atomic.Bool // the boot was accepted: its loss is a drop
	// abandoned: the storm left the socket open and silent; it answers no pings.
	abandoned atomic.Bool
}

func newLink(ws *websocket.Conn) *link {
	l := &link{ws: ws, closed: make(chan struct{})}
	ws.SetPingHandler(func(data string) error {
		if l.abandoned.Load() {
			return nil
		}
		err := ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(5*time.Second))
		if err == websocket.ErrCloseSent {
			return nil
		}
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() {
			return nil
		}
		return err
	})
	return l
}

// failed is why a write on l failed: how the link ended when it ended meanwhile (the server
// closed it: its close frame says why), else err.
func (l *link) failed(err error) error {
	select {
	case <-l.closed:
		return l.err
	case <-time.After(time.Second):
		return err
	}
}

// end records why the link ended, once.
func (l *link) end(err error) {
	l.once.Do(func() {
		l.err = describeLinkErr(err)
		close(l.closed)
	})
}

// describeLinkErr names how a connection ended: a close frame's code and text (ocpp-go refuses a
// second connection of a charger with "close 1008 a connection with this ID already exists"),
// else the read error.
func describeLinkErr(err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return fmt.Errorf("close %d %s", ce.Code, ce.Text)
	}
	return fmt.Errorf("connection lost: %w", err)
}

// link returns the current connection.
func (c *charger) link() *link {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.l
}

// attach makes l the charger's connection.
func (c *charger) attach(l *link) {
	c.mu.Lock()
	c.l = l
	c.mu.Unlock()
}

// detach forgets l if it is still the charger's connection (nil: whatever it is) and returns
// what was forgotten.
func (c *charger) detach(l *link) *link {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.l
	if l == nil || old == l {
		c.l = nil
		return old
	}
	return nil
}

var errStaleLink = errors.New("not connected")

// write sends one text frame on l, if l is still the charger's connection.
func (c *charger) write(l *link, frame []byte, timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.l != l || l == nil {
		return errStaleLink
	}
	_ = l.ws.SetWriteDeadline(time.Now().Add(timeout))
	return l.ws.WriteMessage(websocket.TextMessage, frame)
}

// pendingCall is a CALL waiting for its answer.
type pendingCall struct {
	sent time.Time
	kind callKind
	c    *charger
	done chan callAnswer // nil: nobody waits (load messages)
}

type callAnswer struct {
	payload []byte
	err     error
}

// pendingTable holds the CALLs in flight of a fleet by message id, in shards so that thousands
// of sockets answer without contending on one lock.
type pendingTable struct {
	shards [64]struct {
		mu sync.Mutex
		m  map[uint64]pendingCall
	}
}

func newPendingTable() *pendingTable {
	t := &pendingTable{}
	for i := range t.shards {
		t.shards[i].m = map[uint64]pendingCall{}
	}
	return t
}

func (t *pendingTable) add(id uint64, p pendingCall) {
	s := &t.shards[id%64]
	s.mu.Lock()
	s.m[id] = p
	s.mu.Unlock()
}

// take removes and returns the call with id.
func (t *pendingTable) take(id uint64) (pendingCall, bool) {
	s := &t.shards[id%64]
	s.mu.Lock()
	p, ok := s.m[id]
	if ok {
		delete(s.m, id)
	}
	s.mu.Unlock()
	return p, ok
}

// expire removes and returns the calls sent before cut.
func (t *pendingTable) expire(cut time.Time) []pendingCall {
	var out []pendingCall
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		for id, p := range s.m {
			if p.sent.Before(cut) {
				out = append(out, p)
				delete(s.m, id)
			}
		}
		s.mu.Unlock()
	}
	return out
}

// len is the number of calls in flight.
func (t *pendingTable) len() int {
	n := 0
	for i := range t.shards {
		t.shards[i].mu.Lock()
		n += len(t.shards[i].m)
		t.shards[i].mu.Unlock()
	}
	return n
}
