package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// appendN appends readings "r<from>".."r<to>" and fails on an error.
func appendN(t *testing.T, b *buffer, from, to int) {
	t.Helper()
	for i := from; i <= to; i++ {
		if _, err := b.append([]byte(fmt.Sprintf(`"r%d"`, i))); err != nil {
			t.Fatal(err)
		}
	}
}

// readAll returns the payloads of every live record.
func readAll(t *testing.T, b *buffer) []string {
	t.Helper()
	recs, err := b.read(0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, string(r.data))
	}
	return out
}

func segments(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*"+segSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestBuffer(t *testing.T) {
	t.Run("records survive a reopen until acked", func(t *testing.T) {
		dir := t.TempDir()
		b, err := openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		appendN(t, b, 1, 5)
		if _, err := b.ackTo(3); err != nil { // records 1 and 2
			t.Fatal(err)
		}
		b.close()

		b, err = openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		if got := fmt.Sprint(readAll(t, b)); got != `["r3" "r4" "r5"]` {
			t.Errorf("after reopen: %s", got)
		}
		appendN(t, b, 6, 6)
		recs, _ := b.read(0, 10)
		if last := recs[len(recs)-1]; last.seq != 6 {
			t.Errorf("sequence after reopen = %d, want 6 (numbers never repeat)", last.seq)
		}
	})

	t.Run("read from a sequence number with a limit", func(t *testing.T) {
		b, err := openBuffer(t.TempDir(), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		appendN(t, b, 1, 10)
		recs, err := b.read(4, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3 || recs[0].seq != 4 || recs[2].seq != 6 || string(recs[0].data) != `"r4"` {
			t.Errorf("read(4, 3) = %+v", recs)
		}
	})

	t.Run("a torn record at the end is cut off", func(t *testing.T) {
		dir := t.TempDir()
		b, err := openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		appendN(t, b, 1, 3)
		b.close()
		seg := segments(t, dir)[0]
		st, _ := os.Stat(seg)
		// a kill in the middle of the third record's write
		if err := os.Truncate(seg, st.Size()-3); err != nil {
			t.Fatal(err)
		}
		b, err = openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		if got := fmt.Sprint(readAll(t, b)); got != `["r1" "r2"]` {
			t.Errorf("after a torn write: %s", got)
		}
		appendN(t, b, 4, 4) // appends after the cut, readable
		if got := fmt.Sprint(readAll(t, b)); got != `["r1" "r2" "r4"]` {
			t.Errorf("append after repair: %s", got)
		}
	})

	t.Run("a corrupt record ends its segment", func(t *testing.T) {
		dir := t.TempDir()
		b, err := openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		appendN(t, b, 1, 3)
		b.close()
		seg := segments(t, dir)[0]
		data, _ := os.ReadFile(seg)
		data[len(data)-2] ^= 0xff // a flipped byte in the last payload
		if err := os.WriteFile(seg, data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err = openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		if got := fmt.Sprint(readAll(t, b)); got != `["r1" "r2"]` {
			t.Errorf("after corruption: %s", got)
		}
	})

	t.Run("acked segments are deleted", func(t *testing.T) {
		dir := t.TempDir()
		b, err := openBuffer(dir, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		b.segMax = 100 // a new segment every few records
		appendN(t, b, 1, 30)
		if n := len(segments(t, dir)); n < 5 {
			t.Fatalf("%d segments, want several", n)
		}
		if _, err := b.ackTo(31); err != nil {
			t.Fatal(err)
		}
		if n := len(segments(t, dir)); n != 1 {
			t.Errorf("%d segments after acking everything, want only the newest", n)
		}
		if b.len() != 0 || b.first() != 31 {
			t.Errorf("len %d first %d, want 0 and 31", b.len(), b.first())
		}
	})

	t.Run("over the limit the oldest are dropped", func(t *testing.T) {
		b, err := openBuffer(t.TempDir(), 3*(recordHead+5))
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		appendN(t, b, 1, 3)
		dropped, err := b.append([]byte(`"r4"`))
		if err != nil {
			t.Fatal(err)
		}
		if dropped != 1 {
			t.Errorf("dropped %d, want 1", dropped)
		}
		if got := fmt.Sprint(readAll(t, b)); got != `["r2" "r3" "r4"]` {
			t.Errorf("kept %s", got)
		}
	})

	t.Run("acking twice or below the mark changes nothing", func(t *testing.T) {
		b, err := openBuffer(t.TempDir(), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		defer b.close()
		appendN(t, b, 1, 4)
		if n, _ := b.ackTo(3); n != 2 {
			t.Errorf("first ack removed %d, want 2", n)
		}
		if n, _ := b.ackTo(3); n != 0 {
			t.Errorf("second ack removed %d, want 0", n)
		}
		if n, _ := b.ackTo(2); n != 0 || b.len() != 2 {
			t.Errorf("ack below the mark removed %d, len %d", n, b.len())
		}
	})
}
