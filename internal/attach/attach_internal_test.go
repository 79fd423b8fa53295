package attach

import (
	"regexp"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/session"
)

func TestLevelsAgainstFolder(t *testing.T) {
	folder := Levels{ReadLevel: 2, WriteLevel: 1, DownloadLevel: 3}
	t.Run("levels equal to the folder's pass", func(t *testing.T) {
		if err := (Levels{2, 1, 3}).within(folder); err != nil {
			t.Errorf("equal levels refused: %v", err)
		}
	})
	t.Run("levels higher than the folder's pass", func(t *testing.T) {
		if err := (Levels{0, 0, 0}).within(folder); err != nil {
			t.Errorf("higher levels refused: %v", err)
		}
	})
	t.Run("a read level lower than the folder's is refused, naming readLevel", func(t *testing.T) {
		e, ok := apperr.As((Levels{3, 1, 3}).within(folder))
		if !ok || e.Key != "err.attach_level_below_folder" || e.Args["field"] != "readLevel" {
			t.Errorf("a lower read level: %v", e)
		}
	})
	t.Run("level 6 is refused", func(t *testing.T) {
		if err := (Levels{6, 0, 0}).check(); err == nil {
			t.Error("level 6 accepted")
		}
	})
	t.Run("a level-3 role may use levels 3 to 5 only", func(t *testing.T) {
		p := &access.Principal{Role: access.RoleSettings{AttachLevel: 3}}
		if (Levels{3, 4, 5}).usable(p) != nil || (Levels{2, 5, 5}).usable(p) == nil {
			t.Error("usable levels of a level-3 role")
		}
	})
}

func TestShareCodesAndTokens(t *testing.T) {
	for _, bad := range []string{"123", "12345", "12a4", " 1 2"} {
		t.Run("the code "+bad+" is refused", func(t *testing.T) {
			if _, err := pickCode(bad); err == nil {
				t.Errorf("code %q accepted", bad)
			}
		})
	}
	t.Run("a generated code is four digits", func(t *testing.T) {
		four := regexp.MustCompile(`^[0-9]{4}$`)
		for range 50 {
			if c, err := pickCode(""); err != nil || !four.MatchString(c) {
				t.Fatalf("generated %q %v", c, err)
			}
		}
	})
	a, b := newToken(), newToken()
	t.Run("tokens are 32 characters and differ", func(t *testing.T) {
		if len(a) != 32 || a == b {
			t.Errorf("tokens %q %q", a, b)
		}
	})
	t.Run("a token hashes to 64 hex characters and a code's hash depends on its salt", func(t *testing.T) {
		if session.HashToken(a) == a || len(session.HashToken(a)) != 64 || hashCode("s1", "1234") == hashCode("s2", "1234") {
			t.Error("hashes")
		}
	})
	t.Run("the share URL joins the public URL without a double slash", func(t *testing.T) {
		if u := ShareURL("https://console.example.com/", "abc"); u != "https://console.example.com/share/file?token=abc" {
			t.Errorf("url %q", u)
		}
	})
}
