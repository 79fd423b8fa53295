package device

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/apperr"
)

// The device import's own xlsx reader (xlsxread.go) takes any uploaded file. Two targets:
// FuzzReadImportRows mutates whole files (zip and all), FuzzImportSheetXML mutates the sheet
// and shared-strings XML inside a well-formed package, where the reader's own code is.

// seedWorkbook is a small workbook as users fill the template in: shared strings, a number,
// date cells typed as dates and as serials, an inline string, a blank row and a cell beyond
// the template's columns.
func seedWorkbook(f *testing.F) []byte {
	f.Helper()
	x := excelize.NewFile()
	defer x.Close()
	rows := [][]any{
		{"SN", "Name", "Model", "Site", "Version", "Installed", "Arrived", "Cycle"},
		{"CP-1", "Charger 1", "AC-7kW", "S-1", "1.0.0", "2026-01-31", 46000, 180},
		{"CP-2", " Charger 2 ", "AC-7kW", "S-1", "", 46001.5, "", 90, "beyond"},
		{},
		{"CP-3", "充电桩", "AC-7kW", "S-1", 2, "", "", ""},
	}
	for i, r := range rows {
		cell, err := excelize.CoordinatesToCellName(1, i+1)
		if err != nil {
			f.Fatal(err)
		}
		if err := x.SetSheetRow("Sheet1", cell, &r); err != nil {
			f.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}

// checkImportRows holds for whatever the reader returns: an application error the user can
// read, or at most MaxImportRows non-blank rows below the header, each with the template's
// columns, trimmed and bounded.
func checkImportRows(t *testing.T, rows []importRow, err error) {
	t.Helper()
	if err != nil {
		if _, ok := apperr.As(err); !ok {
			t.Fatalf("refusal %v is not an application error", err)
		}
		return
	}
	if len(rows) > MaxImportRows {
		t.Fatalf("%d rows, at most %d", len(rows), MaxImportRows)
	}
	for _, r := range rows {
		if r.line < 2 || r.line > excelize.TotalRows {
			t.Fatalf("row number %d outside 2..%d", r.line, excelize.TotalRows)
		}
		if len(r.cells) != len(importColumns) {
			t.Fatalf("row %d has %d cells, want %d", r.line, len(r.cells), len(importColumns))
		}
		blank := true
		for _, c := range r.cells {
			if c != strings.TrimSpace(c) || len(c) > maxCellBytes {
				t.Fatalf("row %d cell %q is untrimmed or longer than %d bytes", r.line, c, maxCellBytes)
			}
			blank = blank && c == ""
		}
		if blank {
			t.Fatalf("blank row %d returned", r.line)
		}
	}
}

func FuzzReadImportRows(f *testing.F) {
	f.Add(seedWorkbook(f))
	tpl, err := Template("en-US")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tpl)
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Add([]byte("not a zip"))
	f.Fuzz(func(t *testing.T, content []byte) {
		rows, err := readImportRows(content)
		checkImportRows(t, rows, err)
	})
}

// sheetPackage is a package whose workbook points at the given sheet and shared strings.
func sheetPackage(t testing.TB, sheet, shared []byte) []byte {
	const rels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	const pkgRels = "http://schemas.openxmlformats.org/package/2006/relationships"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range [][2]string{
		{"_rels/.rels", `<Relationships xmlns="` + pkgRels + `"><Relationship Id="rId1" Type="` + rels + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
		{"xl/workbook.xml", `<workbook xmlns:r="` + rels + `"><workbookPr date1904="false"/><sheets><sheet name="Devices" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<Relationships xmlns="` + pkgRels + `"><Relationship Id="rId1" Type="` + rels + `/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="` + rels + `/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>`},
		{"xl/worksheets/sheet1.xml", string(sheet)},
		{"xl/sharedStrings.xml", string(shared)},
	} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p[0], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(p[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func FuzzImportSheetXML(f *testing.F) {
	const ws = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`
	shared := `<sst><si><t>SN</t></si><si><t xml:space="preserve"> CP-1 </t></si><si><r><t>Char</t></r><r><t>ger</t></r><rPh><t>ふりがな</t></rPh></si></sst>`
	for _, s := range [][2]string{
		{ws + `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="s"><v>2</v></c>` +
			`<c r="F2"><v>46000</v></c><c r="G2" t="d"><v>2026-01-15T00:00:00</v></c><c r="H2"><v>180</v></c></row></sheetData></worksheet>`, shared},
		{ws + `<row><c><v>h</v></c></row><row><c t="inlineStr"><is><t>CP-9</t></is></c><c t="str"><v>x</v></c><c t="b"><v>1</v></c>` +
			`<c t="e"><v>#N/A</v></c><c t="s"><v>99</v></c></row><row r="9"><c r="Z9"><v>1</v></c></row></sheetData></worksheet>`, shared},
		{ws + `<row r="3"><c r="A3"><v>1e308</v></c><c r="F3"><v>-1</v></c><c r="G3"><v>9e99</v></c></row></sheetData></worksheet>`, ``},
		{ws + `<c><v>1</v></c></sheetData></worksheet>`, ``},
		{ws + `<row r="0"/></sheetData></worksheet>`, ``},
		{ws + `<row r="2"><c r="XFE2"><v>1</v></c></row></sheetData></worksheet>`, ``},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, sheet, shared []byte) {
		rows, err := readImportRows(sheetPackage(t, sheet, shared))
		checkImportRows(t, rows, err)
	})
}
