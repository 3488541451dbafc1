CREATE TABLE "v2_chunks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"size" integer NOT NULL,
	"sha1" text NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "v2_chunks" ADD CONSTRAINT "v2_chunks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "v2_chunks_uploaded_at_idx" ON "v2_chunks" USING btree ("uploaded_at");