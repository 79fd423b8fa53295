package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/actionlog"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/i18n"
	"chargeops/internal/session"
	"chargeops/internal/user"
)

// Reset-link validity (docs/configuration.md#mailed-links) and mail limits.
const (
	resetTTL          = 2 * time.Hour
	resetMailsPerMail = 3
	resetMailsPerAddr = 10
	resetMailWindow   = time.Hour
)

// ResetRequest asks for a reset mail.
type ResetRequest struct {
	Email     string `json:"email"`
	CaptchaID string `json:"captchaId"`
	Captcha   string `json:"captcha"`
	Locale    string `json:"locale"`
}

// RequestReset mails a one-time reset link to the account with that email. The answer is the
// same whether or not such an account exists, so the form cannot be used to find accounts. The
// link points at the configured public URL, whatever Host the request named
// (docs/configuration.md, --public-url).
func (s *Service) RequestReset(ctx context.Context, in ResetRequest, c Client) error {
	email := strings.ToLower(strings.TrimSpace(in.Email))
	if !user.ValidEmail(email) {
		return apperr.InvalidField("email", "err.invalid")
	}
	if err := s.CheckCaptcha(ctx, in.CaptchaID, in.Captcha); err != nil {
		return err
	}
	for _, lim := range []struct {
		key string
		n   int
	}{{"reset-mail:" + email, resetMailsPerMail}, {"reset-addr:" + c.IP, resetMailsPerAddr}} {
		if ok, err := s.Limiter.Allow(ctx, lim.key, lim.n, resetMailWindow); err != nil || !ok {
			return firstErr(err, apperr.ErrRateLimited)
		}
	}
	u, err := s.Users.GetByEmail(ctx, email)
	if apperr.IsNotFound(err) || (err == nil && u.Status != user.Enabled) {
		return nil
	}
	if err != nil {
		return err
	}
	if s.cfg.PublicURL == "" {
		return fmt.Errorf("auth: reset mail: no public URL configured for the link (--public-url)")
	}
	token := session.RandomToken(32)
	if err := s.issueReset(ctx, u.ID, token); err != nil {
		return err
	}
	locale := i18n.Normalize(in.Locale)
	if u.Locale != "" {
		locale = u.Locale
	}
	if locale == "" {
		locale = i18n.EnUS
	}
	link := strings.TrimRight(s.cfg.PublicURL, "/") + "/find-password/reset?token=" + token
	body := i18n.T(locale, "mail.reset.body", map[string]any{"user": u.UserName, "link": link})
	return s.Mailer.Send(ctx, u.Email, i18n.T(locale, "mail.reset.subject", nil), body)
}

// issueReset stores a new link for the user and ends every older one. The link records the
// password it was issued against: any password change (by this link or any other way) ends it.
func (s *Service) issueReset(ctx context.Context, userID int64, token string) error {
	err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		// The no-op update takes the user's row lock (PostgreSQL; SQLite runs one writer at a
		// time), so two requests for one account queue and the newer link ends the older.
		var changedAt int64
		if err := tx.QueryRow(ctx, `UPDATE app_user SET password_changed_at = password_changed_at WHERE id = ? RETURNING password_changed_at`, userID).
			Scan(&changedAt); err != nil {
			return err
		}
		now := db.NowMS()
		if _, err := tx.Exec(ctx, `UPDATE password_reset SET used_at = ? WHERE user_id = ? AND used_at = 0`, now, userID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO password_reset (token_hash, user_id, created_at, expires_at, password_changed_at) VALUES (?, ?, ?, ?, ?)`,
			session.HashToken(token), userID, now, now+resetTTL.Milliseconds(), changedAt)
		return err
	})
	if err != nil {
		return fmt.Errorf("auth: issue reset link: %w", err)
	}
	return nil
}

// liveReset is the condition of a link that still works: unused, not expired, and issued
// against the password the account has now.
const liveReset = `used_at = 0 AND expires_at > ? AND password_changed_at = (SELECT u.password_changed_at FROM app_user u WHERE u.id = password_reset.user_id)`

func (s *Service) resetUser(ctx context.Context, token string) (user.User, error) {
	var userID int64
	err := s.DB.QueryRow(ctx, `SELECT user_id FROM password_reset WHERE token_hash = ? AND `+liveReset,
		session.HashToken(token), db.NowMS()).Scan(&userID)
	if db.NotFound(err) {
		return user.User{}, apperr.ErrResetExpired
	}
	if err != nil {
		return user.User{}, fmt.Errorf("auth: read reset link: %w", err)
	}
	return s.Users.Get(ctx, userID)
}

// ValidateReset tells whether a link still works and, if so, the masked address it was sent to.
func (s *Service) ValidateReset(ctx context.Context, token string) (string, error) {
	u, err := s.resetUser(ctx, token)
	if err != nil {
		return "", err
	}
	return MaskEmail(u.Email), nil
}

// ResetInput sets a new password through a link.
type ResetInput struct {
	Token    string `json:"token"`
	KeyID    string `json:"keyId"`
	Password string `json:"password"`
}

// Reset sets the password and spends the link; every session of the user ends.
func (s *Service) Reset(ctx context.Context, in ResetInput, c Client) error {
	u, err := s.resetUser(ctx, in.Token)
	if err != nil {
		return err
	}
	vals, err := s.OpenSealed(ctx, in.KeyID, in.Password)
	if err != nil {
		return err
	}
	if err := user.CheckPassword(vals[0]); err != nil {
		return err
	}
	now := db.NowMS()
	res, err := s.DB.Exec(ctx, `UPDATE password_reset SET used_at = ? WHERE token_hash = ? AND `+liveReset,
		now, session.HashToken(in.Token), now)
	if err != nil {
		return fmt.Errorf("auth: spend reset link: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.ErrResetExpired
	}
	if err := s.Users.SetPassword(ctx, u.ID, vals[0], ""); err != nil {
		return err
	}
	s.writeLog(ctx, actionlog.Entry{UserID: u.ID, UserName: u.UserName, Type: actionlog.TypeOperation, Action: "POST /api/unauth/password/reset", IP: c.IP})
	return nil
}

// MaskEmail shows enough of an address to recognise it: "a***e@example.com".
func MaskEmail(e string) string {
	local, domain, ok := strings.Cut(e, "@")
	if !ok || local == "" {
		return ""
	}
	r := []rune(local)
	if len(r) <= 2 {
		return string(r[0]) + "***@" + domain
	}
	return string(r[0]) + "***" + string(r[len(r)-1]) + "@" + domain
}
