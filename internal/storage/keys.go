package storage

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/apperr"
)

// Object naming (docs/storage.md, "Object keys"): <folder>/<random id>-<unix ms>[-<n>].<ext>.
// The folder is "images" unless the file name carries one ("docs/a.pdf" → "docs"); the
// extension is the original's, lower-cased; n counts up while the name is taken.

// DefaultFolder is where uploads go when their name names no folder.
const DefaultFolder = "images"

// reservedFolders hold what the server itself stores; no upload may name them.
var reservedFolders = map[string]bool{"firmware": true, "diagnostics": true}

var folderSegment = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// FolderOf returns the folder a file name asks for ("" → DefaultFolder): its directory part,
// 1 to 4 segments of letters, digits, '_' and '-'.
func FolderOf(name string) (string, error) {
	name = strings.ReplaceAll(name, "\\", "/")
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return DefaultFolder, nil
	}
	dir := strings.Trim(name[:i], "/")
	if dir == "" {
		return DefaultFolder, nil
	}
	segs := strings.Split(dir, "/")
	if len(segs) > 4 || reservedFolders[strings.ToLower(segs[0])] {
		return "", apperr.InvalidField("fileName", "err.invalid")
	}
	for _, s := range segs {
		if !folderSegment.MatchString(s) {
			return "", apperr.InvalidField("fileName", "err.invalid")
		}
	}
	return dir, nil
}

// KeyBase is a new unique name without its counter: folder/<random id>-<unix ms>.
func KeyBase(folder string, now time.Time) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s/%s-%d", folder, hex.EncodeToString(b), now.UnixMilli())
}

// KeyWithCounter is the n-th candidate of a base: n 0 is the base itself, then base-1, base-2, ...
func KeyWithCounter(base, ext string, n int) string {
	k := base
	if n > 0 {
		k += "-" + strconv.Itoa(n)
	}
	if ext != "" {
		k += "." + ext
	}
	return k
}
