package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"chargeops/internal/testutil"
)

// digitBox is the worst-case box (in pixels) the digits of a width×height image can cover,
// following the layout of dchest/captcha v1.1.0 (image.go): calculateSizes fits the digits in
// the image less a quarter of its height on each side, NewImage places them at least height/5
// from the top-left, drawDigit dots each row with circles of radius dotSize/2, shifts it up to
// ±dotSize/2 vertically and skews it by up to 0.7 px per row over 18 rows, and distort moves
// every pixel by up to 10 px either way.
func digitBox(width, height, digits int) (left, top, right, bottom int) {
	const fontWidth, fontHeight, maxSkewShift, maxWave = 11, 18, 12, 10
	border := height / 4
	w, h := float64(width-2*border), float64(height-2*border)
	nw := w / float64(digits)
	nh := nw * fontHeight / (fontWidth + 1)
	if nh > h {
		nh = h
		nw = (fontWidth + 1) / float64(fontHeight) * nh
	}
	dot := max(int(nh/fontHeight), 1)
	numWidth, numHeight := int(nw)-dot, int(nh)
	r := dot / 2
	maxx := width - (numWidth+dot)*digits - dot
	maxy := height - numHeight - dot*2
	place := height / 5
	x0, x1 := place, maxx-place // the first digit's x range
	y0, y1 := place, maxy-place
	left = x0 - r - maxSkewShift - maxWave
	right = x1 + (numWidth+dot)*(digits-1) + (fontWidth-1)*dot + r + maxSkewShift + maxWave
	top = y0 - r - r - maxWave
	bottom = y1 + r + (fontHeight-1)*dot + r + maxWave
	return left, top, right, bottom
}

func TestCaptchaDigitsFit(t *testing.T) {
	t.Run("the old 120x40 image could cut the first digit off", func(t *testing.T) {
		if left, _, _, _ := digitBox(120, 40, captchaDigits); left >= 0 {
			t.Fatalf("left %d: the model no longer shows the old clipping", left)
		}
	})
	t.Run("the digits always lie inside the image", func(t *testing.T) {
		left, top, right, bottom := digitBox(captchaWidth, captchaHeight, captchaDigits)
		if left < 0 || top < 0 || right >= captchaWidth || bottom >= captchaHeight {
			t.Fatalf("digits may cover x %d..%d, y %d..%d of a %dx%d image", left, right, top, bottom, captchaWidth, captchaHeight)
		}
	})
}

func TestNewCaptchaImage(t *testing.T) {
	s := &Service{Deps: Deps{DB: testutil.OpenSQLite(t)}}
	c, err := s.NewCaptcha(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(c.Image, "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != captchaWidth || b.Dy() != captchaHeight {
		t.Errorf("image is %dx%d, want %dx%d", b.Dx(), b.Dy(), captchaWidth, captchaHeight)
	}
	var digits string
	if err := s.DB.QueryRow(context.Background(), `SELECT digits FROM captcha WHERE id = ?`, c.CaptchaID).Scan(&digits); err != nil {
		t.Fatal(err)
	}
	if len(digits) != captchaDigits || strings.Trim(digits, "0123456789") != "" {
		t.Errorf("answer %q", digits)
	}
}

// luminance is the WCAG relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v>>8) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// TestCaptchaImageIsLegible (issue 30 item 18): the image is opaque white, its digits dark
// (contrast at least 7:1) and its noise circles light, so a circle is never taken for a digit.
func TestCaptchaImageIsLegible(t *testing.T) {
	s := &Service{Deps: Deps{DB: testutil.OpenSQLite(t)}}
	for range 20 {
		c, err := s.NewCaptcha(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(c.Image, "data:image/png;base64,"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		pal, ok := img.(*image.Paletted)
		if !ok {
			t.Fatalf("a %T, want a paletted image", img)
		}
		used := map[uint8]int{}
		for _, ix := range pal.Pix {
			used[ix]++
		}
		if _, _, _, a := pal.Palette[0].RGBA(); a != 0xffff || luminance(pal.Palette[0]) < 0.99 {
			t.Fatalf("background %v: want opaque white", pal.Palette[0])
		}
		if used[1] == 0 {
			t.Fatal("no digit drawn")
		}
		if ratio := (1 + 0.05) / (luminance(pal.Palette[1]) + 0.05); ratio < 7 {
			t.Fatalf("digits %v on white: contrast %.1f, want at least 7", pal.Palette[1], ratio)
		}
		for i := 2; i < len(pal.Palette); i++ {
			if used[uint8(i)] > 0 && luminance(pal.Palette[i]) < 0.6 {
				t.Fatalf("noise colour %d %v is dark (luminance %.2f)", i, pal.Palette[i], luminance(pal.Palette[i]))
			}
		}
	}
}

func TestCaptchaAnswerAsTyped(t *testing.T) {
	d := testutil.OpenSQLite(t)
	s := &Service{Deps: Deps{DB: d}, cfg: Config{Captcha: true}}
	ctx := context.Background()
	// captcha is a new captcha whose answer is 4071
	captcha := func(t *testing.T) string {
		t.Helper()
		c, err := s.NewCaptcha(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE captcha SET digits = ? WHERE id = ?`, "4071", c.CaptchaID); err != nil {
			t.Fatal(err)
		}
		return c.CaptchaID
	}
	for _, typed := range []string{"4071", " 4071 ", "40 71", "４０７１", "4 0 7 1\t"} {
		t.Run(fmt.Sprintf("%q passes for 4071", typed), func(t *testing.T) {
			if err := s.CheckCaptcha(ctx, captcha(t), typed); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
	t.Run("a wrong answer is refused", func(t *testing.T) {
		if err := s.CheckCaptcha(ctx, captcha(t), "4017"); err == nil {
			t.Error("4017 passed for 4071")
		}
	})
}
