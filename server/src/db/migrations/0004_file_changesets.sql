CREATE TABLE "file_changesets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"version_id" integer NOT NULL,
	"path" text NOT NULL,
	"old_blob_key" text NOT NULL,
	"new_blob_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"summary" jsonb,
	"changes" jsonb,
	"size" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"computed_at" timestamp with time zone,
	CONSTRAINT "file_changesets_version_path_key" UNIQUE("version_id","path")
);
--> statement-breakpoint
ALTER TABLE "file_changesets" ADD CONSTRAINT "file_changesets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_changesets" ADD CONSTRAINT "file_changesets_version_id_project_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."project_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_changesets_pending_idx" ON "file_changesets" USING btree ("id") WHERE "file_changesets"."status" = 'pending';