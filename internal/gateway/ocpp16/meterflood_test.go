package ocpp16_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	ocpp "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/gateway/ocpp16"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// meterFrame is a raw MeterValues CALL with n voltage samples in one meterValue element.
func meterFrame(id string, n int) []byte {
	sv := make([]map[string]string, n)
	for i := range sv {
		sv[i] = map[string]string{"value": fmt.Sprintf("%d.%d", 200+i%50, i%10), "measurand": "Voltage", "unit": "V", "phase": "L1-N"}
	}
	payload := map[string]any{"connectorId": 1, "meterValue": []any{map[string]any{"timestamp": time.Now().UTC().Format(time.RFC3339), "sampledValue": sv}}}
	b, _ := json.Marshal([]any{2, id, "MeterValues", payload})
	return b
}

// rawCharger is a charger on a bare gorilla/websocket that writes frames and reads answers.
type rawCharger struct {
	t  *testing.T
	ws *websocket.Conn
}

func rawCP(t *testing.T, base, sn string) *rawCharger {
	t.Helper()
	ws, _, err := dialRaw(base, sn, "", "")
	if err != nil {
		t.Fatalf("dial %s: %v", sn, err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	return &rawCharger{t: t, ws: ws}
}

// roundTrip writes one frame and reads the answer as its message type, id and error code.
func (c *rawCharger) roundTrip(frame []byte) (typ int, id, code, desc string, err error) {
	_ = c.ws.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if err = c.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
		return
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, data, err := c.ws.ReadMessage()
	if err != nil {
		return
	}
	var parts []json.RawMessage
	if err = json.Unmarshal(data, &parts); err != nil || len(parts) < 2 {
		return 0, "", "", "", fmt.Errorf("answer %.200s: %v", data, err)
	}
	_ = json.Unmarshal(parts[0], &typ)
	_ = json.Unmarshal(parts[1], &id)
	if typ == 4 && len(parts) > 3 {
		_ = json.Unmarshal(parts[2], &code)
		_ = json.Unmarshal(parts[3], &desc)
	}
	return
}

// Issue 29: one 1 MB MeterValues with 11,000 sampled values was stored as 11,000 rows, and 50
// chargers sending such messages cut everyone else's throughput by 60-100 % (p99 3-7 s). Now
// one message carries at most ocpp16.MaxSampledValues and each charger its own rate: the rest
// is refused with a CALLERROR and counted, and a normal charger keeps being answered promptly.
func TestMeterValuesFloodIsBounded(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		org := fleettest.Seed(t, d)
		const floods = 8
		var devs []int64
		for i := range floods {
			devs = append(devs, fleettest.Device(t, d, org, org.CustomerA, org.SiteA, fmt.Sprintf("SN-FLOOD-%d", i)))
		}
		normal := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "SN-CALM")
		base := wsBase(env)

		t.Run("11,000 sampled values in one 1 MB message are refused and nothing is stored", func(t *testing.T) {
			big := meterFrame("big-1", 11000)
			if len(big) < 700_000 || len(big) > 1<<20 {
				t.Fatalf("frame of %d bytes, want about 1 MB", len(big))
			}
			c := rawCP(t, base, "SN-FLOOD-0")
			typ, id, code, desc, err := c.roundTrip(big)
			if err != nil {
				t.Fatal(err)
			}
			if typ != 4 || id != "big-1" || code != "OccurenceConstraintViolation" || !strings.Contains(desc, "11000") {
				t.Fatalf("answer %d %q %s %q, want a CALLERROR OccurenceConstraintViolation", typ, id, code, desc)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, devs[0]); n != 0 {
				t.Fatalf("%d series rows stored from a refused message", n)
			}
		})

		// A calm charger (ocpp-go) sends a 10-value MeterValues every 100 ms and times each
		// answer: first alone, then while flood chargers send full 500-value messages back to back.
		cp, _ := connectCP(t, env, "SN-CALM")
		alone := calmLatencies(t, cp, 3*time.Second)
		const floodFor = 6 * time.Second
		type floodCount struct{ ok, refused int }
		counts := make([]floodCount, floods)
		var wg sync.WaitGroup
		stop := time.Now().Add(floodFor)
		for i := range floods {
			c := rawCP(t, base, fmt.Sprintf("SN-FLOOD-%d", i))
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; time.Now().Before(stop); n++ {
					typ, _, code, _, err := c.roundTrip(meterFrame(fmt.Sprintf("f%d-%d", i, n), ocpp16.MaxSampledValues))
					switch {
					case err != nil:
						t.Errorf("flood charger %d: %v", i, err)
						return
					case typ == 3:
						counts[i].ok++
					case typ == 4 && code == "GenericError":
						counts[i].refused++
					default:
						t.Errorf("flood charger %d: answer %d %s", i, typ, code)
						return
					}
				}
			}()
		}
		lat := calmLatencies(t, cp, floodFor)
		wg.Wait()
		p50, p99 := percentile(lat, 50), percentile(lat, 99)
		var ok, refused int
		for _, c := range counts {
			ok, refused = ok+c.ok, refused+c.refused
		}
		t.Logf("%s: calm charger alone: %d MeterValues p50 %v p99 %v; beside %d flood chargers: %d MeterValues p50 %v p99 %v; flood messages %d accepted, %d refused",
			d.Dialect(), len(alone), percentile(alone, 50), percentile(alone, 99), floods, len(lat), p50, p99, ok, refused)

		t.Run("each flood charger gets its share and no more", func(t *testing.T) {
			// burst + rate × duration, in 500-value messages, with a second of slack
			most := (ocpp16.MeterBurst + ocpp16.MeterRatePerSecond*int(floodFor/time.Second+1)) / ocpp16.MaxSampledValues
			for i, c := range counts {
				if c.ok > most || c.ok < 1 || c.refused == 0 {
					t.Errorf("flood charger %d: %d accepted, %d refused; want 1..%d accepted and some refused", i, c.ok, c.refused, most)
				}
			}
		})
		t.Run("the calm charger is answered promptly", func(t *testing.T) {
			if p99 > 2*time.Second {
				t.Fatalf("calm charger p99 %v (p50 %v)", p99, p50)
			}
			if n := countRows(t, d, `SELECT COUNT(*) FROM device_series WHERE device_id = ?`, normal); n == 0 {
				t.Fatalf("the calm charger's values were not stored")
			}
		})
		t.Run("refusals are counted", func(t *testing.T) {
			if got := env.App.Gateway.Stats().MeterRefused; got != int64(refused+1) {
				t.Fatalf("MeterRefused %d, want %d", got, refused+1)
			}
		})
	})
}

// calmLatencies sends a 10-value MeterValues every 100 ms for d and returns the answer times.
func calmLatencies(t *testing.T, cp ocpp.ChargePoint, d time.Duration) []time.Duration {
	t.Helper()
	var lat []time.Duration
	for stop := time.Now().Add(d); time.Now().Before(stop); {
		sv := make([]types.SampledValue, 10)
		for i := range sv {
			sv[i] = types.SampledValue{Value: fmt.Sprint(1000 + i), Measurand: types.MeasurandEnergyActiveImportRegister, Unit: types.UnitOfMeasureWh}
		}
		start := time.Now()
		if _, err := cp.MeterValues(1, []types.MeterValue{{Timestamp: types.NewDateTime(start.UTC()), SampledValue: sv}}); err != nil {
			t.Fatalf("calm charger's MeterValues: %v", err)
		}
		lat = append(lat, time.Since(start))
		time.Sleep(100 * time.Millisecond)
	}
	return lat
}

// percentile is the p-th percentile of the durations (sorted in place).
func percentile(ds []time.Duration, p int) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, len(ds)*p/100)]
}
