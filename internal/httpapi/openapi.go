package httpapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// OpenAPI returns the OpenAPI 3 document of every route of the table, built from the handlers'
// input and output types, so the document cannot drift from the code. api/openapi.json is a
// committed copy (the React client's types are generated from it); a test keeps it current.
func (s *Server) OpenAPI() []byte {
	g := &schemaGen{components: map[string]any{}, types: map[string]reflect.Type{}}
	paths := map[string]map[string]any{}
	for _, rt := range s.routes {
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
		"info": map[string]any{"title": "chargeops API", "version": "1",
			"description": "Console and integration API of chargeops. Every answer is an envelope {code, message, data}; state-changing calls need the X-CSRF-Token header (docs/api.md)."},
		"paths": paths,
		"components": map[string]any{
			"schemas": g.components,
			"securitySchemes": map[string]any{
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": TokenCookie},
				"csrf":    map[string]any{"type": "apiKey", "in": "header", "name": CSRFHeader},
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
// is this one or db. Generic instances name their argument: db.List[user.User] → "ListUser".
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
