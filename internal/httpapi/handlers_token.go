package httpapi

import (
	"encoding/base64"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/kit"
	"chargeops/internal/token"
)

// Tokens (idTags), the unknown-token policy and the local lists (docs/tokens.md).

func (s *Server) tokenList(c *Ctx, in token.ListFilter) (db.List[token.Token], error) {
	return s.Tokens.List(c, c.P, in)
}

func (s *Server) tokenDetail(c *Ctx, in IDInput) (token.Token, error) {
	return s.Tokens.Get(c, c.P, in.ID)
}

func (s *Server) tokenAdd(c *Ctx, in token.Form) (IDAnswer, error) {
	id, err := s.Tokens.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) tokenUpdate(c *Ctx, in token.Form) (*Empty, error) {
	return nil, s.Tokens.Update(c, c.P, in)
}

func (s *Server) tokenBlock(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Tokens.SetBlocked(c, c.P, in.IDs, true)
}

func (s *Server) tokenUnblock(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Tokens.SetBlocked(c, c.P, in.IDs, false)
}

// TokenExpiryInput sets the expiry of tokens.
type TokenExpiryInput struct {
	IDs       kit.IDs `json:"ids"`
	ExpiresAt int64   `json:"expiresAt"` // unix ms, 0: never
}

func (in TokenExpiryInput) validate() error { return in.IDs.Check() }

func (s *Server) tokenExpiry(c *Ctx, in TokenExpiryInput) (*Empty, error) {
	return nil, s.Tokens.SetExpiry(c, c.P, in.IDs, in.ExpiresAt)
}

func (s *Server) tokenDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Tokens.Delete(c, c.P, in.IDs)
}

// TokenFileInput is an xlsx file (base64) of one customer's tokens.
type TokenFileInput struct {
	CustomerID int64  `json:"customerId"`
	FileName   string `json:"fileName"`
	Content    string `json:"content"`
}

func (s *Server) tokenImport(c *Ctx, in TokenFileInput) (token.ImportResult, error) {
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	if err != nil {
		return token.ImportResult{}, apperr.New(apperr.Invalid, "err.import_not_xlsx")
	}
	loc, err := time.LoadLocation(s.opt.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	return s.Tokens.Import(c, c.P, token.ImportInput{CustomerID: in.CustomerID, Content: raw, Locale: c.Locale, Location: loc})
}

func (s *Server) tokenTemplate(c *Ctx, _ Empty) (*File, error) {
	b, err := token.Template(c.Locale)
	return &File{Name: "token-import-template.xlsx", ContentType: xlsxType, Body: b}, err
}

// TokenCustomerQuery is the ?customerId= of a GET.
type TokenCustomerQuery struct {
	CustomerID int64 `json:"customerId"`
}

func (s *Server) tokenPolicy(c *Ctx, in TokenCustomerQuery) (token.Policy, error) {
	return s.Tokens.GetPolicy(c, c.P, in.CustomerID)
}

func (s *Server) tokenPolicyUpdate(c *Ctx, in token.Policy) (*Empty, error) {
	return nil, s.Tokens.SetPolicy(c, c.P, in)
}

func (s *Server) tokenListState(c *Ctx, in FleetDeviceQuery) (token.ListState, error) {
	return s.Tokens.State(c, c.P, in.DeviceID)
}

func (s *Server) tokenListSend(c *Ctx, in token.SendInput) (fleet.SendResult, error) {
	res, err := s.Tokens.Send(c, c.P, in)
	localiseSent(c, &res)
	return res, err
}
