DROP INDEX "projects_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "projects_name_trgm_idx" ON "projects" USING gin (lower("name") gin_trgm_ops) WITH (fastupdate=false);