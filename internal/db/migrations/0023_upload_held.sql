-- An upload held by a service that guards its reads itself (an attachment file: levels and
-- shares): the plain objectKey → URL helper and sts/read refuse it (docs/storage.md).
ALTER TABLE upload ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
