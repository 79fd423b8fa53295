package httpapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"chargeops/internal/openapi"
)

// OpenAPI returns the OpenAPI 3 document of every route of the table, built from the handlers'
// input and output types, so the document cannot drift from the code. api/openapi.json is a
// committed copy (the React client's types are generated from it); a test keeps it current.
func (s *Server) OpenAPI() []byte {
	return document(s.routes, "chargeops API",
		"Console and integration API of chargeops. Every answer is an envelope {code, message, data}; state-changing calls need the X-CSRF-Token header (docs/api.md). "+
			"Paths under /openapi/v1/ are the OpenAPI for third-party applications: signed requests, no session (docs/openapi.md).")
}

// OpenAPIV1 is the document of the OpenAPI v1 alone (the signed routes), served to
// integrators at /openapi/v1/openapi.json.
func (s *Server) OpenAPIV1() []byte {
	var signed []Route
	for _, rt := range s.routes {
		if rt.Signed {
			signed = append(signed, rt)
		}
	}
	return document(signed, "chargeops OpenAPI v1", openapiV1Description)
}

// openapiV1Description is the signature scheme, in the document itself (docs/openapi.md has
// the guide and examples).
const openapiV1Description = "The API for third-party applications. Every request is signed: headers X-App-Id (the application's appId), " +
	"X-Timestamp (unix seconds, at most 300 s off), X-Nonce (16-64 characters of A-Z a-z 0-9 - _, used once) and X-Signature: lowercase hex " +
	"HMAC-SHA256, keyed with the appSecret, of these lines joined by \\n: \"CHARGEOPS-HMAC-SHA256\", the method, the path, the canonical query " +
	"(pairs percent-encoded as RFC 3986, sorted by key then value, joined by &), the hex SHA-256 of the body (of the empty string when none), " +
	"the appId, the timestamp, the nonce. The query must be sent in that encoding, each key once (pairs in any order); any other form is refused with 10001. " +
	"The application acts as its bound user: the same keys and data scope as that user in the console. " +
	"Answers are an envelope {code, message, data}; refusals: 40001 headers missing or malformed, 40002 unknown appId, 40003 application disabled, " +
	"40004 timestamp out of window, 40005 nonce replayed, 40006 wrong signature, 40007 rate limit (HTTP 429), 40008 too many wrong signatures from this client address (a right signature is never refused by it), " +
	"40009 bound user disabled, 20013 no permission, 10002 not found, 10001 invalid input."

func document(routes []Route, title, description string) []byte {
	g := &schemaGen{components: map[string]any{}, types: map[string]reflect.Type{}}
	paths := map[string]map[string]any{}
	for _, rt := range routes {
		op := map[string]any{
			"summary":     rt.Summary,
			"operationId": operationID(rt.Method, rt.Path),
			"tags":        []string{rt.Tag},
			"x-objects":   rt.Objects.String(),
			"responses": map[string]any{"200": map[string]any{
				"description": "Envelope: code 0 and data, or a non-zero code and a localised message (docs/api.md).",
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
					"type":     "object",
					"required": []string{"code", "message", "data"},
					"properties": map[string]any{
						"code":    map[string]any{"type": "integer"},
						"message": map[string]any{"type": "string"},
						"data":    g.schema(rt.Handler.out),
					},
				}}},
			}},
		}
		switch rt.Access {
		case Public:
			op["security"] = []any{}
		case Session:
			op["x-permission"] = "common"
		case Keys:
			op["x-permission-keys"] = rt.Keys
			op["description"] = "Needs any one of the permission keys: " + strings.Join(rt.Keys, ", ") + "."
		case Root:
			op["x-permission"] = "root"
			op["description"] = "Super admin only."
		}
		if rt.Signed {
			op["security"] = []any{map[string]any{"appId": []string{}, "timestamp": []string{}, "nonce": []string{}, "signature": []string{}}}
		}
		if rt.Method == "GET" {
			if params := g.queryParams(rt.Handler.in); len(params) > 0 {
				op["parameters"] = params
			}
		} else if rt.Handler.in != reflect.TypeFor[Empty]() {
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": g.schema(rt.Handler.in)}}}
		}
		if paths[rt.Path] == nil {
			paths[rt.Path] = map[string]any{}
		}
		paths[rt.Path][strings.ToLower(rt.Method)] = op
	}
	doc := map[string]any{
		"openapi": "3.0.3",
		"info":    map[string]any{"title": title, "version": "1", "description": description},
		"paths":   paths,
		"components": map[string]any{
			"schemas": g.components,
			"securitySchemes": map[string]any{
				"session":   map[string]any{"type": "apiKey", "in": "cookie", "name": TokenCookie},
				"csrf":      map[string]any{"type": "apiKey", "in": "header", "name": CSRFHeader},
				"appId":     map[string]any{"type": "apiKey", "in": "header", "name": openapi.HeaderAppID},
				"timestamp": map[string]any{"type": "apiKey", "in": "header", "name": openapi.HeaderTimestamp},
				"nonce":     map[string]any{"type": "apiKey", "in": "header", "name": openapi.HeaderNonce},
				"signature": map[string]any{"type": "apiKey", "in": "header", "name": openapi.HeaderSignature,
					"description": "HMAC-SHA256 of the canonical request (see info.description of /openapi/v1/openapi.json)"},
			},
		},
		"security": []any{map[string]any{"session": []string{}, "csrf": []string{}}},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err) // the document is built from plain maps; failing here is a programming error
	}
	return append(b, '\n')
}

