package richtext

import (
	"strings"
	"testing"
)

func TestSanitizeStripsScriptsAndEventHandlers(t *testing.T) {
	cases := map[string]string{
		"script":          `<p>ok</p><script>alert(1)</script>`,
		"onerror":         `<img src="https://x.test/a.png" onerror="alert(1)">`,
		"onclick":         `<p onclick="alert(1)">ok</p>`,
		"javascript link": `<a href="javascript:alert(1)">x</a>`,
		"iframe":          `<iframe src="https://evil.test"></iframe>`,
		"style":           `<p style="position:fixed;top:0">x</p>`,
		"svg":             `<svg><script>alert(1)</script></svg>`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			out := strings.ToLower(Sanitize(in))
			for _, bad := range []string{"<script", "onerror", "onclick", "javascript:", "<iframe", "position", "<svg"} {
				if strings.Contains(out, bad) {
					t.Fatalf("Sanitize(%q) = %q keeps %q", in, out, bad)
				}
			}
		})
	}
}

func TestSanitizeKeepsFormattingAndAlignment(t *testing.T) {
	in := `<h2 style="text-align: center">Title</h2><p><strong>b</strong> <em>i</em></p><ul><li>x</li></ul><pre><code class="language-go">x</code></pre><a href="https://a.test/">l</a>`
	out := Sanitize(in)
	for _, want := range []string{`<h2 style="text-align: center">`, "<strong>b</strong>", "<li>x</li>", `class="language-go"`, `href="https://a.test/"`, `rel="nofollow noopener"`} {
		if !strings.Contains(out, want) {
			t.Errorf("Sanitize lost %q: %s", want, out)
		}
	}
}

func TestStorageImagesStoredByKeyAndResolvedForTheReader(t *testing.T) {
	in := `<p>see</p><img data-key="images/abc-1.png" src="/api/unauth/oss/object/images/abc-1.png?sig=old" alt="a"><img src="https://cdn.test/x.png">`
	stored := Sanitize(in)
	t.Run("the stored text keeps the key, not the expiring src", func(t *testing.T) {
		if strings.Contains(stored, "sig=old") {
			t.Fatalf("stored text keeps the expiring src: %s", stored)
		}
		if got := ImageKeys(stored); len(got) != 1 || got[0] != "images/abc-1.png" {
			t.Fatalf("ImageKeys = %v", got)
		}
	})
	t.Run("the reader gets a signed src, outside images stay", func(t *testing.T) {
		shown := Resolve(stored, func(k string) string { return "/signed/" + k })
		if !strings.Contains(shown, `src="/signed/images/abc-1.png"`) || !strings.Contains(shown, `src="https://cdn.test/x.png"`) {
			t.Fatalf("Resolve = %s", shown)
		}
	})
	t.Run("a key outside storage's naming is dropped", func(t *testing.T) {
		if bad := Sanitize(`<img data-key="../../etc/passwd">`); strings.Contains(bad, "data-key") {
			t.Fatalf("kept: %s", bad)
		}
	})
}

func TestTextAndEmpty(t *testing.T) {
	t.Run("text joins paragraphs with a space", func(t *testing.T) {
		if got := Text(`<p>充电桩<b>故障</b></p><p>reset</p>`); got != "充电桩故障 reset" {
			t.Fatalf("Text = %q", got)
		}
	})
	t.Run("blank markup is empty", func(t *testing.T) {
		for _, s := range []string{"", "<p></p>", "<p> &nbsp; </p>", "<p><br></p>"} {
			if !Empty(Sanitize(s)) {
				t.Errorf("Empty(%q) = false", s)
			}
		}
	})
	t.Run("a text with only an image is not empty", func(t *testing.T) {
		if Empty(`<p><img data-key="images/a-1.png"></p>`) {
			t.Error("Empty = true")
		}
	})
}
