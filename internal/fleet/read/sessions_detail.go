package read

import (
	"context"
	"fmt"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// One charging session with what it measured (docs/sessions.md): the session's row, its flags
// named, the energy register and power of its connector between start and stop (read through
// SeriesData, bounded and bucketed), and its signed meter values as received.

// Timeline bounds: at most this many points per series (a longer session gets wider buckets).
const (
	TimelineMaxPoints = 500
	powerMeasurand    = "Power.Active.Import"
)

// flagNames name the Flag* bits (energy.go), in bit order; the console explains each.
var flagNames = []string{"clock", "unknownStop", "matchedStop", "meterBack", "meterReset", "implausible", "unterminated"}

// FlagNames names the bits set in flags.
func FlagNames(flags int) []string {
	out := []string{}
	for i, n := range flagNames {
		if flags&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// TimelinePoint is one bucket of a session's timeline: its start and value (the energy
// register's highest reading, or the power's average, as stored: Wh and W).
type TimelinePoint struct {
	Time  int64   `json:"time"`
	Value float64 `json:"value"`
}

// SessionTimeline is the meter timeline of a session's connector; Step is the bucket width (ms).
type SessionTimeline struct {
	Step   int64           `json:"step"`
	Energy []TimelinePoint `json:"energy"`
	Power  []TimelinePoint `json:"power"`
}

// SessionDetail is one session with its timeline and signed values.
type SessionDetail struct {
	SessionView
	FlagNames  []string            `json:"flagNames"`
	DurationMS int64               `json:"durationMs"` // to the stop, or to now while charging
	Timeline   SessionTimeline     `json:"timeline"`
	Signed     []fleet.SignedValue `json:"signed"`
}

// session returns the session id within p's scope, else not found.
func (s *Service) session(ctx context.Context, p *access.Principal, id int64) (SessionView, error) {
	from, args := sessionFrom(p, SessionListInput{})
	var out SessionView
	found := false
	err := s.eachSession(ctx, from+" AND t.id = ?", append(args, id), func(v SessionView) error {
		out, found = v, true
		return nil
	})
	if err != nil {
		return out, err
	}
	if !found {
		return out, apperr.ErrNotFound
	}
	return out, nil
}

// Session returns the session id with its flags named, its meter timeline and its signed values
// when its device is in the caller's scope; else not found.
func (s *Service) Session(ctx context.Context, p *access.Principal, id int64) (SessionDetail, error) {
	if id <= 0 {
		return SessionDetail{}, apperr.InvalidField("id", "err.invalid")
	}
	v, err := s.session(ctx, p, id)
	if err != nil {
		return SessionDetail{}, err
	}
	end := v.StoppedAt
	if end == 0 {
		end = db.NowMS()
	}
	out := SessionDetail{SessionView: v, FlagNames: FlagNames(v.Flags), DurationMS: max(end-v.StartedAt, 0)}
	if out.Timeline, err = s.timeline(ctx, p, v, end); err != nil {
		return out, err
	}
	if out.Signed, err = s.SignedValues(ctx, p, id); err != nil {
		return out, err
	}
	return out, nil
}

// timeline reads the energy register and power of the session's connector over [start, end],
// in buckets wide enough for TimelineMaxPoints (whole minutes: SeriesData's step).
func (s *Service) timeline(ctx context.Context, p *access.Principal, v SessionView, end int64) (SessionTimeline, error) {
	out := SessionTimeline{Energy: []TimelinePoint{}, Power: []TimelinePoint{}}
	start := max(v.StartedAt, end-seriesMaxRangeDays*24*3600*1000+60000)
	in := SeriesInput{DeviceID: v.DeviceID, Names: []string{fleet.EnergyRegister, powerMeasurand}, ConnectorID: v.ConnectorID,
		Start: start, End: end + 1, Step: timelineStep(end + 1 - start)}
	series, err := s.SeriesData(ctx, p, in, time.UTC)
	if err != nil {
		return out, fmt.Errorf("read: session timeline: %w", err)
	}
	out.Step = in.stepMS()
	for _, se := range series {
		for _, pt := range se.Points {
			switch se.Name {
			case fleet.EnergyRegister:
				out.Energy = append(out.Energy, TimelinePoint{Time: pt.Time, Value: pt.Max})
			case powerMeasurand:
				out.Power = append(out.Power, TimelinePoint{Time: pt.Time, Value: pt.Avg})
			}
		}
	}
	// The stop's reading ends the register's line when no sample of its own did.
	if v.StoppedAt > 0 && v.MeterStop > 0 && v.Flags&fleet.FlagUnknownStop == 0 {
		if n := len(out.Energy); n == 0 || out.Energy[n-1].Value < float64(v.MeterStop) {
			out.Energy = append(out.Energy, TimelinePoint{Time: v.StoppedAt, Value: float64(v.MeterStop)})
		}
	}
	return out, nil
}

// timelineStep is the bucket width in minutes that keeps a span of ms to TimelineMaxPoints
// (at least a minute, below the monthly step).
func timelineStep(ms int64) int64 {
	perPoint := (ms + TimelineMaxPoints - 1) / TimelineMaxPoints
	step := (perPoint + 59999) / 60000
	return min(max(step, 1), MonthStep-1)
}

// SignedFile is the download of a session's signed meter values: every value as the charger
// sent it, with the session's identity, as JSON.
type SignedFile struct {
	SessionID   int64               `json:"sessionId"`
	SN          string              `json:"sn"`
	ConnectorID int                 `json:"connectorId"`
	IDTag       string              `json:"idTag"`
	StartedAt   int64               `json:"startedAt"`
	StoppedAt   int64               `json:"stoppedAt"`
	Values      []fleet.SignedValue `json:"values"`
}

// SessionSigned returns the signed values of session id as a file's content when its device is
// in the caller's scope; else not found.
func (s *Service) SessionSigned(ctx context.Context, p *access.Principal, id int64) (SignedFile, error) {
	if id <= 0 {
		return SignedFile{}, apperr.InvalidField("id", "err.invalid")
	}
	v, err := s.session(ctx, p, id)
	if err != nil {
		return SignedFile{}, err
	}
	values, err := s.SignedValues(ctx, p, id)
	if err != nil {
		return SignedFile{}, err
	}
	return SignedFile{SessionID: v.ID, SN: v.SN, ConnectorID: v.ConnectorID, IDTag: v.IDTag, StartedAt: v.StartedAt, StoppedAt: v.StoppedAt,
		Values: values}, nil
}
