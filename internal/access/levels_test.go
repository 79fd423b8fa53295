package access

import (
	"fmt"
	"testing"
)

// levelCases is the level rule every kind follows: (role level, item level) → allowed.
var levelCases = []struct {
	role, item int
	want       bool
}{
	{0, 0, true}, {0, 5, true}, {1, 0, false}, {1, 1, true}, {2, 1, false}, {2, 2, true},
	{2, 3, true}, {3, 2, false}, {5, 4, false}, {5, 5, true},
}

// TestLevelsPerKind: each kind reads its own role setting, follows the level table, and root
// passes every level.
func TestLevelsPerKind(t *testing.T) {
	kinds := []struct {
		name string
		set  func(*RoleSettings, int)
		can  func(*Principal, int) bool
	}{
		{"config read", func(r *RoleSettings, l int) { r.CfgReadLevel = l }, CanReadConfig},
		{"config write", func(r *RoleSettings, l int) { r.CfgWriteLevel = l }, CanWriteConfig},
		{"config download", func(r *RoleSettings, l int) { r.CfgDownloadLevel = l }, CanDownloadConfig},
		{"parameter", func(r *RoleSettings, l int) { r.ParamLevel = l }, CanUseParam},
		{"document", func(r *RoleSettings, l int) { r.DocLevel = l }, CanUseDocument},
		{"attachment", func(r *RoleSettings, l int) { r.AttachLevel = l }, CanUseAttachment},
		{"web link", func(r *RoleSettings, l int) { r.WebSSHAccess, r.WebSSHLevel = WebSSHWebAdmin, l },
			func(p *Principal, l int) bool { return CanOpenLink(p, LinkWeb, l) }},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for _, c := range levelCases {
				// Every other setting at the highest level: only this kind's setting may decide.
				r := RoleSettings{WebSSHAccess: WebSSHRoot, CfgReadLevel: 0, CfgWriteLevel: 0, CfgDownloadLevel: 0, ParamLevel: 0, DocLevel: 0, AttachLevel: 0}
				k.set(&r, c.role)
				if got := k.can(&Principal{Role: r}, c.item); got != c.want {
					t.Errorf("role level %d, item level %d: allowed %v, want %v", c.role, c.item, got, c.want)
				}
			}
			lowest := RoleSettings{CfgReadLevel: 5, CfgWriteLevel: 5, CfgDownloadLevel: 5, ParamLevel: 5, DocLevel: 5, AttachLevel: 5, WebSSHLevel: 5}
			if !k.can(&Principal{Root: true, Role: lowest}, 0) {
				t.Error("root refused an item of level 0")
			}
		})
	}
}

// TestOpenLinkByAccess: which links each WEB/SSH access setting opens, and with which account.
func TestOpenLinkByAccess(t *testing.T) {
	cases := []struct {
		access       int
		web, ssh     bool
		wantAccount  string
		levelApplies bool
	}{
		{WebSSHDisabled, false, false, "", false},
		{WebSSHRoot, true, true, AccountRoot, true},
		{WebSSHWebAdmin, true, false, AccountAdmin, true},
		{WebSSHWebEngineer, true, false, AccountEngineer, true},
		{9, false, false, "", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("access %d", c.access), func(t *testing.T) {
			p := &Principal{Role: RoleSettings{WebSSHAccess: c.access, WebSSHLevel: 2}}
			if got := CanOpenLink(p, LinkWeb, 3); got != c.web {
				t.Errorf("web link: %v, want %v", got, c.web)
			}
			if got := CanOpenLink(p, LinkSSH, 3); got != c.ssh {
				t.Errorf("ssh link: %v, want %v", got, c.ssh)
			}
			if CanOpenLink(p, "ftp", 3) {
				t.Error("an unknown link kind was allowed")
			}
			if c.levelApplies && CanOpenLink(p, LinkWeb, 1) {
				t.Error("a WEB/SSH level 2 role opened a link of level 1")
			}
			if got := LinkAccount(p); got != c.wantAccount {
				t.Errorf("account %q, want %q", got, c.wantAccount)
			}
		})
	}
	t.Run("root opens every link as root", func(t *testing.T) {
		p := &Principal{Root: true}
		if !CanOpenLink(p, LinkSSH, 0) || LinkAccount(p) != AccountRoot {
			t.Fatal("root refused")
		}
	})
}

// TestUnlistedConfigNeedsWriteLevelZero: keys outside the model and credentials need root or
// config write level 0.
func TestUnlistedConfigNeedsWriteLevelZero(t *testing.T) {
	for level, want := range []bool{true, false, false, false, false, false} {
		if got := CanWriteUnlistedConfig(&Principal{Role: RoleSettings{CfgWriteLevel: level}}); got != want {
			t.Errorf("write level %d: %v, want %v", level, got, want)
		}
	}
	if !CanWriteUnlistedConfig(&Principal{Root: true, Role: RoleSettings{CfgWriteLevel: 5}}) {
		t.Error("root refused")
	}
}

// TestCertificatesTakeTheLinkRule: certificate operations need WEB/SSH access (any mode) and a
// WEB/SSH level reaching the item; root passes.
func TestCertificatesTakeTheLinkRule(t *testing.T) {
	cases := []struct {
		name        string
		access, lvl int
		item        int
		want        bool
	}{
		{"access disabled, level 0", WebSSHDisabled, 0, 5, false},
		{"root access, level reaches", WebSSHRoot, 2, 3, true},
		{"web engineer, level reaches", WebSSHWebEngineer, 2, 2, true},
		{"web admin, item above the level", WebSSHWebAdmin, 2, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &Principal{Role: RoleSettings{WebSSHAccess: c.access, WebSSHLevel: c.lvl}}
			if got := CanManageCertificates(p, c.item); got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	t.Run("root", func(t *testing.T) {
		if !CanManageCertificates(&Principal{Root: true}, 0) {
			t.Fatal("root refused")
		}
	})
}
