// Package storagetest holds real sample files of every accepted upload type for tests.
package storagetest

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
)

// Sample returns real content of a file with the given extension (lower case): a valid zip for
// zip and the office open XML formats, a gzip stream, and the magic bytes of the others
// followed by padding.
func Sample(ext string) []byte {
	pad := bytes.Repeat([]byte{0}, 64)
	switch ext {
	case "jpg", "jpeg":
		return append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0}, pad...)
	case "png":
		return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), pad...)
	case "pdf":
		return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	case "zip", "docx", "xlsx", "pptx":
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, _ := zw.Create("[Content_Types].xml")
		_, _ = w.Write([]byte(`<?xml version="1.0"?><Types/>`))
		_ = zw.Close()
		return b.Bytes()
	case "doc", "xls", "ppt":
		return append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, pad...)
	case "rar":
		return append([]byte("Rar!\x1a\x07\x01\x00"), pad...)
	case "7z":
		return append([]byte{'7', 'z', 0xBC, 0xAF, 0x27, 0x1C, 0, 4}, pad...)
	case "gz":
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write([]byte("charger log line\n"))
		_ = zw.Close()
		return b.Bytes()
	case "mp4":
		return append([]byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"), pad...)
	case "3gp":
		return append([]byte("\x00\x00\x00\x14ftyp3gp4\x00\x00\x00\x003gp4"), pad...)
	case "txt", "data":
		return []byte("charger 0001 rebooted at 10:00\n充电桩重启\n")
	case "csv":
		return []byte("sn,name\nA-1,Alpha 1\n")
	case "json":
		return []byte(`{"sn":"A-1","ok":true}`)
	}
	return nil
}

// HTML is a page that must never be accepted, whatever its name.
var HTML = []byte("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>")

// SVG is an image type that must never be accepted.
var SVG = []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`)
