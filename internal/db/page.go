package db

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
	List  []T   `json:"list"`
}
