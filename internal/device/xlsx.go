package device

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/i18n"
	"chargeops/internal/xlsxin"
)

// Import and export limits.
const (
	MaxImportRows  = 5000
	MaxImportBytes = 5 << 20
	MaxExportRows  = 100000
)

// The columns of the import template and the export, in order.
var importColumns = []string{"col.sn", "col.name", "col.model", "col.site_code", "col.software_version", "col.install_date", "col.arrival_date", "col.maintenance_cycle"}

const sheet = "Devices"

// exampleRow is the template's example row as an import reads it back. An import skips it
// when it is unchanged (issue 30 item 12: the template imported as downloaded must not fail on
// a site and model the caller does not have), and a file holding nothing else says so.
var exampleRow = []string{"CP-000001", "Charger 1", "AC-7kW", "SZ-001", "1.0.0", "2026-01-31", "2026-01-15", "180"}

// isExample reports whether a row's cells are the template's example row, unchanged.
func isExample(cells []string) bool {
	if len(cells) < len(exampleRow) {
		return false
	}
	for i, v := range exampleRow {
		if cells[i] != v {
			return false
		}
	}
	return true
}

// Template returns the import template with localised headers and one example row (skipped
// by Import while it is unchanged).
func Template(locale string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	row := xlsxin.Header(locale, importColumns)
	if err := f.SetSheetRow(sheet, "A1", &row); err != nil {
		return nil, err
	}
	example := make([]any, len(exampleRow))
	for i, v := range exampleRow {
		example[i] = v
	}
	example[len(example)-1] = 180 // the maintenance cycle as a number, as users type it
	if err := f.SetSheetRow(sheet, "A2", &example); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err := f.Write(&buf)
	return buf.Bytes(), err
}

// RowError names a bad row of an import file (1-based, as the spreadsheet shows it).
type RowError struct {
	Row     int    `json:"row"`
	Message string `json:"message"`
}

// ImportResult reports an import.
type ImportResult struct {
	Imported int `json:"imported"`
}

