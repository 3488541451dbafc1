ALTER TABLE "upload_chunks" ADD COLUMN "writes" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "uploads_last_ping_idx" ON "uploads" USING btree ("last_ping_at");