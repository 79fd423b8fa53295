package ocpp16

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// OCPP-J message types.
const (
	msgCall       = 2
	msgCallResult = 3
	msgCallError  = 4
)

type callResult struct {
	payload json.RawMessage
	err     error
}

// CallError is a CALLERROR answer of the charger.
type CallError = ocppj.CallError

// conn is one charger connection. One goroutine reads (and handles charger calls in order);
// writes are serialised by writeMu; server calls are one at a time (OCPP-J §4.1.1).
type conn struct {
	g   *Gateway
	ws  *websocket.Conn
	sn  string
	dev *fleet.Device // nil: unknown SN booting as Pending; read and set by the read loop only
	// live is the device as other goroutines (commands, the close) see it; Adopt sets it for a
	// Pending connection and the read loop then takes it into dev before the next frame.
	live     atomic.Pointer[fleet.Device]
	adoptMu  sync.Mutex // Adopt against the end of the connection
	ended    bool       // under adoptMu: the connection is ending, Adopt does nothing
	id       string     // fleet.NewConnID: admission-ordered
	base     string
	addr     string
	weakKey  bool          // admitted with a key outside 16-40 characters (set before the rule)
	proto    string        // the negotiated sub-protocol
	dialect  ocppj.Dialect // its messages; nil: OCPP 1.6J (dispatch, Execute here)
	writeMu  sync.Mutex
	callMu   chan struct{}
	pendMu   sync.Mutex
	pending  map[string]chan callResult
	seq      atomic.Int64
	closed   chan struct{}
	finished chan struct{}
	once     sync.Once
	lastSeen time.Time
	nextPing pingDue
}

func (c *conn) ConnID() string { return c.id }

// Close ends the connection; the read loop then cleans up.
func (c *conn) Close(reason string) {
	c.once.Do(func() {
		close(c.closed)
		slog.Debug("ocpp connection closing", "sn", c.sn, "reason", reason)
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, reason), time.Now().Add(time.Second))
		_ = c.ws.Close()
	})
}

func (c *conn) readDeadline() time.Time {
	hb := c.g.fleet.HeartbeatInterval()
	return time.Now().Add(2*hb + c.g.opt.PingInterval)
}

func (c *conn) run() {
	f := c.g.fleet
	c.callMu = make(chan struct{}, 1)
	c.nextPing.schedule(time.Now(), c.g.opt.PingInterval)
	c.g.conns.Store(c, struct{}{})
	c.g.active.Add(1)
	defer func() {
		c.Close("ended")
		c.failPending()
		c.adoptMu.Lock()
		c.ended = true
		dev := c.live.Load()
		c.adoptMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		// Only the registered connection ends the device's: a replaced one finds another in the
		// registry, and Disconnected changes nothing unless device_state still names this one.
		if f.Unregister(c.sn, c) && dev != nil {
			f.Disconnected(ctx, dev, c.id)
		}
		cancel()
		f.Log(fleet.LogRow{SN: c.sn, Type: fleet.LogClose, Data: "closed " + c.addr})
		if c.dialect != nil {
			c.dialect.Closed(c)
		}
		c.g.conns.Delete(c)
		c.g.active.Add(-1)
		close(c.finished)
	}()
	open := "open " + c.addr + " " + c.proto
	if c.weakKey {
		open += " " + weakKeyFlag
	}
	f.Log(fleet.LogRow{SN: c.sn, Type: fleet.LogOpen, Data: open})
	if !c.admit() {
		return
	}
	c.ws.SetReadLimit(MaxFrameBytes)
	_ = c.ws.SetReadDeadline(c.readDeadline())
	c.ws.SetPongHandler(func(string) error {
		c.seen()
		return c.ws.SetReadDeadline(c.readDeadline())
	})
	c.ws.SetPingHandler(c.onPing)
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		_ = c.ws.SetReadDeadline(c.readDeadline())
		// Blocks while the protocol-log queue is full: we stop reading this socket (backpressure).
		f.Log(fleet.LogRow{SN: c.sn, Type: fleet.LogReceived, Data: string(data)})
		if c.dev == nil {
			c.dev = c.live.Load() // adopted since the last frame (Adopt)
		}
		c.handle(data)
		c.seen()
	}
}

