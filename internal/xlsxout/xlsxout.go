// Package xlsxout writes the xlsx exports of the logs (docs/logs.md, "Exports"): one sheet,
// a header row, then rows streamed through excelize's stream writer, times as
// yyyy-MM-dd HH:mm:ss in the console's time zone.
package xlsxout

import (
	"bytes"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/apperr"
)

// ContentType is the media type of an xlsx file.
const ContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Format is the only export format (spec: "Export allows only .xlsx").
const Format = "xlsx"

// CheckFormat accepts "", "xlsx" or ".xlsx" (any case); anything else is the
// "Unsupported file type" error naming the format field.
func CheckFormat(format string) error {
	f := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(format)), ".")
	if f != "" && f != Format {
		return apperr.InvalidField("format", "err.export_type")
	}
	return nil
}

// Sheet is one sheet being written.
type Sheet struct {
	f    *excelize.File
	sw   *excelize.StreamWriter
	line int
}

// New starts a file whose only sheet is name, with its header row.
func New(name string, header []string) (*Sheet, error) {
	f := excelize.NewFile()
	if err := f.SetSheetName("Sheet1", name); err != nil {
		f.Close()
		return nil, err
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	x := &Sheet{f: f, sw: sw, line: 1}
	cells := make([]any, len(header))
	for i, h := range header {
		cells[i] = h
	}
	if err := x.Row(cells...); err != nil {
		f.Close()
		return nil, err
	}
	return x, nil
}

// Row appends a row.
func (x *Sheet) Row(cells ...any) error {
	cell, _ := excelize.CoordinatesToCellName(1, x.line)
	x.line++
	return x.sw.SetRow(cell, cells)
}

// Bytes finishes the file and answers its content.
func (x *Sheet) Bytes() ([]byte, error) {
	if err := x.sw.Flush(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err := x.f.Write(&buf)
	return buf.Bytes(), err
}

// Close frees the file's temporary data.
func (x *Sheet) Close() { _ = x.f.Close() }

// Time is an export's time: yyyy-MM-dd HH:mm:ss in loc (UTC when nil), empty for 0.
func Time(ms int64, loc *time.Location) string {
	if ms <= 0 {
		return ""
	}
	if loc == nil {
		loc = time.UTC
	}
	return time.UnixMilli(ms).In(loc).Format("2006-01-02 15:04:05")
}
