package fleet

import (
	"context"
	"strings"
	"sync"

	"chargeops/internal/db"
	"chargeops/internal/fleet/ingest"
)

// Sampled values: the latest value per measurand and connector (device_runtime) and the
// numeric ones in the time series (device_series), both written by the ingest pipeline.

// Sample is one sampled value of a MeterValues message (or of a StopTransaction's
// transactionData).
type Sample struct {
	Measurand string // default Energy.Active.Import.Register
	Phase     string
	Location  string // default Outlet
	Unit      string
	Value     string
	Context   string // default Sample.Periodic
	Format    string // Raw (default) or SignedData
	// At is the charger's timestamp of the sample's MeterValue element (unix ms), 0 when it is
	// missing or unreadable; Element is that element's index in its message (sampleTimes).
	At      int64
	Element int
}

// FormatSigned is the sampledValue format of signed meter data (e.g. OCMF).
const FormatSigned = "SignedData"

// signed reports whether a sample is signed data: kept as received (session_signed_value),
// never a number of the series, the latest values or a session's energy.
func (sm Sample) signed() bool { return strings.EqualFold(sm.Format, FormatSigned) }

// defaultLocation is OCPP 1.6's location of a sampled value that names none.
const defaultLocation = "Outlet"

// SeriesName is the stored name of a measurand on a phase at a location (docs/gateway.md,
// "Meter values"): measurand, then "." + phase when there is one, then "@" + location when
// it is not the Outlet. A missing location is the Outlet, so the names of values that never
// had a location stay as they were: "Voltage.L1", "Temperature@Body", "Power.Active.Import@Inlet".
func SeriesName(measurand, phase, location string) string {
	if measurand == "" {
		measurand = EnergyRegister
	}
	name := measurand
	if phase != "" {
		name += "." + phase
	}
	if location != "" && location != defaultLocation {
		name += "@" + location
	}
	return name
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

// sampleTimes are the stored times of samples (docs/gateway.md, "Meter values"): an element's
// own timestamp, or now when it is missing or impossible (ChargerTime). Each MeterValue element
// keeps a time of its own, in order, so no sample of an acknowledged message is lost to the
// series key (device, name, connector, ts): an element whose time was replaced and is not after
// the previous element's, or whose time equals the previous element's, gets the previous
// element's time + 1 ms. The rule reads only the message, so a replay gets the same times
// (unless a time was replaced by now). Samples with Element < 0 (the server's own readings)
// keep their time.
func sampleTimes(samples []Sample, now int64) []int64 {
	out := make([]int64, len(samples))
	var prev int64
	for i, sm := range samples {
		if i > 0 && sm.Element == samples[i-1].Element && sm.At == samples[i-1].At {
			out[i] = out[i-1]
			continue
		}
		at, clamped := ChargerTime(sm.At, now)
		replaced := sm.At == 0 || clamped
		if i > 0 && sm.Element >= 0 && (replaced && at <= prev || at == prev) {
			at = prev + 1
		}
		out[i], prev = at, at
	}
	return out
}

// meterRows are the latest values and series points of samples, in the stored units. A
// replayed message (same timestamps) adds no series point and does not move a latest value
// back. Signed samples are neither (signedRows).
func meterRows(deviceID int64, connector int, samples []Sample) ([]ingest.RuntimeRow, []ingest.SeriesSample) {
	return meterRowsAt(deviceID, connector, samples, sampleTimes(samples, db.NowMS()))
}

// meterRowsAt is meterRows with the samples' stored times (sampleTimes).
func meterRowsAt(deviceID int64, connector int, samples []Sample, times []int64) ([]ingest.RuntimeRow, []ingest.SeriesSample) {
	latest := make([]ingest.RuntimeRow, 0, len(samples))
	var points []ingest.SeriesSample
	for i, sm := range samples {
		if sm.signed() {
			continue
		}
		name := SeriesName(sm.Measurand, sm.Phase, sm.Location)
		r := normalise(sm.Measurand, sm.Value, sm.Unit)
		latest = append(latest, ingest.RuntimeRow{DeviceID: deviceID, Name: name, Connector: connector, Value: r.Value, Unit: r.Unit, At: times[i]})
		if r.Numeric {
			points = append(points, ingest.SeriesSample{DeviceID: deviceID, Name: name, Connector: connector, At: times[i], Value: r.Num})
		}
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
	times := sampleTimes(m.Samples, db.NowMS())
	latest, points := meterRowsAt(m.Device.ID, m.Connector, m.Samples, times)
	u := &ingest.Unit{Runtime: latest, Series: points, Key: ingest.KeyOf(m.Device.SN)}
	if m.TransactionID > 0 && !s.sessions.firstKnown(m.TransactionID) {
		u.Meters = sessionMeters(m, times)
	}
	if signed := signedRows(m.Connector, m.Samples, times); len(signed) > 0 {
		u.Step = func(ctx context.Context, b *ingest.Batch) error {
			return keepSigned(ctx, b, m.Device.ID, m.TransactionID, signed)
		}
	}
	if err := s.Ingest.Commit(ctx, u); err != nil {
		return err
	}
	if len(u.Meters) > 0 {
		s.sessions.setFirstKnown(m.TransactionID)
	}
	return nil
}

// addSamples adds a step's sampled values to its batch: latest values and series points, and
// the signed ones kept for session txID (0: none).
func addSamples(ctx context.Context, b *ingest.Batch, dev *Device, connector int, txID int64, samples []Sample) error {
	times := sampleTimes(samples, db.NowMS())
	latest, points := meterRowsAt(dev.ID, connector, samples, times)
	b.AddRuntime(latest...)
	b.AddSeries(points...)
	return keepSigned(ctx, b, dev.ID, txID, signedRows(connector, samples, times))
}

// sessionMeters are the energy registers (total, not per phase, at the outlet, not signed)
// among a session's samples, in Wh.
func sessionMeters(m MeterReport, times []int64) []ingest.SessionMeter {
	var out []ingest.SessionMeter
	for i, sm := range m.Samples {
		if sm.signed() || sm.Phase != "" || (sm.Measurand != "" && sm.Measurand != EnergyRegister) ||
			sm.Location != "" && sm.Location != defaultLocation {
			continue
		}
		if wh, ok := registerWh(sm.Value, sm.Unit); ok {
			out = append(out, ingest.SessionMeter{DeviceID: m.Device.ID, TransactionID: m.TransactionID, Wh: wh, At: times[i]})
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
func runtimeValue(b *ingest.Batch, deviceID int64, name, value string) {
	b.AddRuntime(ingest.RuntimeRow{DeviceID: deviceID, Name: name, Value: value, At: db.NowMS()})
}
