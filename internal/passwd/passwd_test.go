package passwd

import "testing"

func TestHashVerify(t *testing.T) {
	h, err := Hash(Digest("Secret#123"))
	if err != nil {
		t.Fatal(err)
	}
	if !Verify(h, Digest("Secret#123")) {
		t.Fatal("right password refused")
	}
	if Verify(h, Digest("Secret#124")) || Verify("garbage", Digest("x")) {
		t.Fatal("wrong password accepted")
	}
}

func TestRules(t *testing.T) {
	for pw, ok := range map[string]bool{"Abcdef1!": true, "abcdef1!": false, "ABCDEF1!": false, "Abcdefg!": false, "Abcdefg1": false,
		"Ab1!": false, "Abcdef1! space": false, "Aa1!" + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx": false} {
		if ValidPassword(pw) != ok {
			t.Errorf("ValidPassword(%q) = %v", pw, !ok)
		}
	}
	for name, ok := range map[string]bool{"admin_1": true, "admin": false, "adm-in1": false, "a23456789012345678901234567890123": false} {
		if ValidUserName(name) != ok {
			t.Errorf("ValidUserName(%q) = %v", name, !ok)
		}
	}
}
