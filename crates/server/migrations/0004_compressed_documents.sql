-- Documents stored compressed: new submissions keep their canonical JSON
-- text zstd-compressed in document_zstd (about a fifth of the text's size
-- for a default-suite document) and an empty document column. Rows stored
-- before this migration keep their text in document and NULL here; the
-- server reads whichever is set (db::batch::document_text), so they stay
-- readable as they are.
ALTER TABLE submissions ADD COLUMN document_zstd BYTEA;