// admit makes the connection the device's, unless a newer admission already is (docs/gateway.md,
// "Connections"): first in the registry (a newer connection registered: this one closes; an
// older one: it is closed), then in device_state (Connected refuses a connection older than the
// one recorded: this one closes). Either way the newest admission ends up registered and
// recorded, whatever order the steps of two connections interleave in.
func (c *conn) admit() bool {
	f := c.g.fleet
	switch loser := f.Register(c.sn, c); loser {
	case nil:
	case fleet.Link(c):
		c.lose()
		return false
	default:
		go loser.Close("replaced by a newer connection")
	}
	if c.dev == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	err := f.Connected(ctx, c.dev, c.id, c.addr, c.proto)
	cancel()
	switch {
	case errors.Is(err, fleet.ErrNewerConnection):
		c.lose()
		return false
	case err != nil:
		slog.Warn("connect not recorded", "sn", c.sn, "err", err)
	}
	c.lastSeen = time.Now()
	return true
}

// lose ends a connection that a newer admission beat: it was never recorded (or its record was
// refused), so its end changes nothing in device_state, and it is never adopted.
func (c *conn) lose() {
	c.adoptMu.Lock()
	c.ended = true
	c.live.Store(nil)
	c.adoptMu.Unlock()
	c.Close("a newer connection of the charger is open")
}

// Adopt makes this connection of an unknown SN, admitted as Pending, the connection of the
// device an admin has since added under its SN (fleet.Adopter): recorded Connected (unless a
// newer connection is), its next frames handled as the device's, and the charger asked for a
// BootNotification so that it is Accepted without waiting for its retry interval. A device
// whose admission asks for what this connection never proved (a key, TLS) or refuses it
// (disabled, no key while keys are required) gets the socket closed instead: the charger
// reconnects through admission (docs/gateway.md, "Admission").
func (c *conn) Adopt(ctx context.Context) error {
	c.adoptMu.Lock()
	defer c.adoptMu.Unlock()
	if c.ended || c.live.Load() != nil {
		return nil
	}
	f := c.g.fleet
	dev, err := f.DeviceBySN(ctx, c.sn)
	if err != nil {
		return fmt.Errorf("ocpp16: adopt: %w", err)
	}
	if dev == nil {
		return nil
	}
	if profile, refusal := c.g.demand(dev); refusal != "" || profile > 0 {
		go c.Close("the device was added: reconnect through admission")
		return nil
	}
	err = f.Connected(ctx, dev, c.id, c.addr, c.proto)
	if errors.Is(err, fleet.ErrNewerConnection) {
		go c.Close("a newer connection of the charger is open")
		return nil
	}
	if err != nil {
		return fmt.Errorf("ocpp16: adopt: %w", err)
	}
	c.live.Store(dev)
	go c.askBoot()
	return nil
}

// askBoot asks an adopted charger for a BootNotification (TriggerMessage), which is now
// answered Accepted.
func (c *conn) askBoot() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	if c.dialect != nil {
		err = c.dialect.AskBoot(ctx, c)
	} else {
		_, err = c.call(ctx, remotetrigger.TriggerMessageFeatureName, remotetrigger.NewTriggerMessageRequest(core.BootNotificationFeatureName))
	}
	if err != nil {
		slog.Info("adopted charger not asked to boot", "sn", c.sn, "err", err)
	}
}

// onPing answers a charger's own WebSocket ping: like a pong or a frame, it is life (the read
// deadline moves and last-seen is refreshed), and the pong is written under the write lock.
// It runs on the reading goroutine (inside ReadMessage), as seen() must.
func (c *conn) onPing(appData string) error {
	c.seen()
	if err := c.ws.SetReadDeadline(c.readDeadline()); err != nil {
		return err
	}
	c.writeMu.Lock()
	err := c.ws.WriteControl(websocket.PongMessage, []byte(appData), time.Now().Add(c.g.opt.WriteTimeout))
	c.writeMu.Unlock()
	var ne net.Error
	if errors.Is(err, websocket.ErrCloseSent) || (errors.As(err, &ne) && ne.Timeout()) {
		return nil // as gorilla's default handler: the read loop finds the closed socket
	}
	return err
}

func (c *conn) seen() {
	if c.dev == nil || time.Since(c.lastSeen) < 15*time.Second {
		return
	}
	c.lastSeen = time.Now()
	c.g.fleet.Seen(c.dev, c.id)
}

func (c *conn) failPending() {
	c.pendMu.Lock()
	defer c.pendMu.Unlock()
	for id, ch := range c.pending {
		ch <- callResult{err: fleet.ErrLinkClosed}
		delete(c.pending, id)
	}
}

// write sends one frame (and logs it first).
func (c *conn) write(frame []byte) error {
	c.g.fleet.Log(fleet.LogRow{SN: c.sn, Type: fleet.LogSent, Data: string(frame)})
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(c.g.opt.WriteTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, frame)
}

