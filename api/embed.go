// Package api holds the contract shared by the Go server and the React console: the
// permission-key catalogue (permissions.json) and the generated OpenAPI document (openapi.json).
package api

import _ "embed"

// PermissionsJSON is the permission-key catalogue of docs/architecture.md#permissions.
//
//go:embed permissions.json
var PermissionsJSON []byte
