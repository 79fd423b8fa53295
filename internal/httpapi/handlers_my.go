package httpapi

import (
	"chargeops/internal/auth"
	"chargeops/internal/user"
)

// The personal page and the privacy policy: every signed-in user, about themself.

// VersionInput names a privacy-policy version.
type VersionInput struct {
	Version string `json:"version"`
}

func (s *Server) acceptPrivacy(c *Ctx, in VersionInput) (*Empty, error) {
	return nil, s.Auth.AcceptPrivacy(c, c.P, in.Version)
}

func (s *Server) ownerDetail(c *Ctx, _ Empty) (user.User, error) { return s.Users.Get(c, c.P.UserID) }

func (s *Server) ownerUpdate(c *Ctx, in user.ProfileInput) (*Empty, error) {
	return nil, s.Users.UpdateProfile(c, c.P, in)
}

func (s *Server) ownerPassword(c *Ctx, in auth.ChangePasswordInput) (*Empty, error) {
	return nil, s.Auth.ChangePassword(c, c.P, in)
}

func (s *Server) ownerEmail(c *Ctx, in auth.ChangeEmailInput) (*Empty, error) {
	return nil, s.Auth.ChangeEmail(c, c.P, in)
}
