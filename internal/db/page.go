package db

import (
	"encoding/base64"
	"encoding/json"
)

// Page is the bounded pagination of every list (decisions §3): 1-based page, size 10/20/50/100.
type Page struct {
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
}

// MaxOffsetPages bounds how deep offset pagination may go; deeper pages need a narrower filter.
const MaxOffsetPages = 10000

// Normalize applies the defaults: page 1, size 20, and sizes outside 10/20/50/100 become 20.
func (p Page) Normalize() Page {
	if p.Page < 1 {
		p.Page = 1
	}
	if p.Page > MaxOffsetPages {
		p.Page = MaxOffsetPages
	}
	switch p.PageSize {
	case 10, 20, 50, 100:
	default:
		p.PageSize = 20
	}
	return p
}

// LimitOffset returns the SQL LIMIT and OFFSET values.
func (p Page) LimitOffset() (int, int) {
	n := p.Normalize()
	return n.PageSize, (n.Page - 1) * n.PageSize
}

// List is the answer of every list call.
type List[T any] struct {
	Total int64 `json:"total"`
	// TotalMore: Total is a lower bound; the list is windowed (see MaxWindow).
	TotalMore bool `json:"totalMore,omitempty"`
	List      []T  `json:"list"`
}

// MaxWindow bounds how deep the lists of very large tables (devices, protocol logs) are paged
// and counted: past it the total reads "10,000 or more" and the screen asks for a narrower
// filter, so every page stays a bounded index walk.
const MaxWindow = 10000

// TimeKey is where a newest-first keyset walk on (a time, id) continues: the last row of the
// page before. It travels as an opaque string (base64url of JSON), the answer's next and the
// next call's cursor.
type TimeKey struct {
	At int64 `json:"t"`
	ID int64 `json:"i"`
}

// String is the key as a cursor.
func (k TimeKey) String() string {
	b, _ := json.Marshal(k)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseTimeKey reads a cursor made by String; ok is false for anything else.
func ParseTimeKey(s string) (k TimeKey, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &k)
	}
	return k, err == nil && k.ID > 0 && k.At >= 0
}
