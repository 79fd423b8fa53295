package ocpp16

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/localauth"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"

	"chargeops/internal/fleet"
)

// The local authorization list (control types 19 and 20; docs/tokens.md): the core builds the
// list (Options.LocalLists); the adapter carries it and reports the version the charger holds.

// sendLocalList runs control type 19: a list the core refuses (too long for the charger, its
// local list disabled) is not sent; an accepted one becomes the version the charger holds.
func (c *conn) sendLocalList(ctx context.Context, dev *fleet.Device, p fleet.Params) (fleet.Outcome, error) {
	lists := c.g.opt.LocalLists
	list, failed, err := fleet.LocalListToSend(ctx, lists, dev, p.UpdateType)
	if failed != nil {
		return *failed, nil
	}
	if err != nil {
		return fleet.Outcome{}, err
	}
	typ := localauth.UpdateTypeDifferential
	if list.Full {
		typ = localauth.UpdateTypeFull
	}
	req := localauth.NewSendLocalListRequest(int(list.Version), typ)
	for _, e := range list.Entries {
		req.LocalAuthorizationList = append(req.LocalAuthorizationList, localauth.AuthorizationData{IdTag: e.IDTag, IdTagInfo: idTagInfo(e.Info)})
	}
	raw, err := c.call(ctx, localauth.SendLocalListFeatureName, req)
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf localauth.SendLocalListConfirmation
	_ = json.Unmarshal(raw, &conf)
	out := fleet.Outcome{Answer: raw, Result: fleet.ResultFailed, Message: "device answered " + string(conf.Status)}
	if conf.Status == localauth.UpdateStatusAccepted {
		out.Result, out.Message = fleet.ResultSuccess, "" // the answer and the version held tell the rest
		if err := lists.Held(context.WithoutCancel(ctx), dev, list.Version, true); err != nil {
			return fleet.Outcome{}, err
		}
	}
	return out, nil
}

// getLocalListVersion runs control type 20 and keeps the answer as the version the charger
// holds (-1: it has no local list).
func (c *conn) getLocalListVersion(ctx context.Context, dev *fleet.Device) (fleet.Outcome, error) {
	raw, err := c.call(ctx, localauth.GetLocalListVersionFeatureName, localauth.NewGetLocalListVersionRequest())
	if err != nil {
		return fleet.Outcome{}, err
	}
	var conf localauth.GetLocalListVersionConfirmation
	if jerr := json.Unmarshal(raw, &conf); jerr != nil {
		return fleet.Outcome{Result: fleet.ResultFailed, Message: "bad answer: " + jerr.Error(), Answer: raw}, nil
	}
	if lists := c.g.opt.LocalLists; lists != nil {
		if err := lists.Held(context.WithoutCancel(ctx), dev, int64(conf.ListVersion), false); err != nil {
			return fleet.Outcome{}, err
		}
	}
	return fleet.Outcome{Result: fleet.ResultSuccess, Answer: raw}, nil
}

// authStatus is the core's token verdict in OCPP 1.6 words (no verdict reads as Invalid).
func authStatus(v fleet.TokenVerdict) types.AuthorizationStatus {
	switch v {
	case fleet.TokenAccepted:
		return types.AuthorizationStatusAccepted
	case fleet.TokenBlocked:
		return types.AuthorizationStatusBlocked
	case fleet.TokenExpired:
		return types.AuthorizationStatusExpired
	case fleet.TokenConcurrentTx:
		return types.AuthorizationStatusConcurrentTx
	}
	return types.AuthorizationStatusInvalid
}

// idTagInfo is a token answer in OCPP's terms (nil stays nil: a removal).
func idTagInfo(a *fleet.TokenAnswer) *types.IdTagInfo {
	if a == nil {
		return nil
	}
	info := types.NewIdTagInfo(authStatus(a.Status))
	info.ParentIdTag = a.ParentIDTag
	if a.ExpiryDate > 0 {
		info.ExpiryDate = types.NewDateTime(time.UnixMilli(a.ExpiryDate).UTC())
	}
	return info
}
