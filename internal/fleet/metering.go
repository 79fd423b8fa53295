package fleet

import (
	"context"
	"math"
	"strconv"

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
	Samples   []Sample
}

// meterRows are the latest values and series points of samples. A replayed message (same
// timestamps) adds no series point and does not move a latest value back.
func meterRows(deviceID int64, connector int, samples []Sample) ([]RuntimeRow, []SeriesSample) {
	now := db.NowMS()
	latest := make([]RuntimeRow, 0, len(samples))
	var points []SeriesSample
	for _, sm := range samples {
		name := SeriesName(sm.Measurand, sm.Phase)
		at := sm.At
		if at == 0 {
			at = now
		}
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
	return s.Ingest.Commit(ctx, &Unit{Runtime: latest, Series: points})
}

// RuntimeValue stores one gateway value (firmware status, diagnostics status, ...) as a
// latest value of connector 0, in the batch of the step that learnt it.
func runtimeValue(b *Batch, deviceID int64, name, value string) {
	b.AddRuntime(RuntimeRow{DeviceID: deviceID, Name: name, Value: value, At: db.NowMS()})
}
