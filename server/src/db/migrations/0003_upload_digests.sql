CREATE TABLE "upload_digests" (
	"upload_id" uuid NOT NULL,
	"file_index" integer NOT NULL,
	"next_chunk" integer DEFAULT 0 NOT NULL,
	"sha1_state" text,
	"generation" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "upload_digests_upload_id_file_index_pk" PRIMARY KEY("upload_id","file_index")
);
--> statement-breakpoint
ALTER TABLE "upload_chunks" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "upload_digests" ADD CONSTRAINT "upload_digests_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;