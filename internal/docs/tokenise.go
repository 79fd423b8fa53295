package docs

import (
	"html"
	"strings"
	"unicode"
)

// The search tokeniser (docs/docs-wiki.md, "Search"). Text becomes terms:
//   - a run of Latin letters and digits is one term, lower-cased ("E-101 Overheat" → e, 101,
//     overheat);
//   - a run of CJK characters becomes its overlapping character bigrams plus its last
//     character alone ("过温保护" → 过温, 温保, 保护, 护), so every character starts a term and
//     a one-character run is that character;
//   - everything else separates terms.
//
// The same tokeniser reads the query; every query term must be found (AND). A query term of one
// CJK character matches as a prefix (any bigram starting with it), a two-character word is one
// bigram, a longer word all of its bigrams. The index stores the space-joined terms, so neither
// SQLite's unicode61 tokenizer nor PostgreSQL's array_to_tsvector splits them again.

// isCJK reports whether r is written without spaces between words (Han, Hiragana, Katakana,
// Hangul): such runs are cut into bigrams.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func isWord(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
}

// maxTermRunes bounds one Latin term (a base64 blob in a text is not a word anyone searches).
const maxTermRunes = 64

// Terms are the search terms of s, in order, repeats kept (the rank counts them).
func Terms(s string) []string {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		switch r := rs[i]; {
		case isWord(r):
			j := i
			for j < len(rs) && isWord(rs[j]) {
				j++
			}
			if j-i <= maxTermRunes {
				out = append(out, strings.ToLower(string(rs[i:j])))
			}
			i = j
		case isCJK(r):
			j := i
			for j < len(rs) && isCJK(rs[j]) {
				j++
			}
			for k := i; k+1 < j; k++ {
				out = append(out, string(rs[k:k+2]))
			}
			out = append(out, string(rs[j-1]))
			i = j
		default:
			i++
		}
	}
	return out
}

// QueryTerm is one term of a query: Prefix for a single CJK character.
type QueryTerm struct {
	Text   string
	Prefix bool
}

// MaxQueryTerms bounds a query.
const MaxQueryTerms = 32

// QueryTerms reads a search query: the terms every match must hold, without repeats. A CJK
// word's last character alone is dropped (its bigram already holds it), except in a
// one-character word, which matches as a prefix.
func QueryTerms(q string) []QueryTerm {
	var out []QueryTerm
	seen := map[string]bool{}
	add := func(t QueryTerm) {
		if !seen[t.Text] && len(out) < MaxQueryTerms {
			seen[t.Text] = true
			out = append(out, t)
		}
	}
	rs := []rune(q)
	for i := 0; i < len(rs); {
		switch r := rs[i]; {
		case isWord(r):
			j := i
			for j < len(rs) && isWord(rs[j]) {
				j++
			}
			if j-i <= maxTermRunes {
				add(QueryTerm{Text: strings.ToLower(string(rs[i:j]))})
			}
			i = j
		case isCJK(r):
			j := i
			for j < len(rs) && isCJK(rs[j]) {
				j++
			}
			if j-i == 1 {
				add(QueryTerm{Text: string(rs[i]), Prefix: true})
			}
			for k := i; k+1 < j; k++ {
				add(QueryTerm{Text: string(rs[k : k+2])})
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// indexText is the space-joined terms of s: what the search index holds.
func indexText(s string) string { return strings.Join(Terms(s), " ") }

// snippetRunes is about how much plain text a search hit shows.
const snippetRunes = 160

// Highlight is an escaped excerpt of text (at most about snippetRunes characters, the whole text
// when short enough) around the first match of terms, every match wrapped in <mark>. A Latin
// term matches a whole word, a CJK one anywhere; a prefix term is its one character.
// With no match it is the start of the text.
func Highlight(text string, terms []QueryTerm, limit int) string {
	rs := []rune(text)
	lower := make([]rune, len(rs))
	for i, r := range rs {
		lower[i] = unicode.ToLower(r)
	}
	marked := make([]bool, len(rs))
	first := -1
	for _, t := range terms {
		tr := []rune(t.Text)
		if len(tr) == 0 {
			continue
		}
		cjk := isCJK(tr[0])
		for i := 0; i+len(tr) <= len(rs); i++ {
			if !equalRunes(lower[i:i+len(tr)], tr) {
				continue
			}
			if !cjk && ((i > 0 && isWord(rs[i-1])) || (i+len(tr) < len(rs) && isWord(rs[i+len(tr)]))) {
				continue
			}
			for k := i; k < i+len(tr); k++ {
				marked[k] = true
			}
			if first < 0 || i < first {
				first = i
			}
		}
	}
	start, end := 0, len(rs)
	if limit > 0 && len(rs) > limit {
		if first > limit/4 {
			start = first - limit/4
		}
		end = min(len(rs), start+limit)
		if end-start < limit {
			start = max(0, end-limit)
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	open := false
	for i := start; i < end; i++ {
		if marked[i] != open {
			if open {
				b.WriteString("</mark>")
			} else {
				b.WriteString("<mark>")
			}
			open = marked[i]
		}
		b.WriteString(html.EscapeString(string(rs[i])))
	}
	if open {
		b.WriteString("</mark>")
	}
	if end < len(rs) {
		b.WriteString("…")
	}
	return b.String()
}

func equalRunes(a, b []rune) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
