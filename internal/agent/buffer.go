package agent

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The buffer's files in a unit's directory: segments named by their first record's sequence
// number (so a listing sorts them), and the acknowledged mark.
const (
	segSuffix  = ".seg"
	ackedName  = "acked"
	recordHead = 16 // payload length uint32, CRC-32 of seq+payload uint32, seq uint64
	maxRecord  = 16 << 20
)

// buffer keeps one unit's readings on disk until chargeops acknowledges them, so a reading
// taken during an outage, or before the agent is killed, is still sent. Records are appended
// to segment files (each fsync'd before append returns); the "acked" file holds the sequence
// number below which everything is acknowledged. A segment is deleted once every record in it
// is, and the newest segment is rotated when it grows past segMax. A torn record at a
// segment's end (a kill mid-write) is cut off when the buffer is opened.
type buffer struct {
	mu     sync.Mutex
	dir    string
	max    int64 // bytes of unacknowledged records kept; over it the oldest go
	segMax int64
	segs   []*segment // oldest first; the last one is appended to
	live   []entry    // records not acknowledged, oldest first
	bytes  int64      // on-disk size of live
	acked  uint64     // every record below this sequence number is acknowledged
	next   uint64     // sequence number of the next record appended
}

type segment struct {
	first uint64 // sequence number of its first record (of the next one appended, while empty)
	path  string
	f     *os.File
	size  int64
}

// entry locates one live record.
type entry struct {
	seq uint64
	seg *segment
	off int64 // of its header
	n   int64 // payload length
}

// record is one buffered reading as read back.
type record struct {
	seq  uint64
	data []byte
}

// openBuffer opens (or creates) the buffer in dir.
func openBuffer(dir string, maxBytes int64) (*buffer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("agent: open buffer: %w", err)
	}
	b := &buffer{dir: dir, max: maxBytes, segMax: min(max(maxBytes/8, 64<<10), 4<<20)}
	acked, err := b.readAcked()
	if err != nil {
		return nil, err
	}
	b.acked = acked
	names, err := filepath.Glob(filepath.Join(dir, "*"+segSuffix))
	if err != nil {
		return nil, fmt.Errorf("agent: open buffer: %w", err)
	}
	slices.Sort(names) // zero-padded names: lexical order is sequence order
	var last uint64
	for _, name := range names {
		first, err := strconv.ParseUint(strings.TrimSuffix(filepath.Base(name), segSuffix), 10, 64)
		if err != nil {
			continue // not ours
		}
		s := &segment{first: first, path: name}
		entries, err := s.load(last)
		if err != nil {
			b.closeFiles()
			return nil, err
		}
		b.segs = append(b.segs, s)
		for _, e := range entries {
			last = e.seq
			if e.seq >= b.acked {
				b.live = append(b.live, e)
				b.bytes += recordHead + e.n
			}
		}
	}
	b.next = max(last+1, b.acked, 1)
	if n := len(b.segs); n > 0 {
		b.next = max(b.next, b.segs[n-1].first) // an empty newest segment was named by the next
	}
	if len(b.segs) == 0 {
		if err := b.rotate(); err != nil {
			return nil, err
		}
	}
	if err := b.compact(); err != nil {
		b.closeFiles()
		return nil, err
	}
	return b, nil
}

// load opens the segment and indexes its records, cutting off a torn or corrupt tail. after is
// the previous segment's last sequence number: sequence numbers only grow.
func (s *segment) load(after uint64) ([]entry, error) {
	f, err := os.OpenFile(s.path, os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("agent: open buffer segment: %w", err)
	}
	s.f = f
	r := bufio.NewReader(f)
	var out []entry
	var off int64
	head := make([]byte, recordHead)
	for {
		if _, err := io.ReadFull(r, head); err != nil {
			break // the end, or a torn header
		}
		n := int64(binary.BigEndian.Uint32(head[0:4]))
		sum := binary.BigEndian.Uint32(head[4:8])
		seq := binary.BigEndian.Uint64(head[8:16])
		if n > maxRecord || seq <= after {
			break
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			break
		}
		if checksum(head[8:16], payload) != sum {
			break
		}
		out = append(out, entry{seq: seq, seg: s, off: off, n: n})
		off += recordHead + n
		after = seq
	}
	if st, err := f.Stat(); err == nil && st.Size() > off {
		if err := f.Truncate(off); err != nil {
			return nil, fmt.Errorf("agent: repair buffer segment: %w", err)
		}
	}
	s.size = off
	return out, nil
}

func checksum(seq, payload []byte) uint32 {
	h := crc32.NewIEEE()
	h.Write(seq)
	h.Write(payload)
	return h.Sum32()
}

