package device

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/apperr"
)

// Reading an import file. The reader is our own rather than excelize's: excelize's row
// iterator pads every row with empty strings up to its last filled column (one cell at XFD
// makes 16,384 per row) and decodes the whole shared-strings part into memory, so a file of a
// few kilobytes could take gigabytes. This reader refuses a file that unpacks to more than
// MaxImportUnpacked before inflating anything, keeps only the template's columns, looks up
// only the shared strings those cells use, and stops at the row cap (docs/decisions.md,
// "Organisation").

// MaxImportUnpacked bounds the sum of the unpacked sizes of an import file's parts. The zip
// reader refuses a part that inflates to more than it declares, so the bound holds.
const MaxImportUnpacked = 20 << 20

const (
	maxXMLDepth     = 64   // a worksheet nests about six deep; deeper is an attack on the parser
	maxCellBytes    = 1024 // every column of the template is far shorter; longer values stay invalid
	maxPackageParts = 1000 // a workbook has a few dozen parts
)

var (
	errNotXLSX          = apperr.New(apperr.Invalid, "err.import_not_xlsx")
	errUnpackedTooLarge = apperr.New(apperr.Invalid, "err.import_unpacked_too_large").With(map[string]any{"max": MaxImportUnpacked >> 20})
	errTooManyRows      = apperr.New(apperr.Invalid, "err.import_too_many").With(map[string]any{"max": MaxImportRows})
)

// importRow is a non-blank data row: its spreadsheet row number and the template's columns.
type importRow struct {
	line  int
	cells []string
}

// readImportRows returns the data rows of the first sheet (the header row 1 and blank rows
// left out), at most MaxImportRows of them.
func readImportRows(content []byte) ([]importRow, error) {
	pkg, err := openPackage(content)
	if err != nil {
		return nil, err
	}
	book, err := pkg.workbook()
	if err != nil {
		return nil, err
	}
	rows, wanted, err := pkg.sheetRows(book.sheet)
	if err != nil {
		return nil, err
	}
	shared, err := pkg.sharedStrings(book.sharedStrings, wanted)
	if err != nil {
		return nil, err
	}
	out := make([]importRow, 0, len(rows))
	for _, r := range rows {
		row := importRow{line: r.line, cells: make([]string, len(importColumns))}
		blank := true
		for i, c := range r.cells {
			row.cells[i] = strings.TrimSpace(c.text(shared, isDateColumn(i), book.date1904))
			blank = blank && row.cells[i] == ""
		}
		if !blank {
			out = append(out, row)
		}
	}
	return out, nil
}

func isDateColumn(i int) bool {
	return importColumns[i] == "col.install_date" || importColumns[i] == "col.arrival_date"
}

// xlsxPackage is the zip of an xlsx file, its parts by lower-case name.
type xlsxPackage struct {
	parts map[string]*zip.File
}

