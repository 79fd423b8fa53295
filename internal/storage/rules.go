package storage

import (
	"bytes"
	"fmt"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"chargeops/internal/apperr"
)

// Upload kinds and their rules (docs/storage.md, "Upload rules"): the extensions a kind
// accepts, its size limit and the type list its message names. Every upload is checked by its
// extension AND by its content (magic bytes), on the server; SVG and HTML are never accepted.
const (
	KindImage  = "image"
	KindFile   = "file"
	KindVideo  = "video"
	KindLegacy = "legacy"
	KindIcon   = "icon"
)

// Rule is what one kind accepts.
type Rule struct {
	Kind     string
	Exts     []string // lower case, without the dot
	MaxBytes int64
	TypeList string // as the message names them
}

const mb = 1 << 20

var rules = map[string]Rule{
	KindImage:  {KindImage, []string{"jpg", "jpeg", "png"}, 20 * mb, "jpg, jpeg, png"},
	KindFile:   {KindFile, []string{"doc", "docx", "xls", "xlsx", "ppt", "pptx", "pdf", "txt", "zip", "rar", "7z"}, 100 * mb, "doc, docx, xls, xlsx, ppt, pptx, pdf, txt, zip, rar, 7z"},
	KindVideo:  {KindVideo, []string{"mp4", "3gp"}, 200 * mb, "mp4, 3gp"},
	KindLegacy: {KindLegacy, []string{"jpg", "png", "doc", "docx", "xls", "xlsx", "zip", "gz", "data", "json", "txt", "csv"}, 50 * mb, "jpg, png, doc, docx, excel, zip, gz, data, json, txt, csv"},
	KindIcon:   {KindIcon, []string{"jpg", "png"}, 500 << 10, "jpg, png"},
}

// RuleOf returns the rule of a kind ("" is image, the default of the console's uploader).
func RuleOf(kind string) (Rule, bool) {
	if kind == "" {
		kind = KindImage
	}
	r, ok := rules[kind]
	return r, ok
}

// HeadBytes is how many leading bytes the content check reads.
const HeadBytes = 512

// content classes an extension must match by its magic bytes.
const (
	classJPEG = "jpeg"
	classPNG  = "png"
	classPDF  = "pdf"
	classZIP  = "zip"  // zip and the office open XML formats (docx, xlsx, pptx)
	classOLE2 = "ole2" // doc, xls, ppt
	classRAR  = "rar"
	class7Z   = "7z"
	classGZ   = "gzip"
	classMP4  = "mp4"
	class3GP  = "3gp"
	classText = "text" // UTF-8 without NUL, not HTML or XML/SVG
)

var extClass = map[string]string{
	"jpg": classJPEG, "jpeg": classJPEG, "png": classPNG, "pdf": classPDF,
	"zip": classZIP, "docx": classZIP, "xlsx": classZIP, "pptx": classZIP,
	"doc": classOLE2, "xls": classOLE2, "ppt": classOLE2,
	"rar": classRAR, "7z": class7Z, "gz": classGZ, "mp4": classMP4, "3gp": class3GP,
	"txt": classText, "csv": classText, "json": classText, "data": classText,
}

// ContentTypes is the type each accepted extension is stored and served as.
var ContentTypes = map[string]string{
	"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "pdf": "application/pdf",
	"zip": "application/zip", "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	"doc":  "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
	"rar": "application/vnd.rar", "7z": "application/x-7z-compressed", "gz": "application/gzip",
	"mp4": "video/mp4", "3gp": "video/3gpp", "txt": "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8",
	"json": "application/json", "data": "application/octet-stream",
}

// ContentTypeOf is the stored type of a key by its extension (application/octet-stream when
// the extension is not one uploads accept).
func ContentTypeOf(key string) string {
	if ct, ok := ContentTypes[Ext(key)]; ok {
		return ct
	}
	return "application/octet-stream"
}

// Ext is the lower-cased extension of a name, without the dot ("" when it has none).
func Ext(name string) string {
	e := path.Ext(path.Base(strings.ReplaceAll(name, "\\", "/")))
	return strings.ToLower(strings.TrimPrefix(e, "."))
}

// TooBig is the error of an upload over the kind's limit (messages in
// internal/i18n/messages_storage.go).
func (r Rule) TooBig() error {
	return apperr.New(apperr.Invalid, "err.upload_too_big").With(map[string]any{"maxSize": humanSize(r.MaxBytes)})
}

