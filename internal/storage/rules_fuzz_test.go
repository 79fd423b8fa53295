package storage

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckContent feeds any kind, file name and first bytes to the upload check (docs/storage.md,
// "Upload rules"). What must hold for an accepted upload:
//   - its extension is one of the kind's, and the content starts with that format's magic
//     bytes, or, for the text formats, is UTF-8 without NUL (a cut last character allowed);
//   - it is never markup a browser would render: Go's sniffer (the one browsers' rules are
//     modelled on) does not take the head, nor the head after a byte-order mark and blanks, for
//     HTML or XML, and it does not open with an SVG, XML, doctype or HTML tag;
//   - Check of the whole (name, size, head) agrees with CheckContent.
func FuzzCheckContent(f *testing.F) {
	for _, s := range []struct {
		kind, name string
		head       []byte
	}{
		{KindImage, "a.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
		{KindImage, "photo.JPG", []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'}},
		{KindImage, "x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		{KindFile, "notes.txt", []byte("hello, 世界\n")},
		{KindFile, "cut.txt", append(bytes.Repeat([]byte("a"), HeadBytes-1), 0xE4)},
		{KindFile, "page.txt", []byte("<!DOCTYPE html><html><script>alert(1)</script>")},
		{KindFile, "bom.txt", []byte("\xEF\xBB\xBF<script>alert(1)</script>")},
		{KindFile, "r.pdf", []byte("%PDF-1.7\n")},
		{KindFile, "b.docx", []byte("PK\x03\x04\x14\x00")},
		{KindFile, "o.doc", []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}},
		{KindFile, "a.rar", []byte("Rar!\x1a\x07\x00")},
		{KindFile, "a.7z", []byte{'7', 'z', 0xBC, 0xAF, 0x27, 0x1C}},
		{KindVideo, "v.mp4", []byte("\x00\x00\x00\x18ftypmp42")},
		{KindVideo, "v.3gp", []byte("\x00\x00\x00\x14ftyp3gp4")},
		{KindLegacy, "d.json", []byte(`{"a":1}`)},
		{KindLegacy, "x.gz", []byte{0x1F, 0x8B, 8}},
		{KindLegacy, `C:\dir\file.CSV`, []byte("a,b\n1,2\n")},
		{KindIcon, "i.png", []byte("\x89PNG")},
		{"", "default.jpeg", []byte{0xFF, 0xD8, 0xFF}},
		{"nope", "a.png", nil},
	} {
		f.Add(s.kind, s.name, s.head)
	}
	f.Fuzz(func(t *testing.T, kind, name string, head []byte) {
		if len(head) > HeadBytes {
			head = head[:HeadBytes]
		}
		ext := Ext(name)
		if ext != strings.ToLower(ext) || strings.ContainsAny(ext, `./\`) {
			t.Fatalf("Ext(%q) = %q", name, ext)
		}
		r, ok := RuleOf(kind)
		if !ok {
			return
		}
		err := r.CheckContent(name, head)
		if whole := r.Check(name, int64(len(head)), head); (whole == nil) != (err == nil) && len(head) > 0 {
			t.Fatalf("Check %v, CheckContent %v for %s %q", whole, err, kind, name)
		}
		if err != nil {
			return
		}
		if !slices.Contains(r.Exts, ext) || len(head) == 0 {
			t.Fatalf("%s upload %q with %d bytes accepted", kind, name, len(head))
		}
		if extClass[ext] == classText {
			checkText(t, name, head)
		}
	})
}

func checkText(t *testing.T, name string, head []byte) {
	t.Helper()
	if bytes.IndexByte(head, 0) >= 0 {
		t.Fatalf("text %q with NUL accepted", name)
	}
	body := head
	for i := 0; i < utf8.UTFMax-1 && !utf8.Valid(body) && len(body) > 0; i++ {
		body = body[:len(body)-1]
	}
	if !utf8.Valid(body) {
		t.Fatalf("text %q that is not UTF-8 accepted: %q", name, head)
	}
	bare := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF")), " \t\r\n\f")
	for _, b := range [][]byte{body, bare} {
		if ct := http.DetectContentType(b); strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "text/xml") {
			t.Fatalf("text %q sniffed as %s accepted: %q", name, ct, head)
		}
	}
	lower := bytes.ToLower(bare)
	for _, tag := range []string{"<svg", "<?xml", "<!doctype", "<html"} {
		if bytes.HasPrefix(lower, []byte(tag)) {
			t.Fatalf("text %q opening with %s accepted", name, tag)
		}
	}
}
