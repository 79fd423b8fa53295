package httpapi

import (
	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/auth"
	"chargeops/internal/menu"
)

// Sign-in, sign-out, session info and password reset (no session needed).

// PublicConfig is what the console needs before sign-in.
type PublicConfig struct {
	Captcha            bool   `json:"captcha"`
	DefaultLocale      string `json:"defaultLocale"`
	ShowLanguageSwitch bool   `json:"showLanguageSwitch"`
	TimeZone           string `json:"timeZone"`
	Version            string `json:"version"`
}

func (s *Server) publicConfig(c *Ctx, _ Empty) (PublicConfig, error) {
	return PublicConfig{Captcha: s.opt.Captcha, DefaultLocale: s.opt.DefaultLocale, ShowLanguageSwitch: s.opt.LanguageSwitch,
		TimeZone: s.opt.TimeZone, Version: s.opt.Version}, nil
}

func (s *Server) loginKey(c *Ctx, _ Empty) (auth.LoginKey, error) { return s.Auth.LoginKey(c) }

func (s *Server) captcha(c *Ctx, _ Empty) (auth.Captcha, error) { return s.Auth.NewCaptcha(c) }

// LoginAnswer is the data of a successful login; the session itself travels in cookies.
type LoginAnswer struct {
	TokenID   string `json:"tokenId"`
	CSRFToken string `json:"csrfToken"`
}

func (s *Server) login(c *Ctx, in auth.LoginInput) (LoginAnswer, error) {
	token, sess, err := s.Auth.Login(c, in, c.Client)
	if err != nil {
		return LoginAnswer{}, err
	}
	s.setSessionCookies(c.W, c.R, token, sess.CSRFToken)
	return LoginAnswer{TokenID: sess.ID[:16], CSRFToken: sess.CSRFToken}, nil
}

func (s *Server) logout(c *Ctx, _ Empty) (*Empty, error) {
	if c.P != nil {
		if err := s.Auth.Logout(c, c.P, c.Client); err != nil {
			return nil, err
		}
	}
	s.clearCookies(c.W, c.R)
	return nil, nil
}

// InfoUser is the signed-in user as the console shows it.
type InfoUser struct {
	ID         int64  `json:"id"`
	UserName   string `json:"userName"`
	NickName   string `json:"nickName"`
	Email      string `json:"email"`
	Root       bool   `json:"root"`
	Vendor     bool   `json:"vendor"`
	CustomerID int64  `json:"customerId"`
	Avatar     string `json:"avatar"`
	Locale     string `json:"locale"`
	TimeZone   string `json:"timeZone"`
}

// InfoRole is the caller's role: every key held (auth), the menu keys among them, and the
// sidebar menus held as menu management left them (names, parent, sort, URL, hidden).
type InfoRole struct {
	ID    int64        `json:"id"`
	Name  string       `json:"name"`
	Auth  []string     `json:"auth"`
	Menu  []string     `json:"menu"`
	Menus []menu.Entry `json:"menus"`
	access.RoleSettings
}

// Info is the answer of /api/unauth/info.
type Info struct {
	User      InfoUser     `json:"user"`
	Role      InfoRole     `json:"role"`
	TokenID   string       `json:"tokenId"`
	CSRFToken string       `json:"csrfToken"`
	Privacy   auth.Privacy `json:"privacy"`
}

func (s *Server) info(c *Ctx, _ Empty) (Info, error) {
	if c.P == nil {
		if c.sessionErr != nil {
			return Info{}, c.sessionErr
		}
		return Info{}, apperr.ErrNotLoggedIn
	}
	u, err := s.Users.Get(c, c.P.UserID)
	if err != nil {
		return Info{}, err
	}
	locale := u.Locale
	if locale == "" {
		locale = c.Locale
	}
	privacy, err := s.Auth.PrivacyFor(c, u.PrivacyVersion, locale)
	if err != nil {
		return Info{}, err
	}
	keys := c.P.KeyList()
	menus, err := s.Menus.SidebarFor(c, c.P)
	if err != nil {
		return Info{}, err
	}
	return Info{
		User: InfoUser{ID: u.ID, UserName: u.UserName, NickName: u.NickName, Email: u.Email, Root: u.Root, Vendor: u.Vendor,
			CustomerID: u.CustomerID, Avatar: u.Avatar, Locale: u.Locale, TimeZone: s.opt.TimeZone},
		Role:      InfoRole{ID: u.RoleID, Name: u.RoleName, Auth: keys, Menu: access.MenuKeys(keys), Menus: menus, RoleSettings: c.P.Role},
		TokenID:   c.P.SessionID[:16],
		CSRFToken: c.P.CSRFToken,
		Privacy:   privacy,
	}, nil
}

func (s *Server) resetMail(c *Ctx, in auth.ResetRequest) (*Empty, error) {
	if in.Locale == "" {
		in.Locale = c.Locale
	}
	return nil, s.Auth.RequestReset(c, in, c.Client)
}

// TokenInput carries a reset-link token.
type TokenInput struct {
	Token string `json:"token"`
}

// MaskedEmail is where a reset link was sent.
type MaskedEmail struct {
	Email string `json:"email"`
}

func (s *Server) resetValid(c *Ctx, in TokenInput) (MaskedEmail, error) {
	e, err := s.Auth.ValidateReset(c, in.Token)
	return MaskedEmail{Email: e}, err
}

func (s *Server) resetPassword(c *Ctx, in auth.ResetInput) (*Empty, error) {
	return nil, s.Auth.Reset(c, in, c.Client)
}
