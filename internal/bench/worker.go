package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

// A run drives its chargers through parts: the fleet of this process, or worker processes
// (`--procs K`), each driving its share, so one run can hold more sockets than one process's
// open-file limit allows. The phases run on every part at once.
type part interface {
	// phase runs one of opConnect, opLoad, opStorm, opClose.
	phase(ctx context.Context, op string) error
	// result returns the part's figures.
	result(ctx context.Context) (FleetResult, error)
	// stop ends the part (a worker process exits).
	stop()
}

// Phases of a run.
const (
	opConnect = "connect"
	opLoad    = "load"
	opStorm   = "storm"
	opClose   = "close"
	opResult  = "result"
)

// localPart is this process's fleet.
type localPart struct{ f *Fleet }

func (p localPart) phase(ctx context.Context, op string) error {
	switch op {
	case opConnect:
		return p.f.Connect(ctx)
	case opLoad:
		return p.f.Load(ctx)
	case opStorm:
		return p.f.Storm(ctx)
	case opClose:
		p.f.Close()
		return nil
	}
	return fmt.Errorf("bench: unknown phase %q", op)
}

func (p localPart) result(context.Context) (FleetResult, error) { return p.f.Result(), nil }
func (p localPart) stop()                                       {}

// The worker protocol, one JSON object per line: the parent writes the FleetOptions, then
// workerRequests; the worker answers each request with a workerAnswer.
type workerRequest struct {
	Op string `json:"op"`
}

type workerAnswer struct {
	Error  string       `json:"error,omitempty"`
	Result *FleetResult `json:"result,omitempty"`
}

// RunWorker serves the worker protocol on in/out until in ends: it is `chargeops bench worker`,
// started by a run with --procs. Progress and errors go to stderr, never to out.
func RunWorker(ctx context.Context, in io.Reader, out io.Writer) error {
	if _, err := RaiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "bench worker: open-file limit not raised:", err)
	}
	rd := bufio.NewScanner(in)
	rd.Buffer(make([]byte, 64<<10), 1<<20)
	enc := json.NewEncoder(out)
	if !rd.Scan() {
		return errors.New("bench worker: no fleet options on stdin")
	}
	var o FleetOptions
	if err := json.Unmarshal(rd.Bytes(), &o); err != nil {
		return fmt.Errorf("bench worker: fleet options: %w", err)
	}
	f, err := NewFleet(o)
	if err != nil {
		return err
	}
	p := localPart{f}
	defer f.Close()
	for rd.Scan() {
		var req workerRequest
		var ans workerAnswer
		if err := json.Unmarshal(rd.Bytes(), &req); err != nil {
			ans.Error = "bad request: " + err.Error()
		} else if req.Op == opResult {
			r := f.Result()
			ans.Result = &r
		} else if err := p.phase(ctx, req.Op); err != nil {
			ans.Error = err.Error()
		}
		if err := enc.Encode(ans); err != nil {
			return fmt.Errorf("bench worker: answer: %w", err)
		}
	}
	return rd.Err()
}

// pipePart is a worker at the other end of a pair of streams.
type pipePart struct {
	mu   sync.Mutex
	w    io.WriteCloser
	r    *bufio.Scanner
	name string
	done func() // waits for the worker to end
}

// newPipePart sends the fleet options to a worker.
func newPipePart(name string, w io.WriteCloser, r io.Reader, o FleetOptions, done func()) (*pipePart, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20) // a result carries histograms
	p := &pipePart{w: w, r: sc, name: name, done: done}
	b, _ := json.Marshal(o)
	if _, err := w.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// ask sends one request and reads its answer (a worker does one phase at a time).
func (p *pipePart) ask(ctx context.Context, op string) (workerAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ans workerAnswer
	b, _ := json.Marshal(workerRequest{Op: op})
	if _, err := p.w.Write(append(b, '\n')); err != nil {
		return ans, fmt.Errorf("%s: %s: %w", p.name, op, err)
	}
	got := make(chan error, 1)
	go func() {
		if !p.r.Scan() {
			got <- fmt.Errorf("%s: %s: the worker ended (%v)", p.name, op, p.r.Err())
			return
		}
		got <- json.Unmarshal(p.r.Bytes(), &ans)
	}()
	select {
	case err := <-got:
		if err == nil && ans.Error != "" {
			err = fmt.Errorf("%s: %s: %s", p.name, op, ans.Error)
		}
		return ans, err
	case <-ctx.Done():
		return ans, ctx.Err()
	}
}

func (p *pipePart) phase(ctx context.Context, op string) error {
	_, err := p.ask(ctx, op)
	return err
}

func (p *pipePart) result(ctx context.Context) (FleetResult, error) {
	ans, err := p.ask(ctx, opResult)
	if err != nil {
		return FleetResult{}, err
	}
	if ans.Result == nil {
		return FleetResult{}, fmt.Errorf("%s: no result", p.name)
	}
	return *ans.Result, nil
}

func (p *pipePart) stop() {
	_ = p.w.Close()
	if p.done != nil {
		p.done()
	}
}

// startWorker starts `command... ` as a worker process driving the fleet o.
func startWorker(name string, command []string, o FleetOptions) (*pipePart, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p, err := newPipePart(name, stdin, stdout, o, func() { _ = cmd.Wait() })
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	return p, nil
}
