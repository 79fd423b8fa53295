package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"chargeops/internal/bench/console"
)

// APIOptions let the bench sign in to the console API to time remote commands and to probe
// the console during the storm. The node must run with --captcha=false.
type APIOptions struct {
	URL      string        // http://HOST:PORT
	User     string        // a user who may operate the bench devices (e.g. a super admin)
	Password string        //
	Interval time.Duration // one command at most this often (default 100 ms)
	SN       string        // the charger commanded (default the fleet's first)
}

// CommandStats time remote commands from the API call that sends one to the moment its result
// is known (the command's detail no longer says waiting).
type CommandStats struct {
	Count    int64            `json:"count"`
	Outcomes map[string]int64 `json:"outcomes"` // success, failed, timeout, offline, or the API's refusal code
	RTT      *Histogram       `json:"rtt"`
}

// ProbeStats time the console's answers: GET /healthz and the device status counts.
type ProbeStats struct {
	Count  int64      `json:"count"`
	Failed int64      `json:"failed"`
	RTT    *Histogram `json:"rtt"`
}

// commander sends the commands and probes.
type commander struct {
	api      *console.Client
	deviceID int64
	interval time.Duration
}

// Command results (docs/api.md).
const (
	cmdWaiting = 1
	ctlTrigger = 10 // TriggerMessage
)

var resultNames = map[int]string{2: "success", 3: "failed", 4: "timeout", 5: "offline"}

// newCommander signs in and finds the commanded charger's device id.
func newCommander(ctx context.Context, o APIOptions) (*commander, error) {
	if o.Interval <= 0 {
		o.Interval = 100 * time.Millisecond
	}
	api := console.New(o.URL)
	if err := api.Login(ctx, o.User, o.Password); err != nil {
		return nil, err
	}
	var list struct {
		List []struct {
			ID int64  `json:"id"`
			SN string `json:"sn"`
		} `json:"list"`
	}
	if err := api.Call(ctx, http.MethodPost, "/api/auth/sys/dev/basic/list", map[string]any{"keyword": o.SN, "page": 1, "pageSize": 10}, &list); err != nil {
		return nil, fmt.Errorf("find device %s: %w", o.SN, err)
	}
	for _, d := range list.List {
		if d.SN == o.SN {
			return &commander{api: api, deviceID: d.ID, interval: o.Interval}, nil
		}
	}
	return nil, fmt.Errorf("device %s not found through the API (seed it first: chargeops bench seed)", o.SN)
}

// commandLimit bounds one command once the commands are told to stop.
const commandLimit = 30 * time.Second

// commands sends a TriggerMessage (Heartbeat) to the device every interval until ctx ends, one
// at a time, and times each until its result is known. The command in flight when ctx ends is
// finished (within commandLimit), not abandoned: a cancelled send may still reach the charger
// after the run closed its socket, and the protocol log would hold a frame the bench never
// read.
func (cm *commander) commands(ctx context.Context) *CommandStats {
	st := &CommandStats{Outcomes: map[string]int64{}, RTT: &Histogram{}}
	for ctx.Err() == nil {
		start := time.Now()
		one, cancel := context.WithTimeout(context.WithoutCancel(ctx), commandLimit)
		outcome, err := cm.command(one)
		cancel()
		switch {
		case err != nil && ctx.Err() != nil:
			return st
		case err != nil:
			outcome = "error: " + err.Error()
		default:
			st.RTT.Record(time.Since(start))
		}
		st.Count++
		st.Outcomes[outcome]++
		sleepCtx(ctx, time.Until(start.Add(cm.interval)))
	}
	return st
}

// command runs one command and returns its outcome.
func (cm *commander) command(ctx context.Context) (string, error) {
	var sent struct {
		Commands []struct {
			ID     int64 `json:"id"`
			Result int   `json:"result"`
		} `json:"commands"`
	}
	err := cm.api.Call(ctx, http.MethodPost, "/api/auth/sys/dev/control/send",
		map[string]any{"deviceIds": []int64{cm.deviceID}, "controlType": ctlTrigger, "params": map[string]any{"message": "Heartbeat"}}, &sent)
	var ce *console.CodeError
	if errors.As(err, &ce) {
		return "code " + strconv.Itoa(ce.Code), nil
	}
	if err != nil {
		return "", err
	}
	if len(sent.Commands) != 1 {
		return "", fmt.Errorf("send answered %d commands", len(sent.Commands))
	}
	id, result := sent.Commands[0].ID, sent.Commands[0].Result
	for result == cmdWaiting {
		if !sleepCtx(ctx, 2*time.Millisecond) {
			return "", ctx.Err()
		}
		var detail struct {
			Result int `json:"result"`
		}
		if err := cm.api.Call(ctx, http.MethodGet, "/api/auth/sys/dev/control/detail", map[string]any{"id": id}, &detail); err != nil {
			return "", err
		}
		result = detail.Result
	}
	if name, ok := resultNames[result]; ok {
		return name, nil
	}
	return "result " + strconv.Itoa(result), nil
}

// deviceList asks for the first page of the device list every 100 ms until ctx ends: how the
// console answers while the load arrives.
func (cm *commander) deviceList(ctx context.Context) *ProbeStats {
	st := &ProbeStats{RTT: &Histogram{}}
	for ctx.Err() == nil {
		start := time.Now()
		err := cm.api.Call(ctx, http.MethodPost, "/api/auth/sys/dev/basic/list", map[string]any{"page": 1, "pageSize": 20}, nil)
		if ctx.Err() != nil {
			break
		}
		st.Count++
		if err != nil {
			st.Failed++
		} else {
			st.RTT.Record(time.Since(start))
		}
		sleepCtx(ctx, time.Until(start.Add(100*time.Millisecond)))
	}
	return st
}

// probe asks the console for /healthz and the device status counts every 100 ms until ctx
// ends: a console that stops answering during a storm shows here.
func (cm *commander) probe(ctx context.Context) *ProbeStats {
	st := &ProbeStats{RTT: &Histogram{}}
	for ctx.Err() == nil {
		start := time.Now()
		status, err := cm.api.Get(ctx, "/healthz")
		if err == nil && status == http.StatusOK {
			err = cm.api.Call(ctx, http.MethodGet, "/api/auth/sys/dev/basic/status/count", nil, nil)
		} else if err == nil {
			err = fmt.Errorf("healthz: HTTP %d", status)
		}
		if ctx.Err() != nil {
			break
		}
		st.Count++
		if err != nil {
			st.Failed++
		} else {
			st.RTT.Record(time.Since(start))
		}
		sleepCtx(ctx, time.Until(start.Add(100*time.Millisecond)))
	}
	return st
}
