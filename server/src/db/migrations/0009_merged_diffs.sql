CREATE TABLE "merged_diffs" (
	"project_id" uuid NOT NULL,
	"cache_key" text NOT NULL,
	"blob_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merged_diffs_project_id_cache_key_pk" PRIMARY KEY("project_id","cache_key")
);
--> statement-breakpoint
ALTER TABLE "merged_diffs" ADD CONSTRAINT "merged_diffs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merged_diffs" ADD CONSTRAINT "merged_diffs_blob_key_blobs_key_fk" FOREIGN KEY ("blob_key") REFERENCES "public"."blobs"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "merged_diffs_blob_idx" ON "merged_diffs" USING btree ("blob_key");