package fleet

import (
	"context"
	"sync/atomic"
)

// Tokens (idTags) are a customer's (docs/decisions.md §6); the core asks a TokenAuthority
// (internal/token) how to answer a token presented by a charger or used by an operator. Without
// one every token is Accepted.

// TokenVerdict is the core's answer for a token; each adapter writes it in its protocol's
// words (internal/gateway/ocpp16: an OCPP 1.6 AuthorizationStatus).
type TokenVerdict int

// Token verdicts a TokenAuthority answers. The zero value is no verdict.
const (
	TokenAccepted TokenVerdict = iota + 1
	TokenBlocked
	TokenExpired
	TokenInvalid
	TokenConcurrentTx // accepted elsewhere: the token is in another open session
)

// TokenAnswer is the core's answer for a token: the verdict, the token's parent (group) idTag
// and its expiry (unix ms, 0: none).
type TokenAnswer struct {
	Status      TokenVerdict
	ParentIDTag string
	ExpiryDate  int64
}

// TokenAuthority answers for the tokens of the device's customer, applying the customer's
// policy for unknown tokens (accept and record, or refuse).
type TokenAuthority interface {
	Authorize(ctx context.Context, dev *Device, idTag string) (TokenAnswer, error)
}

// tokenAuthority is set once at start (SetTokenAuthority); nil means accept every token.
type tokenAuthority struct {
	p atomic.Pointer[TokenAuthority]
}

// SetTokenAuthority installs the authority the gateway and the operator actions consult.
func (s *Service) SetTokenAuthority(a TokenAuthority) { s.tokens.p.Store(&a) }

// Authorize answers for idTag presented at dev: the authority's answer, or Accepted without one.
func (s *Service) Authorize(ctx context.Context, dev *Device, idTag string) (TokenAnswer, error) {
	if a := s.tokens.p.Load(); a != nil && *a != nil {
		return (*a).Authorize(ctx, dev, idTag)
	}
	return TokenAnswer{Status: TokenAccepted}, nil
}
