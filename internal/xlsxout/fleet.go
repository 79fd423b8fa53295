package xlsxout

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/fleet/read"
	"chargeops/internal/i18n"
)

// The fleet's xlsx exports: charging sessions (docs/sessions.md) and the error log
// (docs/logs.md, "Exports"). The fleet gives the bounded, scoped rows (EachExportedSession,
// EachExportedError); the file's layout, headers and localised names are written here.

// Export is what every export of the fleet takes besides its filter: the caller, the language
// of headers and names, and the zone times are written in.
type Export struct {
	P      *access.Principal
	Locale string
	Loc    *time.Location
}

// t is the export's text for key.
func (e Export) t(key string) string { return i18n.T(e.Locale, key, nil) }

// at writes a time of the export.
func (e Export) at(ms int64) string { return Time(ms, e.Loc) }

// headers are the localised column names prefix+c of cols.
func (e Export) headers(prefix string, cols ...string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = e.t(prefix + c)
	}
	return out
}

// Sessions writes the charging sessions e.P may see that match in to an xlsx file, newest
// first, with times in e.Loc and energy in kWh (at most read.MaxSessionExportRows rows).
func Sessions(ctx context.Context, r *read.Service, e Export, in read.SessionExportInput) ([]byte, error) {
	if err := CheckFormat(in.Format); err != nil {
		return nil, err
	}
	x, err := New(e.t("session.sheet"), e.headers("session.col.", "id", "sn", "customer", "site", "connector", "idTag", "state", "start", "stop",
		"duration", "meterStart", "meterStop", "energy", "reason", "flags"))
	if err != nil {
		return nil, err
	}
	defer x.Close()
	err = r.EachExportedSession(ctx, e.P, in.SessionListInput, func(v read.SessionView) error {
		state, duration, meterStop, energy := e.t("session.state.charging"), "", any(""), any("")
		if v.StoppedAt > 0 {
			state = e.t("session.state.ended")
			duration = Duration(v.StoppedAt - v.StartedAt)
			meterStop, energy = v.MeterStop, float64(v.EnergyWh)/1000
		}
		flags := make([]string, 0, 2)
		for _, fl := range read.FlagNames(v.Flags) {
			flags = append(flags, e.t("session.flag."+fl))
		}
		return x.Row(v.ID, v.SN, v.CustomerName, v.SiteName, v.ConnectorID, v.IDTag, state, e.at(v.StartedAt), e.at(v.StoppedAt), duration,
			v.MeterStart, meterStop, energy, v.Reason, strings.Join(flags, "; "))
	})
	if err != nil {
		return nil, err
	}
	return x.Bytes()
}

// ErrorLog writes the alarms and faults e.P may see that match in to an xlsx file, in the
// list's order, with names in e.Locale (at most read.MaxErrorExportRows rows).
func ErrorLog(ctx context.Context, r *read.Service, e Export, in read.ErrorExportInput) ([]byte, error) {
	if err := CheckFormat(in.Format); err != nil {
		return nil, err
	}
	x, err := New(e.t("log.sheet.error"), e.headers("log.col.", "sn", "device", "type", "code", "name", "level", "connector", "status",
		"occurred", "ended", "created", "info"))
	if err != nil {
		return nil, err
	}
	defer x.Close()
	err = r.EachExportedError(ctx, e.P, in.ErrorLogInput, func(v read.EventView) error {
		return x.Row(v.SN, v.DeviceName, e.t(fmt.Sprintf("log.kind.%d", v.Kind)), v.Code, v.Name, e.t(fmt.Sprintf("log.level.%d", v.Level)),
			v.ConnectorID, e.t(fmt.Sprintf("log.status.%d", v.Status)), e.at(v.StartedAt), e.at(v.EndedAt), e.at(v.CreatedAt), v.Info)
	})
	if err != nil {
		return nil, err
	}
	return x.Bytes()
}

// Duration writes ms as H:MM:SS (hours may exceed 24).
func Duration(ms int64) string {
	sec := max(ms, 0) / 1000
	return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
}
