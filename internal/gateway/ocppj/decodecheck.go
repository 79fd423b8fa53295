package ocppj

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// DecodeCheck decodes payload into a fresh request of newReq as a handler does and checks what
// must hold of the decoder for every input (the adapters' payload fuzz targets run it):
//   - a refusal is a CallError with one of the codes the schemas' rules give;
//   - an accepted payload passes the slow path's field check too (the fast path never accepts
//     what the field check refuses);
//   - an accepted payload written back by ocpp-go is accepted again and reads the same.
//
// It returns the decoded request (nil when refused) and a broken property, if any.
func DecodeCheck(payload []byte, newReq func() any) (req any, broken error) {
	req = newReq()
	if err := Decode(payload, req); err != nil {
		var ce *CallError
		if !errors.As(err, &ce) || !schemaCodes[ce.Code] {
			return nil, fmt.Errorf("refused with %v, want a CallError with a schema code", err)
		}
		return nil, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(payload, &doc); err != nil {
		return req, fmt.Errorf("accepted payload is no JSON object: %v", err)
	}
	if err := CheckFields(doc, reflect.TypeOf(req).Elem()); err != nil {
		return req, fmt.Errorf("fast path accepted %s that the field check refuses: %v", payload, err)
	}
	written, err := json.Marshal(req)
	if err != nil {
		return req, fmt.Errorf("accepted payload does not marshal: %v", err)
	}
	again := newReq()
	if err := Decode(written, again); err != nil {
		return req, fmt.Errorf("written back as %s it is refused: %v", written, err)
	}
	if rewritten, err := json.Marshal(again); err != nil || string(rewritten) != string(written) {
		return req, fmt.Errorf("round trip changed it: %s → %s (%v)", written, rewritten, err)
	}
	return req, nil
}

// schemaCodes are the CALLERROR codes of the schemas' rules (Decode).
var schemaCodes = map[string]bool{CodeFormation: true, CodeOccurence: true, CodeType: true, CodeProperty: true}
