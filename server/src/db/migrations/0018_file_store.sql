CREATE TABLE "blob_deletions" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_store_conversion" (
	"id" integer PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"files_total" integer DEFAULT 0 NOT NULL,
	"files_done" integer DEFAULT 0 NOT NULL,
	"versions_with_recipe" integer DEFAULT 0 NOT NULL,
	"copies_dropped" integer DEFAULT 0 NOT NULL,
	"bytes_freed" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_store_tasks" (
	"project_id" uuid NOT NULL,
	"path" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone NOT NULL,
	"convert" boolean DEFAULT false NOT NULL,
	"locked_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "file_store_tasks_project_id_path_pk" PRIMARY KEY("project_id","path")
);
--> statement-breakpoint
ALTER TABLE "blobs" ADD COLUMN "stored" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "blobs" ADD COLUMN "base_key" text;--> statement-breakpoint
ALTER TABLE "blobs" ADD COLUMN "diff_key" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "file_store_tasks" ADD CONSTRAINT "file_store_tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_store_tasks_due_idx" ON "file_store_tasks" USING btree ("due_at");--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_base_key_blobs_key_fk" FOREIGN KEY ("base_key") REFERENCES "public"."blobs"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_diff_key_blobs_key_fk" FOREIGN KEY ("diff_key") REFERENCES "public"."blobs"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blobs_base_idx" ON "blobs" USING btree ("base_key");--> statement-breakpoint
CREATE INDEX "blobs_diff_idx" ON "blobs" USING btree ("diff_key");--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_readable" CHECK ("blobs"."stored" OR ("blobs"."base_key" IS NOT NULL AND "blobs"."diff_key" IS NOT NULL));--> statement-breakpoint
UPDATE "projects" p SET "stored_bytes" = coalesce((SELECT sum(b."size") FROM "blobs" b WHERE b."key" IN (SELECT h."blob_key" FROM "file_history" h WHERE h."project_id" = p."id" AND h."blob_key" IS NOT NULL UNION SELECT h."diff" ->> 'blob_key' FROM "file_history" h WHERE h."project_id" = p."id" AND h."diff" IS NOT NULL)), 0);
