package actionlog

import (
	"context"
	"fmt"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/i18n"
	"chargeops/internal/xlsxout"
)

// MaxExportRows is the most rows one action-log export writes; a wider filter is refused
// (docs/logs.md, "Exports").
const MaxExportRows = 50000

// exportBatch rows are read per query while an export streams.
const exportBatch = 1000

// ExportInput is the list's filter and the file format ("" or "xlsx").
type ExportInput struct {
	Filter
	Format string `json:"format"`
}

// Export writes the rows p may read that match f, in the list's order, to an xlsx file with
// headers and names in locale and times in loc.
func (s *Store) Export(ctx context.Context, p *access.Principal, locale string, loc *time.Location, in ExportInput) ([]byte, error) {
	if err := xlsxout.CheckFormat(in.Format); err != nil {
		return nil, err
	}
	q := in.query(p)
	n, err := q.Count(ctx, s.db)
	if err != nil {
		return nil, fmt.Errorf("actionlog: count export: %w", err)
	}
	if n > MaxExportRows {
		return nil, apperr.New(apperr.Invalid, "err.log_export_too_many").With(map[string]any{"max": MaxExportRows})
	}
	t := func(key string) string { return i18n.T(locale, key, nil) }
	var header []string
	for _, c := range []string{"user", "actionType", "action", "data", "code", "reason", "location", "ip", "time"} {
		header = append(header, t("log.col."+c))
	}
	x, err := xlsxout.New(t("log.sheet.action"), header)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	order := in.order()
	for offset := 0; offset < MaxExportRows; offset += exportBatch {
		list, err := db.All(ctx, s.db, q, entryCols, order, exportBatch, offset, scanEntry)
		if err != nil {
			return nil, fmt.Errorf("actionlog: export: %w", err)
		}
		for _, e := range list {
			reason := ""
			if e.Type == TypeLogout {
				reason = t(fmt.Sprintf("log.reason.%d", e.Reason))
			}
			action := e.Action
			if in.Names != nil {
				if n := in.Names(locale, e.Action); n != "" && e.Action != "" {
					action = n + " (" + e.Action + ")"
				}
			}
			if err := x.Row(e.UserName, t(fmt.Sprintf("log.atype.%d", e.Type)), action, e.Data, e.Code, reason, LocationName(locale, e.Location), e.IP,
				xlsxout.Time(e.CreatedAt, loc)); err != nil {
				return nil, err
			}
		}
		if len(list) < exportBatch {
			break
		}
	}
	return x.Bytes()
}

// Purge deletes the rows older than days, in bounded batches (db.Purge); days <= 0 keeps them
// (docs/logs.md, "Retention").
func (s *Store) Purge(ctx context.Context, days int) (int64, error) {
	if days <= 0 {
		return 0, nil
	}
	cut := time.Now().Add(-time.Duration(days) * 24 * time.Hour).UnixMilli()
	return db.Purge(ctx, s.db, "action_log", "id", "created_at < ?", 20, cut)
}
