package mqtt

import (
	"context"
	"encoding/json"
	"strconv"

	"chargeops/internal/devstate"
	"chargeops/internal/ess"
	"chargeops/internal/fleet"
	"chargeops/internal/mqttwire"
)

// status is a device's birth (online, with its attributes) or last will (offline). Both are
// retained, so a node that subscribes (a restart) hears every device's last word at once.
func (a *Adapter) status(ctx context.Context, sn string, payload []byte) {
	a.logIn(sn, mqttwire.KindStatus, payload)
	var st mqttwire.Status
	if err := json.Unmarshal(payload, &st); err != nil {
		a.stats.Malformed.Add(1)
		a.log.Warn("mqtt status malformed", "sn", sn, "err", err)
		return
	}
	if !st.Online {
		a.offline(ctx, sn)
		return
	}
	a.forget(sn) // a birth reads the device afresh: it may have been added or enabled meanwhile
	dev := a.known(ctx, sn, st.Attributes)
	if dev == nil {
		return
	}
	l := a.attach(ctx, dev)
	if l == nil {
		return
	}
	if st.Attributes == nil {
		return
	}
	at := st.Attributes
	if err := a.core.Booted(ctx, dev, fleet.BootInfo{Vendor: at.Vendor, Model: at.Model, SerialNumber: at.SerialNumber,
		FirmwareVersion: at.Firmware}); err != nil {
		a.log.Warn("mqtt birth not stored", "sn", sn, "err", err)
		return
	}
	// the unit's size is kept among its latest values, where the storage page reads it
	var samples []fleet.Sample
	for name, v := range map[string]float64{ess.Capacity: at.CapacityWh, ess.RatedPower: at.RatedPowerW} {
		if v > 0 {
			p, _ := ess.PointOf(name)
			samples = append(samples, fleet.Sample{Measurand: name, Unit: p.Unit, Value: strconv.FormatFloat(v, 'f', -1, 64), At: st.TS, Element: -1})
		}
	}
	if err := a.core.Meter(ctx, fleet.MeterReport{Device: dev, Samples: samples}); err != nil {
		a.log.Warn("mqtt attributes not stored", "sn", sn, "err", err)
	}
}

// known is sn's device when it may report: an unknown SN is listed as pending (with what its
// birth says of it), a disabled or blacklisted one is refused, each kept like an OCPP refusal.
func (a *Adapter) known(ctx context.Context, sn string, at *mqttwire.Attributes) *fleet.Device {
	c, err := a.device(ctx, sn)
	if err != nil {
		a.log.Warn("mqtt device not read", "sn", sn, "err", err)
		return nil
	}
	dev := c.dev
	attempt := fleet.Attempt{SN: sn, Protocol: devstate.ProtocolMQTT}
	switch {
	case c.blacklisted:
		a.stats.Unknown.Add(1)
		a.core.RecordRefusal(ctx, attempt, fleet.RefuseBlacklisted)
		return nil
	case dev == nil:
		a.stats.Unknown.Add(1)
		var b fleet.BootInfo
		if at != nil {
			b = fleet.BootInfo{Vendor: at.Vendor, Model: at.Model, SerialNumber: at.SerialNumber, FirmwareVersion: at.Firmware}
		}
		a.core.RecordPending(ctx, attempt, b)
		return nil
	case !dev.Enabled:
		a.stats.Unknown.Add(1)
		a.core.RecordRefusal(ctx, attempt, fleet.RefuseDisabled)
		return nil
	}
	return dev
}

// attach makes a new link of dev on this node and records the device connected; nil when a
// newer link of it is registered elsewhere.
func (a *Adapter) attach(ctx context.Context, dev *fleet.Device) *link {
	l := &link{a: a, dev: dev, connID: fleet.NewConnID()}
	loser := a.core.Register(dev.SN, l)
	if loser == fleet.Link(l) {
		return nil
	}
	if loser != nil {
		loser.Close("replaced")
	}
	a.links.Store(dev.SN, l)
	if err := a.core.Connected(ctx, dev, l.connID, "", devstate.ProtocolMQTT); err != nil {
		a.log.Warn("mqtt connection not recorded", "sn", dev.SN, "err", err)
	}
	return l
}

// holder is the device's link on this node, adopting the device when no node holds it (its
// birth was heard by a node that has since gone, or before this node started).
func (a *Adapter) holder(ctx context.Context, dev *fleet.Device) *link {
	if v, ok := a.links.Load(dev.SN); ok {
		return v.(*link)
	}
	if _, ok := a.reg.Lookup(dev.SN); ok {
		return nil
	}
	return a.attach(ctx, dev)
}

// offline is a device's last will, or its own word that it goes offline.
func (a *Adapter) offline(ctx context.Context, sn string) {
	if v, ok := a.links.Load(sn); ok {
		v.(*link).end(ctx)
		return
	}
	if l, ok := a.reg.Lookup(sn); ok {
		l.Close("offline") // held by another node: that node ends it
	}
}
