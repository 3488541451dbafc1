ALTER TABLE "blobs" ADD COLUMN "patch_key" text;--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_patch_key_blobs_key_fk" FOREIGN KEY ("patch_key") REFERENCES "public"."blobs"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blobs_patch_idx" ON "blobs" USING btree ("patch_key");