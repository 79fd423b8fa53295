package mqttbench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is Linux's USER_HZ, the unit of /proc's CPU times.
const clockTick = 10 * time.Millisecond

// ProcStat is a process's CPU time (user + system) and resident memory, from /proc.
type ProcStat struct {
	CPU time.Duration
	// Children is the CPU time of its children that have exited and been waited for.
	Children time.Duration
	RSS      int64 // bytes
}

// readProc reads /proc/<pid>/stat and /proc/<pid>/status (pid 0: this process).
func readProc(pid int) (ProcStat, error) {
	dir := "/proc/self"
	if pid > 0 {
		dir = "/proc/" + strconv.Itoa(pid)
	}
	var s ProcStat
	raw, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return s, err
	}
	// the command name is in parentheses and may hold spaces: the fields start after the last ')'
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return s, fmt.Errorf("%s/stat: unreadable", dir)
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 15 {
		return s, fmt.Errorf("%s/stat: %d fields", dir, len(f))
	}
	var t [4]int64 // utime, stime, cutime, cstime: fields 14-17
	for i := range t {
		if t[i], err = strconv.ParseInt(f[11+i], 10, 64); err != nil {
			return s, fmt.Errorf("%s/stat: cpu times unreadable", dir)
		}
	}
	s.CPU = time.Duration(t[0]+t[1]) * clockTick
	s.Children = time.Duration(t[2]+t[3]) * clockTick
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return s, err
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			s.RSS = kb << 10
		}
	}
	return s, nil
}

// machineBusy is the CPU time the whole machine spent busy (every core: user, nice, system,
// irq, softirq, steal) since boot, from /proc/stat.
func machineBusy() (time.Duration, error) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, fmt.Errorf("/proc/stat: unreadable")
	}
	var busy int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system (idle iowait) irq softirq steal
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat: %w", err)
		}
		busy += v
	}
	return time.Duration(busy) * clockTick, nil
}

// postgresCPU adds up the CPU time of the processes named postgres (a PostgreSQL on this
// machine: its backends, writers and checkpointer), from /proc/<pid>/stat, with that of the
// backends that have exited (the postmaster's children: a pool closes connections it has
// too many of, and their time would otherwise be lost).
func postgresCPU() time.Duration {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil || !bytes.Contains(raw, []byte("(postgres)")) {
			continue
		}
		if p, err := readProc(pid); err == nil {
			total += p.CPU + p.Children
		}
	}
	return total
}

// cpuSnap is the CPU times of the server, this process, PostgreSQL and the machine at one moment.
type cpuSnap struct {
	server, self, pg, machine time.Duration
	at                        time.Time
}

func snapCPU(pid int) cpuSnap {
	s := cpuSnap{at: time.Now()}
	if p, err := readProc(pid); err == nil {
		s.server = p.CPU
	}
	if p, err := readProc(0); err == nil {
		s.self = p.CPU
	}
	s.pg = postgresCPU()
	s.machine, _ = machineBusy()
	return s
}

// CPUFigures are CPU seconds spent in a phase.
type CPUFigures struct {
	Seconds  float64 `json:"seconds"`  // wall time of the phase
	Server   float64 `json:"server"`   // the broker or node process
	Bench    float64 `json:"bench"`    // the load generator (this process)
	Postgres float64 `json:"postgres"` // the processes named postgres (every database of it)
	// Machine is every core's busy time from /proc/stat. It is sampled at each tick, so it
	// misses short bursts between idle ticks and can be less than the processes' own times
	// (precise); Rest, the machine's less the server's, the bench's and PostgreSQL's, is only a
	// rough sign of other work on the machine.
	Machine float64 `json:"machine"`
	Rest    float64 `json:"rest"`
}

func cpuBetween(a, b cpuSnap) CPUFigures {
	f := CPUFigures{Seconds: b.at.Sub(a.at).Seconds(), Server: (b.server - a.server).Seconds(), Bench: (b.self - a.self).Seconds(),
		Postgres: (b.pg - a.pg).Seconds(), Machine: (b.machine - a.machine).Seconds()}
	f.Rest = f.Machine - f.Server - f.Bench - f.Postgres
	return f
}

// loadAvg is the machine's 1-minute load average (0 when unknown).
func loadAvg() float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// waitQuiet waits until the 1-minute load average is below limit, at most wait (default 10
// minutes); it returns how long it waited and the last load average.
func waitQuiet(ctx context.Context, limit float64, wait time.Duration) (time.Duration, float64, error) {
	if wait <= 0 {
		wait = 10 * time.Minute
	}
	start := time.Now()
	for {
		l := loadAvg()
		if l < limit || time.Since(start) >= wait {
			return time.Since(start), l, nil
		}
		if !sleepCtx(ctx, 5*time.Second) {
			return time.Since(start), l, ctx.Err()
		}
	}
}
