package fleet

import (
	"context"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Component events: what a charger reports of one of its components (OCPP 2.0.1 NotifyEvent:
// a monitor's alert, a problem variable set or cleared). A problem opens an alarm on its
// connector (the EVSE) that only the charger's cleared event of the same code ends
// (SourceComponent): a connector's status reports never end it. Values that are no problem are
// kept as the device's latest values (Values), as sampled values are.

// ComponentEventReport is one component event in the core's terms.
type ComponentEventReport struct {
	Device    *Device
	Connector int // the EVSE (0: the charger)
	// Problem is the alarm the event opens or, Cleared, ends (by its Code); zero Kind: none.
	Problem Problem
	Cleared bool
	Info    string // the charger's technical code and info, as sent
	// Values are component/variable values the event reports, kept as latest values of the
	// connector (name → value).
	Values map[string]string
	At     int64 // the charger's time, unix ms (0: now)
}

// ComponentEvent records a component event once it is committed.
func (s *Service) ComponentEvent(ctx context.Context, r ComponentEventReport) error {
	return s.ComponentEvents(ctx, []ComponentEventReport{r})
}

// ComponentEvents records the events of one device (a storage unit's alarm report: docs/mqtt.md)
// in one unit, in order, once they are committed.
func (s *Service) ComponentEvents(ctx context.Context, rs []ComponentEventReport) error {
	if len(rs) == 0 {
		return nil
	}
	now := db.NowMS()
	for i := range rs {
		rs[i].At, _ = ChargerTime(rs[i].At, now)
	}
	dev := rs[0].Device
	return s.Ingest.Commit(ctx, &ingest.Unit{Key: ingest.KeyOf(dev.SN), Step: func(ctx context.Context, b *ingest.Batch) error {
		changed := false
		for _, r := range rs {
			c, err := s.componentEvent(ctx, b, r)
			if err != nil {
				return err
			}
			changed = changed || c
		}
		if !changed {
			return nil
		}
		return s.recompute(ctx, b, dev.ID)
	}})
}

// componentEvent adds one event to a step; changed: it names a problem (the device's status is
// computed again).
func (s *Service) componentEvent(ctx context.Context, b *ingest.Batch, r ComponentEventReport) (changed bool, err error) {
	for name, v := range r.Values {
		b.AddRuntime(ingest.RuntimeRow{DeviceID: r.Device.ID, Name: name, Connector: r.Connector, Value: v, At: r.At})
	}
	pr := r.Problem
	if pr.Kind == 0 {
		return false, nil
	}
	if r.Cleared {
		err = s.endEvents(ctx, b, eventEnd{DeviceID: r.Device.ID, SN: r.Device.SN, Source: SourceComponent, Kinds: []int{pr.Kind},
			Connector: r.Connector, Code: pr.Code, At: r.At})
	} else {
		err = s.openEvent(ctx, b, eventOpen{Device: r.Device, Kind: pr.Kind, Level: pr.Level, Connector: r.Connector, Code: pr.Code,
			Name: pr.Name, Info: r.Info, Source: SourceComponent, At: r.At})
	}
	return err == nil, err
}
