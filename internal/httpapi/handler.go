package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/application"
	"chargeops/internal/auth"
)

// Ctx is what a handler gets besides its decoded input.
type Ctx struct {
	context.Context
	W http.ResponseWriter
	R *http.Request
	P *access.Principal // nil on public routes without a session
	// App is the calling application on a signed (OpenAPI) route; P is then its bound user.
	App *application.App
	// sessionErr is why an optional session was not resolved (20001-20004).
	sessionErr error
	Locale     string
	Client     auth.Client
	body       []byte
}

// Handler is a typed endpoint: In is decoded from the JSON body (or the query for GET), Out is
// the envelope's data. The types also describe the endpoint in the OpenAPI document.
type Handler struct {
	in, out reflect.Type
	serve   func(c *Ctx) (any, error)
	raw     bool // the handler wrote its own answer (event streams, files)
}

// validator is an input that checks itself once decoded (e.g. the id list of an action).
type validator interface{ validate() error }

// Empty is the input or output of an endpoint that has none.
type Empty struct{}

// H makes a Handler from a typed function.
func H[In, Out any](fn func(c *Ctx, in In) (Out, error)) Handler {
	return Handler{
		in:  reflect.TypeFor[In](),
		out: reflect.TypeFor[Out](),
		serve: func(c *Ctx) (any, error) {
			var in In
			if err := c.decode(&in); err != nil {
				return nil, err
			}
			if v, ok := any(in).(validator); ok {
				if err := v.validate(); err != nil {
					return nil, err
				}
			}
			return fn(c, in)
		},
	}
}

var errBadJSON = apperr.New(apperr.Invalid, "err.bad_json")

func (c *Ctx) decode(dst any) error {
	if c.R.Method == http.MethodGet {
		return decodeQuery(c.R.URL.Query(), dst)
	}
	if len(bytes.TrimSpace(c.body)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(c.body))
	if err := dec.Decode(dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return apperr.InvalidField(typeErr.Field, "err.invalid")
		}
		return errBadJSON
	}
	if dec.More() {
		return errBadJSON
	}
	return nil
}

// readBody reads at most limit bytes; a larger body is refused.
func readBody(r *http.Request, limit int) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return nil, errBadJSON
	}
	if len(b) > limit {
		return nil, apperr.New(apperr.Invalid, "err.body_too_large")
	}
	return b, nil
}

// decodeQuery fills the exported, json-tagged scalar fields of dst (and of embedded structs)
// from URL query values.
func decodeQuery(q map[string][]string, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	if v.Kind() != reflect.Struct {
		return nil
	}
	return fillStruct(q, v)
}

func fillStruct(q map[string][]string, v reflect.Value) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if err := fillStruct(q, v.Field(i)); err != nil {
				return err
			}
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		vals, ok := q[name]
		if !ok || len(vals) == 0 || name == "" || name == "-" {
			continue
		}
		fv := v.Field(i)
		s := vals[0]
		if fv.Kind() == reflect.Pointer { // optional filter (e.g. *int): set when given
			fv.Set(reflect.New(fv.Type().Elem()))
			fv = fv.Elem()
		}
		switch fv.Kind() {
		case reflect.String:
			fv.SetString(s)
		case reflect.Int, reflect.Int64, reflect.Int32:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return apperr.InvalidField(name, "err.invalid")
			}
			fv.SetInt(n)
		case reflect.Bool:
			b, err := strconv.ParseBool(s)
			if err != nil {
				return apperr.InvalidField(name, "err.invalid")
			}
			fv.SetBool(b)
		}
	}
	return nil
}

// File is an answer that is a download rather than an envelope (xlsx exports, templates).
type File struct {
	Name        string
	ContentType string
	Body        []byte
}

func (f *File) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+f.Name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(f.Body)
}
