package fleet

import (
	"context"
	"fmt"
	"log/slog"

	"chargeops/internal/db"
)

// msgCommandInterrupted is the message of a command ended because its node stopped before the
// device answered.
const msgCommandInterrupted = "err.command_interrupted"

// EndInterrupted ends the commands this node sent that were still in flight when it stopped
// (killed, crashed): nothing will ever read their answers, and a waiting command keeps its
// device busy until its deadline. They end as failed with err.command_interrupted, through the
// ingest pipeline like any command result, so the consoles and webhooks hear of them, and the
// device takes a new command at once. A node alone (no cluster registry) owns every command in
// flight; in a cluster only those with its name (a stable --node-name; a name with the process
// id is new at each start, and its commands end at their deadline). Only commands created
// before now are ended: call it before the node accepts requests. It returns how many it ended.
func (s *Service) EndInterrupted(ctx context.Context) (int, error) {
	_, alone := s.Registry.(*LocalRegistry)
	rows, err := s.db.Query(ctx, `SELECT id, device_id, sn, control_type FROM command WHERE result = ? AND created_at < ? AND (node = ? OR ? = 1)`,
		ResultWaiting, db.NowMS(), s.opt.Node, db.BoolInt(alone))
	if err != nil {
		return 0, fmt.Errorf("fleet: interrupted commands: %w", err)
	}
	var list []CommandResult
	for rows.Next() {
		var r CommandResult
		if err := rows.Scan(&r.CommandID, &r.DeviceID, &r.SN, &r.ControlType); err != nil {
			rows.Close()
			return 0, fmt.Errorf("fleet: interrupted commands: %w", err)
		}
		list = append(list, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("fleet: interrupted commands: %w", err)
	}
	for _, r := range list {
		r.Result, r.Message, r.At = ResultFailed, msgCommandInterrupted, db.NowMS()
		if err := s.endCommand(ctx, r, ""); err != nil {
			return 0, fmt.Errorf("fleet: end interrupted command %d: %w", r.CommandID, err)
		}
	}
	if len(list) > 0 {
		slog.Warn("commands in flight when this node stopped ended as interrupted", "count", len(list), "node", s.opt.Node)
	}
	return len(list), nil
}
