package token

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/apperr"
)

// FuzzTokenImportRows feeds any file to the token import's reader (excelize within bounds,
// docs/tokens.md "Import") and each row it returns to the row parser. What must hold: a
// refusal is an application error; otherwise at most MaxImportRows non-blank rows below the
// header, each with the template's columns, trimmed; a row parses or names one of the
// template's fields.
func FuzzTokenImportRows(f *testing.F) {
	tpl, err := Template("en-US")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tpl)
	// The template as users fill it in: cells changed one by one, a row left blank, a note
	// beyond the template's columns.
	x, err := excelize.OpenReader(bytes.NewReader(tpl))
	if err != nil {
		f.Fatal(err)
	}
	for cell, v := range map[string]any{"A2": " TAG-1 ", "D2": 46000, "E2": "blocked", "A3": "TAG-2", "C3": "TAG-1",
		"D3": "2027/1/2 10:00", "E3": "1", "A5": "TAG-3", "D5": "31-12-27", "E5": "unknown", "H5": "beyond"} {
		if err := x.SetCellValue(sheet, cell, v); err != nil {
			f.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		f.Fatal(err)
	}
	x.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("PK\x03\x04"))
	fields := map[string]bool{"": true}
	for _, name := range importFields {
		fields[name] = true
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		rows, err := readRows(content)
		if err != nil {
			if _, ok := apperr.As(err); !ok {
				t.Fatalf("refusal %v is not an application error", err)
			}
			return
		}
		if len(rows) > MaxImportRows {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			blank := true
			if r.line < 2 || len(r.cells) != len(importColumns) {
				t.Fatalf("row %d with %d cells", r.line, len(r.cells))
			}
			for _, c := range r.cells {
				if c != strings.TrimSpace(c) {
					t.Fatalf("row %d cell %q untrimmed", r.line, c)
				}
				blank = blank && c == ""
			}
			if blank {
				t.Fatalf("blank row %d returned", r.line)
			}
			if _, field, err := parseRow(r.cells, time.UTC, "en-US"); err != nil && !fields[field] {
				t.Fatalf("row %d refused on %q, not a template field: %v", r.line, field, err)
			}
		}
	})
}
