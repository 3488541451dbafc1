CREATE TABLE "view_link_uses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "view_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"label" varchar(200) DEFAULT '' NOT NULL,
	"salt" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer
);
--> statement-breakpoint
ALTER TABLE "view_link_uses" ADD CONSTRAINT "view_link_uses_link_id_view_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."view_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_link_uses" ADD CONSTRAINT "view_link_uses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_links" ADD CONSTRAINT "view_links_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_links" ADD CONSTRAINT "view_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_links" ADD CONSTRAINT "view_links_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "view_link_uses_link_idx" ON "view_link_uses" USING btree ("link_id","used_at");--> statement-breakpoint
CREATE INDEX "view_links_project_idx" ON "view_links" USING btree ("project_id");