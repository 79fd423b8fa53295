package token

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/i18n"
	"chargeops/internal/xlsxin"
)

// Import limits (docs/tokens.md, "Import").
const (
	MaxImportRows    = 5000
	MaxImportBytes   = 5 << 20
	maxImportColumns = 64 // a row wider than this is not the template
	maxUnpacked      = 20 << 20
)

// The template's columns, in order (message keys of their headers).
var importColumns = []string{"col.token_id_tag", "col.token_name", "col.token_parent", "col.token_expiry", "col.token_status", "col.token_note"}

// importFields are the API fields the columns fill (a row error names its field).
var importFields = []string{"idTag", "name", "parentIdTag", "expiresAt", "status", "note"}

const sheet = "Tokens"

// Template returns the import template with localised headers and two example rows.
func Template(locale string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, fmt.Errorf("token: template: %w", err)
	}
	examples := [][]any{xlsxin.Header(locale, importColumns),
		{"04A2B3C4D5", "Fleet card 1", "FLEET-A", "2027-12-31", i18n.T(locale, "token.status_active", nil), ""},
		{"FLEET-A", "Fleet A (group)", "", "", i18n.T(locale, "token.status_active", nil), ""},
	}
	for i, r := range examples {
		if err := f.SetSheetRow(sheet, fmt.Sprintf("A%d", i+1), &r); err != nil {
			return nil, fmt.Errorf("token: template: %w", err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("token: template: %w", err)
	}
	return buf.Bytes(), nil
}

// ImportInput is an xlsx file (already decoded) for one customer.
type ImportInput struct {
	CustomerID int64
	Content    []byte
	Locale     string
	Location   *time.Location // dates without a time end at 23:59:59 there
}

// RowError names a bad row (1-based, as the spreadsheet shows it) and its field.
type RowError struct {
	Row     int    `json:"row"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ImportResult reports an import.
type ImportResult struct {
	Imported int `json:"imported"`
}

type importRow struct {
	line  int
	cells []string
}

// readRows reads the first sheet's data rows (header and blank rows left out) within bounds.
func readRows(content []byte) ([]importRow, error) {
	f, err := excelize.OpenReader(bytes.NewReader(content), excelize.Options{UnzipSizeLimit: maxUnpacked, UnzipXMLSizeLimit: maxUnpacked / 2})
	if err != nil {
		return nil, apperr.New(apperr.Invalid, "err.import_not_xlsx")
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, apperr.New(apperr.Invalid, "err.import_not_xlsx")
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, apperr.New(apperr.Invalid, "err.import_not_xlsx")
	}
	defer rows.Close()
	var out []importRow
	for line := 1; rows.Next(); line++ {
		cols, err := rows.Columns()
		if err != nil || len(cols) > maxImportColumns {
			return nil, apperr.New(apperr.Invalid, "err.import_not_xlsx")
		}
		if line == 1 {
			continue
		}
		r := importRow{line: line, cells: make([]string, len(importColumns))}
		blank := true
		for i := range r.cells {
			if i < len(cols) {
				r.cells[i] = strings.TrimSpace(cols[i])
			}
			blank = blank && r.cells[i] == ""
		}
		if blank {
			continue
		}
		if len(out) == MaxImportRows {
			return nil, apperr.New(apperr.Invalid, "err.import_too_many").With(map[string]any{"max": MaxImportRows})
		}
		out = append(out, r)
	}
	return out, nil
}

// Import adds every token of an xlsx file to a customer in p's scope, or none: each bad row
// is reported with its row number and field, and nothing of that file is imported.
func (s *Service) Import(ctx context.Context, p *access.Principal, in ImportInput) (ImportResult, error) {
	if err := xlsxin.CheckSize(in.Content, MaxImportBytes); err != nil {
		return ImportResult{}, err
	}
	if in.Location == nil {
		in.Location = time.UTC
	}
	customerID, err := customerFor(ctx, s.db, p, in.CustomerID)
	if err != nil {
		return ImportResult{}, wrap("import", err)
	}
	rows, err := readRows(in.Content)
	if err != nil {
		return ImportResult{}, err
	}
	if len(rows) == 0 {
		return ImportResult{}, xlsxin.Empty()
	}
	var bad []RowError
	var inputs []Form
	var lines []int
	seen := map[string]int{}
	for _, r := range rows {
		tok, field, rowErr := parseRow(r.cells, in.Location, in.Locale)
		if rowErr == nil {
			if prev, dup := seen[key(tok.IDTag)]; dup {
				field, rowErr = "idTag", apperr.New(apperr.Conflict, "err.token_duplicate_in_file").With(map[string]any{"row": prev})
			}
		}
		if rowErr != nil {
			bad = append(bad, RowError{Row: r.line, Field: fieldName(in.Locale, field), Message: xlsxin.Reason(in.Locale, rowErr)})
			continue
		}
		tok.CustomerID = customerID
		seen[key(tok.IDTag)] = r.line
		inputs = append(inputs, tok)
		lines = append(lines, r.line)
	}
	if len(bad) == 0 {
		err = s.db.InTx(ctx, func(tx *db.Tx) error {
			for i, tok := range inputs {
				if _, err := insert(ctx, tx, tok, OriginImported); err != nil {
					if _, business := apperr.As(err); !business {
						return err
					}
					bad = append(bad, RowError{Row: lines[i], Field: fieldName(in.Locale, "idTag"), Message: xlsxin.Reason(in.Locale, err)})
					return xlsxin.ErrRollback // PostgreSQL's transaction is aborted by the failed insert
				}
			}
			return nil
		})
		if err != nil && err != xlsxin.ErrRollback {
			return ImportResult{}, wrap("import", err)
		}
	}
	if len(bad) > 0 {
		first := bad[0]
		return ImportResult{}, apperr.New(apperr.Invalid, "err.token_import_row").
			With(map[string]any{"row": first.Row, "field": first.Field, "reason": first.Message, "count": len(bad)}).
			WithData(map[string]any{"rows": bad})
	}
	return ImportResult{Imported: len(inputs)}, nil
}

// fieldName is a column's header in the caller's language.
func fieldName(locale, field string) string {
	for i, f := range importFields {
		if f == field {
			return i18n.T(locale, importColumns[i], nil)
		}
	}
	return field
}

// parseRow reads a row's cells into an input; on failure it names the field.
func parseRow(c []string, loc *time.Location, locale string) (Form, string, error) {
	in := Form{IDTag: c[0], Name: c[1], ParentIDTag: c[2], Note: c[5]}
	if c[3] != "" {
		at, ok := parseDate(c[3], loc)
		if !ok {
			return in, "expiresAt", apperr.InvalidField(fieldName(locale, "expiresAt"), "err.invalid")
		}
		in.ExpiresAt = at
	}
	switch strings.ToLower(c[4]) {
	case "", "active", "0", strings.ToLower(i18n.T(i18n.EnUS, "token.status_active", nil)), i18n.T(i18n.ZhCN, "token.status_active", nil):
		in.Status = StatusActive
	case "blocked", "1", strings.ToLower(i18n.T(i18n.EnUS, "token.status_blocked", nil)), i18n.T(i18n.ZhCN, "token.status_blocked", nil):
		in.Status = StatusBlocked
	default:
		return in, "status", apperr.InvalidField(fieldName(locale, "status"), "err.invalid")
	}
	if err := in.normalise(); err != nil {
		field := "idTag"
		if e, ok := apperr.As(err); ok {
			if f, ok := e.Args["field"].(string); ok {
				field = f
				e.Args["field"] = fieldName(locale, f)
			}
			if e.Key == "err.token_parent_self" {
				field = "parentIdTag"
			}
		}
		return in, field, err
	}
	return in, "", nil
}

// parseDate reads an expiry: a date (the end of that day in loc), a date and time, or an
// Excel serial day number.
func parseDate(v string, loc *time.Location) (int64, bool) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006/1/2 15:04:05", "2006/1/2 15:04"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t.UnixMilli(), true
		}
	}
	for _, layout := range []string{"2006-01-02", "2006/1/2", "2006-1-2", "1/2/06", "01-02-06"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t.Add(24*time.Hour - time.Second).UnixMilli(), true
		}
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f > 1 && f < 2958466 {
		t, err := excelize.ExcelDateToTime(f, false)
		if err == nil {
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, loc)
			if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
				t = t.Add(24*time.Hour - time.Second)
			}
			return t.UnixMilli(), true
		}
	}
	return 0, false
}
