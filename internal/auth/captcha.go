package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"strings"
	"time"
	"unicode"

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
	img := captcha.NewImage(id, digits, captchaWidth, captchaHeight)
	legible(img.Paletted)
	var buf bytes.Buffer
	if _, err := img.WriteTo(&buf); err != nil {
		return Captcha{}, err
	}
	return Captcha{CaptchaID: id, Image: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
}

// The colours of a captcha image (dchest/captcha draws with a palette: 0 the background, 1 the
// digits and the strike-through line, 2-20 the noise circles in random shades of the digits'
// colour, often as dark as the digits). legible keeps the drawing and recolours it: an opaque
// white background (the image was transparent, grey on a dark page), the digits in a dark
// colour (contrast at least 7:1 on white), the noise circles in light tints that cannot be
// taken for a digit's dot.
const (
	captchaInkMax   = 0x50 // every channel of the digits' colour at most this
	captchaNoiseMin = 0xd0 // every channel of a noise colour at least this
)

func legible(img *image.Paletted) {
	p := img.Palette
	if len(p) < 2 {
		return
	}
	p[0] = color.RGBA{0xff, 0xff, 0xff, 0xff}
	r, g, b, _ := p[1].RGBA()
	ink := func(c uint32) uint8 { return uint8((c >> 8) * captchaInkMax / 0xff) }
	p[1] = color.RGBA{ink(r), ink(g), ink(b), 0xff}
	for i := 2; i < len(p); i++ {
		r, g, b, _ := p[i].RGBA()
		tint := func(c uint32) uint8 { return uint8(captchaNoiseMin + (c>>8)*(0xff-captchaNoiseMin)/0xff) }
		p[i] = color.RGBA{tint(r), tint(g), tint(b), 0xff}
	}
}

// captchaAnswer is an answer as typed, normalised: spaces anywhere dropped and full-width
// digits (a Chinese input method's "１２３４") read as ASCII.
func captchaAnswer(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
		case r >= '０' && r <= '９':
			b.WriteRune('0' + r - '０')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CheckCaptcha verifies and consumes a challenge. It passes when captcha is switched off.
func (s *Service) CheckCaptcha(ctx context.Context, id, answer string) error {
	if !s.cfg.Captcha {
		return nil
	}
	answer = captchaAnswer(answer)
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
	if expires < db.NowMS() || answer != want {
		return apperr.ErrCaptcha
	}
	return nil
}
