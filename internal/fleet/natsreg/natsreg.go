// Package natsreg is the cluster fleet.Registry over NATS: each node keeps its own sockets in a
// local registry and
//   - answers chargeops.dev.<SN>.cmd for the SNs it holds (ping, or a command to execute);
//   - on a new connection publishes chargeops.dev.<SN>.kick, so that a node holding an older
//     socket of the same SN closes it, and a node holding a newer one kicks back (the newest
//     admission wins, docs/gateway.md "Connections");
//   - finds a device held elsewhere by a ping (no responders: nobody holds it → offline at once)
//     and executes commands there through a proxy Link, which also adopts a Pending connection
//     there for a device just added (fleet.Adopter);
//   - while the bus is down, answers a device it does not hold with fleet.Unreachable (the
//     command path then says "cluster link unavailable", not "offline"), and when the bus is
//     back re-announces every socket it holds on the kick subjects, so that after a partition
//     the newest connection of each SN wins on every node and the older sockets close
//     (docs/gateway.md, "Scale-out").
package natsreg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"chargeops/internal/fleet"
)

// Registry is a fleet.Registry shared by the nodes on one NATS.
type Registry struct {
	local *fleet.LocalRegistry
	nc    *nats.Conn
	node  string
	mu    sync.Mutex
	subs  map[string]*nats.Subscription
	kick  *nats.Subscription
	// ReannounceAgain is how long after a reconnect the sockets held here are announced a
	// second time (for a bus of several servers, whose interest may reach the other nodes
	// after the first announcement).
	ReannounceAgain time.Duration
}

// Subject is the NATS subject of an SN (dots and wildcards in SNs are escaped).
func Subject(sn, verb string) string {
	r := strings.NewReplacer(".", "%2E", "*", "%2A", ">", "%3E", " ", "%20")
	return "chargeops.dev." + r.Replace(sn) + "." + verb
}

type kickMsg struct {
	SN     string `json:"sn"`
	ConnID string `json:"connId"`
	Node   string `json:"node"`
}

type request struct {
	Op       string        `json:"op"` // ping, execute or adopt
	Command  fleet.Command `json:"command"`
	Deadline int64         `json:"deadline"` // unix ms
}

type reply struct {
	OK      bool            `json:"ok"`
	Result  int             `json:"result"`
	Message string          `json:"message"`
	Answer  json.RawMessage `json:"answer,omitempty"`
	Err     string          `json:"err,omitempty"` // timeout, closed or text
}

// New connects the registry of node to nc.
func New(nc *nats.Conn, node string) (*Registry, error) {
	r := &Registry{local: fleet.NewLocalRegistry(), nc: nc, node: node, subs: map[string]*nats.Subscription{},
		ReannounceAgain: 2 * time.Second}
	sub, err := nc.Subscribe("chargeops.dev.*.kick", r.onKick)
	if err != nil {
		return nil, err
	}
	r.kick = sub
	nc.SetDisconnectErrHandler(func(_ *nats.Conn, err error) {
		slog.Warn("cluster link lost: commands to devices on other nodes answer \"cluster link unavailable\" until it is back", "node", node, "err", err)
	})
	nc.SetReconnectHandler(func(*nats.Conn) {
		slog.Info("cluster link back: announcing the connections held here", "node", node, "connections", r.local.Count())
		r.reannounce()
		time.AfterFunc(r.ReannounceAgain, r.reannounce)
	})
	return r, nc.Flush()
}

// Conn is the registry's NATS connection.
func (r *Registry) Conn() *nats.Conn { return r.nc }

// up reports whether the cluster bus can be used now.
func (r *Registry) up() bool { return r.nc.IsConnected() }

// reannounce publishes a kick for every socket held here with its conn_id: a node holding an
// older socket of the SN closes it, one holding a newer socket kicks back and this node closes
// its own (onKick). Run when the bus comes back, since kicks published during a partition
// reached nobody.
func (r *Registry) reannounce() {
	if !r.up() {
		return
	}
	r.local.Each(func(sn string, l fleet.Link) { r.publishKick(sn, l.ConnID()) })
	r.flush()
}

// Close stops listening (the NATS connection stays the caller's).
func (r *Registry) Close() {
	_ = r.kick.Unsubscribe()
	r.mu.Lock()
	for _, s := range r.subs {
		_ = s.Unsubscribe()
	}
	r.subs = map[string]*nats.Subscription{}
	r.mu.Unlock()
}

