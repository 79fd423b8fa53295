package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"time"

	"github.com/dchest/captcha"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/session"
)

const (
	captchaTTL    = 5 * time.Minute
	captchaDigits = 4
	// The image size. dchest/captcha places the digits at least height/5 from the left edge,
	// then skews each by up to 12 px and waves the image by up to 10 px: at 120×40 the digits
	// were 1-dot thin and the first could be cut off. At 240×120 the digits are 3 dots thick
	// and always inside the image (TestCaptchaDigitsFit); the console shows it at 160×80.
	captchaWidth  = 240
	captchaHeight = 120
)

// Captcha is a one-time image challenge; its answer is kept server-side so any node can check it.
type Captcha struct {
	CaptchaID string `json:"captchaId"`
	Image     string `json:"image"`
}

// NewCaptcha makes a challenge.
func (s *Service) NewCaptcha(ctx context.Context) (Captcha, error) {
	id := session.RandomToken(15)
	digits := captcha.RandomDigits(captchaDigits)
	var answer strings.Builder
	for _, d := range digits {
		answer.WriteByte('0' + d)
	}
	if _, err := s.DB.Exec(ctx, `INSERT INTO captcha (id, digits, expires_at) VALUES (?, ?, ?)`, id, answer.String(), db.NowMS()+captchaTTL.Milliseconds()); err != nil {
		return Captcha{}, err
	}
	var buf bytes.Buffer
	if _, err := captcha.NewImage(id, digits, captchaWidth, captchaHeight).WriteTo(&buf); err != nil {
		return Captcha{}, err
	}
	return Captcha{CaptchaID: id, Image: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// CheckCaptcha verifies and consumes a challenge. It passes when captcha is switched off.
func (s *Service) CheckCaptcha(ctx context.Context, id, answer string) error {
	if !s.cfg.Captcha {
		return nil
	}
	if id == "" || answer == "" {
		return apperr.ErrCaptcha
	}
	var want string
	var expires int64
	err := s.DB.QueryRow(ctx, `DELETE FROM captcha WHERE id = ? RETURNING digits, expires_at`, id).Scan(&want, &expires)
	if db.NotFound(err) {
		return apperr.ErrCaptcha
	}
	if err != nil {
		return err
	}
	if expires < db.NowMS() || strings.TrimSpace(answer) != want {
		return apperr.ErrCaptcha
	}
	return nil
}
