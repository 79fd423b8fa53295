// Package auth signs users in and out: login key and nonces, captcha, lock-out, sessions
// resolved into a Principal, password reset by mail, and the personal password/email changes.
package auth

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/mail"
	"chargeops/internal/passwd"
	"chargeops/internal/ratelimit"
	"chargeops/internal/role"
	"chargeops/internal/session"
	"chargeops/internal/setting"
	"chargeops/internal/user"
)

// Config is the part of the configuration sign-in needs.
type Config struct {
	Captcha   bool
	LockAfter int
	LockFor   time.Duration
	Location  *time.Location
	// PublicURL is where mailed links point (config.Config.LinkBase), never a request's Host.
	PublicURL string
}

// Deps are the services sign-in uses.
type Deps struct {
	DB        *db.DB
	Settings  *setting.Store
	Users     *user.Service
	Roles     *role.Service
	Sessions  *session.Store
	Limiter   *ratelimit.Limiter
	Mailer    *mail.Mailer
	ActionLog *actionlog.Store
}

// Service is the sign-in service.
type Service struct {
	Deps
	cfg       Config
	key       *rsa.PrivateKey
	keyID     string
	publicPEM string
}

// New loads (or on first start creates) the login key pair.
func New(ctx context.Context, d Deps, cfg Config) (*Service, error) {
	s := &Service{Deps: d, cfg: cfg}
	if err := s.loadKey(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Client is where a request comes from.
type Client struct {
	IP        string
	UserAgent string
}

// LoginInput is the login form as sent (docs/api.md).
type LoginInput struct {
	KeyID     string `json:"keyId"`
	UserName  string `json:"userName"`
	Password  string `json:"password"`
	CaptchaID string `json:"captchaId"`
	Captcha   string `json:"captcha"`
}

// Login limits per address.
const (
	loginsPerAddress = 30
	loginWindow      = 5 * time.Minute
)

// Login checks the form and starts a session. It returns the cookie token and the session.
func (s *Service) Login(ctx context.Context, in LoginInput, c Client) (string, session.Session, error) {
	if in.UserName == "" || in.Password == "" || (s.cfg.Captcha && in.Captcha == "") {
		return "", session.Session{}, apperr.InvalidField("userName, password, captcha", "err.required")
	}
	if ok, err := s.Limiter.Allow(ctx, "login:"+c.IP, loginsPerAddress, loginWindow); err != nil || !ok {
		return "", session.Session{}, firstErr(err, apperr.ErrRateLimited)
	}
	if err := s.CheckCaptcha(ctx, in.CaptchaID, in.Captcha); err != nil {
		return "", session.Session{}, err
	}
	name, err := s.decryptRaw(in.UserName)
	if err != nil {
		return "", session.Session{}, err
	}
	vals, err := s.OpenSealed(ctx, in.KeyID, in.Password)
	if err != nil {
		return "", session.Session{}, err
	}
	digest := vals[0]
	name = strings.TrimSpace(name)
	u, err := s.Users.GetByName(ctx, name)
	if err != nil {
		if !apperr.IsNotFound(err) {
			return "", session.Session{}, err
		}
		passwd.VerifyDummy(digest)
		s.logFailedLogin(ctx, 0, name, apperr.BadCredentials, c)
		return "", session.Session{}, apperr.ErrBadCredentials
	}
	if err := s.checkLogin(ctx, u, digest, c); err != nil {
		return "", session.Session{}, err
	}
	if u.Status != user.Enabled {
		s.logFailedLogin(ctx, u.ID, u.UserName, apperr.AccountDisabled, c)
		return "", session.Session{}, apperr.ErrDisabled
	}
	token, sess, err := s.Sessions.Create(ctx, u.ID, c.IP, c.UserAgent)
	if err != nil {
		return "", session.Session{}, err
	}
	s.logLogin(ctx, u.ID, u.UserName, c)
	return token, sess, nil
}

// checkLogin checks u's password under the lock-out (docs/decisions.md, "Sign-in and
// accounts"): the attempt is counted before the password is checked, and a right password is
// accepted only if the account is not locked at that moment, so parallel guesses cannot slip a
// login past it.
func (s *Service) checkLogin(ctx context.Context, u user.User, digest string, c Client) error {
	policy := user.LockPolicy{After: s.cfg.LockAfter, For: s.cfg.LockFor}
	attempt, err := s.Users.BeginLogin(ctx, u.ID, policy)
	if err != nil {
		return s.loginGone(ctx, u, err, c)
	}
	if attempt.LockedUntil > 0 {
		s.logFailedLogin(ctx, u.ID, u.UserName, apperr.AccountLocked, c)
		return s.lockedError(attempt.LockedUntil)
	}
	if !passwd.Verify(u.PasswordHash(), digest) {
		lockedUntil, err := s.Users.FailLogin(ctx, u.ID, attempt, policy)
		if err != nil {
			return s.loginGone(ctx, u, err, c)
		}
		s.logFailedLogin(ctx, u.ID, u.UserName, apperr.BadCredentials, c)
		if lockedUntil > 0 {
			return s.lockedError(lockedUntil)
		}
		// Each failure in a row answers later than the one before (slow down, then lock).
		if attempt.N > 1 {
			delay := time.Duration(attempt.N-1) * 400 * time.Millisecond
			select {
			case <-time.After(min(delay, 3*time.Second)):
			case <-ctx.Done():
			}
		}
		return apperr.ErrBadCredentials
	}
	lockedUntil, err := s.Users.SucceedLogin(ctx, u.ID)
	if err != nil {
		return s.loginGone(ctx, u, err, c)
	}
	if lockedUntil > 0 {
		s.logFailedLogin(ctx, u.ID, u.UserName, apperr.AccountLocked, c)
		return s.lockedError(lockedUntil)
	}
	return nil
}

// loginGone turns an account deleted during its login into wrong credentials.
func (s *Service) loginGone(ctx context.Context, u user.User, err error, c Client) error {
	if !apperr.IsNotFound(err) {
		return fmt.Errorf("auth: login: %w", err)
	}
	s.logFailedLogin(ctx, u.ID, u.UserName, apperr.BadCredentials, c)
	return apperr.ErrBadCredentials
}

func (s *Service) lockedError(until int64) error {
	return apperr.New(apperr.AccountLocked, "err.account_locked").
		With(map[string]any{"until": time.UnixMilli(until).In(s.cfg.Location).Format("2006-01-02 15:04:05")}).
		WithData(map[string]int64{"lockedUntil": until})
}

func (s *Service) logLogin(ctx context.Context, userID int64, name string, c Client) {
	s.writeLog(ctx, actionlog.Entry{UserID: userID, UserName: name, Type: actionlog.TypeLogin, Action: "login", Code: apperr.OK, IP: c.IP})
}

// logFailedLogin records a refused login as a logout row with reason 0, auth failed, and the
// refusal's code (docs/decisions.md, "Sign-in and accounts").
func (s *Service) logFailedLogin(ctx context.Context, userID int64, name string, code int, c Client) {
	s.writeLog(ctx, actionlog.Entry{UserID: userID, UserName: name, Type: actionlog.TypeLogout, Action: "login", Code: code,
		Reason: session.ReasonAuthFailed, IP: c.IP})
}

func (s *Service) writeLog(ctx context.Context, e actionlog.Entry) {
	if err := s.ActionLog.Write(context.WithoutCancel(ctx), e); err != nil {
		slog.Error("action log not written", "err", err, "type", e.Type, "user", e.UserName)
	}
}

// Logout ends the caller's session (reason 1, user logout).
func (s *Service) Logout(ctx context.Context, p *access.Principal, c Client) error {
	if err := s.Sessions.End(ctx, p.SessionID, session.ReasonUserLogout); err != nil {
		return err
	}
	s.writeLog(ctx, actionlog.Entry{UserID: p.UserID, UserName: p.UserName, Type: actionlog.TypeLogout, Action: "logout", Reason: session.ReasonUserLogout, IP: c.IP})
	return nil
}

// Principal resolves a session token into the caller, with the role's keys and settings.
func (s *Service) Principal(ctx context.Context, token string) (*access.Principal, error) {
	sess, err := s.Sessions.Resolve(ctx, token)
	if err != nil {
		return nil, err
	}
	p, u, err := s.principalOf(ctx, sess.UserID)
	if errors.Is(err, apperr.ErrDisabled) {
		_ = s.Sessions.End(ctx, sess.ID, session.ReasonAccountDisable)
	}
	if err != nil {
		return nil, err
	}
	p.SessionID, p.CSRFToken = sess.ID, sess.CSRFToken
	cur, err := s.privacyVersion(ctx)
	if err != nil {
		return nil, fmt.Errorf("auth: principal: %w", err)
	}
	p.PrivacyPending = u.PrivacyVersion != cur
	return p, nil
}

// PrincipalOf is user id as a caller, with the role's keys, settings and data scope: the one
// place that turns an account into what it may see and do (a console session, an
// application's bound user). An unknown user is 20001, a disabled one 20004.
func (s *Service) PrincipalOf(ctx context.Context, userID int64) (*access.Principal, error) {
	p, _, err := s.principalOf(ctx, userID)
	return p, err
}

// principalOf is PrincipalOf with the account it was made from.
func (s *Service) principalOf(ctx context.Context, userID int64) (*access.Principal, *user.User, error) {
	u, err := s.Users.Get(ctx, userID)
	if err != nil {
		return nil, nil, apperr.ErrNotLoggedIn
	}
	if u.Status != user.Enabled {
		return nil, nil, apperr.ErrDisabled
	}
	p := &access.Principal{UserID: u.ID, UserName: u.UserName, Root: u.Root, RoleID: u.RoleID, CustomerID: u.CustomerID,
		Keys: map[string]bool{}}
	if u.RoleID != 0 {
		r, err := s.Roles.Get(ctx, u.RoleID)
		if err != nil && !apperr.IsNotFound(err) {
			return nil, nil, err
		}
		p.Role = r.RoleSettings
		for _, k := range r.Keys {
			p.Keys[k] = true
		}
	}
	if p.Scope, err = s.scopeOf(ctx, p); err != nil {
		return nil, nil, err
	}
	if p.CustomerID != 0 && !p.Root {
		var readOnly int
		if err := s.DB.QueryRow(ctx, `SELECT read_only FROM customer WHERE id = ?`, p.CustomerID).Scan(&readOnly); err != nil && !db.NotFound(err) {
			return nil, nil, err
		}
		p.ReadOnly = readOnly == 1
	}
	return p, &u, nil
}

// scopeOf derives the data scope from the role's customer and site access (docs/decisions.md#permissions-and-data-scope).
func (s *Service) scopeOf(ctx context.Context, p *access.Principal) (access.Scope, error) {
	if p.Root {
		return access.FullScope(), nil
	}
	if p.RoleID == 0 {
		return access.Scope{}, nil
	}
	var sc access.Scope
	var err error
	switch p.Role.CustomerAccess {
	case 0:
		sc.AllCustomers = true
	case 1:
		if p.CustomerID != 0 {
			sc.CustomerIDs = []int64{p.CustomerID}
		}
	default:
		sc.CustomerIDs, err = db.Column[int64](ctx, s.DB, `SELECT customer_id FROM user_customer WHERE user_id = ?`, p.UserID)
	}
	if err != nil {
		return sc, err
	}
	if p.Role.SiteAccess == 0 {
		sc.AllSites = true
	} else {
		sc.SiteIDs, err = db.Column[int64](ctx, s.DB, `SELECT site_id FROM user_site WHERE user_id = ?`, p.UserID)
	}
	return sc, err
}

// OnSessionEnded records the logout of a session that timed out (reason 2) or was ended by a
// forced re-login (reason 3), from the address it was signed in from.
func (s *Service) OnSessionEnded(ctx context.Context, e session.Ended) {
	u, err := s.Users.Get(ctx, e.UserID)
	if err != nil {
		return
	}
	s.writeLog(ctx, actionlog.Entry{UserID: u.ID, UserName: u.UserName, Type: actionlog.TypeLogout, Action: "logout", Reason: e.Reason, IP: e.IP})
}

// ChangePasswordInput is the personal-page password change.
type ChangePasswordInput struct {
	KeyID       string `json:"keyId"`
	OldPassword string `json:"oldPassword"`
	NewPassword string `json:"newPassword"`
}

// ChangePassword checks the current password and sets the new one; the caller's other
// sessions end (forced re-login), this one stays.
func (s *Service) ChangePassword(ctx context.Context, p *access.Principal, in ChangePasswordInput) error {
	vals, err := s.OpenSealed(ctx, in.KeyID, in.OldPassword, in.NewPassword)
	if err != nil {
		return err
	}
	if err := s.checkOwnPassword(ctx, p.UserID, vals[0]); err != nil {
		return err
	}
	return s.Users.SetPassword(ctx, p.UserID, vals[1], p.SessionID)
}

// ChangeEmailInput is the personal-page email change, verified by the password.
type ChangeEmailInput struct {
	KeyID    string `json:"keyId"`
	Password string `json:"password"`
	Email    string `json:"email"`
}

// ChangeEmail checks the password and sets the email.
func (s *Service) ChangeEmail(ctx context.Context, p *access.Principal, in ChangeEmailInput) error {
	vals, err := s.OpenSealed(ctx, in.KeyID, in.Password)
	if err != nil {
		return err
	}
	if err := s.checkOwnPassword(ctx, p.UserID, vals[0]); err != nil {
		return err
	}
	return s.Users.ChangeEmail(ctx, p, in.Email)
}

func (s *Service) checkOwnPassword(ctx context.Context, id int64, digest string) error {
	u, err := s.Users.Get(ctx, id)
	if err != nil {
		return err
	}
	if !passwd.Verify(u.PasswordHash(), digest) {
		return apperr.ErrWrongPassword
	}
	return nil
}

// Privacy is the policy a user must accept before using the console.
type Privacy struct {
	NeedConfirm             bool   `json:"needConfirm"`
	Content                 string `json:"content"`
	NewPrivacyPolicyVersion string `json:"newPrivacyPolicyVersion"`
}

// PrivacyFor returns the current policy in locale and whether the user still has to accept it.
func (s *Service) PrivacyFor(ctx context.Context, acceptedVersion, locale string) (Privacy, error) {
	version, content := DefaultPrivacyVersion, DefaultPrivacy(locale)
	stored, err := s.storedPrivacy(ctx)
	if err != nil {
		return Privacy{}, err
	}
	if stored.Version != "" {
		version = stored.Version
		if c := stored.Content[locale]; c != "" {
			content = c
		}
	}
	return Privacy{NeedConfirm: acceptedVersion != version, Content: content, NewPrivacyPolicyVersion: version}, nil
}

// storedPolicy is the policy an operator stored under the setting "privacy.policy".
type storedPolicy struct {
	Version string            `json:"version"`
	Content map[string]string `json:"content"`
}

// storedPrivacy reads the stored policy; none, or one that does not parse, has no version.
func (s *Service) storedPrivacy(ctx context.Context) (storedPolicy, error) {
	var stored storedPolicy
	raw, ok, err := s.Settings.Get(ctx, "privacy.policy")
	if err != nil || !ok {
		return stored, err
	}
	if json.Unmarshal([]byte(raw), &stored) != nil {
		return storedPolicy{}, nil
	}
	return stored, nil
}

// privacyVersion is the version of the current policy, the one every user must have accepted
// before any other call of a session is answered (docs/api.md, "Privacy policy").
func (s *Service) privacyVersion(ctx context.Context) (string, error) {
	stored, err := s.storedPrivacy(ctx)
	if err != nil || stored.Version == "" {
		return DefaultPrivacyVersion, err
	}
	return stored.Version, nil
}

// AcceptPrivacy records acceptance of the current version only.
func (s *Service) AcceptPrivacy(ctx context.Context, p *access.Principal, version string) error {
	cur, err := s.privacyVersion(ctx)
	if err != nil {
		return err
	}
	if version != cur {
		return apperr.InvalidField("version", "err.invalid")
	}
	return s.Users.AcceptPrivacy(ctx, p, version)
}

func firstErr(err error, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
