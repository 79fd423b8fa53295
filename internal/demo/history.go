package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/app"
	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocpp16"
)

// historyDays is how far back the demo's past sessions and faults go, so the dashboards have
// a month to show from the first minute.
const historyDays = 30

// seedHistory gives each demo charger a month of charging sessions and a few faults, sent
// through the fleet's own write path with the times they would have had (the energy rules and
// the dashboards' figures apply to them as to live messages). The fixed seed makes every demo
// the same.
func seedHistory(ctx context.Context, a *app.App, sns []string) error {
	loc, err := time.LoadLocation(a.Cfg.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	// one goroutine per charger: the pipeline commits their messages in shared batches
	errs := make([]error, len(sns))
	var wg sync.WaitGroup
	for i, sn := range sns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = chargerHistory(ctx, a, sn, loc, rand.New(rand.NewPCG(10, uint64(i))))
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

var demoFaults = []core.ChargePointErrorCode{core.HighTemperature, core.GroundFailure, core.OverCurrentFailure, core.PowerMeterFailure}

func chargerHistory(ctx context.Context, a *app.App, sn string, loc *time.Location, rng *rand.Rand) error {
	now := time.Now()
	faults := demoFaults
	dev, err := a.Fleet.DeviceBySN(ctx, sn)
	if err != nil {
		return fmt.Errorf("history of %s: %w", sn, err)
	}
	meter := int64(rng.IntN(2_000_000))
	for day := historyDays; day >= 1; day-- {
		midnight := time.Date(now.Year(), now.Month(), now.Day()-day, 0, 0, 0, 0, loc)
		for range rng.IntN(5) {
			start := midnight.Add(time.Duration(6*60+rng.IntN(15*60)) * time.Minute)
			dur := time.Duration(20+rng.IntN(100)) * time.Minute
			wh := int64(dur.Hours() * float64(7_000+rng.IntN(40_000)))
			id, err := a.Fleet.StartTransaction(ctx, fleet.TransactionStart{Device: dev, Connector: 1, IDTag: fmt.Sprintf("TAG%04d", rng.IntN(10000)),
				MeterStart: meter, At: start.UnixMilli()})
			if err != nil {
				return err
			}
			meter += wh
			if err := a.Fleet.StopTransaction(ctx, fleet.TransactionStop{Device: dev, ID: id, MeterStop: meter, At: start.Add(dur).UnixMilli(), Reason: "EVDisconnected"}); err != nil {
				return err
			}
		}
		if rng.IntN(8) == 0 {
			at := midnight.Add(time.Duration(rng.IntN(24*60)) * time.Minute)
			status := core.ChargePointStatusFaulted
			if rng.IntN(2) == 0 {
				status = core.ChargePointStatusAvailable // an alarm: the connector still works
			}
			fault := core.StatusNotificationRequest{ConnectorId: 1, Status: status, ErrorCode: faults[rng.IntN(len(faults))], Timestamp: types.NewDateTime(at)}
			if err := a.Fleet.ConnectorStatus(ctx, ocpp16.StatusReport(dev, &fault)); err != nil {
				return err
			}
			ok := core.StatusNotificationRequest{ConnectorId: 1, Status: core.ChargePointStatusAvailable, ErrorCode: core.NoError,
				Timestamp: types.NewDateTime(at.Add(time.Duration(5+rng.IntN(60)) * time.Minute))}
			if err := a.Fleet.ConnectorStatus(ctx, ocpp16.StatusReport(dev, &ok)); err != nil {
				return err
			}
		}
	}
	return nil
}