// Import adds every device of an xlsx file, or none: a bad row is reported by its row number
// and nothing of that file is imported. The file is read within fixed bounds (xlsxread.go).
func (s *Service) Import(ctx context.Context, p *access.Principal, locale string, content []byte) (ImportResult, error) {
	if err := xlsxin.CheckSize(content, MaxImportBytes); err != nil {
		return ImportResult{}, err
	}
	rows, err := readImportRows(content)
	if err != nil {
		return ImportResult{}, err
	}
	if len(rows) == 0 {
		return ImportResult{}, xlsxin.Empty()
	}
	kept := rows[:0]
	for _, r := range rows {
		if !isExample(r.cells) {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 {
		return ImportResult{}, apperr.New(apperr.Invalid, "err.import_only_example")
	}
	rows = kept
	var inputs []Input
	var lines []int
	var bad []RowError
	seenSN, seenName := map[string]int{}, map[string]int{}
	for _, r := range rows {
		in, rowErr := s.parseRow(ctx, p, r.cells)
		if rowErr == nil {
			if prev, dup := seenSN[in.SN]; dup {
				rowErr = apperr.New(apperr.Conflict, "err.sn_duplicate_in_file").With(map[string]any{"row": prev})
			} else if prev, dup := seenName[in.Name]; dup {
				rowErr = apperr.New(apperr.Conflict, "err.name_duplicate_in_file").With(map[string]any{"row": prev})
			}
		}
		if rowErr != nil {
			bad = append(bad, RowError{Row: r.line, Message: xlsxin.Reason(locale, rowErr)})
			continue
		}
		seenSN[in.SN], seenName[in.Name] = r.line, r.line
		inputs = append(inputs, in)
		lines = append(lines, r.line)
	}
	var added []int64
	if len(bad) == 0 {
		err = s.db.InTx(ctx, func(tx *db.Tx) error {
			for i, in := range inputs {
				id, err := s.insert(ctx, tx, p, in)
				if err != nil {
					if _, business := apperr.As(err); !business {
						return err
					}
					bad = append(bad, RowError{Row: lines[i], Message: xlsxin.Reason(locale, err)})
				}
				added = append(added, id)
			}
			if len(bad) > 0 {
				return xlsxin.ErrRollback
			}
			return nil
		})
		if err != nil && err != xlsxin.ErrRollback {
			return ImportResult{}, fmt.Errorf("device: import: %w", err)
		}
	}
	if len(bad) > 0 {
		first := bad[0]
		return ImportResult{}, apperr.New(apperr.Invalid, "err.import_row").
			With(map[string]any{"row": first.Row, "reason": first.Message, "count": len(bad)}).
			WithData(map[string]any{"rows": bad})
	}
	for _, id := range added {
		s.changed(ctx, id)
	}
	return ImportResult{Imported: len(inputs)}, nil
}

func cell(r []string, i int) string {
	if i < len(r) {
		return strings.TrimSpace(r[i])
	}
	return ""
}

// parseRow reads a row's cells; the model must be one the row's site may use.
func (s *Service) parseRow(ctx context.Context, p *access.Principal, r []string) (Input, error) {
	in := Input{SN: cell(r, 0), Name: cell(r, 1), SoftwareVersion: cell(r, 4), InstallDate: cell(r, 5), ArrivalDate: cell(r, 6)}
	if c := cell(r, 7); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil {
			return in, apperr.New(apperr.Invalid, "err.import_cycle").With(map[string]any{"value": c})
		}
		in.MaintenanceCycle = n
	}
	var customerID int64
	err := s.db.QueryRow(ctx, `SELECT id, customer_id FROM site WHERE code = ?`, cell(r, 3)).Scan(&in.SiteID, &customerID)
	if db.NotFound(err) || (err == nil && !p.Scope.HasSite(customerID, in.SiteID)) {
		// the column and the value, not "site: invalid" (issue 30 item 12)
		return in, apperr.New(apperr.Invalid, "err.import_site").With(map[string]any{"code": cell(r, 3)})
	} else if err != nil {
		return in, fmt.Errorf("device: import: site: %w", err)
	}
	if in.ModelID, err = devmodel.UsableByName(ctx, s.db, customerID, cell(r, 2)); err != nil {
		if _, business := apperr.As(err); business {
			return in, apperr.New(apperr.Invalid, "err.import_model").With(map[string]any{"model": cell(r, 2)})
		}
		return in, err
	}
	return in, in.normalise()
}

// Export writes the devices in scope that match f to an xlsx file.
func (s *Service) Export(ctx context.Context, p *access.Principal, locale string, f ListFilter) ([]byte, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	q := s.filtered(p.Scope, f)
	n, err := q.Count(ctx, s.db)
	if err != nil {
		return nil, err
	}
	if n > MaxExportRows {
		return nil, apperr.New(apperr.Invalid, "err.export_too_many").With(map[string]any{"max": MaxExportRows})
	}
	file := excelize.NewFile()
	defer file.Close()
	if err := file.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	sw, err := file.NewStreamWriter(sheet)
	if err != nil {
		return nil, err
	}
	header := []any{}
	for _, c := range append(append([]string{}, importColumns...), "col.status", "col.customer", "col.unmaintained_days") {
		header = append(header, i18n.T(locale, c, nil))
	}
	if err := sw.SetRow("A1", header); err != nil {
		return nil, err
	}
	const batch = 1000
	line := 2
	for offset := 0; ; offset += batch {
		list, err := db.All(ctx, s.db, q, columns+", s.code", "d.id", batch, offset, func(r db.Scanner) (exportRow, error) {
			var e exportRow
			var err error
			e.Device, err = scan(scanExtra{r, &e.siteCode})
			return e, err
		})
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			d := e.Device
			row := []any{d.SN, d.Name, d.ModelName, e.siteCode, d.SoftwareVersion, d.InstallDate, d.ArrivalDate, d.MaintenanceCycle,
				i18n.T(locale, fmt.Sprintf("status.%d", d.Status), nil), d.CustomerName, d.UnmaintainedDays}
			cellName, _ := excelize.CoordinatesToCellName(1, line)
			if err := sw.SetRow(cellName, row); err != nil {
				return nil, err
			}
			line++
		}
		if len(list) < batch {
			break
		}
	}
	if err := sw.Flush(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = file.Write(&buf)
	return buf.Bytes(), err
}

type exportRow struct {
	Device
	siteCode string
}

// scanExtra lets scan read the device columns and one extra trailing column.
type scanExtra struct {
	r     db.Scanner
	extra *string
}

func (s scanExtra) Scan(dest ...any) error { return s.r.Scan(append(dest, s.extra)...) }
