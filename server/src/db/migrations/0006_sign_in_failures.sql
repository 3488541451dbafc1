CREATE TABLE "sign_in_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"address" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_account_idx" ON "sign_in_failures" USING btree ("account","failed_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_failed_at_idx" ON "sign_in_failures" USING btree ("failed_at");