package fleet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/i18n"
	"chargeops/internal/xlsxout"
)

// The xlsx export of charging sessions (docs/sessions.md): the list's filters and order,
// bounded like the log exports (docs/logs.md, "Exports").

// MaxSessionExportRows is the most rows one export writes; a wider filter is refused.
const MaxSessionExportRows = 50000

// SessionExportInput is the session list's filter and the file format ("" or "xlsx"); the page
// size and cursor are ignored.
type SessionExportInput struct {
	SessionListInput
	Format string `json:"format"`
}

// ExportSessions writes the sessions p may see that match in to an xlsx file, newest first,
// with headers in locale, times in loc and energy in kWh. More than MaxSessionExportRows rows
// is refused (narrow the filter), so an export is bounded.
func (s *Service) ExportSessions(ctx context.Context, p *access.Principal, locale string, loc *time.Location, in SessionExportInput) ([]byte, error) {
	if err := xlsxout.CheckFormat(in.Format); err != nil {
		return nil, err
	}
	in.Size, in.Cursor = 0, ""
	if err := in.SessionListInput.validate(); err != nil {
		return nil, err
	}
	from, args := sessionFrom(p, in.SessionListInput)
	var n int64
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&n); err != nil {
		return nil, fmt.Errorf("fleet: count sessions: %w", err)
	}
	if n > MaxSessionExportRows {
		return nil, apperr.New(apperr.Invalid, "err.log_export_too_many").With(map[string]any{"max": MaxSessionExportRows})
	}
	t := func(key string) string { return i18n.T(locale, key, nil) }
	var header []string
	for _, c := range []string{"id", "sn", "customer", "site", "connector", "idTag", "state", "start", "stop", "duration", "meterStart",
		"meterStop", "energy", "reason", "flags"} {
		header = append(header, t("session.col."+c))
	}
	x, err := xlsxout.New(t("session.sheet"), header)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	at := func(ms int64) string { return xlsxout.Time(ms, loc) }
	err = s.eachSession(ctx, from+sessionOrder+fmt.Sprintf(" LIMIT %d", MaxSessionExportRows), args, func(v SessionView) error {
		state, duration, meterStop, energy := t("session.state.charging"), "", any(""), any("")
		if v.StoppedAt > 0 {
			state = t("session.state.ended")
			duration = FormatDuration(v.StoppedAt - v.StartedAt)
			meterStop, energy = v.MeterStop, float64(v.EnergyWh)/1000
		}
		flags := make([]string, 0, 2)
		for _, f := range FlagNames(v.Flags) {
			flags = append(flags, t("session.flag."+f))
		}
		return x.Row(v.ID, v.SN, v.CustomerName, v.SiteName, v.ConnectorID, v.IDTag, state, at(v.StartedAt), at(v.StoppedAt), duration,
			v.MeterStart, meterStop, energy, v.Reason, strings.Join(flags, "; "))
	})
	if err != nil {
		return nil, err
	}
	return x.Bytes()
}

// FormatDuration writes ms as H:MM:SS (hours may exceed 24).
func FormatDuration(ms int64) string {
	sec := max(ms, 0) / 1000
	return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
}
