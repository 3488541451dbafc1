CREATE TABLE "push_commits" (
	"upload_id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" integer,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_requests" (
	"user_id" integer NOT NULL,
	"push_id" uuid NOT NULL,
	"target" text NOT NULL,
	"status" integer,
	"content_type" text,
	"body" text,
	"created_at" timestamp with time zone NOT NULL,
	"pinged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "push_requests_user_id_push_id_pk" PRIMARY KEY("user_id","push_id")
);
--> statement-breakpoint
ALTER TABLE "push_commits" ADD CONSTRAINT "push_commits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_commits" ADD CONSTRAINT "push_commits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_requests" ADD CONSTRAINT "push_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_commits_created_at_idx" ON "push_commits" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "push_requests_created_at_idx" ON "push_requests" USING btree ("created_at");