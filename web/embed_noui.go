//go:build noui

package web

import "io/fs"

// FS returns nil: this binary was built without the console (go build -tags noui).
func FS() fs.FS { return nil }