// call sends a CALL and waits for its CALLRESULT or CALLERROR.
func (c *conn) call(ctx context.Context, action string, payload any) (json.RawMessage, error) {
	select {
	case c.callMu <- struct{}{}:
		defer func() { <-c.callMu }()
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, fleet.ErrLinkClosed
	}
	id := c.id[:8] + "-" + strconv.FormatInt(c.seq.Add(1), 10)
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	frame, _ := json.Marshal([]any{msgCall, id, action, json.RawMessage(body)})
	ch := make(chan callResult, 1)
	c.pendMu.Lock()
	select {
	case <-c.closed:
		c.pendMu.Unlock()
		return nil, fleet.ErrLinkClosed
	default:
	}
	c.pending[id] = ch
	c.pendMu.Unlock()
	defer func() {
		c.pendMu.Lock()
		delete(c.pending, id)
		c.pendMu.Unlock()
	}()
	if err := c.write(frame); err != nil {
		return nil, fleet.ErrLinkClosed
	}
	select {
	case r := <-ch:
		return r.payload, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// handle processes one received frame. A frame that cannot be handled is counted and logged
// (rate-limited), and answered with a CALLERROR wherever its message id can be read
// (docs/ocpp16.md, "Framing").
func (c *conn) handle(data []byte) {
	f, bad := parseFrame(data)
	if bad != nil {
		c.g.unreadable.Add(1)
		c.g.unreadableLog.note(c.sn, bad.reason, data)
		if bad.answer {
			c.sendError(bad.id, codeFormation, bad.reason)
		}
		return
	}
	switch f.typ {
	case msgCall:
		res, err := c.answer(f.action, f.payload)
		if err != nil {
			var ce *CallError
			if errors.As(err, &ce) {
				c.sendError(f.id, ce.Code, ce.Description)
			} else {
				slog.Warn("ocpp call failed", "sn", c.sn, "action", f.action, "err", err)
				c.sendError(f.id, codeInternal, "the central system could not process the message")
			}
			return
		}
		body, _ := json.Marshal(res)
		frame, _ := json.Marshal([]any{msgCallResult, f.id, json.RawMessage(body)})
		_ = c.write(frame)
	case msgCallResult, msgCallError:
		r := callResult{payload: f.payload}
		if f.typ == msgCallError {
			r = callResult{err: &CallError{Code: f.code, Description: f.desc}}
		}
		c.pendMu.Lock()
		ch, ok := c.pending[f.id]
		delete(c.pending, f.id)
		c.pendMu.Unlock()
		if ok {
			ch <- r
		}
	}
}

// answer handles a charger's CALL in the connection's protocol.
func (c *conn) answer(action string, payload json.RawMessage) (any, error) {
	if c.dialect == nil {
		return c.dispatch(action, payload)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return c.dialect.Handle(ctx, c, action, payload)
}

func (c *conn) sendError(id, code, desc string) {
	if c.dialect != nil {
		code = c.dialect.ErrorCode(code)
	}
	frame, _ := json.Marshal([]any{msgCallError, id, code, desc, map[string]any{}})
	_ = c.write(frame)
}

// The connection as a dialect sees it (ocppj.Session).

func (c *conn) SN() string                           { return c.sn }
func (c *conn) Device() *fleet.Device                { return c.live.Load() }
func (c *conn) Addr() string                         { return c.addr }
func (c *conn) BaseURL() string                      { return c.base }
func (c *conn) BoundMeter(raw json.RawMessage) error { return c.boundMeter(raw) }
func (c *conn) Call(ctx context.Context, action string, payload any) (json.RawMessage, error) {
	return c.call(ctx, action, payload)
}

var _ ocppj.Session = (*conn)(nil)

func callErr(code, format string, args ...any) error { return ocppj.Errorf(code, format, args...) }

// decode reads a charger's payload into an ocpp-go request type with the schemas' rules
// (ocppj.Decode).
func decode(raw json.RawMessage, dst any) error { return ocppj.Decode(raw, dst) }

// CALLERROR codes (ocppj).
const (
	codeFormation      = ocppj.CodeFormation
	codeOccurence      = ocppj.CodeOccurence
	codeType           = ocppj.CodeType
	codeProperty       = ocppj.CodeProperty
	codeNotImplemented = ocppj.CodeNotImplemented
	codeSecurity       = ocppj.CodeSecurity
	codeInternal       = ocppj.CodeInternal
)
