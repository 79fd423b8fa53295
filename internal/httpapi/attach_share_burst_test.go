package httpapi_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/attach"
	"chargeops/internal/db"
	"chargeops/internal/storage/storagetest"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// Issue 29 L3: the share-code lock-out was check-then-act (every request of a burst read
// "not locked" before any counted, and a burst of 30 compared 15 codes against a limit of 5).
// A concurrent burst of 30 wrong codes over real sockets must compare at most 5 (each compared
// code leaves a wrong_code row in the share's access log) and leave the share locked.
func TestShareCodeBurstComparesAtMostFive(t *testing.T) {
	t.Parallel()
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		o := newOrg(t, d)
		grantOrg(t, o, attachKeys...)
		folder := id(t, o.a.Call("POST", "/api/auth/sys/attach/folder/add", map[string]any{"name": "Manuals", "readLevel": 5, "writeLevel": 5, "downloadLevel": 5}))
		file, a := attachFile(t, o, o.a, folder, "manual.pdf", storagetest.Sample("pdf"), 5)
		apitest.Must(t, a)
		var made struct {
			ID    int64
			Token string
		}
		apitest.Must(t, o.a.Call("POST", "/api/auth/sys/attach/share/add", map[string]any{"fileId": file, "validity": 7, "code": "4321"})).Into(t, &made)

		const burst = 30
		codes := make([]int, burst)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range burst {
			wg.Add(1)
			c := o.env.Client()
			go func() {
				defer wg.Done()
				<-start
				codes[i] = c.Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": fmt.Sprintf("%04d", 5000+i)}).Code
			}()
		}
		close(start)
		wg.Wait()

		var compared, wrongAnswers, lockedAnswers int
		if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM attach_share_log WHERE share_id = ? AND result = ?`, made.ID, "wrong_code").Scan(&compared); err != nil {
			t.Fatal(err)
		}
		for _, c := range codes {
			switch c {
			case apperr.Invalid:
				wrongAnswers++
			case apperr.Conflict:
				lockedAnswers++
			default:
				t.Errorf("answer code %d", c)
			}
		}
		t.Logf("burst of %d: %d codes compared, %d 'wrong code' answers, %d 'locked' answers", burst, compared, wrongAnswers, lockedAnswers)
		if compared > attach.MaxWrongCodes {
			t.Fatalf("%d codes compared, the limit is %d", compared, attach.MaxWrongCodes)
		}
		if compared != attach.MaxWrongCodes || wrongAnswers != attach.MaxWrongCodes-1 {
			t.Errorf("%d compared, %d 'wrong code' answers: want %d and %d", compared, wrongAnswers, attach.MaxWrongCodes, attach.MaxWrongCodes-1)
		}
		// Locked now: the right code is refused too, until the owner resets the share.
		apitest.WantCode(t, o.env.Client().Call("POST", "/api/unauth/share/download", map[string]any{"token": made.Token, "code": "4321"}), apperr.Conflict)
	})
}
