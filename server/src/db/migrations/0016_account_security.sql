CREATE TABLE "rate_limit_hits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text,
	"source" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" varchar(120);--> statement-breakpoint
CREATE INDEX "rate_limit_hits_subject_idx" ON "rate_limit_hits" USING btree ("kind","subject","at");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_source_idx" ON "rate_limit_hits" USING btree ("kind","source","at");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_kind_at_idx" ON "rate_limit_hits" USING btree ("kind","at");--> statement-breakpoint
DROP TABLE "password_reset_requests" CASCADE;