func errType(r Rule) error {
	return apperr.New(apperr.Invalid, "err.upload_type").With(map[string]any{"typeList": r.TypeList})
}

// errContent is the error of a file whose extension is accepted but whose bytes are not of that
// format (damaged, cut short, or renamed): it names the extension, not the list of types, so
// the user is not told the type is wrong when the file is (issue 30 item 12).
func errContent(name string) error {
	return apperr.New(apperr.Invalid, "err.upload_content").With(map[string]any{"ext": Ext(name)})
}

// errEmpty is the error of an empty file.
var errEmpty = apperr.New(apperr.Invalid, "err.upload_empty")

func humanSize(n int64) string {
	if n%mb == 0 {
		return fmt.Sprintf("%d MB", n/mb)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// CheckName checks a file name's extension against the kind's list.
func (r Rule) CheckName(name string) error {
	ext := Ext(name)
	for _, e := range r.Exts {
		if e == ext {
			return nil
		}
	}
	return errType(r)
}

// CheckSize checks a size against the kind's limit.
func (r Rule) CheckSize(size int64) error {
	if size > r.MaxBytes {
		return r.TooBig()
	}
	if size <= 0 {
		return errEmpty
	}
	return nil
}

// CheckContent checks that head (the first bytes of the object) is what the extension of name
// says: the magic bytes of its format, or plain UTF-8 text for the text formats.
func (r Rule) CheckContent(name string, head []byte) error {
	if err := r.CheckName(name); err != nil {
		return err
	}
	if len(head) == 0 {
		return errEmpty
	}
	if !matches(extClass[Ext(name)], head) {
		return errContent(name)
	}
	return nil
}

// Check is CheckName, CheckSize and CheckContent together.
func (r Rule) Check(name string, size int64, head []byte) error {
	if err := r.CheckName(name); err != nil {
		return err
	}
	if err := r.CheckSize(size); err != nil {
		return err
	}
	return r.CheckContent(name, head)
}

func matches(class string, b []byte) bool {
	switch class {
	case classJPEG:
		return bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF})
	case classPNG:
		return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n"))
	case classPDF:
		return bytes.HasPrefix(b, []byte("%PDF-"))
	case classZIP:
		return bytes.HasPrefix(b, []byte("PK\x03\x04")) || bytes.HasPrefix(b, []byte("PK\x05\x06"))
	case classOLE2:
		return bytes.HasPrefix(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	case classRAR:
		return bytes.HasPrefix(b, []byte("Rar!\x1a\x07"))
	case class7Z:
		return bytes.HasPrefix(b, []byte{'7', 'z', 0xBC, 0xAF, 0x27, 0x1C})
	case classGZ:
		return bytes.HasPrefix(b, []byte{0x1F, 0x8B})
	case classMP4, class3GP:
		if len(b) < 12 || string(b[4:8]) != "ftyp" {
			return false
		}
		is3GP := bytes.HasPrefix(b[8:12], []byte("3gp")) || bytes.HasPrefix(b[8:12], []byte("3g2"))
		return class == classMP4 || is3GP
	case classText:
		return isPlainText(b)
	}
	return false
}

// isPlainText: UTF-8 (a sequence cut at the end of head is allowed), no NUL, and not markup a
// browser would render (HTML, XML/SVG).
func isPlainText(b []byte) bool {
	if len(b) == 0 || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	if !utf8.Valid(b) {
		// The head may end inside a character: drop that one incomplete sequence only.
		if len(b) < HeadBytes {
			return false
		}
		for i := 1; i < utf8.UTFMax && i < len(b); i++ {
			if utf8.RuneStart(b[len(b)-i]) {
				b = b[:len(b)-i]
				break
			}
		}
		if !utf8.Valid(b) {
			return false
		}
	}
	// Sniffed after a byte-order mark too: the sniffer takes a BOM for plain text whatever follows.
	bare := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF")), " \t\r\n")
	ct := http.DetectContentType(bare)
	if strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "text/xml") {
		return false
	}
	lower := bytes.ToLower(bare)
	return !bytes.HasPrefix(lower, []byte("<svg")) && !bytes.HasPrefix(lower, []byte("<?xml")) && !bytes.HasPrefix(lower, []byte("<!doctype")) && !bytes.HasPrefix(lower, []byte("<html"))
}
