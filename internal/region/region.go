// Package region holds the regions addresses name (countries; China's provinces and, for some,
// their cities) and the offline lookup of a client address's region for the action log, both
// compiled in (docs/logs.md, "Location"; GET /api/auth/sys/dict/region/all).
package region

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"

	"chargeops/internal/i18n"
)

//go:embed regions.json
var regionsJSON []byte

//go:embed ranges.txt
var rangesTxt []byte

// DefaultCode is the region of an address the table does not place: China, Guangdong, Shenzhen.
const DefaultCode = "CN-4403"

// entry is a region as stored: its code, English and Chinese names, and what it contains.
type entry struct {
	Code     string  `json:"code"`
	En       string  `json:"en"`
	Zh       string  `json:"zh"`
	Children []entry `json:"children"`
}

// Node is a region in one language, as the API answers it.
type Node struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Children []Node `json:"children,omitempty"`
}

type located struct {
	prefix netip.Prefix
	code   string
}

var (
	roots  []entry
	byCode = map[string]*entry{}
	parent = map[string]string{}
	ranges []located
)

func init() {
	if err := json.Unmarshal(regionsJSON, &roots); err != nil {
		panic(fmt.Sprintf("region: regions.json: %v", err))
	}
	var index func(list []entry, up string)
	index = func(list []entry, up string) {
		for i := range list {
			e := &list[i]
			if _, dup := byCode[e.Code]; dup {
				panic("region: code twice: " + e.Code)
			}
			byCode[e.Code], parent[e.Code] = e, up
			index(e.Children, e.Code)
		}
	}
	index(roots, "")
	var err error
	if ranges, err = parseRanges(rangesTxt); err != nil {
		panic(err)
	}
}

// parseRanges reads "CIDR CODE" lines; # starts a comment. Every code must be a region.
func parseRanges(raw []byte) ([]located, error) {
	var out []located
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("region: ranges.txt line %d: want CIDR CODE", n)
		}
		p, err := netip.ParsePrefix(f[0])
		if err != nil {
			return nil, fmt.Errorf("region: ranges.txt line %d: %w", n, err)
		}
		if byCode[f[1]] == nil {
			return nil, fmt.Errorf("region: ranges.txt line %d: unknown region %q", n, f[1])
		}
		out = append(out, located{p.Masked(), f[1]})
	}
	return out, sc.Err()
}

// Tree is every region in locale, in the stored order.
func Tree(locale string) []Node {
	var conv func([]entry) []Node
	conv = func(list []entry) []Node {
		out := make([]Node, len(list))
		for i, e := range list {
			out[i] = Node{Code: e.Code, Name: name(locale, &e), Children: conv(e.Children)}
		}
		return out
	}
	return conv(roots)
}

func name(locale string, e *entry) string {
	if locale == i18n.ZhCN {
		return e.Zh
	}
	return e.En
}

// Locate is the region code of a client address: the first range of the table holding it, else
// DefaultCode (also for what is not an address).
func Locate(ip string) string {
	a, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return DefaultCode
	}
	a = a.Unmap()
	for _, r := range ranges {
		if r.prefix.Contains(a) {
			return r.code
		}
	}
	return DefaultCode
}

// Path names a region code in locale from the country down: "China, Guangdong, Shenzhen",
// "中国，广东，深圳". ok is false for a text that is no region code (kept as it is).
func Path(locale, code string) (string, bool) {
	if byCode[code] == nil {
		return code, false
	}
	var names []string
	for c := code; c != ""; c = parent[c] {
		names = append([]string{name(locale, byCode[c])}, names...)
	}
	sep := ", "
	if locale == i18n.ZhCN {
		sep = "，"
	}
	return strings.Join(names, sep), true
}