// append stores one reading durably; when the buffer is then over its size, the oldest
// readings are dropped (dropped says how many).
func (b *buffer) append(data []byte) (dropped int, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s := b.segs[len(b.segs)-1]; s.size >= b.segMax {
		if err := b.rotate(); err != nil {
			return 0, err
		}
	}
	s := b.segs[len(b.segs)-1]
	rec := make([]byte, recordHead+len(data))
	binary.BigEndian.PutUint32(rec[0:4], uint32(len(data)))
	binary.BigEndian.PutUint64(rec[8:16], b.next)
	binary.BigEndian.PutUint32(rec[4:8], checksum(rec[8:16], data))
	copy(rec[recordHead:], data)
	if _, err := s.f.WriteAt(rec, s.size); err != nil {
		_ = s.f.Truncate(s.size)
		return 0, fmt.Errorf("agent: buffer reading: %w", err)
	}
	if err := s.f.Sync(); err != nil {
		_ = s.f.Truncate(s.size)
		return 0, fmt.Errorf("agent: buffer reading: %w", err)
	}
	b.live = append(b.live, entry{seq: b.next, seg: s, off: s.size, n: int64(len(data))})
	b.bytes += int64(len(rec))
	s.size += int64(len(rec))
	b.next++
	for b.bytes > b.max && len(b.live) > 1 { // the newest reading is always kept
		b.bytes -= recordHead + b.live[0].n
		b.live = b.live[1:]
		dropped++
	}
	if dropped > 0 {
		if err := b.markAcked(b.live[0].seq); err != nil {
			return dropped, err
		}
	}
	return dropped, nil
}

// read returns up to limit live records from sequence number from on, in order.
func (b *buffer) read(from uint64, limit int) ([]record, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := sort.Search(len(b.live), func(i int) bool { return b.live[i].seq >= from })
	es := b.live[i:min(len(b.live), i+limit)]
	out := make([]record, 0, len(es))
	for len(es) > 0 {
		// the records of one segment are contiguous on disk: one read for the run of them
		j := 1
		for j < len(es) && es[j].seg == es[0].seg {
			j++
		}
		run := es[:j]
		start, end := run[0].off, run[j-1].off+recordHead+run[j-1].n
		chunk := make([]byte, end-start)
		if _, err := run[0].seg.f.ReadAt(chunk, start); err != nil {
			return nil, fmt.Errorf("agent: read buffer: %w", err)
		}
		for _, e := range run {
			p := e.off - start + recordHead
			out = append(out, record{seq: e.seq, data: chunk[p : p+e.n]})
		}
		es = es[j:]
	}
	return out, nil
}

// ackTo marks every record below seq acknowledged and deletes the segments that held only
// such records; n is how many live records that removed.
func (b *buffer) ackTo(seq uint64) (n int, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	seq = min(seq, b.next)
	if seq <= b.acked {
		return 0, nil
	}
	for n < len(b.live) && b.live[n].seq < seq {
		b.bytes -= recordHead + b.live[n].n
		n++
	}
	b.live = b.live[n:]
	return n, b.markAcked(seq)
}

// first is the sequence number of the oldest live record (of the next one, when none is).
func (b *buffer) first() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.live) == 0 {
		return b.next
	}
	return b.live[0].seq
}

// len is the number of live records.
func (b *buffer) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.live)
}

func (b *buffer) close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closeFiles()
}

func (b *buffer) closeFiles() error {
	var errs []error
	for _, s := range b.segs {
		if s.f != nil {
			errs = append(errs, s.f.Close())
			s.f = nil
		}
	}
	return errors.Join(errs...)
}

// markAcked writes the acknowledged mark (atomically: a kill leaves the old or the new one)
// and deletes fully acknowledged segments. Callers hold mu.
func (b *buffer) markAcked(seq uint64) error {
	b.acked = seq
	tmp := filepath.Join(b.dir, ackedName+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("agent: mark acked: %w", err)
	}
	_, werr := f.WriteString(strconv.FormatUint(seq, 10) + "\n")
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("agent: mark acked: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(b.dir, ackedName)); err != nil {
		return fmt.Errorf("agent: mark acked: %w", err)
	}
	return b.compact()
}

// compact deletes the segments before the newest whose records are all acknowledged: segments
// are contiguous, so a segment is done when the next one starts at or below the mark.
func (b *buffer) compact() error {
	for len(b.segs) > 1 && b.segs[1].first <= b.acked {
		s := b.segs[0]
		_ = s.f.Close()
		if err := os.Remove(s.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("agent: compact buffer: %w", err)
		}
		b.segs = b.segs[1:]
	}
	return nil
}

// rotate starts a new segment for the next record. Callers hold mu (or own b alone).
func (b *buffer) rotate() error {
	path := filepath.Join(b.dir, fmt.Sprintf("%020d%s", b.next, segSuffix))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("agent: new buffer segment: %w", err)
	}
	b.segs = append(b.segs, &segment{first: b.next, path: path, f: f})
	syncDir(b.dir) // so the new file's name survives a power cut with its records
	return b.compact()
}

// readAcked reads the acknowledged mark; none yet is 0.
func (b *buffer) readAcked() (uint64, error) {
	data, err := os.ReadFile(filepath.Join(b.dir, ackedName))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("agent: read acked mark: %w", err)
	}
	seq, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("agent: read acked mark %s: %w", filepath.Join(b.dir, ackedName), err)
	}
	return seq, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