// onKick closes the socket held here when the kick names a newer connection (or none: a
// drop), and kicks back when the one held here is the newer, so that the older socket on the
// kicking node closes whichever node registered first.
func (r *Registry) onKick(m *nats.Msg) {
	var k kickMsg
	if json.Unmarshal(m.Data, &k) != nil || k.Node == r.node {
		return
	}
	l, ok := r.local.Lookup(k.SN)
	switch {
	case !ok || l.ConnID() == k.ConnID:
	case k.ConnID == "": // a drop (disabled, blacklisted): the device's connection ends here
		go l.Close("closed by node " + k.Node)
	case !fleet.Older(k.ConnID, l.ConnID()):
		// A newer connection on another node: this socket is replaced, not a device going
		// offline. It leaves the registry first, so its end records nothing (as when a newer
		// connection replaces it on this node); otherwise its disconnect could be written
		// before the newer connection's row and show the device offline for a moment.
		r.Unregister(k.SN, l)
		go l.Close("replaced by a connection on node " + k.Node)
	default:
		r.publishKick(k.SN, l.ConnID())
		r.flush()
	}
}

func (r *Registry) publishKick(sn, connID string) {
	b, _ := json.Marshal(kickMsg{SN: sn, ConnID: connID, Node: r.node})
	if !r.up() {
		return // nobody hears it now: the re-announcement after the reconnect says it
	}
	if err := r.nc.Publish(Subject(sn, "kick"), b); err != nil {
		slog.Warn("nats kick", "sn", sn, "err", err)
	}
}

// flush waits (briefly) until the server has what was published, when the bus is up.
func (r *Registry) flush() {
	if r.up() {
		_ = r.nc.FlushTimeout(2 * time.Second)
	}
}

// Register keeps l locally (unless a newer connection is held here: then l is the loser),
// answers for the SN and tells the other nodes.
func (r *Registry) Register(sn string, l fleet.Link) fleet.Link {
	old := r.local.Register(sn, l)
	if old == l {
		return l
	}
	r.mu.Lock()
	if _, ok := r.subs[sn]; !ok {
		sub, err := r.nc.Subscribe(Subject(sn, "cmd"), func(m *nats.Msg) { r.serve(sn, m) })
		if err != nil {
			slog.Warn("nats subscribe", "sn", sn, "err", err)
		} else {
			r.subs[sn] = sub
		}
	}
	r.mu.Unlock()
	r.publishKick(sn, l.ConnID())
	r.flush()
	return old
}

// Unregister removes l if it is still the device's connection here.
func (r *Registry) Unregister(sn string, l fleet.Link) bool {
	if !r.local.Unregister(sn, l) {
		return false
	}
	r.mu.Lock()
	if _, still := r.local.Lookup(sn); !still {
		if sub, ok := r.subs[sn]; ok {
			_ = sub.Unsubscribe()
			delete(r.subs, sn)
		}
	}
	r.mu.Unlock()
	return true
}

// Lookup finds the connection here, or on another node (a proxy), or reports none; while the
// other nodes cannot be asked (the bus is down, or the ping gets no answer in time) it gives
// fleet.Unreachable.
func (r *Registry) Lookup(sn string) (fleet.Link, bool) {
	if l, ok := r.local.Lookup(sn); ok {
		return l, true
	}
	if !r.up() {
		return fleet.Unreachable{SN: sn}, true
	}
	b, _ := json.Marshal(request{Op: "ping"})
	m, err := r.nc.Request(Subject(sn, "cmd"), b, 2*time.Second)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, false // no node holds it
	}
	if err != nil {
		slog.Warn("cluster lookup failed", "sn", sn, "err", err)
		return fleet.Unreachable{SN: sn}, true
	}
	var rep reply
	if json.Unmarshal(m.Data, &rep) != nil || !rep.OK {
		return nil, false
	}
	return &remote{r: r, sn: sn, conn: rep.Message}, true
}

// Count is the number of sockets this node holds.
func (r *Registry) Count() int { return r.local.Count() }

