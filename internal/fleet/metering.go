package fleet

import (
	"context"
	"math"
	"strconv"
	"sync"

	"chargeops/internal/db"
)

// Sampled values: the latest value per measurand and connector (device_runtime) and the
// numeric ones in the time series (device_series), both written by the ingest pipeline.

// Sample is one sampled value of a MeterValues message.
type Sample struct {
	Measurand string // default Energy.Active.Import.Register
	Phase     string
	Unit      string
	Value     string
	At        int64
}

// SeriesName is the stored name of a measurand on a phase.
func SeriesName(measurand, phase string) string {
	if measurand == "" {
		measurand = "Energy.Active.Import.Register"
	}
	if phase != "" {
		return measurand + "." + phase
	}
	return measurand
}

// MeterReport is one MeterValues message (or the meter readings of a transaction's start or stop).
type MeterReport struct {
	Device    *Device
	Connector int
	// TransactionID is the session the samples belong to (MeterValues' transactionId), or 0.
	// Samples without one are runtime values only, never a session's energy.
	TransactionID int64
	Samples       []Sample
}

// meterRows are the latest values and series points of samples. A replayed message (same
// timestamps) adds no series point and does not move a latest value back. A timestamp from
// before 2015 or from the future is replaced by the server's time (ChargerTime).
func meterRows(deviceID int64, connector int, samples []Sample) ([]RuntimeRow, []SeriesSample) {
	now := db.NowMS()
	latest := make([]RuntimeRow, 0, len(samples))
	var points []SeriesSample
	for _, sm := range samples {
		name := SeriesName(sm.Measurand, sm.Phase)
		at, _ := ChargerTime(sm.At, now)
		latest = append(latest, RuntimeRow{DeviceID: deviceID, Name: name, Connector: connector, Value: sm.Value, Unit: sm.Unit, At: at})
		v, err := strconv.ParseFloat(sm.Value, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		points = append(points, SeriesSample{DeviceID: deviceID, Name: name, Connector: connector, At: at, Value: v})
	}
	return latest, points
}

// Meter stores sampled values and returns once they are committed: the charger is answered
// only then, so readings (a transaction's energy among them) that were acknowledged are never
// lost, and a charger that got no answer sends them again (the replay adds nothing).
func (s *Service) Meter(ctx context.Context, m MeterReport) error {
	if len(m.Samples) == 0 {
		return nil
	}
	latest, points := meterRows(m.Device.ID, m.Connector, m.Samples)
	u := &Unit{Runtime: latest, Series: points, Key: KeyOf(m.Device.SN)}
	if m.TransactionID > 0 && !s.sessions.firstKnown(m.TransactionID) {
		u.Meters = sessionMeters(m)
	}
	if err := s.Ingest.Commit(ctx, u); err != nil {
		return err
	}
	if len(u.Meters) > 0 {
		s.sessions.setFirstKnown(m.TransactionID)
	}
	return nil
}

// sessionMeters are the energy registers (total, not per phase) among a session's samples.
func sessionMeters(m MeterReport) []SessionMeter {
	var out []SessionMeter
	now := db.NowMS()
	for _, sm := range m.Samples {
		if sm.Phase != "" || (sm.Measurand != "" && sm.Measurand != energyRegister) {
			continue
		}
		if wh, ok := registerWh(sm.Value, sm.Unit); ok {
			at, _ := ChargerTime(sm.At, now)
			out = append(out, SessionMeter{DeviceID: m.Device.ID, TransactionID: m.TransactionID, Wh: wh, At: at})
		}
	}
	return out
}

// openSessions remembers the sessions whose first sampled register is stored, so later
// samples of the same session add no statement; it forgets everything past maxKnownSessions
// (the database's "only once" condition still holds).
type openSessions struct {
	mu    sync.Mutex
	known map[int64]struct{}
}

const maxKnownSessions = 200_000

func (o *openSessions) firstKnown(id int64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.known[id]
	return ok
}

func (o *openSessions) setFirstKnown(id int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.known == nil || len(o.known) >= maxKnownSessions {
		o.known = map[int64]struct{}{}
	}
	o.known[id] = struct{}{}
}

func (o *openSessions) forget(id int64) {
	o.mu.Lock()
	delete(o.known, id)
	o.mu.Unlock()
}

// RuntimeValue stores one gateway value (firmware status, diagnostics status, ...) as a
// latest value of connector 0, in the batch of the step that learnt it.
func runtimeValue(b *Batch, deviceID int64, name, value string) {
	b.AddRuntime(RuntimeRow{DeviceID: deviceID, Name: name, Value: value, At: db.NowMS()})
}
