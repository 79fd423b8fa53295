package richtext

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// FuzzSanitize feeds any HTML to the sanitiser of the docs wiki and ticket comments. What must
// hold for the stored text:
//   - nothing that runs or restyles the console: no script, style, frame, object, embed, form,
//     svg or math element, no event-handler attribute, no style but text-align, no link or
//     image URL with a scheme other than http(s) or mailto;
//   - sanitising twice changes nothing (what is stored reads back as it was stored);
//   - a storage image keeps a valid objectKey and no src; Resolve gives it exactly the signed
//     URL and ImageKeys lists exactly those keys.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		`<p style="text-align: center">Hello <b>world</b></p>`,
		`<script>alert(1)</script><p onclick="x()">p</p>`,
		`<a href="javascript:alert(1)">x</a><a href="https://example.com/a?b=c">ok</a>`,
		`<img data-key="images/2026/01/a.png" src="https://signed.example/old"><img src="http://x/y.png" onerror="e()">`,
		`<img data-key="../etc/passwd"><img data-key="images/ok.png" data-key="images/other.png">`,
		`<iframe src="https://x"></iframe><style>*{}</style><form><input></form><svg onload="x"></svg>`,
		`<pre><code class="language-go">fmt.Println("&lt;")</code></pre><span class="evil">s</span>`,
		`<p style="color:red;text-align:left">c</p><div style="position:fixed">d</div>`,
		`<table><tr><td>1</td></tr></table><ul><li>a<li>b</ul>`,
		`<<script>script>alert(1)<</script>/script>`,
		`<a href="jav&#x09;ascript:alert(1)">t</a><a href=" JAVASCRIPT:x">u</a>`,
		`<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>`,
		`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
		`plain text & <b>bold`,
		``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean := Sanitize(s)
		checkSafe(t, s, clean)
		if again := Sanitize(clean); again != clean {
			t.Fatalf("not idempotent:\n in  %q\n 1st %q\n 2nd %q", s, clean, again)
		}
		keys := ImageKeys(clean)
		for _, k := range keys {
			if !keyPattern.MatchString(k) {
				t.Fatalf("stored image key %q of %q", k, s)
			}
		}
		resolved := Resolve(clean, func(key string) string { return "https://signed.example/" + key })
		var got []string
		walk(t, resolved, func(n *html.Node) {
			if n.DataAtom != atom.Img || attrOf(n, "data-key") == "" {
				return
			}
			key := attrOf(n, "data-key")
			if src := attrOf(n, "src"); src != "https://signed.example/"+key {
				t.Fatalf("image %q resolved to src %q", key, src)
			}
			got = append(got, key)
		})
		if strings.Join(got, "\n") != strings.Join(keys, "\n") {
			t.Fatalf("ImageKeys %q, resolved images %q", keys, got)
		}
		_ = Empty(clean)
	})
}

var forbidden = map[atom.Atom]bool{atom.Script: true, atom.Style: true, atom.Iframe: true, atom.Frame: true, atom.Frameset: true,
	atom.Object: true, atom.Embed: true, atom.Form: true, atom.Input: true, atom.Button: true, atom.Textarea: true,
	atom.Svg: true, atom.Math: true, atom.Link: true, atom.Meta: true, atom.Base: true}

func checkSafe(t *testing.T, in, clean string) {
	t.Helper()
	walk(t, clean, func(n *html.Node) {
		if forbidden[n.DataAtom] || n.Data == "svg" || n.Data == "math" {
			t.Fatalf("<%s> kept from %q: %q", n.Data, in, clean)
		}
		for _, a := range n.Attr {
			key := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(key, "on"):
				t.Fatalf("event handler %s kept from %q: %q", a.Key, in, clean)
			case key == "style" && !strings.HasPrefix(strings.TrimSpace(a.Val), "text-align:"):
				t.Fatalf("style %q kept from %q: %q", a.Val, in, clean)
			case key == "href" || key == "src" || key == "cite":
				v := strings.ToLower(strings.Map(func(r rune) rune {
					if r <= ' ' {
						return -1
					}
					return r
				}, a.Val))
				if scheme, _, found := strings.Cut(v, ":"); found && !strings.ContainsAny(scheme, "/?#") &&
					scheme != "http" && scheme != "https" && scheme != "mailto" {
					t.Fatalf("%s=%q kept from %q: %q", a.Key, a.Val, in, clean)
				}
			}
		}
		if n.DataAtom == atom.Img && attrOf(n, "data-key") != "" && attrOf(n, "src") != "" {
			t.Fatalf("storage image keeps its src in %q", clean)
		}
	})
}

// walk calls fn on every element of a fragment parsed as a body's content.
func walk(t *testing.T, s string, fn func(n *html.Node)) {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.ElementNode {
			fn(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	for _, n := range nodes {
		rec(n)
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