func (r *Registry) serve(sn string, m *nats.Msg) {
	var req request
	if json.Unmarshal(m.Data, &req) != nil {
		return
	}
	l, ok := r.local.Lookup(sn)
	if !ok {
		return // not ours any more: let the requester time out or find no responders
	}
	respond := func(rep reply) {
		b, _ := json.Marshal(rep)
		_ = m.Respond(b)
	}
	if req.Op == "ping" {
		respond(reply{OK: true, Message: l.ConnID()})
		return
	}
	go func() {
		ctx, cancel := context.WithDeadline(context.Background(), time.UnixMilli(req.Deadline))
		defer cancel()
		if req.Op == "adopt" {
			rep := reply{OK: true}
			if a, ok := l.(fleet.Adopter); ok {
				if err := a.Adopt(ctx); err != nil {
					rep = reply{Err: err.Error()}
				}
			}
			respond(rep)
			return
		}
		out, err := l.Execute(ctx, req.Command)
		rep := reply{OK: err == nil, Result: out.Result, Message: out.Message, Answer: out.Answer}
		switch {
		case err == nil:
		case errors.Is(err, context.DeadlineExceeded):
			rep.Err = "timeout"
		case errors.Is(err, fleet.ErrLinkClosed):
			rep.Err = "closed"
		default:
			rep.Err = err.Error()
		}
		respond(rep)
	}()
}

// remote is a Link held by another node.
type remote struct {
	r    *Registry
	sn   string
	conn string
}

func (x *remote) ConnID() string { return x.conn }

func (x *remote) Close(reason string) {
	b, _ := json.Marshal(kickMsg{SN: x.sn, ConnID: "", Node: x.r.node + "/close"})
	_ = x.r.nc.Publish(Subject(x.sn, "kick"), b)
}

// Adopt asks the node holding the socket to adopt it (fleet.Adopter).
func (x *remote) Adopt(ctx context.Context) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(10 * time.Second)
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	if !x.r.up() {
		return fmt.Errorf("natsreg: adopt: %w", fleet.ErrClusterUnavailable)
	}
	b, _ := json.Marshal(request{Op: "adopt", Deadline: deadline.UnixMilli()})
	m, err := x.r.nc.RequestWithContext(ctx, Subject(x.sn, "cmd"), b)
	if err != nil {
		return fmt.Errorf("natsreg: adopt: %w", err)
	}
	var rep reply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return fmt.Errorf("natsreg: adopt: %w", err)
	}
	if rep.Err != "" {
		return fmt.Errorf("natsreg: adopt: %s", rep.Err)
	}
	return nil
}

func (x *remote) Execute(ctx context.Context, cmd fleet.Command) (fleet.Outcome, error) {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(30 * time.Second)
	}
	if !x.r.up() {
		// not queued for the reconnect: a command run minutes later would surprise everyone
		return fleet.Outcome{}, fleet.ErrClusterUnavailable
	}
	b, _ := json.Marshal(request{Op: "execute", Command: cmd, Deadline: deadline.UnixMilli()})
	m, err := x.r.nc.RequestWithContext(ctx, Subject(x.sn, "cmd"), b)
	switch {
	case err == nil:
	case errors.Is(err, nats.ErrNoResponders):
		return fleet.Outcome{}, fleet.ErrLinkClosed // the holder let it go meanwhile
	case !x.r.up():
		return fleet.Outcome{}, fleet.ErrClusterUnavailable // the bus went down while waiting
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		return fleet.Outcome{}, context.DeadlineExceeded
	default:
		return fleet.Outcome{}, fmt.Errorf("natsreg: execute: %w", fleet.ErrClusterUnavailable)
	}
	var rep reply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		return fleet.Outcome{}, err
	}
	switch rep.Err {
	case "":
		return fleet.Outcome{Result: rep.Result, Message: rep.Message, Answer: rep.Answer}, nil
	case "timeout":
		return fleet.Outcome{}, context.DeadlineExceeded
	case "closed":
		return fleet.Outcome{}, fleet.ErrLinkClosed
	}
	return fleet.Outcome{}, errors.New(rep.Err)
}

// statusSubject carries device status changes between nodes, so that a console connected to
// any node sees every device change live.
const statusSubject = "chargeops.status"

type statusMsg struct {
	Node  string            `json:"node"`
	Event fleet.StatusEvent `json:"event"`
}

// ShareStatus joins h to the cluster: its events go to the other nodes and theirs arrive in h.
func (r *Registry) ShareStatus(h *fleet.Hub) error {
	sub, err := r.nc.Subscribe(statusSubject, func(m *nats.Msg) {
		var msg statusMsg
		if json.Unmarshal(m.Data, &msg) != nil || msg.Node == r.node {
			return
		}
		h.Deliver(msg.Event)
	})
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.subs[statusSubject] = sub
	r.mu.Unlock()
	h.SetRelay(func(e fleet.StatusEvent) {
		b, _ := json.Marshal(statusMsg{Node: r.node, Event: e})
		if err := r.nc.Publish(statusSubject, b); err != nil {
			slog.Warn("status event not shared", "err", err)
		}
	})
	return r.nc.Flush()
}
