package agent

import (
	"context"
	"sync"
	"time"

	"chargeops/internal/mqttwire"
)

// Commands without an expiry get this long on the unit.
const defaultCommandTimeout = 30 * time.Second

// resultCacheSize is how many recent answers are kept for redelivered commands: QoS 1 may
// deliver a command again after a reconnect, and applying setPower or reboot twice is wrong.
const resultCacheSize = 64

// commands runs chargeops' commands one at a time, in the order they came: a unit's Modbus
// link takes one request at a time, and a later setPower must win over an earlier one.
func (u *unit) commands(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-u.cmds:
			u.handleCommand(ctx, c)
		}
	}
}

// handleCommand answers one command on its ReplyTo, which must be this unit's own answer topic
// (a command naming another topic would make this unit publish where it has no business).
func (u *unit) handleCommand(ctx context.Context, c mqttwire.Command) {
	log := u.log.With("command", c.ID, "name", c.Name)
	if sn, kind, _, ok := mqttwire.Parse(c.ReplyTo); !ok || sn != u.cfg.SN || kind != mqttwire.KindCmdRes {
		log.Warn("agent: command refused: replyTo is not this unit's answer topic", "replyTo", c.ReplyTo)
		return
	}
	now := u.opts.Now()
	if c.Expires != 0 && c.Expires < now.UnixMilli() {
		log.Warn("agent: expired command ignored", "expired", time.UnixMilli(c.Expires).UTC().Format(time.RFC3339))
		return
	}
	res, seen := u.results.get(c.ID)
	if seen {
		log.Info("agent: command delivered again; answered from the last result")
	} else {
		timeout := defaultCommandTimeout
		if c.Expires != 0 {
			timeout = time.UnixMilli(c.Expires).Sub(now)
		}
		actx, cancel := context.WithTimeout(ctx, timeout)
		var attrs *mqttwire.Attributes
		res, attrs = u.dev.apply(actx, c.Name, c.Params)
		cancel()
		if attrs != nil {
			u.setAttributes(*attrs)
		}
		res.ID = c.ID
		u.results.put(c.ID, res)
		log.Info("agent: command applied", "status", res.Status, "message", res.Message)
	}
	if err := u.publish(ctx, c.ReplyTo, res, false); err != nil {
		log.Warn("agent: command answer not published", "err", err)
	}
}

// resultCache keeps the answers of the last commands by id, oldest evicted first.
type resultCache struct {
	mu    sync.Mutex
	order []string
	byID  map[string]mqttwire.CommandResult
}

func (c *resultCache) get(id string) (mqttwire.CommandResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.byID[id]
	return r, ok
}

func (c *resultCache) put(id string, r mqttwire.CommandResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]mqttwire.CommandResult{}
	}
	if _, ok := c.byID[id]; !ok {
		c.order = append(c.order, id)
	}
	c.byID[id] = r
	for len(c.order) > resultCacheSize {
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
}
