package passwd

import (
	"strings"
	"testing"
)

func TestHashVerify(t *testing.T) {
	h, err := Hash(Digest("Secret#123"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the right password verifies", func(t *testing.T) {
		if !Verify(h, Digest("Secret#123")) {
			t.Fatal("right password refused")
		}
	})
	t.Run("a wrong password does not", func(t *testing.T) {
		if Verify(h, Digest("Secret#124")) {
			t.Fatal("wrong password accepted")
		}
	})
	t.Run("a stored string that is no argon2id hash never verifies", func(t *testing.T) {
		for _, stored := range []string{"garbage", "", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=x$c2FsdA$a2V5"} {
			if Verify(stored, Digest("x")) {
				t.Errorf("Verify(%q) accepted", stored)
			}
		}
	})
	t.Run("production hashes carry the RFC 9106 parameters", func(t *testing.T) {
		if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=2$") {
			t.Fatalf("hash %q does not carry m=65536,t=3,p=2", h)
		}
	})
}

func TestSetTestCost(t *testing.T) {
	prod, err := Hash(Digest("Secret#123"))
	if err != nil {
		t.Fatal(err)
	}
	saved, savedDummy := hashCost, dummyHash
	t.Cleanup(func() { hashCost, dummyHash = saved, savedDummy })
	SetTestCost()
	cheap, err := Hash(Digest("Secret#123"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("hashes at test cost name their own parameters", func(t *testing.T) {
		if !strings.HasPrefix(cheap, "$argon2id$v=19$m=64,t=1,p=1$") {
			t.Fatalf("hash %q does not carry the test cost", cheap)
		}
	})
	t.Run("hashes of either cost verify", func(t *testing.T) {
		if !Verify(cheap, Digest("Secret#123")) || !Verify(prod, Digest("Secret#123")) {
			t.Fatal("a right password was refused")
		}
		if Verify(cheap, Digest("Secret#124")) {
			t.Fatal("a wrong password was accepted")
		}
	})
}

func TestRules(t *testing.T) {
	type example struct {
		name, value string
		ok          bool
	}
	for _, rule := range []struct {
		name     string
		check    func(string) bool
		examples []example
	}{
		{"passwords", ValidPassword, []example{
			{"all four kinds", "Abcdef1!", true},
			{"no upper case", "abcdef1!", false},
			{"no lower case", "ABCDEF1!", false},
			{"no digit", "Abcdefg!", false},
			{"no special character", "Abcdefg1", false},
			{"under 8 characters", "Ab1!", false},
			{"a space", "Abcdef1! space", false},
			{"over 32 characters", "Aa1!" + strings.Repeat("x", 30), false},
		}},
		{"user names", ValidUserName, []example{
			{"letters, digits and underscore", "admin_1", true},
			{"under 6 characters", "admin", false},
			{"a hyphen", "adm-in1", false},
			{"over 32 characters", "a23456789012345678901234567890123", false},
		}},
	} {
		for _, e := range rule.examples {
			t.Run(rule.name+"/"+e.name, func(t *testing.T) {
				if rule.check(e.value) != e.ok {
					t.Errorf("%q: valid = %v, want %v", e.value, !e.ok, e.ok)
				}
			})
		}
	}
}
