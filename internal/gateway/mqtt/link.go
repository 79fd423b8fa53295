package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/mqttwire"
)

// link is a storage unit's connection as the core sees it: registered on the node that heard
// its birth (or adopted it), where its commands are published and their answers awaited.
type link struct {
	a        *Adapter
	dev      *fleet.Device
	connID   string
	lastSeen atomic.Int64 // unix ms of the last Seen (seen)
}

// seenEvery is how often a unit's messages refresh its last-seen time and runtime, as the OCPP
// gateway does (a message each 5 s from 10,000 units would otherwise be as many writes).
const seenEvery = 15 * time.Second

// seen refreshes the device's last-seen time and runtime, at most once per seenEvery.
func (l *link) seen() {
	now := time.Now().UnixMilli()
	last := l.lastSeen.Load()
	if now-last < seenEvery.Milliseconds() || !l.lastSeen.CompareAndSwap(last, now) {
		return
	}
	l.a.core.Seen(l.dev, l.connID)
}

var _ fleet.Link = (*link)(nil)

func (l *link) ConnID() string { return l.connID }

// Close: the core replaces or drops the link (a newer link, the device disabled, another
// node's last will). The device is marked offline only when the registry still named this link.
func (l *link) Close(string) {
	l.a.forget(l.dev.SN) // disabled or blacklisted: the next message reads the device afresh
	l.end(context.Background())
}

// end removes the link and, when it was still the device's, records the device disconnected.
func (l *link) end(ctx context.Context) {
	l.a.links.CompareAndDelete(l.dev.SN, l)
	if l.a.core.Unregister(l.dev.SN, l) {
		l.a.core.Disconnected(ctx, l.dev, l.connID)
	}
}

// defaultExpiry is a command's life when its context has no deadline.
const defaultExpiry = time.Minute

// Execute publishes the command and waits for the unit's answer on this node's reply topic.
func (l *link) Execute(ctx context.Context, cmd fleet.Command) (fleet.Outcome, error) {
	name, params, ok := wireCommand(cmd)
	if !ok {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "err.device_not_supported"}, nil
	}
	a := l.a
	id := strconv.FormatInt(cmd.ID, 10)
	expires := time.Now().Add(defaultExpiry)
	if d, ok := ctx.Deadline(); ok {
		expires = d
	}
	wc := mqttwire.Command{ID: id, Name: name, Params: params, ReplyTo: mqttwire.ReplyTopic(l.dev.SN, a.opt.Node), Expires: expires.UnixMilli()}
	payload, err := json.Marshal(wc)
	if err != nil {
		return fleet.Outcome{}, fmt.Errorf("mqtt: command %s: %w", id, err)
	}
	wait := make(chan mqttwire.CommandResult, 1)
	key := pendingKey(l.dev.SN, id)
	a.pendingMu.Lock()
	a.pending[key] = wait
	a.pendingMu.Unlock()
	defer func() {
		a.pendingMu.Lock()
		delete(a.pending, key)
		a.pendingMu.Unlock()
	}()
	a.logOut(l.dev.SN, mqttwire.KindCmd, payload)
	if err := a.bus.Publish(ctx, mqttwire.Topic(l.dev.SN, mqttwire.KindCmd), payload, false); err != nil {
		return fleet.Outcome{}, err
	}
	select {
	case <-ctx.Done():
		return fleet.Outcome{}, ctx.Err()
	case res := <-wait:
		return l.outcome(ctx, cmd, res)
	}
}

// outcome is the core's end of a command from the unit's answer; a configuration read is
// stored as the device's configuration, a write's read-back values as its new values.
func (l *link) outcome(ctx context.Context, cmd fleet.Command, res mqttwire.CommandResult) (fleet.Outcome, error) {
	answer, _ := json.Marshal(res)
	if res.Status != ess.StatusAccepted {
		msg := "device answered " + res.Status
		if res.Message != "" {
			msg += ": " + res.Message
		}
		return fleet.Outcome{Result: fleet.ResultFailed, Message: msg, Answer: answer}, nil
	}
	out := fleet.Outcome{Result: fleet.ResultSuccess, Answer: answer}
	ctx = context.WithoutCancel(ctx)
	switch cmd.ControlType {
	case fleet.CtlGetConfiguration:
		items := make([]fleet.ConfigValue, 0, len(res.Items))
		for _, it := range res.Items {
			items = append(items, fleet.ConfigValue{Key: it.Key, Value: it.Value, Readonly: it.Readonly})
		}
		if err := l.a.core.StoreConfig(ctx, l.dev.ID, items); err != nil {
			return fleet.Outcome{}, err
		}
		out.Message = fmt.Sprintf("%d keys", len(items))
	case fleet.CtlChangeConfig:
		for _, it := range res.Items {
			if err := l.a.core.SetConfigValue(ctx, l.dev, it.Key, it.Value); err != nil {
				return fleet.Outcome{}, err
			}
		}
	}
	return out, nil
}

// wireCommand maps a control type to a storage unit's command (docs/mqtt.md, "Commands");
// ok false for a control type a storage unit does not take.
func wireCommand(cmd fleet.Command) (name string, p ess.Params, ok bool) {
	cp := cmd.Params
	switch cmd.ControlType {
	case fleet.CtlStoragePower:
		return ess.CmdSetPower, ess.Params{PowerW: cp.PowerW}, true
	case fleet.CtlStorageMode:
		return ess.CmdSetMode, ess.Params{Mode: cp.Mode}, true
	case fleet.CtlStorageRun:
		enable := cp.Enable
		return ess.CmdRun, ess.Params{Enable: &enable}, true
	case fleet.CtlStorageFaultReset:
		return ess.CmdFaultReset, ess.Params{}, true
	case fleet.CtlGetConfiguration:
		return ess.CmdGetConfig, ess.Params{Keys: cp.Keys}, true
	case fleet.CtlChangeConfig:
		items := make([]ess.Item, 0, len(cp.Items))
		for _, it := range cp.Items {
			items = append(items, ess.Item{Key: it.Key, Value: it.Value})
		}
		return ess.CmdSetConfig, ess.Params{Items: items}, true
	case fleet.CtlSoftReset:
		return ess.CmdReboot, ess.Params{}, true
	case fleet.CtlHardReset:
		return ess.CmdReboot, ess.Params{Hard: true}, true
	}
	return "", ess.Params{}, false
}

// commandResult hands a unit's answer to the command waiting for it on this node.
func (a *Adapter) commandResult(sn string, payload []byte) {
	a.logIn(sn, mqttwire.KindCmdRes, payload)
	var res mqttwire.CommandResult
	if err := decode(payload, &res); err != nil || res.ID == "" {
		a.stats.Malformed.Add(1)
		a.log.Warn("mqtt command answer malformed", "sn", sn, "err", err)
		return
	}
	a.pendingMu.Lock()
	wait, ok := a.pending[pendingKey(sn, res.ID)] // only the unit the command went to answers it
	a.pendingMu.Unlock()
	if !ok {
		a.log.Info("mqtt command answer for no waiting command", "sn", sn, "id", res.ID)
		return
	}
	select {
	case wait <- res:
	default:
	}
}

// pendingKey names a waiting command by its unit and id.
func pendingKey(sn, id string) string { return sn + "/" + id }
