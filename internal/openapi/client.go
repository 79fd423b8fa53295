package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Client calls the OpenAPI v1 as an application: every request signed (the demo's billing
// integration, chargeops' own tools). Integrators write their own from docs/openapi.md.
type Client struct {
	Base, AppID string
	Secret      []byte
	HTTP        *http.Client
}

// Answer is the envelope of an OpenAPI answer.
type Answer struct {
	Status  int             `json:"-"`
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// Do sends a signed request: pathQuery is the path with its query (sent in canonical form),
// body (nil: none) is sent as JSON.
func (c *Client) Do(ctx context.Context, method, pathQuery string, body any) (Answer, error) {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return Answer{}, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+pathQuery, bytes.NewReader(raw))
	if err != nil {
		return Answer{}, err
	}
	// Sent as signed: the guard refuses a query that is not in canonical form (CheckQuery).
	req.URL.RawQuery = CanonicalQuery(req.URL.RawQuery)
	req.Header.Set("Content-Type", "application/json")
	SignRequest(req, raw, c.AppID, c.Secret, time.Now())
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return Answer{}, err
	}
	var a Answer
	if err := json.Unmarshal(b, &a); err != nil {
		return Answer{}, fmt.Errorf("openapi %s %s: HTTP %d, not an envelope", method, pathQuery, resp.StatusCode)
	}
	a.Status = resp.StatusCode
	return a, nil
}