func openPackage(content []byte) (*xlsxPackage, error) {
	zr, err := zip.NewReader(bytes.NewReader(content), int64(len(content)))
	if err != nil || len(zr.File) > maxPackageParts {
		return nil, errNotXLSX
	}
	pkg := &xlsxPackage{parts: make(map[string]*zip.File, len(zr.File))}
	var unpacked uint64
	for _, f := range zr.File {
		if f.UncompressedSize64 > MaxImportUnpacked {
			return nil, errUnpackedTooLarge
		}
		if unpacked += f.UncompressedSize64; unpacked > MaxImportUnpacked {
			return nil, errUnpackedTooLarge
		}
		pkg.parts[strings.ToLower(strings.ReplaceAll(f.Name, `\`, "/"))] = f
	}
	return pkg, nil
}

// open returns a depth-limited XML reader of a part; ok is false when the part is missing.
func (p *xlsxPackage) open(name string) (r *xmlReader, ok bool, err error) {
	f, ok := p.parts[strings.ToLower(name)]
	if !ok {
		return nil, false, nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil, true, errNotXLSX
	}
	return &xmlReader{d: xml.NewDecoder(rc), rc: rc}, true, nil
}

// xmlReader hands out tokens, refusing documents nested deeper than maxXMLDepth (the standard
// decoder keeps a stack entry per open element and has no limit of its own).
type xmlReader struct {
	d     *xml.Decoder
	rc    io.ReadCloser
	depth int
}

func (r *xmlReader) close() { r.rc.Close() }

// next returns the next token, or io.EOF at the end of the document.
func (r *xmlReader) next() (xml.Token, error) {
	tok, err := r.d.Token()
	if errors.Is(err, io.EOF) {
		return nil, io.EOF
	}
	if err != nil {
		return nil, errNotXLSX
	}
	switch tok.(type) {
	case xml.StartElement:
		if r.depth++; r.depth > maxXMLDepth {
			return nil, errNotXLSX
		}
	case xml.EndElement:
		r.depth--
	}
	return tok, nil
}

// skip reads past the end of the element whose start was just read.
func (r *xmlReader) skip() error {
	for depth := r.depth; ; {
		tok, err := r.next()
		if err != nil {
			return err
		}
		if _, end := tok.(xml.EndElement); end && r.depth < depth {
			return nil
		}
	}
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// workbookInfo is what the import needs from the workbook: where its first sheet and its
// shared strings are, and whether its dates count from 1904.
type workbookInfo struct {
	sheet, sharedStrings string
	date1904             bool
}

func (p *xlsxPackage) workbook() (workbookInfo, error) {
	var info workbookInfo
	bookPath := "xl/workbook.xml"
	if target, err := p.relationship("_rels/.rels", func(typ, _ string) bool { return strings.HasSuffix(typ, "/officeDocument") }); err != nil {
		return info, err
	} else if target != "" {
		bookPath = resolve("", target)
	}
	r, ok, err := p.open(bookPath)
	if !ok || err != nil {
		return info, errNotXLSX
	}
	defer r.close()
	sheetRel := ""
	for sheetRel == "" {
		tok, err := r.next()
		if err != nil {
			return info, errNotXLSX // a workbook without a sheet
		}
		if e, ok := tok.(xml.StartElement); ok {
			switch e.Name.Local {
			case "workbookPr":
				v := attr(e, "date1904")
				info.date1904 = v == "1" || v == "true"
			case "sheet":
				sheetRel = attr(e, "id") // r:id
			}
		}
	}
	relsPath := path.Join(path.Dir(bookPath), "_rels", path.Base(bookPath)+".rels")
	target, err := p.relationship(relsPath, func(_, id string) bool { return id == sheetRel })
	if err != nil || target == "" {
		return info, errNotXLSX
	}
	info.sheet = resolve(bookPath, target)
	info.sharedStrings = path.Join(path.Dir(bookPath), "sharedStrings.xml")
	if target, err = p.relationship(relsPath, func(typ, _ string) bool { return strings.HasSuffix(typ, "/sharedStrings") }); err != nil {
		return info, err
	} else if target != "" {
		info.sharedStrings = resolve(bookPath, target)
	}
	return info, nil
}

// relationship returns the target of the first relationship of a .rels part that match
// accepts (by type and id), or "" when there is none or no such part.
func (p *xlsxPackage) relationship(relsPath string, match func(typ, id string) bool) (string, error) {
	r, ok, err := p.open(relsPath)
	if !ok || err != nil {
		return "", err
	}
	defer r.close()
	for {
		tok, err := r.next()
		if errors.Is(err, io.EOF) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "Relationship" && match(attr(e, "Type"), attr(e, "Id")) {
			return attr(e, "Target"), nil
		}
	}
}

// resolve turns a relationship target into a part name: absolute from the package root, or
// relative to the folder of the part that holds the relationship.
func resolve(from, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return path.Join(path.Dir(from), target)
}

// rawCell is a cell as the sheet stores it: its type attribute and its value (a number, a
// shared-string index, or the text itself).
type rawCell struct {
	typ, value string
}

// text is the cell as the import reads it: shared strings looked up, numbers written plainly,
// and a number in a date column read as the spreadsheet's date serial.
func (c rawCell) text(shared map[int]string, dateColumn, date1904 bool) string {
	switch c.typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(c.value))
		if err != nil {
			return ""
		}
		return shared[i]
	case "inlineStr", "str", "b", "e":
		return c.value
	case "d": // ISO 8601 date and time
		day, _, _ := strings.Cut(c.value, "T")
		return day
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(c.value), 64)
	if err != nil {
		return c.value
	}
	if dateColumn {
		if t, err := excelize.ExcelDateToTime(f, date1904); err == nil {
			return t.Format("2006-01-02")
		}
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

type rawRow struct {
	line  int
	cells []rawCell
}

// sheetRows reads the data rows of a worksheet, only the template's columns of each, and the
// shared-string indexes they use. A row counts once it holds a value in those columns; more
// than MaxImportRows of them stop the reading.
func (p *xlsxPackage) sheetRows(sheet string) ([]rawRow, map[int]bool, error) {
	r, ok, err := p.open(sheet)
	if !ok || err != nil {
		return nil, nil, errNotXLSX
	}
	defer r.close()
	var rows []rawRow
	wanted := map[int]bool{}
	var row rawRow
	col, filled := 0, false
	for {
		tok, err := r.next()
		if errors.Is(err, io.EOF) {
			return rows, wanted, nil
		}
		if err != nil {
			return nil, nil, err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "row":
				line := row.line + 1
				if ref := attr(e, "r"); ref != "" {
					if line, err = strconv.Atoi(ref); err != nil || line < 1 || line > excelize.TotalRows {
						return nil, nil, errNotXLSX
					}
				}
				row, col, filled = rawRow{line: line, cells: make([]rawCell, len(importColumns))}, 0, false
			case "c":
				col++
				if ref := attr(e, "r"); ref != "" {
					if col, _, err = excelize.CellNameToCoordinates(ref); err != nil {
						return nil, nil, errNotXLSX
					}
				}
				// outside a row, beyond the template, or the header
				if row.cells == nil || col > len(importColumns) || row.line == 1 {
					if err := r.skip(); err != nil {
						return nil, nil, err
					}
					continue
				}
				c, err := readCell(r, e)
				if err != nil {
					return nil, nil, err
				}
				row.cells[col-1] = c
				if strings.TrimSpace(c.value) != "" {
					filled = true
				}
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "row":
				done, wasFilled := row, filled
				row.cells, filled = nil, false // a cell after the row's end belongs to no row
				if !wasFilled {
					continue
				}
				if len(rows) == MaxImportRows {
					return nil, nil, errTooManyRows
				}
				rows = append(rows, done)
				for _, c := range done.cells {
					if c.typ == "s" {
						if i, err := strconv.Atoi(strings.TrimSpace(c.value)); err == nil {
							wanted[i] = true
						}
					}
				}
			case "sheetData":
				return rows, wanted, nil
			}
		}
	}
}

// readCell reads a <c> element whose start was just read: its <v> value, or the text of an
// inline string.
func readCell(r *xmlReader, start xml.StartElement) (rawCell, error) {
	c := rawCell{typ: attr(start, "t")}
	var text strings.Builder
	t := textReader{}
	depth := r.depth
	for {
		tok, err := r.next()
		if err != nil {
			return c, err
		}
		if _, end := tok.(xml.EndElement); end && r.depth < depth {
			c.value = text.String()
			return c, nil
		}
		t.take(tok, &text, "v", "t")
	}
}

// sharedStrings returns the shared strings whose indexes are wanted.
func (p *xlsxPackage) sharedStrings(name string, wanted map[int]bool) (map[int]string, error) {
	out := make(map[int]string, len(wanted))
	if len(wanted) == 0 {
		return out, nil
	}
	r, ok, err := p.open(name)
	if !ok || err != nil {
		return nil, errNotXLSX
	}
	defer r.close()
	for i := 0; len(out) < len(wanted); {
		tok, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		e, ok := tok.(xml.StartElement)
		if !ok || e.Name.Local != "si" {
			continue
		}
		if !wanted[i] {
			if err := r.skip(); err != nil {
				return nil, err
			}
			i++
			continue
		}
		var text strings.Builder
		t := textReader{}
		for depth := r.depth; ; {
			tok, err := r.next()
			if err != nil {
				return nil, err
			}
			if _, end := tok.(xml.EndElement); end && r.depth < depth {
				break
			}
			t.take(tok, &text, "t")
		}
		out[i] = text.String()
		i++
	}
	return out, nil
}

// textReader collects the character data of the named elements, leaving out phonetic runs
// (<rPh>), up to maxCellBytes.
type textReader struct {
	in, phonetic int
}

func (t *textReader) take(tok xml.Token, into *strings.Builder, names ...string) {
	switch e := tok.(type) {
	case xml.StartElement:
		if e.Name.Local == "rPh" {
			t.phonetic++
		}
		for _, n := range names {
			if e.Name.Local == n {
				t.in++
			}
		}
	case xml.EndElement:
		if e.Name.Local == "rPh" {
			t.phonetic--
		}
		for _, n := range names {
			if e.Name.Local == n {
				t.in--
			}
		}
	case xml.CharData:
		if t.in > 0 && t.phonetic == 0 && into.Len() < maxCellBytes {
			into.Write(e[:min(len(e), maxCellBytes-into.Len())])
		}
	}
}
