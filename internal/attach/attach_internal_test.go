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
	if err := (Levels{2, 1, 3}).within(folder); err != nil {
		t.Errorf("equal levels refused: %v", err)
	}
	if err := (Levels{0, 0, 0}).within(folder); err != nil {
		t.Errorf("higher levels refused: %v", err)
	}
	e, ok := apperr.As((Levels{3, 1, 3}).within(folder))
	if !ok || e.Key != "err.attach_level_below_folder" || e.Args["field"] != "readLevel" {
		t.Errorf("a lower read level: %v", e)
	}
	if err := (Levels{6, 0, 0}).check(); err == nil {
		t.Error("level 6 accepted")
	}
	p := &access.Principal{Role: access.RoleSettings{AttachLevel: 3}}
	if (Levels{3, 4, 5}).usable(p) != nil || (Levels{2, 5, 5}).usable(p) == nil {
		t.Error("usable levels of a level-3 role")
	}
}

func TestShareCodesAndTokens(t *testing.T) {
	for _, bad := range []string{"123", "12345", "12a4", " 1 2"} {
		if _, err := pickCode(bad); err == nil {
			t.Errorf("code %q accepted", bad)
		}
	}
	four := regexp.MustCompile(`^[0-9]{4}$`)
	for range 50 {
		if c, err := pickCode(""); err != nil || !four.MatchString(c) {
			t.Fatalf("generated %q %v", c, err)
		}
	}
	a, b := newToken(), newToken()
	if len(a) != 32 || a == b {
		t.Errorf("tokens %q %q", a, b)
	}
	if session.HashToken(a) == a || len(session.HashToken(a)) != 64 || hashCode("s1", "1234") == hashCode("s2", "1234") {
		t.Error("hashes")
	}
	if u := ShareURL("https://console.example.com/", "abc"); u != "https://console.example.com/share/file?token=abc" {
		t.Errorf("url %q", u)
	}
}
