package read

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
)

// The rows of the charging sessions' export (docs/sessions.md): the list's filters and order,
// bounded like the log exports (docs/logs.md, "Exports"). The file is internal/xlsxout's.

// MaxSessionExportRows is the most rows one export writes; a wider filter is refused.
const MaxSessionExportRows = 50000

// SessionExportInput is the session list's filter and the file format ("" or "xlsx"); the page
// size and cursor are ignored.
type SessionExportInput struct {
	SessionListInput
	Format string `json:"format"`
}

// EachExportedSession calls fn with each session p may see that matches in, newest first: the
// rows of a session export (internal/xlsxout writes the file). A filter matching more than
// MaxSessionExportRows is refused before the first call (narrow the filter), so an export is
// bounded.
func (s *Service) EachExportedSession(ctx context.Context, p *access.Principal, in SessionListInput, fn func(SessionView) error) error {
	in.Size, in.Cursor = 0, ""
	if err := in.validate(s.stopReasons); err != nil {
		return err
	}
	from, args := sessionFrom(p, in)
	var n int64
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&n); err != nil {
		return fmt.Errorf("read: count sessions: %w", err)
	}
	if n > MaxSessionExportRows {
		return apperr.New(apperr.Invalid, "err.log_export_too_many").With(map[string]any{"max": MaxSessionExportRows})
	}
	return s.eachSession(ctx, from+sessionOrder+fmt.Sprintf(" LIMIT %d", MaxSessionExportRows), args, fn)
}
