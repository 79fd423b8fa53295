-- The node that sent a command (fleet.Options.Node). A node that starts again ends the commands
-- it had in flight when it stopped (killed, crashed) at once, with the result "failed" and the
-- message err.command_interrupted, instead of leaving the device busy until the deadline
-- (docs/operations.md, "Commands in flight at a crash"). Rows sent before this column existed
-- keep '': a single node (no cluster) ends every command it finds in flight at its start.
ALTER TABLE command ADD COLUMN node TEXT NOT NULL DEFAULT '';
