package device_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/testutil"
)

// importFixture makes a customer with a site coded "S-1" and a platform model "AC-7kW".
func importFixture(t *testing.T, d *db.DB) {
	t.Helper()
	ctx, now := context.Background(), db.NowMS()
	for _, q := range []string{
		`INSERT INTO customer (id, name, code, created_at, updated_at) VALUES (1, 'C1', 'C1', ?, ?)`,
		`INSERT INTO site (id, customer_id, name, code, created_at, updated_at) VALUES (1, 1, 'Site 1', 'S-1', ?, ?)`,
		`INSERT INTO device_model (id, name, created_at, updated_at) VALUES (1, 'AC-7kW', ?, ?)`,
	} {
		if _, err := d.Exec(ctx, q, now, now); err != nil {
			t.Fatal(err)
		}
	}
}

// handmadeXLSX writes an xlsx package part by part, the sheet (and shared strings, when
// given) streamed into deflate, so a test can build a file that unpacks to hundreds of
// megabytes without holding them.
func handmadeXLSX(t *testing.T, sheet, shared func(w io.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) { return flate.NewWriter(out, flate.BestSpeed) })
	text := func(s string) func(w io.Writer) { return func(w io.Writer) { io.WriteString(w, s) } }
	rels := `http://schemas.openxmlformats.org/officeDocument/2006/relationships`
	parts := []struct {
		name string
		body func(w io.Writer)
	}{
		{"[Content_Types].xml", text(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`)},
		{"_rels/.rels", text(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + rels + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`)},
		{"xl/workbook.xml", text(`<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="` + rels + `">` +
			`<sheets><sheet name="Devices" sheetId="1" r:id="rId1"/></sheets></workbook>`)},
		{"xl/_rels/workbook.xml.rels", text(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + rels + `/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="` + rels + `/sharedStrings" Target="sharedStrings.xml"/></Relationships>`)},
		{"xl/worksheets/sheet1.xml", func(w io.Writer) {
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
			sheet(w)
			io.WriteString(w, `</sheetData></worksheet>`)
		}},
	}
	if shared != nil {
		parts = append(parts, struct {
			name string
			body func(w io.Writer)
		}{"xl/sharedStrings.xml", shared})
	}
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		p.body(w)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// peakUse runs fn and reports the most heap in use above the level before it (sampled every
// few milliseconds), the bytes it allocated in all, and how long it took.
func peakUse(fn func()) (peakHeap, allocated uint64, took time.Duration) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	fn()
	took = time.Since(start)
	close(done)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	peak = max(peak, after.HeapInuse)
	if peak > before.HeapInuse {
		peakHeap = peak - before.HeapInuse
	}
	return peakHeap, after.TotalAlloc - before.TotalAlloc, took
}