var nonWord = regexp.MustCompile(`[^A-Za-z0-9]+`)

func operationID(method, path string) string {
	parts := strings.Split(strings.TrimPrefix(path, "/api/"), "/")
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, p := range parts {
		if p == "" {
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return nonWord.ReplaceAllString(b.String(), "")
}

type schemaGen struct {
	components map[string]any
	types      map[string]reflect.Type // which Go type owns each component name
}

// componentName names a Go type in the document: qualified by its package, so that
// customer.ListFilter and site.ListFilter stay apart ("CustomerListFilter", "SiteListFilter"),
// unless the name already starts with the package ("device.Device" → "Device") or the package
// is this one or db; the packages below fleet name theirs as fleet.
// Generic instances name their argument: db.List[user.User] → "ListUser".
func componentName(t reflect.Type) string {
	name := t.Name()
	if i := strings.Index(name, "["); i >= 0 {
		arg := name[i+1 : len(name)-1]
		pkgPath, argName := "", arg
		if j := strings.LastIndex(arg, "."); j >= 0 {
			pkgPath, argName = arg[:j], arg[j+1:]
		}
		return nonWord.ReplaceAllString(name[:i]+qualify(pkgPath, argName), "")
	}
	return nonWord.ReplaceAllString(qualify(t.PkgPath(), name), "")
}

func qualify(pkgPath, name string) string {
	pkg := pkgPath[strings.LastIndex(pkgPath, "/")+1:]
	if strings.Contains(pkgPath, "/internal/fleet/") {
		pkg = "fleet" // the fleet core's packages (read models) name their types as one: FleetSessionView
	}
	if pkg == "" || pkg == "httpapi" || pkg == "db" || strings.HasPrefix(strings.ToLower(name), pkg) {
		return name
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + name
}

func (g *schemaGen) schema(t reflect.Type) map[string]any {
	switch t.Kind() {
	case reflect.Pointer:
		s := g.schema(t.Elem())
		if _, isRef := s["$ref"]; isRef {
			return map[string]any{"allOf": []any{s}, "nullable": true}
		}
		s["nullable"] = true
		return s
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		name := componentName(t)
		if name == "" {
			return g.object(t)
		}
		if other, seen := g.types[name]; seen && other != t {
			panic(fmt.Sprintf("openapi: %v and %v are both named %s", other, t, name))
		}
		g.types[name] = t
		if _, done := g.components[name]; !done {
			g.components[name] = map[string]any{} // placeholder against recursion
			g.components[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	return map[string]any{}
}

func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	g.fields(t, props)
	return map[string]any{"type": "object", "properties": props}
}

// fields adds t's JSON fields (embedded structs flattened, as encoding/json does).
func (g *schemaGen) fields(t reflect.Type, props map[string]any) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if f.Anonymous && tag == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.fields(ft, props)
				continue
			}
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		props[tag] = g.schema(f.Type)
	}
}

func (g *schemaGen) queryParams(t reflect.Type) []any {
	props := map[string]any{}
	if t.Kind() == reflect.Struct {
		g.fields(t, props)
	}
	var out []any
	for _, name := range slices.Sorted(maps.Keys(props)) {
		out = append(out, map[string]any{"name": name, "in": "query", "required": name == "id", "schema": props[name]})
	}
	return out
}
