// Package richtext keeps the rich text of the docs wiki and ticket comments safe to show
// (decisions §5): HTML is sanitised on the server before it is stored, and images that live in
// object storage are stored by their objectKey and given a fresh signed URL when read.
//
// An image of storage is `<img data-key="images/…">`; its src is dropped when stored (a signed
// URL expires) and set again by Resolve for the reader. Other images keep an http(s) src.
package richtext

import (
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

var (
	// keyPattern is an objectKey of storage (docs/storage.md, "Object keys").
	keyPattern   = regexp.MustCompile(`^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*/[A-Za-z0-9_.-]+$`)
	classPattern = regexp.MustCompile(`^language-[A-Za-z0-9_+-]{1,30}$`)
)

// MaxBytes bounds one stored text (a document's content; comments are far smaller).
const MaxBytes = 2 << 20

var policy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("data-key").Matching(keyPattern).OnElements("img")
	p.AllowAttrs("class").Matching(classPattern).OnElements("code", "pre", "span")
	p.AllowStyles("text-align").MatchingEnum("left", "center", "right", "justify").OnElements("p", "h1", "h2", "h3", "h4")
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}()

// Sanitize strips everything that could run or restyle the console (scripts, event handlers,
// javascript: URLs, iframes, forms, inline styles other than text alignment) and drops the
// expiring src of storage images.
func Sanitize(s string) string {
	clean := policy.Sanitize(s)
	if !strings.Contains(clean, "data-key") {
		return clean
	}
	return rewriteImages(clean, func(*html.Node, string) string { return "" })
}

// ImageKeys lists the objectKeys of the storage images of a (sanitised) text, in order.
func ImageKeys(s string) []string {
	var keys []string
	if !strings.Contains(s, "data-key") {
		return keys
	}
	rewriteImages(s, func(_ *html.Node, key string) string { keys = append(keys, key); return "" })
	return keys
}

// Resolve sets the src of each storage image to sign(objectKey); an image sign answers "" for
// gets no src (the viewer shows it as broken, never another object).
func Resolve(s string, sign func(key string) string) string {
	if !strings.Contains(s, "data-key") {
		return s
	}
	return rewriteImages(s, func(_ *html.Node, key string) string { return sign(key) })
}

// Text is the plain text of a text (for search, previews and the not-empty check): words of
// adjacent blocks are kept apart by a space.
func Text(s string) string {
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && !inline[n.DataAtom] {
			b.WriteByte(' ')
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// Empty reports whether a text shows nothing: no words and no image.
func Empty(s string) bool {
	return Text(s) == "" && !strings.Contains(strings.ToLower(s), "<img")
}

var inline = map[atom.Atom]bool{atom.A: true, atom.B: true, atom.Strong: true, atom.I: true, atom.Em: true, atom.U: true,
	atom.S: true, atom.Code: true, atom.Span: true, atom.Sub: true, atom.Sup: true, atom.Mark: true}

// rewriteImages sets the src of every img with a data-key to src(node, key) ("" removes it).
func rewriteImages(s string, src func(n *html.Node, key string) string) string {
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		return ""
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Img {
			key := ""
			for _, a := range n.Attr {
				if a.Key == "data-key" {
					key = a.Val
				}
			}
			if key != "" {
				attrs := n.Attr[:0]
				for _, a := range n.Attr {
					if a.Key != "src" {
						attrs = append(attrs, a)
					}
				}
				n.Attr = attrs
				if v := src(n, key); v != "" {
					n.Attr = append(n.Attr, html.Attribute{Key: "src", Val: v})
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	var b strings.Builder
	for _, n := range nodes {
		walk(n)
		if err := html.Render(&b, n); err != nil {
			return ""
		}
	}
	return b.String()
}