// TestImportRefusesMemoryBombs: an import file is read within fixed bounds of memory and
// time, however its parts are shaped (docs/decisions.md, "Organisation").
func TestImportRefusesMemoryBombs(t *testing.T) {
	const bound = 64 << 20
	// One cell at the last column (XFD) in each of 5,000 rows: a reader that pads rows to their
	// last column holds 16,384 strings per row.
	farColumn := handmadeXLSX(t, func(w io.Writer) {
		for r := 1; r <= 5000; r++ {
			fmt.Fprintf(w, `<row r="%d"><c r="XFD%d" t="inlineStr"><is><t>x</t></is></c></row>`, r, r)
		}
	}, nil)
	// A shared-strings part of 200 MB in a file of about a megabyte.
	hugeStrings := handmadeXLSX(t, func(w io.Writer) {
		io.WriteString(w, `<row r="2"><c r="A2" t="s"><v>0</v></c></row>`)
	}, func(w io.Writer) {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
		chunk := []byte(strings.Repeat("<si><t>chargeops</t></si>", 4096))
		for n := 0; n < 200<<20; n += len(chunk) {
			w.Write(chunk)
		}
		io.WriteString(w, `</sst>`)
	})
	// Far more data rows than the cap: the reading stops at the cap.
	manyRows := handmadeXLSX(t, func(w io.Writer) {
		for r := 2; r <= 200000; r++ {
			fmt.Fprintf(w, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>SN-%06d</t></is></c></row>`, r, r, r)
		}
	}, nil)
	// Elements nested a million deep inside a skipped cell.
	deep := handmadeXLSX(t, func(w io.Writer) {
		io.WriteString(w, `<row r="2"><c r="Z2">`+strings.Repeat("<a>", 1<<20)+strings.Repeat("</a>", 1<<20)+`</c></row>`)
	}, nil)
	cases := []struct {
		name    string
		content []byte
		key     string
	}{
		{"a cell at column XFD in every row reads as an empty file", farColumn, "err.import_empty"},
		{"a 200 MB shared-strings part is refused before it is unpacked", hugeStrings, "err.import_unpacked_too_large"},
		{"rows past the cap are not read", manyRows, "err.import_too_many"},
		{"deeply nested elements are refused", deep, "err.import_not_xlsx"},
	}
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		importFixture(t, d)
		svc := device.NewService(d)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if len(c.content) > device.MaxImportBytes {
					t.Fatalf("the bomb is %d bytes, over the upload limit: it would not test the reader", len(c.content))
				}
				var err error
				heap, alloc, took := peakUse(func() {
					_, err = svc.Import(context.Background(), &access.Principal{Scope: access.FullScope()}, "en-US", c.content)
				})
				e, ok := apperr.As(err)
				if !ok || e.Code != apperr.Invalid || e.Key != c.key {
					t.Fatalf("import answered %v, want %d %s", err, apperr.Invalid, c.key)
				}
				if heap > bound || alloc > 4*bound {
					t.Errorf("import took %d MB of heap at its peak and allocated %d MB, want at most %d and %d", heap>>20, alloc>>20, bound>>20, 4*bound>>20)
				}
				if took > 10*time.Second {
					t.Errorf("import took %v", took)
				}
				t.Logf("peak heap +%d KB, allocated %d KB, %v", heap>>10, alloc>>10, took)
			})
		}
	})
}

// TestImportReadsSpreadsheetFiles: a file saved from the template imports, with dates typed as
// spreadsheet dates, numbers as numbers, and notes beyond the template's columns ignored.
func TestImportReadsSpreadsheetFiles(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		importFixture(t, d)
		svc := device.NewService(d)
		tpl, err := device.Template("en-US")
		if err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(bytes.NewReader(tpl))
		if err != nil {
			t.Fatal(err)
		}
		dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
		if err != nil {
			t.Fatal(err)
		}
		rows := [][]any{
			{"CP-000001", "Charger 1", "AC-7kW", "S-1", "1.0.0", time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC), "2026-01-15", 180, nil, "a note past the template"},
			{},
			{"CP-000002", "Charger 2", "AC-7kW", "S-1"},
		}
		for i, r := range rows {
			cell, _ := excelize.CoordinatesToCellName(1, i+2)
			if err := f.SetSheetRow("Devices", cell, &r); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.SetCellStyle("Devices", "F2", "F2", dateStyle); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		res, err := svc.Import(context.Background(), &access.Principal{Scope: access.FullScope()}, "en-US", buf.Bytes())
		if err != nil || res.Imported != 2 {
			t.Fatalf("import = %+v, %v; want 2 devices", res, err)
		}
		list, err := svc.List(context.Background(), &access.Principal{Scope: access.FullScope()}, device.ListFilter{Filter: device.Filter{Keyword: "CP-000001"}})
		if err != nil || len(list.List) != 1 {
			t.Fatalf("list = %+v, %v", list, err)
		}
		got := list.List[0]
		if got.InstallDate != "2026-01-31" || got.ArrivalDate != "2026-01-15" || got.MaintenanceCycle != 180 || got.SoftwareVersion != "1.0.0" {
			t.Fatalf("imported %+v", got)
		}
	})
}
