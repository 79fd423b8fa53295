package region

import (
	"testing"

	"chargeops/internal/i18n"
)

// TestLocateAndPath: every address resolves to a region the tree names; the table's ranges and
// what it does not list give the default, China, Guangdong, Shenzhen, in both languages.
func TestLocateAndPath(t *testing.T) {
	for _, ip := range []string{"127.0.0.1", "::1", "10.1.2.3", "172.20.0.9", "192.168.1.10", "100.64.0.1", "fe80::1", "::ffff:192.168.0.1", "8.8.8.8", "2001:db8::1", "not an address", ""} {
		t.Run(ip, func(t *testing.T) {
			code := Locate(ip)
			en, ok := Path(i18n.EnUS, code)
			zh, _ := Path(i18n.ZhCN, code)
			if !ok || en != "China, Guangdong, Shenzhen" || zh != "中国，广东，深圳" {
				t.Fatalf("%q → %q: %q / %q", ip, code, en, zh)
			}
		})
	}
	if name, ok := Path(i18n.EnUS, "LAN"); ok || name != "LAN" {
		t.Fatalf("a text that is no code: %q %v", name, ok)
	}
}

// TestRangesRefuseBadLines: the table's lines are checked when it is read.
func TestRangesRefuseBadLines(t *testing.T) {
	for name, raw := range map[string]string{
		"no code":      "10.0.0.0/8\n",
		"bad prefix":   "10.0.0.0/33 CN-4403\n",
		"unknown code": "10.0.0.0/8 XX-1\n",
	} {
		t.Run("a line with "+name+" is refused", func(t *testing.T) {
			if _, err := parseRanges([]byte(raw)); err == nil {
				t.Errorf("accepted %q", raw)
			}
		})
	}
	t.Run("comments and blank lines are skipped", func(t *testing.T) {
		r, err := parseRanges([]byte("# comment\n\n203.0.113.0/24 CN-4401 # documentation range\n"))
		if err != nil || len(r) != 1 || r[0].code != "CN-4401" {
			t.Fatalf("%+v %v", r, err)
		}
	})
}

// TestTree: countries first-level, China's provinces (34), Guangdong's 21 cities and Hong
// Kong's 18 districts, every code once, names in the caller's language.
func TestTree(t *testing.T) {
	en, zh := Tree(i18n.EnUS), Tree(i18n.ZhCN)
	find := func(list []Node, code string) *Node {
		for i := range list {
			if list[i].Code == code {
				return &list[i]
			}
		}
		t.Fatalf("no %s", code)
		return nil
	}
	cn := find(en, "CN")
	if cn.Name != "China" || find(zh, "CN").Name != "中国" || len(cn.Children) != 34 {
		t.Fatalf("China: %q, %d provinces", cn.Name, len(cn.Children))
	}
	if gd := find(cn.Children, "CN-44"); gd.Name != "Guangdong" || len(gd.Children) != 21 || find(gd.Children, "CN-4403").Name != "Shenzhen" {
		t.Fatalf("Guangdong: %+v", gd)
	}
	if hk := find(cn.Children, "CN-81"); len(hk.Children) != 18 {
		t.Fatalf("Hong Kong: %d districts", len(hk.Children))
	}
	for _, c := range []string{"SG", "US", "GB", "JP"} {
		find(en, c)
	}
}
